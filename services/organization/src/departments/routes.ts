import { route, type RouteDef } from '@bop/shared';
import { archiveDepartment, createDepartment, listDepartments, patchDepartment } from './store';

export const departmentRoutes = (): RouteDef[] => [
  route('GET /departments', async (ctx) => {
    return { body: await listDepartments(ctx, ctx.query) };
  }),

  route('POST /departments', async (ctx) => {
    return { status: 201, body: await createDepartment(ctx, ctx.body) };
  }),

  route('PATCH /departments/{id}', async (ctx) => {
    return { body: await patchDepartment(ctx, ctx.params.id, ctx.body) };
  }),

  route('DELETE /departments/{id}', async (ctx) => {
    return { body: await archiveDepartment(ctx, ctx.params.id) };
  }),
];

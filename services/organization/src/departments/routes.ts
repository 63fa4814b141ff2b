import { route, type RouteDef } from '@bop/shared';
import { archiveDepartment, createDepartment, listDepartments, patchDepartment } from './store';

export const departmentRoutes = (): RouteDef[] => [
  route('GET /departments', async (ctx) => {
    return { body: await listDepartments(ctx.em, ctx.query, ctx) };
  }),

  route('POST /departments', async (ctx) => {
    return { status: 201, body: await createDepartment(ctx.em, ctx.body, ctx) };
  }),

  route('PATCH /departments/{id}', async (ctx) => {
    return { body: await patchDepartment(ctx.em, ctx.params.id, ctx.body, ctx) };
  }),

  route('DELETE /departments/{id}', async (ctx) => {
    return { body: await archiveDepartment(ctx.em, ctx.params.id, ctx) };
  }),
];

import { route, type RouteDef } from '@bop/shared';
import { archiveOrgUnit, createOrgUnit, listOrgUnits, patchOrgUnit } from './store';

export const orgUnitRoutes = (): RouteDef[] => [
  route('GET /org-units', async (ctx) => {
    return { body: await listOrgUnits(ctx, ctx.query) };
  }),

  route('POST /org-units', async (ctx) => {
    return { status: 201, body: await createOrgUnit(ctx, ctx.body) };
  }),

  route('PATCH /org-units/{id}', async (ctx) => {
    return { body: await patchOrgUnit(ctx, ctx.params.id, ctx.body) };
  }),

  route('DELETE /org-units/{id}', async (ctx) => {
    return { body: await archiveOrgUnit(ctx, ctx.params.id) };
  }),
];

import { route, type RouteDef } from '@bop/shared';
import { archiveOrgUnit, createOrgUnit, listOrgUnits, patchOrgUnit } from './store';

export const orgUnitRoutes = (): RouteDef[] => [
  route('GET /org-units', async (ctx) => {
    return { body: await listOrgUnits(ctx.em, ctx.query, ctx.reach()) };
  }),

  route('POST /org-units', async (ctx) => {
    return { status: 201, body: await createOrgUnit(ctx.em, ctx.body, ctx) };
  }),

  route('PATCH /org-units/{id}', async (ctx) => {
    return { body: await patchOrgUnit(ctx.em, ctx.params.id, ctx.body, ctx) };
  }),

  route('DELETE /org-units/{id}', async (ctx) => {
    return { body: await archiveOrgUnit(ctx.em, ctx.params.id, ctx) };
  }),
];

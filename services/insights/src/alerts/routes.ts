import { route, type RouteDef } from '@bop/shared';
import type { OrgUnitLocations } from '../locations/reach-store';
import { archiveRule, createRule, getRule, listAlerts, listRules, patchRule } from './store';

export const alertRoutes = (inOrgUnits: OrgUnitLocations): RouteDef[] => [
  route('GET /alert-rules', async (ctx) => ({ body: await listRules(ctx, ctx.query) })),
  route('POST /alert-rules', async (ctx) => {
    const body = await createRule(ctx, ctx.body, inOrgUnits);
    return { status: 201, body, headers: { Location: `/api/v1/alert-rules/${body.id}` } };
  }),
  route('GET /alert-rules/{id}', async (ctx) => ({ body: await getRule(ctx, ctx.params.id) })),
  route('PATCH /alert-rules/{id}', async (ctx) => ({ body: await patchRule(ctx, ctx.params.id, ctx.body, inOrgUnits) })),
  route('DELETE /alert-rules/{id}', async (ctx) => ({ body: await archiveRule(ctx, ctx.params.id) })),
  route('GET /alerts', async (ctx) => ({ body: await listAlerts(ctx, ctx.query) })),
];

import { locationFilter, route, type RouteDef } from '@bop/shared';
import { archiveRule, changeRule, createRule, getRule, listRules, staffingNeeds } from './store';

export const staffingRoutes = (): RouteDef[] => [
  route('GET /staffing-rules', async (ctx) => {
    const { locationId, status, limit, cursor } = ctx.query;
    return { body: await listRules(ctx.em, { inLocations: locationFilter(ctx.reach(), locationId), status }, { limit, cursor }) };
  }),

  route('POST /staffing-rules', async (ctx) => {
    const rule = await createRule(ctx.em, ctx.body, ctx.reach());
    return { status: 201, body: rule, headers: { Location: `/api/v1/staffing-rules/${rule.id}` } };
  }),

  route('GET /staffing-rules/{id}', async (ctx) => {
    return { body: await getRule(ctx.em, ctx.params.id, ctx.reach()) };
  }),

  route('PATCH /staffing-rules/{id}', async (ctx) => {
    return { body: await changeRule(ctx.em, ctx.params.id, ctx.body, { reach: ctx.reach(), checkVersion: (v) => ctx.checkVersion(v) }) };
  }),

  route('DELETE /staffing-rules/{id}', async (ctx) => {
    return { body: await archiveRule(ctx.em, ctx.params.id, ctx.reach()) };
  }),

  route('GET /staffing-needs', async (ctx) => {
    return { body: await staffingNeeds(ctx.em, ctx.query, ctx.reach()) };
  }),
];

import { locationFilter, route, type RouteDef } from '@bop/shared';
import { archiveRule, changeRule, createRule, getRule, listRules, staffingNeeds } from './store';

export const staffingRoutes = (): RouteDef[] => [
  route('GET /staffing-rules', async (ctx) => {
    const { locationId, status, limit, cursor, updatedSince } = ctx.query;
    return { body: await listRules(ctx, { inLocations: locationFilter(ctx.reach(), locationId), status }, { limit, cursor, updatedSince }) };
  }),

  route('POST /staffing-rules', async (ctx) => {
    const rule = await createRule(ctx, ctx.body);
    return { status: 201, body: rule, headers: { Location: `/api/v1/staffing-rules/${rule.id}` } };
  }),

  route('GET /staffing-rules/{id}', async (ctx) => {
    return { body: await getRule(ctx, ctx.params.id) };
  }),

  route('PATCH /staffing-rules/{id}', async (ctx) => {
    return { body: await changeRule(ctx, ctx.params.id, ctx.body) };
  }),

  route('DELETE /staffing-rules/{id}', async (ctx) => {
    return { body: await archiveRule(ctx, ctx.params.id) };
  }),

  route('GET /staffing-needs', async (ctx) => {
    return { body: await staffingNeeds(ctx, ctx.query, ctx.reach()) };
  }),
];

import { assertLocationInReach, route, type RouteDef } from '@bop/shared';
import { closeDay, listDays, reopenDay } from './store';

/** Business days (spec: Cash management; supplement: Business day states). Reach: the location. */
export const businessDaysRoutes = (): RouteDef[] => [
  // the days of one location that have records, newest first (default: the last 14 up to today)
  route('GET /cash/business-days', async (ctx) => {
    assertLocationInReach(ctx.reach(), ctx.query.locationId);
    const data = await listDays(ctx, ctx.query);
    return { body: { data, nextCursor: null, hasMore: false } };
  }),

  route('POST /cash/business-days/{locationId}/{date}:close', async (ctx) => {
    return { body: await closeDay(ctx, ctx.params.locationId, ctx.params.date, ctx.body.note ?? null) };
  }),

  route('POST /cash/business-days/{locationId}/{date}:reopen', async (ctx) => {
    return { body: await reopenDay(ctx, ctx.params.locationId, ctx.params.date, ctx.body.reason) };
  }),
];

import { assertLocationInReach, route, type RouteDef, type ServiceRuntime } from '@bop/shared';
import type { CashConfig } from '../config';
import { closeDayInTransaction, listDays, reopenDayInTransaction, type DayAction } from './store';

/** Business days (spec: Cash management; supplement: Business day states). Reach: the location. */
export const businessDaysRoutes = (svc: ServiceRuntime<CashConfig>): RouteDef[] => {
  const action = (ctx: { principal: DayAction['actor']; reach: () => DayAction['reach']; checkVersion: (v: number) => void }): DayAction => ({
    actor: ctx.principal,
    now: svc.clock.now(),
    reach: ctx.reach(),
    checkVersion: (v) => ctx.checkVersion(v),
  });
  return [
    // the days of one location that have records, newest first (default: the last 14 up to today)
    route('GET /cash/business-days', async (ctx) => {
      assertLocationInReach(ctx.reach(), ctx.query.locationId);
      const data = await listDays(ctx.em, ctx.query, svc.clock.now());
      return { body: { data, nextCursor: null, hasMore: false } };
    }),

    route('POST /cash/business-days/{locationId}/{date}:close', async (ctx) => {
      const c = action(ctx);
      return { body: await closeDayInTransaction(ctx.em, ctx.params.locationId, ctx.params.date, ctx.body.note ?? null, c) };
    }),

    route('POST /cash/business-days/{locationId}/{date}:reopen', async (ctx) => {
      const c = action(ctx);
      return { body: await reopenDayInTransaction(ctx.em, ctx.params.locationId, ctx.params.date, ctx.body.reason, c) };
    }),
  ];
};

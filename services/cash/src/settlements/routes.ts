import { assertLocationInReach, route, type RouteDef, type ServiceRuntime, assertBatchSize } from '@bop/shared';
import type { CashConfig } from '../config';
import { listSettlements, storeSettlements } from './store';

/** POST /cash/settlements (spec: ingestion rules 1–5 and 7; Batch result), GET /cash/settlements (supplement). */
export const settlementsRoutes = (svc: ServiceRuntime<CashConfig>): RouteDef[] => [
  route('POST /cash/settlements', async (ctx) => {
    const { source, settlements: records } = ctx.body;
    const max = svc.config.API_MAX_BATCH_SIZE;
    assertBatchSize(records, max, 'settlements');
    const result = await storeSettlements(ctx, { source, records, endpoint: 'POST /cash/settlements' });
    return { status: 202, body: result };
  }),

  route('GET /cash/settlements', async (ctx) => {
    const reach = ctx.reach();
    if (ctx.query.locationId) assertLocationInReach(reach, ctx.query.locationId);
    return { body: await listSettlements(ctx, ctx.query) };
  }),
];

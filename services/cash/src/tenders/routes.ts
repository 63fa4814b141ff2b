import { route, type RouteDef, type ServiceRuntime, assertBatchSize } from '@bop/shared';
import type { CashConfig } from '../config';
import { storeTenderTotals } from './store';

/** POST /cash/tenders (spec: ingestion rules 1–5, 7 and 8; Batch result). Each record is judged on its own; 202 = stored. */
export const tendersRoutes = (svc: ServiceRuntime<CashConfig>): RouteDef[] => [
  route('POST /cash/tenders', async (ctx) => {
    const { source, tenders: records } = ctx.body;
    const max = svc.config.API_MAX_BATCH_SIZE;
    assertBatchSize(records, max, 'tenders');
    const result = await storeTenderTotals(ctx, { source, records, endpoint: 'POST /cash/tenders' });
    return { status: 202, body: result };
  }),
];

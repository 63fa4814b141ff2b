import { assertBatchSize, employeeRecordScope, ownEmployeeId, route, type RouteDef, type ServiceRuntime } from '@bop/shared';
import type { TimeConfig } from '../config';
import { timeSettings } from '../settings/company-settings';
import { PUNCH_BATCH_ATTEMPTS, preparePunches, punchBatchConflict, storePunches } from './ingest-store';
import { correctPunch, getPunch, listPunches } from './store';

export const punchRoutes = (svc: ServiceRuntime<TimeConfig>): RouteDef[] => [
  // spec: ingestion rules 1, 5, 7, 8; Batch result. Each punch is judged on its own; 202 = stored.
  // Judged before the transaction (replicas read through, pay periods made), stored in one that runs
  // again when it loses a race to a concurrent batch (a deadlock between their timesheet marks).
  route(
    'POST /time/punches:batch',
    async (ctx) => {
      const { source, punches } = ctx.body;
      assertBatchSize(punches, svc.config.API_MAX_BATCH_SIZE, 'punches');
      const settings = () => timeSettings(ctx.services, ctx.requestId);
      const prepared = await preparePunches(ctx, { source, records: punches, endpoint: 'POST /time/punches:batch', settings });
      return { status: 202, body: await ctx.transaction((w) => storePunches(w, prepared)) };
    },
    { transaction: false, conflict: punchBatchConflict, attempts: PUNCH_BATCH_ATTEMPTS },
  ),

  route('GET /time/punches', async (ctx) => {
    const { locationId, limit, cursor, ...f } = ctx.query;
    return { body: await listPunches(ctx, { ...f, scope: employeeRecordScope(ctx.reach(), locationId) }, { limit, cursor }) };
  }),

  route('GET /time/punches/{id}', async (ctx) => {
    return { body: await getPunch(ctx, ctx.params.id, ctx.reach()) };
  }),

  route('POST /time/punches/{id}:correct', async (ctx) => {
    return { body: await correctPunch(ctx, ctx.params.id, ctx.body, { via: 'correction', settings: () => timeSettings(ctx.services, ctx.requestId) }) };
  }),

  route('GET /me/punches', async (ctx) => {
    const { from, to, limit, cursor } = ctx.query;
    return { body: await listPunches(ctx, { employeeId: ownEmployeeId(ctx.principal), from, to }, { limit, cursor }) };
  }),
];

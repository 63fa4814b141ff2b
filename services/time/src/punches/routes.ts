import { assertBatchSize, employeeRecordScope, ownEmployeeId, route, type RouteDef, type ServiceRuntime } from '@bop/shared';
import type { TimeConfig } from '../config';
import { timeSettings } from '../settings/company-settings';
import { ingestPunches } from './ingest-store';
import { correctPunch, getPunch, listPunches } from './store';

export const punchRoutes = (svc: ServiceRuntime<TimeConfig>): RouteDef[] => [
  // spec: ingestion rules 1, 5, 7, 8; Batch result. Each punch is judged on its own; 202 = stored.
  route('POST /time/punches:batch', async (ctx) => {
    const { source, punches } = ctx.body;
    assertBatchSize(punches, svc.config.API_MAX_BATCH_SIZE, 'punches');
    const settings = () => timeSettings(svc.services, ctx.requestId);
    return { status: 202, body: await ingestPunches(ctx.em, { source, records: punches, actor: ctx.principal, endpoint: 'POST /time/punches:batch', settings }) };
  }),

  route('GET /time/punches', async (ctx) => {
    const { locationId, limit, cursor, ...f } = ctx.query;
    return { body: await listPunches(ctx.em, { ...f, scope: employeeRecordScope(ctx.reach(), locationId) }, { limit, cursor }) };
  }),

  route('GET /time/punches/{id}', async (ctx) => {
    return { body: await getPunch(ctx.em, ctx.params.id, ctx.reach()) };
  }),

  route('POST /time/punches/{id}:correct', async (ctx) => {
    const settings = () => timeSettings(svc.services, ctx.requestId);
    const caller = { principal: ctx.principal, reach: ctx.reach(), via: 'correction' as const, settings, checkVersion: (v: number) => ctx.checkVersion(v) };
    return { body: await correctPunch(ctx.em, ctx.params.id, ctx.body, caller) };
  }),

  route('GET /me/punches', async (ctx) => {
    const { from, to, limit, cursor } = ctx.query;
    return { body: await listPunches(ctx.em, { employeeId: ownEmployeeId(ctx.principal), from, to }, { limit, cursor }) };
  }),
];

import { assertBatchSize, route, type RouteDef, type ServiceRuntime } from '@bop/shared';
import type { SchedulingConfig } from '../config';
import { storeDemandDrivers } from './ingest-store';
import { listDemandDrivers } from './store';

/** POST /demand-drivers (spec: Ingestion; rules 1–5 and 10): each record is judged on its own; 202 = stored. GET reads them back. */
export const demandRoutes = (svc: ServiceRuntime<SchedulingConfig>): RouteDef[] => [
  route('POST /demand-drivers', async (ctx) => {
    const { source, drivers } = ctx.body;
    assertBatchSize(drivers, svc.config.API_MAX_BATCH_SIZE, 'drivers');
    return { status: 202, body: await storeDemandDrivers(ctx, { source, records: drivers, endpoint: 'POST /demand-drivers' }) };
  }),

  route('GET /demand-drivers', async (ctx) => {
    return { body: await listDemandDrivers(ctx, ctx.query, ctx.reach()) };
  }),
];

import {
  assertLocationInReach,
  NotFound,
  mapPage,
  route,
  type RouteDef,
  type ServiceRuntime,
  assertBatchSize,
  locationFilter,
} from '@bop/shared';
import type { SalesConfig } from '../config';
import { summaryEntityDto } from './dto';
import { findSummary, listSummaries, storeSummaries } from './store';

/** POST /sales-summaries, GET /sales-summaries, GET /sales-summaries/{id} */
export const summaryRoutes = (svc: ServiceRuntime<SalesConfig>): RouteDef[] => [
  // spec: ingestion rules 1–5 and 9; Batch result. Each record is judged on its own; 202 = stored.
  route('POST /sales-summaries', async (ctx) => {
    const { source, summaries: records } = ctx.body;
    const max = svc.config.API_MAX_BATCH_SIZE;
    assertBatchSize(records, max, 'summaries');
    const result = await storeSummaries(ctx, { source, records, endpoint: 'POST /sales-summaries' });
    return { status: 202, body: result };
  }),

  route('GET /sales-summaries', async (ctx) => {
    const { limit, cursor, updatedSince, locationId, source, origin, from, to } = ctx.query;
    const inLocations = locationFilter(ctx.reach(), locationId);
    return { body: mapPage(await listSummaries(ctx, { inLocations, source, origin, from, to }, { limit, cursor, updatedSince }), summaryEntityDto) };
  }),

  route('GET /sales-summaries/{id}', async (ctx) => {
    const summary = await findSummary(ctx, ctx.params.id);
    if (!summary) throw new NotFound('sales summary', ctx.params.id);
    // a summary of a location out of reach is refused as such (the id alone reveals nothing)
    assertLocationInReach(ctx.reach(), summary.locationId);
    return { body: summaryEntityDto(summary) };
  }),
];

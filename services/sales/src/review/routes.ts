import { mapPage, route, type RouteDef, type ServiceRuntime, locationFilter } from '@bop/shared';
import type { SalesConfig } from '../config';
import { reviewItemDetailDto, reviewItemDto } from './dto';
import { acceptItem, listReviewItems, loadItem, rejectItem } from './store';

/** The review queue of records held because their business day is closed (spec: ingestion rule 7). */
export const reviewRoutes = (_svc: ServiceRuntime<SalesConfig>): RouteDef[] => [
  route('GET /sales/review-items', async (ctx) => {
    const { limit, cursor, updatedSince, status, locationId, source, recordKind } = ctx.query;
    const inLocations = locationFilter(ctx.reach(), locationId);
    return { body: mapPage(await listReviewItems(ctx, { status, source, recordKind, inLocations }, { limit, cursor, updatedSince }), reviewItemDto) };
  }),

  route('GET /sales/review-items/{id}', async (ctx) => {
    const { item, current } = await loadItem(ctx, ctx.params.id);
    return { body: reviewItemDetailDto(item, current) };
  }),

  route('POST /sales/review-items/{id}:accept', async (ctx) => {
    const body = await acceptItem(ctx, ctx.params.id, ctx.body.note);
    return { body };
  }),

  route('POST /sales/review-items/{id}:reject', async (ctx) => {
    const body = await rejectItem(ctx, ctx.params.id, ctx.body.reason);
    return { body };
  }),
];

import type { FilterQuery } from '@mikro-orm/core';
import { decodeCursor, pageLimit, route, toPage, type RouteDef, type ServiceRuntime, locationFilter } from '@bop/shared';
import type { SalesConfig } from '../config';
import { SalesReviewItemEntity } from './entities';
import { reviewItemDetailDto, reviewItemDto } from './dto';
import { acceptItem, loadItem, rejectItem } from './decide';

/** The review queue of records held because their business day is closed (spec: ingestion rule 7). */
export const reviewRoutes = (_svc: ServiceRuntime<SalesConfig>): RouteDef[] => [
  route('GET /sales/review-items', async (ctx) => {
    const { limit, cursor, status, locationId, source, recordKind } = ctx.query;
    const inLocations = locationFilter(ctx.reach(), locationId);
    const where: FilterQuery<SalesReviewItemEntity> = { status };
    const after = decodeCursor(cursor);
    if (after) where.id = { $gt: after };
    if (source) where.source = source;
    if (recordKind) where.recordKind = recordKind;
    if (inLocations) where.locationId = inLocations;
    const n = pageLimit(limit);
    const rows = await ctx.em.find(SalesReviewItemEntity, where, { orderBy: { id: 'asc' }, limit: n + 1 });
    return { body: toPage(rows, n, reviewItemDto) };
  }),

  route('GET /sales/review-items/{id}', async (ctx) => {
    const { item, current } = await loadItem(ctx.em, ctx.params.id, ctx.reach());
    return { body: reviewItemDetailDto(item, current) };
  }),

  route('POST /sales/review-items/{id}:accept', async (ctx) => {
    const body = await acceptItem(ctx.em, ctx.params.id, { principal: ctx.principal, reach: ctx.reach(), checkVersion: ctx.checkVersion }, ctx.body.note);
    return { body };
  }),

  route('POST /sales/review-items/{id}:reject', async (ctx) => {
    const body = await rejectItem(ctx.em, ctx.params.id, { principal: ctx.principal, reach: ctx.reach(), checkVersion: ctx.checkVersion }, ctx.body.reason);
    return { body };
  }),
];

import type { FilterQuery } from '@mikro-orm/core';
import { decodeCursor, pageLimit, route, toPage, type RouteDef, type ServiceRuntime, locationFilter } from '@bop/shared';
import { SalesTransaction } from '../entities';
import { transactionDto } from '../dto';

export const transactionRoutes = (_svc?: ServiceRuntime<any>): RouteDef[] => [
  route('GET /sales/transactions', async (ctx) => {
    const { limit, cursor, source, updatedSince, locationId, businessDayFrom, businessDayTo } = ctx.query;
    const inLocations = locationFilter(ctx.reach(), locationId);
    const where: FilterQuery<SalesTransaction> = {};
    const after = decodeCursor(cursor);
    if (after) where.id = { $gt: after };
    if (source) where.source = source;
    if (updatedSince) where.updatedAt = { $gte: new Date(updatedSince) };
    if (inLocations) where.locationId = inLocations;
    if (businessDayFrom || businessDayTo) {
      where.businessDay = { ...(businessDayFrom ? { $gte: businessDayFrom } : {}), ...(businessDayTo ? { $lte: businessDayTo } : {}) };
    }
    const n = pageLimit(limit);
    const rows = await ctx.em.find(SalesTransaction, where, { orderBy: { id: 'asc' }, limit: n + 1 });
    return { body: toPage(rows, n, transactionDto) };
  }),
];

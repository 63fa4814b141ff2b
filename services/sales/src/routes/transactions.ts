import type { FilterQuery } from '@mikro-orm/core';
import { decodeCursor, OutOfReach, pageLimit, route, toPage, type ReachSet, type RouteDef, type ServiceRuntime } from '@bop/shared';
import { SalesTransaction } from '../entities';
import { transactionDto } from '../dto';

/**
 * The location ids a `sales.read` reach covers; null = all. Org-unit reach needs an org-unit replica
 * (org_unit.* events) that sales does not keep yet, so it is refused rather than guessed.
 */
function reachableLocationIds(reach: ReachSet): string[] | null {
  if (reach.everyone) return null;
  if (reach.orgUnitIds.size > 0) throw new OutOfReach('Sales lists do not yet resolve org-unit reach; ask for sales.read at location reach or Everyone.');
  return [...reach.locationIds];
}

export const transactionRoutes = (_svc?: ServiceRuntime<any>): RouteDef[] => [
  route('GET /sales/transactions', async (ctx) => {
    const { limit, cursor, source, updatedSince, locationId, businessDayFrom, businessDayTo } = ctx.query;
    const reachable = reachableLocationIds(ctx.reach());
    if (locationId && reachable && !reachable.includes(locationId)) throw new OutOfReach(`Your permission does not reach location ${locationId}.`);
    const where: FilterQuery<SalesTransaction> = {};
    const after = decodeCursor(cursor);
    if (after) where.id = { $gt: after };
    if (source) where.source = source;
    if (updatedSince) where.updatedAt = { $gte: new Date(updatedSince) };
    if (locationId) where.locationId = locationId;
    else if (reachable) where.locationId = { $in: reachable };
    if (businessDayFrom || businessDayTo) {
      where.businessDay = { ...(businessDayFrom ? { $gte: businessDayFrom } : {}), ...(businessDayTo ? { $lte: businessDayTo } : {}) };
    }
    const n = pageLimit(limit);
    const rows = await ctx.em.find(SalesTransaction, where, { orderBy: { id: 'asc' }, limit: n + 1 });
    return { body: toPage(rows, n, transactionDto) };
  }),
];

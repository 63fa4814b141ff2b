import type { FilterQuery } from '@mikro-orm/core';
import { NotFound, assertLocationInReach, decodeCursor, pageLimit, route, toPage, type RouteDef, type ServiceRuntime, locationFilter } from '@bop/shared';
import type { InventoryConfig } from '../config';
import { InventoryStockCount } from './entities';
import { cancelCount, countDtos, createCount, postCount } from './store';

/** Stock counts (spec: Inventory /stock-counts; supplement: Stock count states). Reach: the count's location. */
export const countsRoutes = (_svc: ServiceRuntime<InventoryConfig>): RouteDef[] => [
  route('GET /stock-counts', async (ctx) => {
    const { limit, cursor, locationId, status, from } = ctx.query;
    const reach = ctx.reach();
    const inLocations = locationFilter(reach, locationId);
    const where: FilterQuery<InventoryStockCount> = {};
    const after = decodeCursor(cursor);
    if (after) where.id = { $gt: after };
    if (inLocations) where.locationId = inLocations;
    if (status) where.status = status;
    if (from) where.countedAt = { $gte: new Date(from) };
    const n = pageLimit(limit);
    const rows = await ctx.em.find(InventoryStockCount, where, { orderBy: { id: 'asc' }, limit: n + 1 });
    const page = toPage(rows, n, (r) => r);
    return { body: { ...page, data: await countDtos(ctx.em, page.data) } };
  }),

  route('POST /stock-counts', async (ctx) => {
    assertLocationInReach(ctx.reach(), ctx.body.locationId);
    const body = await ctx.em.transactional((em) => createCount(em, ctx.body, { actor: ctx.principal, now: new Date() }));
    return { status: 201, body, headers: { Location: `/api/v1/stock-counts/${body.id}` } };
  }),

  route('GET /stock-counts/{id}', async (ctx) => {
    const reach = ctx.reach();
    const count = await ctx.em.findOne(InventoryStockCount, { id: ctx.params.id });
    if (!count) throw new NotFound('stock count', ctx.params.id);
    assertLocationInReach(reach, count.locationId);
    const [body] = await countDtos(ctx.em, [count]);
    return { body };
  }),

  // supplement: open → :post → posted (final); the count row is locked, so two posts post once
  route('POST /stock-counts/{id}:post', async (ctx) => {
    const reach = ctx.reach();
    const body = await ctx.em.transactional((em) => postCount(em, ctx.params.id, reach, (v) => ctx.checkVersion(v), { actor: ctx.principal, now: new Date() }));
    return { body };
  }),

  // supplement: open → :cancel → cancelled (final), stock unchanged
  route('POST /stock-counts/{id}:cancel', async (ctx) => {
    const reach = ctx.reach();
    const body = await ctx.em.transactional((em) =>
      cancelCount(em, ctx.params.id, ctx.body.reason ?? null, reach, (v) => ctx.checkVersion(v), { actor: ctx.principal, now: new Date() }),
    );
    return { body };
  }),
];

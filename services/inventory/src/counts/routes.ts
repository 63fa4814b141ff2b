import { NotFound, assertLocationInReach, decodeCursor, pageLimit, route, toPage, type RouteDef, type ServiceRuntime, locationFilter } from '@bop/shared';
import type { InventoryConfig } from '../config';
import { cancelCount, countDtos, createCount, findCount, listCounts, postCount } from './store';

/** Stock counts (spec: Inventory /stock-counts; supplement: Stock count states). Reach: the count's location. */
export const countsRoutes = (svc: ServiceRuntime<InventoryConfig>): RouteDef[] => [
  route('GET /stock-counts', async (ctx) => {
    const { limit, cursor, locationId, status, from } = ctx.query;
    const reach = ctx.reach();
    const inLocations = locationFilter(reach, locationId);
    const after = decodeCursor(cursor);
    const n = pageLimit(limit);
    const rows = await listCounts(ctx.em, { inLocations, status, from, after, limit: n });
    const page = toPage(rows, n, (r) => r);
    return { body: { ...page, data: await countDtos(ctx.em, page.data) } };
  }),

  route('POST /stock-counts', async (ctx) => {
    assertLocationInReach(ctx.reach(), ctx.body.locationId);
    const body = await createCount(ctx.em, ctx.body, { actor: ctx.principal, now: svc.clock.now() });
    return { status: 201, body, headers: { Location: `/api/v1/stock-counts/${body.id}` } };
  }),

  route('GET /stock-counts/{id}', async (ctx) => {
    const reach = ctx.reach();
    const count = await findCount(ctx.em, ctx.params.id);
    if (!count) throw new NotFound('stock count', ctx.params.id);
    assertLocationInReach(reach, count.locationId);
    const [body] = await countDtos(ctx.em, [count]);
    return { body };
  }),

  // supplement: open → :post → posted (final); the count row is locked, so two posts post once
  route('POST /stock-counts/{id}:post', async (ctx) => {
    const reach = ctx.reach();
    const body = await postCount(ctx.em, ctx.params.id, reach, (v) => ctx.checkVersion(v), { actor: ctx.principal, now: svc.clock.now() });
    return { body };
  }),

  // supplement: open → :cancel → cancelled (final), stock unchanged
  route('POST /stock-counts/{id}:cancel', async (ctx) => {
    const reach = ctx.reach();
    const body = await cancelCount(ctx.em, ctx.params.id, ctx.body.reason ?? null, reach, (v) => ctx.checkVersion(v), { actor: ctx.principal, now: svc.clock.now() });
    return { body };
  }),
];

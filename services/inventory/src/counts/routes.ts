import { NotFound, assertLocationInReach, route, type RouteDef, locationFilter } from '@bop/shared';
import { cancelCount, countDtos, createCount, findCount, listCounts, postCount } from './store';

/** Stock counts (spec: Inventory /stock-counts; supplement: Stock count states). Reach: the count's location. */
export const countsRoutes = (): RouteDef[] => [
  route('GET /stock-counts', async (ctx) => {
    const { limit, cursor, updatedSince, locationId, status, from } = ctx.query;
    const inLocations = locationFilter(ctx.reach(), locationId);
    const page = await listCounts(ctx, { inLocations, status, from }, { limit, cursor, updatedSince });
    return { body: { ...page, data: await countDtos(ctx, page.data) } };
  }),

  route('POST /stock-counts', async (ctx) => {
    assertLocationInReach(ctx.reach(), ctx.body.locationId);
    const body = await createCount(ctx, ctx.body);
    return { status: 201, body, headers: { Location: `/api/v1/stock-counts/${body.id}` } };
  }),

  route('GET /stock-counts/{id}', async (ctx) => {
    const reach = ctx.reach();
    const count = await findCount(ctx, ctx.params.id);
    if (!count) throw new NotFound('stock count', ctx.params.id);
    assertLocationInReach(reach, count.locationId);
    const [body] = await countDtos(ctx, [count]);
    return { body };
  }),

  // supplement: open → :post → posted (final); the count row is locked, so two posts post once
  route('POST /stock-counts/{id}:post', async (ctx) => {
    return { body: await postCount(ctx, ctx.params.id) };
  }),

  // supplement: open → :cancel → cancelled (final), stock unchanged
  route('POST /stock-counts/{id}:cancel', async (ctx) => {
    return { body: await cancelCount(ctx, ctx.params.id, ctx.body.reason ?? null) };
  }),
];

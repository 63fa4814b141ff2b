import { assertCompanyWide, assertLocationInReach, reachableLocationIds, route, type RouteDef, locationFilter } from '@bop/shared';
import { countDto, createCount, getCount, listCounts } from './store';
import { readThresholds, replaceThresholds } from './thresholds-store';

/** Cash counts and over/short thresholds (contracts/cash/counts.ts). Reach: the count's location. */
export const countsRoutes = (): RouteDef[] => [
  route('GET /cash/counts', async (ctx) => {
    const inLocations = locationFilter(ctx.reach(), ctx.query.locationId);
    return { body: await listCounts(ctx, inLocations, ctx.query) };
  }),

  route('POST /cash/counts', async (ctx) => {
    assertLocationInReach(ctx.reach(), ctx.body.locationId);
    const body = await createCount(ctx, ctx.body);
    return { status: 201, body, headers: { Location: `/api/v1/cash/counts/${body.id}` } };
  }),

  route('GET /cash/counts/{id}', async (ctx) => {
    const reach = ctx.reach();
    const count = await getCount(ctx, ctx.params.id);
    assertLocationInReach(reach, count.locationId);
    return { body: countDto(count) };
  }),

  // the company defaults and the rows of the locations the caller reaches (or of the one asked for)
  route('GET /cash/over-short-thresholds', async (ctx) => {
    const reach = ctx.reach();
    const { locationId } = ctx.query;
    if (locationId) assertLocationInReach(reach, locationId);
    return { body: await readThresholds(ctx, locationId ? [locationId] : reachableLocationIds(reach)) };
  }),

  // the whole set replaces every location's thresholds: reach Everyone only
  route('PUT /cash/over-short-thresholds', async (ctx) => {
    assertCompanyWide(ctx.reach(), 'Over/short thresholds');
    return { body: await replaceThresholds(ctx, ctx.body) };
  }),
];

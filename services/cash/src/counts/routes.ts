import type { FilterQuery } from '@mikro-orm/core';
import {
  NotFound,
  assertCompanyWide,
  assertLocationInReach,
  decodeCursor,
  pageLimit,
  reachableLocationIds,
  route,
  toPage,
  type RouteDef,
  type ServiceRuntime,
  locationFilter,
} from '@bop/shared';
import type { CashConfig } from '../config';
import { CashCountEntity } from './entities';
import { countDto, createCount } from './store';
import { readThresholds, replaceThresholds } from './thresholds';

/** Cash counts and over/short thresholds (contracts/cash/counts.ts). Reach: the count's location. */
export const countsRoutes = (_svc: ServiceRuntime<CashConfig>): RouteDef[] => [
  route('GET /cash/counts', async (ctx) => {
    const { limit, cursor, locationId, type, drawerId, from, to, exceeded } = ctx.query;
    const reach = ctx.reach();
    const inLocations = locationFilter(reach, locationId);
    const where: FilterQuery<CashCountEntity>[] = [];
    const after = decodeCursor(cursor);
    if (after) where.push({ id: { $gt: after } });
    if (inLocations) where.push({ locationId: inLocations });
    if (type) where.push({ type });
    if (drawerId) where.push({ drawerId });
    if (from) where.push({ businessDay: { $gte: from } });
    if (to) where.push({ businessDay: { $lte: to } });
    if (exceeded) where.push({ exceeded: exceeded === 'true' });
    const n = pageLimit(limit);
    const rows = await ctx.em.find(CashCountEntity, { $and: where }, { orderBy: { id: 'asc' }, limit: n + 1 });
    return { body: toPage(rows, n, countDto) };
  }),

  route('POST /cash/counts', async (ctx) => {
    assertLocationInReach(ctx.reach(), ctx.body.locationId);
    const body = await ctx.em.transactional((em) => createCount(em, ctx.body, { actor: ctx.principal, now: new Date() }));
    return { status: 201, body, headers: { Location: `/api/v1/cash/counts/${body.id}` } };
  }),

  route('GET /cash/counts/{id}', async (ctx) => {
    const reach = ctx.reach();
    const count = await ctx.em.findOne(CashCountEntity, { id: ctx.params.id });
    if (!count) throw new NotFound('cash count', ctx.params.id);
    assertLocationInReach(reach, count.locationId);
    return { body: countDto(count) };
  }),

  // the company defaults and the rows of the locations the caller reaches (or of the one asked for)
  route('GET /cash/over-short-thresholds', async (ctx) => {
    const reach = ctx.reach();
    const { locationId } = ctx.query;
    if (locationId) assertLocationInReach(reach, locationId);
    return { body: await readThresholds(ctx.em, locationId ? [locationId] : reachableLocationIds(reach)) };
  }),

  // the whole set replaces every location's thresholds: reach Everyone only
  route('PUT /cash/over-short-thresholds', async (ctx) => {
    assertCompanyWide(ctx.reach(), 'Over/short thresholds');
    const body = await ctx.em.transactional((em) => replaceThresholds(em, ctx.body, (v) => ctx.checkVersion(v), new Date()));
    return { body };
  }),
];

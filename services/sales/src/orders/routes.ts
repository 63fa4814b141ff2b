import { LockMode, type FilterQuery } from '@mikro-orm/core';
import {
  assertLocationInReach,
  reachableLocationIds,
  Conflict,
  NotFound,
  OutOfReach,
  ValidationError,
  actorOf,
  changedFields,
  decodeCursor,
  insertEvents,
  pageLimit,
  route,
  toPage,
  type RouteDef,
  type ServiceRuntime,
} from '@bop/shared';
import type { SalesConfig } from '../config';
import { locationFor, resolveLocations } from '../locations';
import { cancelRefusal, checkOrder, normalizeOrder, type OrderStatus } from './domain';
import { orderDto } from './dto';
import { SalesOrder } from './entities';
import { putOrder } from './store';

/** online sales orders (spec: Online sales order; supplement: Sales order states) */
export const orderRoutes = (_svc: ServiceRuntime<SalesConfig>): RouteDef[] => [
  // spec: PUT /sales-orders/external/{externalId}, idempotent on (source, externalId); totals by the service
  route('PUT /sales-orders/external/{externalId}', async (ctx) => {
    const input = ctx.body;
    const at = locationFor(await resolveLocations(ctx.em, [input]), input);
    const errors = [...('error' in at ? [at.error] : []), ...checkOrder(input)];
    if ('error' in at || errors.length > 0) throw new ValidationError(errors);
    const { status, order } = await putOrder(ctx.em, {
      source: input.source,
      externalId: ctx.params.externalId,
      order: normalizeOrder(input, at.location.id),
      location: { id: at.location.id, archived: at.location.status === 'archived', path: input.locationId !== undefined ? 'locationId' : 'locationExternalId' },
      actor: ctx.principal,
      checkVersion: (v) => ctx.checkVersion(v),
    });
    return { status, body: order };
  }),

  route('GET /sales-orders', async (ctx) => {
    const { limit, cursor, status, source, locationId, updatedSince } = ctx.query;
    const reachable = reachableLocationIds(ctx.reach());
    if (locationId) assertLocationInReach(ctx.reach(), locationId);
    const where: FilterQuery<SalesOrder> = {};
    const after = decodeCursor(cursor);
    if (after) where.id = { $gt: after };
    if (status) where.status = status;
    if (source) where.source = source;
    if (updatedSince) where.updatedAt = { $gte: new Date(updatedSince) };
    if (locationId) where.locationId = locationId;
    else if (reachable) where.locationId = { $in: reachable };
    const n = pageLimit(limit);
    const rows = await ctx.em.find(SalesOrder, where, { orderBy: { id: 'asc' }, limit: n + 1 });
    return { body: toPage(rows, n, orderDto) };
  }),

  // supplement: get by the source's externalId; `source` is needed only when several sources use it
  route('GET /sales-orders/external/{externalId}', async (ctx) => {
    const { externalId } = ctx.params;
    const reachable = reachableLocationIds(ctx.reach());
    const where: FilterQuery<SalesOrder> = { externalId };
    if (ctx.query.source) where.source = ctx.query.source;
    const rows = await ctx.em.find(SalesOrder, where, { orderBy: { source: 'asc' } });
    if (rows.length === 0) throw new NotFound('sales order with externalId', externalId);
    const inReach = reachable ? rows.filter((o) => reachable.includes(o.locationId)) : rows;
    if (inReach.length === 0) throw new OutOfReach(`Your permission does not reach location ${rows[0].locationId}.`);
    if (inReach.length > 1) {
      throw new ValidationError(
        [{ path: 'source', message: `Sources ${inReach.map((o) => o.source).join(', ')} use this externalId; send source.` }],
        'Several sources use this externalId.',
      );
    }
    return { body: orderDto(inReach[0]) };
  }),

  route('GET /sales-orders/{id}', async (ctx) => {
    const reach = ctx.reach();
    const order = await ctx.em.findOne(SalesOrder, { id: ctx.params.id });
    if (!order) throw new NotFound('sales order', ctx.params.id);
    assertLocationInReach(reach, order.locationId);
    return { body: orderDto(order) };
  }),

  // supplement: Sales order open or reserved → :cancel → cancelled (final); releasing reserved stock follows `sales_order.cancelled`
  route('POST /sales-orders/{id}:cancel', async (ctx) => {
    const now = new Date();
    const reach = ctx.reach();
    const body = await ctx.em.transactional(async (tem) => {
      const order = await tem.findOne(SalesOrder, { id: ctx.params.id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!order) throw new NotFound('sales order', ctx.params.id);
      assertLocationInReach(reach, order.locationId);
      ctx.checkVersion(order.version);
      const refusal = cancelRefusal(order.status as OrderStatus);
      if (refusal) throw new Conflict(refusal);
      const before = orderDto(order);
      order.status = 'cancelled';
      order.cancelledAt = now;
      order.cancelReason = ctx.body.reason ?? null;
      order.version += 1;
      order.updatedAt = now;
      await tem.flush();
      const after = orderDto(order);
      await insertEvents(
        tem,
        'sales',
        [{ type: 'sales_order.cancelled', aggregateType: 'sales_order', aggregateId: order.id, locationId: order.locationId, object: after, previous: changedFields(before, after) }],
        actorOf(ctx.principal),
        now,
      );
      return after;
    });
    return { body };
  }),
];

import {
  callCommand,
  assertLocationInReach,
  reachableLocationIds,
  NotFound,
  OutOfReach,
  ValidationError,
  route,
  mapPage,
  type RouteDef,
  type ServiceClient,
  type ServiceRuntime,
  locationFilter,
} from '@bop/shared';
import type { SalesConfig } from '../config';
import { locationFor, resolveLocations } from '../locations/store';
import { cancelRefusal, checkOrder, normalizeOrder, orderStockLines, reserveRefusal, shipRefusal, type OrderStockLine } from './order-rules';
import { orderDto } from './dto';
import { findOrder, listOrders, orderCommand, ordersByExternalId, putOrder } from './store';

/** online sales orders (spec: Online sales order; supplement: Sales order states) */
interface HeldStock {
  status: 'reserved' | 'shipped' | 'released';
  lines: OrderStockLine[];
}

/**
 * Inventory's internal command for an order's stock (inventory/src/reservations): its refusals
 * (422 `insufficient_stock`, naming the order line short of stock; 409 when it no longer holds the
 * order's stock) are answered as they are; unreachable → 503 and the order does not move.
 */
function stockCommand(services: ServiceClient, requestId: string, orderId: string, action: 'reserve' | 'ship', body: Record<string, unknown>, orderIndex: number[]): Promise<HeldStock> {
  return callCommand<HeldStock>(services, 'inventory', 'POST', `/internal/sales-orders/${encodeURIComponent(orderId)}:${action}`, body, {
    what: `${action} the order's stock`,
    ok: [200],
    requestId,
    forward: ['insufficient_stock', 'conflict', 'validation_error'],
    // inventory names its request's lines: the order's lines with an item, in order
    mapPath: (path) => path.replace(/^lines\[(\d+)\]/, (_m, i: string) => `lines[${orderIndex[Number(i)] ?? i}]`),
  });
}

export const orderRoutes = (_svc: ServiceRuntime<SalesConfig>): RouteDef[] => [
  // spec: PUT /sales-orders/external/{externalId}, idempotent on (source, externalId); totals by the service
  route('PUT /sales-orders/external/{externalId}', async (ctx) => {
    const input = ctx.body;
    const at = locationFor(await resolveLocations(ctx, [input]), input);
    const errors = [...('error' in at ? [at.error] : []), ...checkOrder(input)];
    if ('error' in at || errors.length > 0) throw new ValidationError(errors);
    const { status, order } = await putOrder(ctx, {
      source: input.source,
      externalId: ctx.params.externalId,
      order: normalizeOrder(input, at.location.id),
      location: { id: at.location.id, archived: at.location.status === 'archived', path: input.locationId !== undefined ? 'locationId' : 'locationExternalId' },
    });
    return { status, body: order };
  }),

  route('GET /sales-orders', async (ctx) => {
    const { limit, cursor, status, source, locationId, updatedSince } = ctx.query;
    const inLocations = locationFilter(ctx.reach(), locationId);
    return { body: mapPage(await listOrders(ctx, { status, source, inLocations }, { limit, cursor, updatedSince }), orderDto) };
  }),

  // supplement: get by the source's externalId; `source` is needed only when several sources use it
  route('GET /sales-orders/external/{externalId}', async (ctx) => {
    const { externalId } = ctx.params;
    const reachable = reachableLocationIds(ctx.reach());
    const rows = await ordersByExternalId(ctx, externalId, ctx.query.source);
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
    const order = await findOrder(ctx, ctx.params.id);
    if (!order) throw new NotFound('sales order', ctx.params.id);
    assertLocationInReach(reach, order.locationId);
    return { body: orderDto(order) };
  }),

  // supplement: Sales order open → :reserve → reserved (stock reserved at the order's location; 422 insufficient_stock when short)
  route('POST /sales-orders/{id}:reserve', async (ctx) => ({
    body: await orderCommand(ctx, ctx.params.id, reserveRefusal, null, async (order, now) => {
      const stock = orderStockLines(order.lines);
      if ('errors' in stock) throw new ValidationError(stock.errors, 'Every line must name an item before its stock can be reserved.');
      // repeated after a failed commit here, inventory answers what it already holds (idempotent per order)
      const held = await stockCommand(ctx.services, ctx.requestId, order.id, 'reserve', { locationId: order.locationId, lines: stock.lines }, stock.orderIndex);
      order.status = 'reserved';
      order.reservations = held.lines;
      order.reservedAt = now;
    }),
  })),

  // supplement: Sales order open or reserved → :ship → shipped (final): stock deducted (422 insufficient_stock when short); `sales_order.shipped`
  route('POST /sales-orders/{id}:ship', async (ctx) => {
    const shippedAt = ctx.body.shippedAt ? new Date(ctx.body.shippedAt) : ctx.now;
    if (shippedAt.getTime() > ctx.now.getTime() + 60_000) throw new ValidationError([{ path: 'shippedAt', message: 'Must not be in the future.' }]);
    return {
      body: await orderCommand(ctx, ctx.params.id, shipRefusal, 'sales_order.shipped', async (order) => {
        const stock = orderStockLines(order.lines);
        if ('errors' in stock) throw new ValidationError(stock.errors, 'Every line must name an item before the order can be shipped.');
        const body = { locationId: order.locationId, lines: stock.lines, shippedAt: shippedAt.toISOString() };
        const held = await stockCommand(ctx.services, ctx.requestId, order.id, 'ship', body, stock.orderIndex);
        order.status = 'shipped';
        order.reservations = [];
        order.shipment = { carrier: ctx.body.carrier ?? null, trackingNumber: ctx.body.trackingNumber ?? null, shippedAt: shippedAt.toISOString(), lines: held.lines };
      }),
    };
  }),

  // supplement: Sales order open or reserved → :cancel → cancelled (final); inventory releases the reserved stock on `sales_order.cancelled`
  route('POST /sales-orders/{id}:cancel', async (ctx) => ({
    body: await orderCommand(ctx, ctx.params.id, cancelRefusal, 'sales_order.cancelled', async (order, now) => {
      order.status = 'cancelled';
      order.reservations = [];
      order.cancelledAt = now;
      order.cancelReason = ctx.body.reason ?? null;
    }),
  })),
];

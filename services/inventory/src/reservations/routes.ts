import { z } from 'zod';
import { PositiveQuantity } from '@bop/contracts';
import { internalRoute, ok, type InternalRouteDef } from '@bop/shared';
import { releaseStock, reserveStock, shipStock } from './store';

/**
 * Sales' internal commands for online orders (sales calls them from `:reserve`, `:ship`; releasing on
 * `:cancel` follows `sales_order.cancelled`, see consumers.ts — and is also callable here). Keyed by
 * the sales order id; repeating a command answers what is held (idempotent).
 */
const OrderStock = z.strictObject({
  locationId: z.string().min(1).max(64),
  /** the order's lines that name an item, in base units of that item */
  lines: z.array(z.strictObject({ itemId: z.string().min(1).max(64), quantity: PositiveQuantity })).min(1).max(1000),
});
const OrderShip = OrderStock.extend({ shippedAt: z.iso.datetime({ offset: true }) });
const Empty = z.strictObject({});

export const reservationRoutes = (): InternalRouteDef[] => [
  internalRoute('POST /internal/sales-orders/{orderId}:reserve', { body: OrderStock }, async (ctx) => {
    return ok(await reserveStock(ctx, { orderId: ctx.params.orderId, ...ctx.body }));
  }),
  internalRoute('POST /internal/sales-orders/{orderId}:ship', { body: OrderShip }, async (ctx) => {
    const { shippedAt, ...rest } = ctx.body;
    return ok(await shipStock(ctx, { orderId: ctx.params.orderId, ...rest, shippedAt: new Date(shippedAt) }));
  }),
  internalRoute('POST /internal/sales-orders/{orderId}:release', { body: Empty }, async (ctx) => {
    const held = await releaseStock(ctx, ctx.params.orderId);
    return ok(held ?? { orderId: ctx.params.orderId, status: 'none', lines: [] });
  }),
];

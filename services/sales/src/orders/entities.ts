import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { OrderCustomer, OrderLine, OrderShipment, OrderShipping, OrderStockLine } from './order-rules';

/** An online sales order (spec: Online sales order), unique on (source, externalId). */
export const SalesOrder = defineEntity({
  name: 'SalesOrder',
  tableName: 'orders',
  properties: {
    id: p.string().primary(),
    source: p.string(),
    externalId: p.string(),
    locationId: p.string(),
    customer: p.json<OrderCustomer>().nullable(),
    /** the customer record naming customer.externalId (customers/store.ts), null when none */
    customerId: p.string().nullable(),
    placedAt: p.datetime().nullable(),
    lines: p.json<OrderLine[]>(),
    shipping: p.json<OrderShipping>().nullable(),
    paymentStatus: p.string().nullable(),
    status: p.string(),
    currency: p.string(),
    subtotal: p.decimal(),
    taxTotal: p.decimal(),
    shippingTotal: p.decimal(),
    total: p.decimal(),
    /** what inventory holds for the order (`:reserve`), per stock item in base units; empty when nothing is held */
    reservations: p.json<OrderStockLine[]>(),
    reservedAt: p.datetime().nullable(),
    /** set by `:ship` */
    shipment: p.json<OrderShipment>().nullable(),
    cancelledAt: p.datetime().nullable(),
    cancelReason: p.string().nullable(),
    /** hash of what the source last sent (see domain.ts) */
    contentHash: p.string(),
    /** hash of what a final order can no longer change */
    coreHash: p.string(),
    version: p.integer(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type SalesOrder = InferEntity<typeof SalesOrder>;

// orders: entities of this area, added to the service's list in ../index.ts
export const ordersEntities = [SalesOrder] as const;

import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** One line of a purchase receipt (purchasing's internal `purchasing.receipt.recorded`): the price paid per base unit, by supplier and item. */
export const PurchasePrice = defineEntity({
  name: 'PurchasePrice',
  tableName: 'purchase_prices',
  properties: {
    /** `receipt|line index` */
    id: p.string().primary(),
    receiptId: p.string(),
    purchaseOrderId: p.string(),
    supplierId: p.string(),
    locationId: p.string(),
    itemId: p.string(),
    receivedAt: p.datetime(),
    /** the location's business day of receivedAt (null while the location is not replicated) */
    businessDay: p.string().columnType('date').nullable(),
    quantity: p.decimal('string'),
    unitCost: p.decimal('string'),
    value: p.decimal('string'),
  },
});
export type PurchasePrice = InferEntity<typeof PurchasePrice>;

/** A purchase order's latest version (`purchase_order.*`): what is still to arrive, and when it is expected. */
export const OpenOrder = defineEntity({
  name: 'OpenOrder',
  tableName: 'purchase_orders',
  properties: {
    id: p.string().primary(),
    supplierId: p.string(),
    locationId: p.string(),
    status: p.string(),
    expectedDeliveryDate: p.string().columnType('date').nullable(),
    /** item id → outstanding base quantity */
    outstanding: p.json<Record<string, string>>(),
    version: p.integer(),
  },
});
export type OpenOrder = InferEntity<typeof OpenOrder>;

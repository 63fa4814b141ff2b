import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * How stock of an item moved at a location on a business day, by flow, summed from inventory's
 * internal `inventory.movements.posted`: `sale` (the depletion of sales by recipes: sales, refunds and
 * voids), `waste`, `count` (count variances), `adjustment` (found, lost, damaged, corrections),
 * `opening` (opening balances), `receipt`, `transfer_in`, `transfer_out`, `shipment` (sales orders).
 * Quantities are changes of on hand (negative: stock left), values as the ledger lines carry them.
 */
export const StockFlow = defineEntity({
  name: 'StockFlow',
  tableName: 'stock_flows',
  properties: {
    /** `location|day|item|flow` */
    id: p.string().primary(),
    locationId: p.string(),
    businessDay: p.string().columnType('date'),
    itemId: p.string(),
    flow: p.string(),
    quantity: p.decimal('string'),
    value: p.decimal('string'),
    /** movements that had no value (the item had no cost yet) */
    unvalued: p.integer(),
  },
});
export type StockFlow = InferEntity<typeof StockFlow>;

/** The value of a flow at a location on a business day, every item: `stock_flows` summed, kept by Postgres with them. */
export const FlowDay = defineEntity({
  name: 'FlowDay',
  tableName: 'flow_days',
  properties: {
    locationId: p.string().primary(),
    businessDay: p.string().columnType('date').primary(),
    flow: p.string().primary(),
    value: p.decimal('string'),
  },
});
export type FlowDay = InferEntity<typeof FlowDay>;

/** An item's stock at a location as inventory last reported it (`stock.level_changed`, latest version). */
export const StockOnHand = defineEntity({
  name: 'StockOnHand',
  tableName: 'stock_levels',
  properties: {
    /** `item|location` */
    id: p.string().primary(),
    itemId: p.string(),
    locationId: p.string(),
    onHand: p.decimal('string'),
    averageCost: p.decimal('string').nullable(),
    value: p.decimal('string').nullable(),
    version: p.integer(),
    updatedAt: p.datetime(),
  },
});
export type StockOnHand = InferEntity<typeof StockOnHand>;

/** Inventory's items (`item.created`, `item.updated`): names for reports and recommendations. */
export const StockItem = defineEntity({
  name: 'StockItem',
  tableName: 'items',
  properties: {
    id: p.string().primary(),
    name: p.string(),
    baseUnit: p.string(),
    updatedAt: p.datetime(),
  },
});
export type StockItem = InferEntity<typeof StockItem>;

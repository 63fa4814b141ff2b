import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { ItemContribution } from './contributions';

/** What one sales transaction (its latest version) adds to its location's day and interval. */
export const SalesContribution = defineEntity({
  name: 'SalesContribution',
  tableName: 'sales_contributions',
  properties: {
    transactionId: p.string().primary(),
    version: p.integer(),
    locationId: p.string(),
    businessDay: p.string().columnType('date'),
    intervalStart: p.datetime(),
    netSales: p.decimal('string'),
    transactions: p.integer(),
    /** '' when the transaction names none */
    channel: p.string().nullable(),
    source: p.string().nullable(),
    /** its net sales per item; null for a contribution counted before the item and channel read models existed (they hold nothing of it) */
    items: p.json<ItemContribution[]>().nullable(),
  },
});
export type SalesContribution = InferEntity<typeof SalesContribution>;

/** Net sales and completed sales of a location's business day. */
export const SalesDay = defineEntity({
  name: 'SalesDay',
  tableName: 'sales_days',
  properties: {
    locationId: p.string().primary(),
    businessDay: p.string().columnType('date').primary(),
    netSales: p.decimal('string'),
    transactions: p.integer(),
  },
});
export type SalesDay = InferEntity<typeof SalesDay>;

/** Net sales and completed sales of a location's 15-minute interval (within its business day). */
export const SalesInterval = defineEntity({
  name: 'SalesInterval',
  tableName: 'sales_intervals',
  properties: {
    locationId: p.string().primary(),
    businessDay: p.string().columnType('date').primary(),
    intervalStart: p.datetime().primary(),
    netSales: p.decimal('string'),
    transactions: p.integer(),
  },
});
export type SalesInterval = InferEntity<typeof SalesInterval>;

/** An item's quantity and net sales at a location on a business day (`itemKey` '': lines naming no item, and what subtotals hold beyond their lines). */
export const SalesItemDay = defineEntity({
  name: 'SalesItemDay',
  tableName: 'sales_item_days',
  properties: {
    locationId: p.string().primary(),
    businessDay: p.string().columnType('date').primary(),
    itemKey: p.string().primary(),
    itemId: p.string().nullable(),
    itemName: p.string().nullable(),
    quantity: p.decimal('string'),
    netSales: p.decimal('string'),
  },
});
export type SalesItemDay = InferEntity<typeof SalesItemDay>;

/** Net sales and completed sales of a location's business day per channel ('' none) and source (the sending system's label). */
export const SalesChannelDay = defineEntity({
  name: 'SalesChannelDay',
  tableName: 'sales_channel_days',
  properties: {
    locationId: p.string().primary(),
    businessDay: p.string().columnType('date').primary(),
    channel: p.string().primary(),
    source: p.string().primary(),
    netSales: p.decimal('string'),
    transactions: p.integer(),
  },
});
export type SalesChannelDay = InferEntity<typeof SalesChannelDay>;

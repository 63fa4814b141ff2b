import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

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

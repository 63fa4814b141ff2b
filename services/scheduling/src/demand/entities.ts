import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** A driver's value for a 15-minute interval at a location, as a feed sent it (POST /demand-drivers). */
export const DemandDriver = defineEntity({
  name: 'DemandDriver',
  tableName: 'demand_drivers',
  properties: {
    id: p.string().primary(),
    source: p.string(),
    externalId: p.string(),
    contentHash: p.string(),
    version: p.integer(),
    locationId: p.string(),
    driver: p.string(),
    intervalStart: p.datetime(),
    value: p.decimal('string'),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type DemandDriver = InferEntity<typeof DemandDriver>;

/** Net sales and transactions per 15-minute interval, built from sales' transactions. */
export const SalesInterval = defineEntity({
  name: 'SalesInterval',
  tableName: 'sales_intervals',
  properties: {
    locationId: p.string().primary(),
    intervalStart: p.datetime().primary(),
    netSales: p.decimal('string'),
    transactions: p.integer(),
  },
});
export type SalesInterval = InferEntity<typeof SalesInterval>;

/** What one sales transaction last added to its interval (so a re-sent or voided one is taken back). */
export const SalesDemand = defineEntity({
  name: 'SalesDemand',
  tableName: 'sales_demand',
  properties: {
    transactionId: p.string().primary(),
    version: p.integer(),
    locationId: p.string(),
    intervalStart: p.datetime(),
    netSales: p.decimal('string'),
    transactions: p.integer(),
  },
});
export type SalesDemand = InferEntity<typeof SalesDemand>;

import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** A manager's percentage on one day's forecast at a location (one driver, or all when null). */
export const ForecastAdjustment = defineEntity({
  name: 'ForecastAdjustment',
  tableName: 'forecast_adjustments',
  properties: {
    id: p.string().primary(),
    locationId: p.string(),
    driver: p.string().nullable(),
    date: p.string().columnType('date'),
    percent: p.decimal('number'),
    reason: p.string().nullable(),
    version: p.integer(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type ForecastAdjustment = InferEntity<typeof ForecastAdjustment>;

/**
 * A special day, the company's (`locationId` null) or one location's (overriding the company's on that
 * date there): closed, or an expected lift or dip (learned from past years with the same name when not given).
 */
export const SpecialDay = defineEntity({
  name: 'SpecialDay',
  tableName: 'special_days',
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    locationId: p.string().nullable(),
    date: p.string().columnType('date'),
    kind: p.string().$type<'closed' | 'lift' | 'dip'>(),
    name: p.string().nullable(),
    expectedPercent: p.decimal('number').nullable(),
    version: p.integer(),
    updatedAt: p.datetime(),
  },
});
export type SpecialDay = InferEntity<typeof SpecialDay>;

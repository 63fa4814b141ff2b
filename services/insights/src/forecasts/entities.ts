import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * A day's forecast of a demand driver at a location (scheduling's `scheduling.forecast.fitted`): the
 * last fit made BEFORE the business day started there. A fit made once the day has begun does not
 * replace it, so a past day keeps the forecast it was planned with (forecast accuracy), and a day to
 * come has the latest fit.
 */
export const ForecastDay = defineEntity({
  name: 'ForecastDay',
  tableName: 'forecast_days',
  properties: {
    locationId: p.string().primary(),
    driver: p.string().primary(),
    businessDay: p.string().columnType('date').primary(),
    fittedAt: p.datetime(),
    /** the sum of `hours`, before adjustments */
    total: p.decimal('string'),
    /** the hour sums from `start`, decimal strings (23, 24 or 25) */
    hours: p.json<string[]>(),
    start: p.datetime(),
  },
});
export type ForecastDay = InferEntity<typeof ForecastDay>;

/**
 * A day's adjustment of the forecast (scheduling's `forecast.updated`): a percentage for one driver, or
 * for every driver (`driver` `*`), as it stood when the business day started (a change made once the
 * day has begun does not count, as for the fit).
 */
export const ForecastAdjustmentDay = defineEntity({
  name: 'ForecastAdjustmentDay',
  tableName: 'forecast_adjustments',
  properties: {
    locationId: p.string().primary(),
    driver: p.string().primary(),
    businessDay: p.string().columnType('date').primary(),
    percent: p.decimal('string'),
    version: p.integer(),
  },
});
export type ForecastAdjustmentDay = InferEntity<typeof ForecastAdjustmentDay>;

import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { StoredForecast } from './fitted';

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

/** The stored forecast of a location and driver: the model's fit as the background worker last made it, and whether newer data or edits arrived since. */
export const ForecastFit = defineEntity({
  name: 'ForecastFit',
  tableName: 'forecast_fits',
  properties: {
    locationId: p.string().primary(),
    driver: p.string().primary(),
    /** bumped by every change that makes the fit out of date */
    generation: p.integer(),
    /** the generation the stored fit read (stale while below `generation`) */
    fittedGeneration: p.integer(),
    /** the last generation an explicit edit (a special day) made: a fit below it is not served */
    editGeneration: p.integer(),
    /** the first change the stored fit does not include (null: up to date) */
    staleSince: p.datetime().nullable(),
    /** the last change (the debounce waits for a quiet spell after it) */
    changedAt: p.datetime(),
    fittedAt: p.datetime().nullable(),
    /** the stored fit's last training day (null before a fit, or when the history was too short) */
    trainedThrough: p.string().columnType('date').nullable(),
    /** the model's result for the horizon, without adjustments; null before a fit or when the history was too short */
    result: p.json<StoredForecast>().nullable(),
    /** consecutive fits that failed with an unexpected error (0 after a fit) */
    failures: p.integer().default(0),
    /** the last failed fit */
    failedAt: p.datetime().nullable(),
    /** a failed series is not fitted again before this (backoff), so it starves no other */
    retryAt: p.datetime().nullable(),
  },
});
export type ForecastFit = InferEntity<typeof ForecastFit>;


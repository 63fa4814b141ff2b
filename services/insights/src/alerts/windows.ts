import { DateTime } from 'luxon';
import Decimal from 'decimal.js';
import { addDays, businessDayOf } from '@bop/shared';
import type { AlertKpi } from '@bop/contracts';

export type WindowKind = 'today' | 'last_days' | 'week_to_date';
export interface AlertWindowDef {
  kind: WindowKind;
  days: number | null;
}
export interface LocationClock {
  timezone: string;
  businessDayCutoff: string;
}

/** The business day a location is in at `at`, and the instant its next business day starts (its cut-off, local time). */
export function businessDayAt(loc: LocationClock, at: Date): { today: string; endsAt: Date } {
  const today = businessDayOf(at.toISOString(), loc.timezone, loc.businessDayCutoff);
  const endsAt = DateTime.fromISO(`${addDays(today, 1)}T${loc.businessDayCutoff}`, { zone: loc.timezone }).toJSDate();
  return { today, endsAt };
}

/**
 * The business days a window covers on `today` (a location's): `today` so far; `last_days` the
 * `days` complete business days before today; `week_to_date` the Monday of today's week to today.
 */
export function windowDays(w: AlertWindowDef, today: string): { from: string; to: string } {
  if (w.kind === 'today') return { from: today, to: today };
  if (w.kind === 'last_days') return { from: addDays(today, -(w.days ?? 1)), to: addDays(today, -1) };
  const weekday = DateTime.fromISO(today, { zone: 'UTC' }).weekday; // 1 = Monday
  return { from: addDays(today, 1 - weekday), to: today };
}

/** The KPIs each read model moves: a consumer marks the rules watching these at the locations it changed. */
export const KPIS_MOVED_BY = {
  sales: ['netSales', 'transactions', 'averageCheck', 'laborPercent', 'salesPerLaborHour', 'scheduledLaborPercent', 'theoreticalFoodCostPercent', 'actualFoodCostPercent', 'primeCostPercent'],
  labor: ['laborHours', 'laborCost', 'laborPercent', 'salesPerLaborHour', 'primeCost', 'primeCostPercent'],
  // inventory's postings: the depletion of sales (theoretical), and everything used (actual, so prime cost)
  stock: ['theoreticalFoodCost', 'theoreticalFoodCostPercent', 'actualFoodCost', 'actualFoodCostPercent', 'primeCost', 'primeCostPercent'],
  schedule: ['scheduledHours', 'scheduledCost', 'scheduledLaborPercent'],
  waste: ['wasteValue'],
  cash: ['overShort'],
  /** rules against the forecast of these */
  forecast: ['netSales', 'transactions', 'averageCheck'],
} as const satisfies Record<string, readonly AlertKpi[]>;

/** The KPIs scheduling forecasts (directly or as a ratio of two forecasts): the only ones a rule may compare against the forecast. */
export const FORECAST_KPIS: readonly AlertKpi[] = KPIS_MOVED_BY.forecast;

export interface Comparison {
  operator: 'above' | 'below';
  threshold: string;
  against: 'value' | 'previous_period' | 'same_period_last_year' | 'forecast';
}

/**
 * Whether a rule's condition holds, and the value compared: the KPI itself against a value, or its
 * change in percent against the comparison period ((current − base) ÷ |base| × 100, to two
 * decimals). A KPI without a value (a ratio over zero) or a zero base never holds: nothing is guessed.
 */
export function conditionHolds(c: Comparison, current: string | null, base: string | null): { holds: boolean; value: string | null } {
  if (current === null) return { holds: false, value: null };
  let value: Decimal;
  if (c.against === 'value') value = new Decimal(current);
  else {
    if (base === null || new Decimal(base).isZero()) return { holds: false, value: null };
    value = new Decimal(current).minus(base).div(new Decimal(base).abs()).times(100).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
  }
  const holds = c.operator === 'above' ? value.gt(c.threshold) : value.lt(c.threshold);
  return { holds, value: c.against === 'value' ? current : value.toFixed(2) };
}

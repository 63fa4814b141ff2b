import { DateTime } from 'luxon';
import type { KpiCompare } from '@bop/contracts';

/** The days of a range, both ends included. */
export function daysIn(from: string, to: string): number {
  return Math.round(DateTime.fromISO(to, { zone: 'UTC' }).diff(DateTime.fromISO(from, { zone: 'UTC' }), 'days').days) + 1;
}

/**
 * The comparison period of a range: `previous_period` the same number of days just before it,
 * `same_period_last_year` the same dates a year earlier (29 February falls back to the 28th).
 */
export function comparisonPeriod(from: string, to: string, compare: Exclude<KpiCompare, 'forecast'>): { from: string; to: string } {
  const start = DateTime.fromISO(from, { zone: 'UTC' });
  const end = DateTime.fromISO(to, { zone: 'UTC' });
  if (compare === 'previous_period') {
    const days = daysIn(from, to);
    return { from: start.minus({ days }).toISODate()!, to: start.minus({ days: 1 }).toISODate()! };
  }
  return { from: start.minus({ years: 1 }).toISODate()!, to: end.minus({ years: 1 }).toISODate()! };
}

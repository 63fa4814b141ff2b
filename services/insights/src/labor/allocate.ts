import Decimal from 'decimal.js';
import { splitDayHours } from '@bop/shared';

/** A day of a timesheet as time's `time.timesheet.calculated` carries it. */
export interface TimesheetDay {
  date: string;
  regularHours: string;
  overtime: Record<string, string>;
  shifts: Array<{ start: string; end?: string | null; locationId: string; position: string | null; workedHours: string; unpaidBreaks?: Array<{ start: string; end: string }> }>;
}

/** A day's hours at one location in one position. */
export interface LaborShare {
  date: string;
  locationId: string;
  position: string | null;
  regular: Decimal;
  /** multiplier → hours */
  overtime: Map<string, Decimal>;
}

/**
 * A day's regular and overtime hours by the location and position of each shift, as time's payroll
 * export splits them by position: hours are paid in the order worked, so the day's regular hours go to
 * its earliest shifts and its overtime (lower multipliers first, as they accrue) to the latest; the
 * shift hours are rounded for display, so the day's own figures decide and the last shift takes what
 * is left.
 */
export function laborShares(day: TimesheetDay): LaborShare[] {
  const split = splitDayHours(day, (s) => `${s.locationId}|${s.position ?? ''}`);
  const first = new Map<string, TimesheetDay['shifts'][number]>();
  for (const s of day.shifts) {
    const key = `${s.locationId}|${s.position ?? ''}`;
    if (!first.has(key)) first.set(key, s);
  }
  return [...split].map(([key, h]) => ({ date: day.date, locationId: first.get(key)!.locationId, position: first.get(key)!.position, ...h }));
}

/** The paid hours of a share: regular plus every overtime hour. */
export function paidHours(hours: { regular: Decimal.Value; overtime: Record<string, Decimal.Value> }): Decimal {
  return Object.values(hours.overtime).reduce<Decimal>((n, h) => n.plus(h), new Decimal(hours.regular));
}

const INTERVAL_MS = 900_000;
const HOUR_MS = 3_600_000;

/** Hours worked in one 15-minute interval at one location. */
export interface LaborIntervalShare {
  locationId: string;
  intervalStart: Date;
  hours: Decimal;
}

/**
 * The hours a day's shifts were on the clock, per location and 15-minute interval: each shift from its
 * start to its end, less its unpaid breaks (a shift still open counts nothing yet). Exact to the
 * millisecond, so a day's intervals add up to its worked hours before their rounding for display.
 */
export function laborIntervals(day: TimesheetDay): LaborIntervalShare[] {
  const out = new Map<string, LaborIntervalShare>();
  const add = (locationId: string, from: number, to: number, sign: 1 | -1) => {
    for (let at = Math.floor(from / INTERVAL_MS) * INTERVAL_MS; at < to; at += INTERVAL_MS) {
      const ms = Math.min(to, at + INTERVAL_MS) - Math.max(from, at);
      if (ms <= 0) continue;
      const key = `${locationId}|${at}`;
      const share = out.get(key) ?? { locationId, intervalStart: new Date(at), hours: new Decimal(0) };
      share.hours = share.hours.plus(new Decimal(ms * sign).div(HOUR_MS));
      out.set(key, share);
    }
  };
  for (const s of day.shifts) {
    if (!s.end) continue;
    const start = Date.parse(s.start);
    const end = Date.parse(s.end);
    add(s.locationId, start, end, 1);
    for (const b of s.unpaidBreaks ?? []) add(s.locationId, Math.max(start, Date.parse(b.start)), Math.min(end, Date.parse(b.end)), -1);
  }
  return [...out.values()].filter((x) => !x.hours.isZero()).sort((a, b) => a.intervalStart.getTime() - b.intervalStart.getTime() || (a.locationId < b.locationId ? -1 : 1));
}

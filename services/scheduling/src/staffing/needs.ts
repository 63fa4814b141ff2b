import Decimal from 'decimal.js';
import { DateTime } from 'luxon';

/** A staffing rule as the calculation reads it. */
export interface NeedRule {
  position: string;
  driver?: string | null;
  perStaff?: number | null;
  minStaff: number;
  maxStaff?: number | null;
  weekdays?: string[] | null;
  fromTime: string;
  toTime: string;
}

export interface HourNeed {
  start: number;
  end: number;
  position: string;
  needed: number;
  /** the forecast of each driver used, in the hour */
  drivers: Record<string, number>;
}

const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

/** The local hours of [from, to] (local dates) in a zone: 23 or 25 on a DST change day. */
export function localHours(from: string, to: string, zone: string): Array<{ start: number; end: number; weekday: string; time: string }> {
  const out: Array<{ start: number; end: number; weekday: string; time: string }> = [];
  let at = DateTime.fromISO(from, { zone }).startOf('day');
  const end = DateTime.fromISO(to, { zone }).plus({ days: 1 }).startOf('day');
  while (at < end) {
    const next = at.plus({ hours: 1 });
    out.push({ start: at.toMillis(), end: next.toMillis(), weekday: WEEKDAYS[at.weekday - 1], time: at.toFormat('HH:mm') });
    at = next;
  }
  return out;
}

/**
 * Staff needed per position and local hour (spec: staffing needs, hour by hour): each rule that holds
 * then (its weekdays, fromTime ≤ the hour's start < toTime) asks for max(minStaff, ⌈forecast ÷
 * perStaff⌉), at most maxStaff; where several rules hold for one position the largest ask wins. A
 * driver without a forecast (`forecast` answers undefined) leaves that rule its minimum.
 */
export function staffNeeded(hours: ReturnType<typeof localHours>, rules: NeedRule[], forecast: (driver: string, hourStart: number) => number | undefined): HourNeed[] {
  const positions = [...new Set(rules.map((r) => r.position))].sort();
  const out: HourNeed[] = [];
  for (const h of hours) {
    for (const position of positions) {
      let needed = 0;
      let any = false;
      const drivers: Record<string, number> = {};
      for (const r of rules) {
        if (r.position !== position) continue;
        if (r.weekdays && !r.weekdays.includes(h.weekday)) continue;
        if (h.time < r.fromTime || h.time >= r.toTime) continue;
        any = true;
        let ask = r.minStaff;
        if (r.driver && r.perStaff) {
          const value = forecast(r.driver, h.start);
          if (value !== undefined) {
            drivers[r.driver] = value;
            // a sliver of demand (rounding noise of the forecast) asks for nobody
            ask = Math.max(ask, Math.ceil(new Decimal(value).div(r.perStaff).toDecimalPlaces(6).toNumber() - 0.000001));
          }
        }
        if (r.maxStaff != null) ask = Math.min(ask, r.maxStaff);
        needed = Math.max(needed, ask);
      }
      if (any) out.push({ start: h.start, end: h.end, position, needed, drivers });
    }
  }
  return out;
}

/** People scheduled in an hour for a position: each shift counts by the share of the hour it covers. */
export function scheduledIn(start: number, end: number, shifts: Array<{ start: number; end: number }>): number {
  let minutes = 0;
  for (const s of shifts) minutes += Math.max(0, Math.min(end, s.end) - Math.max(start, s.start)) / 60_000;
  return minutes / ((end - start) / 60_000);
}

import Decimal from 'decimal.js';

/** A timesheet day's figures as time calculates them: regular hours, overtime by multiplier, and its shifts. */
export interface DayHours<S extends { start: string; workedHours: string }> {
  regularHours: string;
  /** multiplier → hours */
  overtime: Record<string, string>;
  shifts: readonly S[];
}

export interface HoursSplit {
  regular: Decimal;
  /** multiplier → hours */
  overtime: Map<string, Decimal>;
}

/**
 * A day's regular and overtime hours split over its shifts, grouped by `keyOf` (time's payroll export:
 * the position; insights: the location and position): hours are paid in the order worked, so the day's
 * regular hours go to its earliest shifts and its overtime (lower multipliers first, as they accrue) to
 * the latest. The shift hours are rounded for display, so the day's own figures decide and the last
 * shift takes what is left. One rule for both, so insights' labor reconciles with payroll to the cent.
 */
export function splitDayHours<S extends { start: string; workedHours: string }, K>(day: DayHours<S>, keyOf: (shift: S) => K): Map<K, HoursSplit> {
  const out = new Map<K, HoursSplit>();
  const buckets: Array<{ m: string | null; left: Decimal }> = [
    { m: null, left: new Decimal(day.regularHours) },
    ...Object.entries(day.overtime)
      .sort(([a], [b]) => new Decimal(a).comparedTo(new Decimal(b)))
      .map(([m, h]) => ({ m, left: new Decimal(h) })),
  ];
  const shifts = day.shifts.filter((s) => new Decimal(s.workedHours).gt(0)).sort((a, b) => (a.start < b.start ? -1 : 1));
  shifts.forEach((s, i) => {
    let need = i === shifts.length - 1 ? buckets.reduce((n, b) => n.plus(b.left), new Decimal(0)) : new Decimal(s.workedHours);
    const key = keyOf(s);
    const entry = out.get(key) ?? { regular: new Decimal(0), overtime: new Map<string, Decimal>() };
    for (const b of buckets) {
      if (need.lte(0)) break;
      const take = Decimal.min(need, b.left);
      if (take.lte(0)) continue;
      b.left = b.left.minus(take);
      need = need.minus(take);
      if (b.m === null) entry.regular = entry.regular.plus(take);
      else entry.overtime.set(b.m, (entry.overtime.get(b.m) ?? new Decimal(0)).plus(take));
    }
    out.set(key, entry);
  });
  return out;
}

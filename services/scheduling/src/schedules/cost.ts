import Decimal from 'decimal.js';
import { DateTime } from 'luxon';
import { workweekStart, paidHours } from '../shifts/warnings';
import type { WeekStart } from '../settings/company-settings';

/** A pay rate as the estimate reads it (people's, replicated): hourly per hour, salary per year. */
export interface CostRate {
  type: 'hourly' | 'salary';
  amount: string;
}

/** Hours a year a salary is spread over for an hourly estimate (52 weeks of 40 hours). */
const SALARY_HOURS = 2080;

/** What an hour costs at a rate: the hourly amount, or a salary's hourly equivalent. */
export function hourlyCost(rate: CostRate | null): Decimal | null {
  if (!rate) return null;
  return rate.type === 'hourly' ? new Decimal(rate.amount) : new Decimal(rate.amount).div(SALARY_HOURS);
}

export interface CostShift {
  id: string;
  employeeId: string | null;
  locationId: string;
  position: string;
  start: number;
  end: number;
  breakMinutes: number;
}

export interface ShiftCost {
  id: string;
  date: string;
  hours: Decimal;
  overtimeHours: Decimal;
  /** null: an open shift, or no rate in force for the employee */
  cost: Decimal | null;
}

/**
 * Estimated cost of each shift: its paid hours at the rate in force on its local date, overtime
 * counted per employee and workweek in the order worked (all of the employee's shifts count toward
 * the threshold, wherever they are) and paid at the multiplier. Open shifts cost nothing yet.
 */
export function costShifts(
  shifts: CostShift[],
  zone: string,
  o: { weekStart: WeekStart; weeklyOvertimeAfter: number | null; overtimeMultiplier: number; rateOf(employeeId: string, date: string, position: string): CostRate | null },
): Map<string, ShiftCost> {
  const out = new Map<string, ShiftCost>();
  const worked = new Map<string, Decimal>();
  for (const s of [...shifts].sort((a, b) => a.start - b.start || (a.id < b.id ? -1 : 1))) {
    const date = DateTime.fromMillis(s.start, { zone }).toISODate()!;
    const hours = paidHours(s);
    if (!s.employeeId) {
      out.set(s.id, { id: s.id, date, hours, overtimeHours: new Decimal(0), cost: null });
      continue;
    }
    const week = `${s.employeeId} ${workweekStart(date, o.weekStart)}`;
    const before = worked.get(week) ?? new Decimal(0);
    worked.set(week, before.plus(hours));
    const threshold = o.weeklyOvertimeAfter;
    const overtime = threshold === null ? new Decimal(0) : Decimal.max(0, Decimal.min(hours, before.plus(hours).minus(threshold)));
    const rate = hourlyCost(o.rateOf(s.employeeId, date, s.position));
    const cost = rate === null ? null : rate.times(hours.minus(overtime)).plus(rate.times(overtime).times(o.overtimeMultiplier));
    out.set(s.id, { id: s.id, date, hours, overtimeHours: overtime, cost });
  }
  return out;
}

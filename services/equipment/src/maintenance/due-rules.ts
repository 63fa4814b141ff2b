import Decimal from 'decimal.js';
import { DateTime } from 'luxon';
import { businessDayOf, fmtQuantity } from '@bop/shared';
import type { MeterKind } from '@bop/contracts';

/** What decides when a plan comes due. */
export interface PlanSchedule {
  intervalDays?: number | null;
  nextDueDate?: string | null;
  meter?: MeterKind | null;
  intervalUnits?: string | null;
  nextDueTotal?: string | null;
  /** times done + 1: an occurrence is known by its cycle and due point */
  cycle: number;
}

/** A meter as last read: the value shown and its lifetime total. */
export interface MeterNow {
  value: string;
  total: string;
}

interface DueCommon {
  due: boolean;
  overdue: boolean;
  /** the occurrence: `maintenance.due` is announced once per key */
  key: string;
  reason: string;
}
export type DueState =
  | (DueCommon & { basis: 'date'; nextDueDate: string; daysOverdue: number })
  | (DueCommon & { basis: 'meter'; meter: MeterKind; currentValue: string | null; dueAtValue: string });

/** The calendar date at `at` in a time zone (a plan due on a date comes due at that local midnight). */
export function localDate(timezone: string, at: Date): string {
  return businessDayOf(at.toISOString(), timezone, '00:00');
}

function daysBetween(from: string, to: string): number {
  return Math.round(DateTime.fromISO(to, { zone: 'utc' }).diff(DateTime.fromISO(from, { zone: 'utc' }), 'days').days);
}

/**
 * Where a plan stands on `today` (the local date at the asset) with the meter as last read:
 * a date plan is due from its date on (overdue after it); a meter plan when the meter's lifetime
 * total reaches the threshold (overdue beyond it).
 */
export function planDueState(plan: PlanSchedule, today: string, meter: MeterNow | null): DueState {
  if (plan.intervalDays != null) {
    const nextDueDate = plan.nextDueDate!;
    const daysOverdue = daysBetween(nextDueDate, today);
    const reason =
      daysOverdue > 0 ? `due on ${nextDueDate}, ${daysOverdue} day${daysOverdue === 1 ? '' : 's'} overdue` : daysOverdue === 0 ? `due today (${nextDueDate})` : `due on ${nextDueDate}, in ${-daysOverdue} day${daysOverdue === -1 ? '' : 's'}`;
    return { basis: 'date', nextDueDate, daysOverdue, due: daysOverdue >= 0, overdue: daysOverdue > 0, key: `${plan.cycle}:date:${nextDueDate}`, reason };
  }
  const threshold = new Decimal(plan.nextDueTotal!);
  const total = new Decimal(meter?.total ?? 0);
  const dueAtValue = fmtQuantity(meter ? new Decimal(meter.value).plus(threshold.minus(total)) : threshold);
  const currentValue = meter ? fmtQuantity(meter.value) : null;
  const due = total.gte(threshold);
  const overdue = total.gt(threshold);
  const name = plan.meter!;
  const reason = due
    ? `${name} ${currentValue} ${overdue ? 'is past' : 'reached'} the threshold ${dueAtValue}`
    : `${name} ${currentValue ?? '(not read yet)'} below the threshold ${dueAtValue}`;
  return { basis: 'meter', meter: name, currentValue, dueAtValue, due, overdue, key: `${plan.cycle}:meter:${fmtQuantity(threshold)}`, reason };
}

/** The lifetime total of a new reading: the usage since the reading before it added (after a reset, all of its value). */
export function readingTotal(prev: MeterNow | null, value: string, reset: boolean): string {
  if (!prev) return fmtQuantity(value);
  const usage = reset ? new Decimal(value) : new Decimal(value).minus(prev.value);
  return fmtQuantity(new Decimal(prev.total).plus(usage));
}

/**
 * Why a reading cannot stand between its neighbours (a meter never goes backwards), or null.
 * A reset (replaced meter) may be lower than the reading before it, but only as the newest reading.
 */
export function readingOrderError(
  meter: MeterKind,
  value: string,
  reset: boolean,
  prev: { value: string; readAt: Date } | null,
  next: { value: string; readAt: Date; reset: boolean } | null,
): { field: 'value' | 'reset'; message: string } | null {
  if (reset) {
    return next ? { field: 'reset', message: `A reset must be the newest ${meter} reading; there is one at ${next.readAt.toISOString()}.` } : null;
  }
  if (prev && new Decimal(value).lt(prev.value)) {
    return { field: 'value', message: `The ${meter} meter never goes backwards: the last reading is ${fmtQuantity(prev.value)} at ${prev.readAt.toISOString()} (send reset: true for a replaced meter).` };
  }
  if (next && !next.reset && new Decimal(value).gt(next.value)) {
    return { field: 'value', message: `The ${meter} meter never goes backwards: a later reading is ${fmtQuantity(next.value)} at ${next.readAt.toISOString()}.` };
  }
  return null;
}

/** The next threshold of a meter plan: the lifetime total at the last service plus the interval. */
export function nextDueTotal(serviceTotal: Decimal.Value, intervalUnits: string): string {
  return fmtQuantity(new Decimal(serviceTotal).plus(intervalUnits));
}

/** The lifetime total at a service done at meter value `serviceValue`, from the meter as last read. */
export function serviceTotalAt(meter: MeterNow | null, serviceValue: string | undefined): { total: string } | { error: string } {
  if (serviceValue === undefined) return { total: meter?.total ?? '0' };
  if (!meter) return { total: serviceValue };
  if (new Decimal(serviceValue).gt(meter.value)) return { error: `The last service cannot lie beyond the current reading ${fmtQuantity(meter.value)}.` };
  return { total: fmtQuantity(new Decimal(meter.total).minus(new Decimal(meter.value).minus(serviceValue))) };
}

import { DateTime } from 'luxon';

export type Every = 'daily' | 'weekly' | 'monthly';

/** Hours after a period's last UTC day ends before it is run: every location's business day (cut-offs after local midnight, time zones to UTC−12) is over by then. */
export const RUN_DELAY_HOURS = 12;

/** The period of `every` that holds the UTC date `day`: the day, its Monday-to-Sunday week, or its calendar month. */
export function periodHolding(every: Every, day: string): { from: string; to: string } {
  const d = DateTime.fromISO(day, { zone: 'UTC' });
  if (every === 'daily') return { from: day, to: day };
  const unit = every === 'weekly' ? 'week' : 'month';
  return { from: d.startOf(unit).toISODate()!, to: d.endOf(unit).toISODate()! };
}

/** The period after `period`. */
export function periodAfter(every: Every, period: { to: string }): { from: string; to: string } {
  return periodHolding(every, DateTime.fromISO(period.to, { zone: 'UTC' }).plus({ days: 1 }).toISODate()!);
}

/** When a period is run: RUN_DELAY_HOURS after its last day ends (00:00 UTC of the next day). */
export function runAt(period: { to: string }): Date {
  return DateTime.fromISO(period.to, { zone: 'UTC' }).plus({ days: 1, hours: RUN_DELAY_HOURS }).toJSDate();
}

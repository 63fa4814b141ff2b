import { DateTime } from 'luxon';
import { DraftInputError, type DraftWeekStart } from './types';

export const HOUR_MS = 3_600_000;

const WEEKDAY: Record<DraftWeekStart, number> = { monday: 1, tuesday: 2, wednesday: 3, thursday: 4, friday: 5, saturday: 6, sunday: 7 };

/** Milliseconds of an ISO instant; one without an offset is read as UTC (never the host's zone). */
export function parseInstant(iso: string, what: string): number {
  const t = DateTime.fromISO(iso, { zone: 'utc' });
  if (!t.isValid) throw new DraftInputError(`${what}: "${iso}" is not an ISO 8601 time`);
  return t.toMillis();
}

export function isoOf(ms: number): string {
  return DateTime.fromMillis(ms, { zone: 'utc' }).toISO({ suppressMilliseconds: true })!;
}

export function localDayOf(ms: number, zone: string): string {
  return DateTime.fromMillis(ms, { zone }).toISODate()!;
}

export function minuteOfDay(ms: number, zone: string): number {
  const t = DateTime.fromMillis(ms, { zone });
  return t.hour * 60 + t.minute + (t.second > 0 || t.millisecond > 0 ? 0.5 : 0);
}

/** The first local date of the workweek holding `day`. */
export function workweekOf(day: string, weekStart: DraftWeekStart): string {
  const d = DateTime.fromISO(day, { zone: 'utc' });
  return d.minus({ days: (d.weekday - WEEKDAY[weekStart] + 7) % 7 }).toISODate()!;
}

/** "Sat 12 Dec 18:00–20:00", or with the end's day when it ends on a later day (midnight reads 24:00). */
export function spanInWords(start: number, end: number, zone: string): string {
  const a = DateTime.fromMillis(start, { zone });
  const b = DateTime.fromMillis(end, { zone });
  const sameDay = a.toISODate() === b.toISODate();
  const endsAtMidnight = b.hour === 0 && b.minute === 0 && a.toISODate() === b.minus({ days: 1 }).toISODate();
  const tail = sameDay ? b.toFormat('HH:mm') : endsAtMidnight ? '24:00' : b.toFormat('ccc d LLL HH:mm');
  return `${a.toFormat('ccc d LLL HH:mm')}–${tail}`;
}

export function isValidZone(zone: string): boolean {
  return DateTime.fromMillis(0, { zone }).isValid;
}

import { DateTime } from 'luxon';

/**
 * The business day (YYYY-MM-DD) of a UTC instant at a location (spec: ingestion rule 8): the local
 * calendar date, or the day before when the local time of day is before the cut-off (01:30 with a
 * 04:00 cut-off belongs to the previous day). Compared as wall-clock time, so both passes through a
 * repeated hour land on the same day, and a cut-off inside a skipped hour takes effect at the first
 * local time after it.
 */
export function businessDayOf(occurredAtUtc: string, timezone: string, cutoff: string): string {
  const local = DateTime.fromISO(occurredAtUtc, { setZone: true }).setZone(timezone);
  if (!local.isValid) throw new Error(`businessDayOf: invalid instant ${occurredAtUtc} or zone ${timezone}`);
  const m = /^(\d{2}):(\d{2})$/.exec(cutoff);
  if (!m) throw new Error(`businessDayOf: cut-off must be HH:MM, got ${cutoff}`);
  const cutoffMinutes = Number(m[1]) * 60 + Number(m[2]);
  const date = DateTime.fromObject({ year: local.year, month: local.month, day: local.day }, { zone: 'utc' });
  const day = local.hour * 60 + local.minute < cutoffMinutes ? date.minus({ days: 1 }) : date;
  return day.toISODate()!;
}

import { DateTime, FixedOffsetZone, IANAZone } from 'luxon';

/**
 * The business day (YYYY-MM-DD) of a UTC instant at a location (spec: ingestion rule 8): the local
 * calendar date, or the day before when the local time of day is before the cut-off (01:30 with a
 * 04:00 cut-off belongs to the previous day). Compared as wall-clock time, so both passes through a
 * repeated hour land on the same day, and a cut-off inside a skipped hour takes effect at the first
 * local time after it.
 *
 * Hot path (every ingested record): the zone's UTC offset (luxon) is looked up once per zone and
 * quarter-hour and then reused — offsets only change at transitions, and tz transitions fall on
 * quarter hours; a quarter hour whose two ends disagree is never cached.
 */
export function businessDayOf(occurredAtUtc: string, timezone: string, cutoff: string): string {
  const ms = Date.parse(occurredAtUtc);
  if (Number.isNaN(ms)) throw new Error(`businessDayOf: invalid instant ${occurredAtUtc}`);
  const cutoffMinutes = parseCutoff(cutoff);
  const local = DateTime.fromMillis(ms, { zone: FixedOffsetZone.instance(offsetMs(timezone, ms) / 60_000) });
  const day = local.hour * 60 + local.minute < cutoffMinutes ? local.minus({ days: 1 }) : local;
  return day.toISODate()!;
}

const cutoffCache = new Map<string, number>();

function parseCutoff(cutoff: string): number {
  let minutes = cutoffCache.get(cutoff);
  if (minutes === undefined) {
    const m = /^(\d{2}):(\d{2})$/.exec(cutoff);
    if (!m) throw new Error(`businessDayOf: cut-off must be HH:MM, got ${cutoff}`);
    minutes = Number(m[1]) * 60 + Number(m[2]);
    cutoffCache.set(cutoff, minutes);
  }
  return minutes;
}

const QUARTER = 15 * 60_000;
const offsets = new Map<string, number>();

/** The zone's offset from UTC at an instant, in ms (local wall clock = instant + offset). */
export function offsetMs(timezone: string, ms: number): number {
  const bucket = Math.floor(ms / QUARTER);
  const key = `${timezone}|${bucket}`;
  const cached = offsets.get(key);
  if (cached !== undefined) return cached;
  const zone = zoneOf(timezone);
  const start = zone.offset(bucket * QUARTER);
  const end = zone.offset(bucket * QUARTER + QUARTER - 1);
  if (start !== end) return zone.offset(ms) * 60_000;
  if (offsets.size > 100_000) offsets.clear();
  offsets.set(key, start * 60_000);
  return start * 60_000;
}

function zoneOf(timezone: string): IANAZone {
  const zone = IANAZone.create(timezone);
  if (!zone.isValid) throw new Error(`businessDayOf: invalid zone ${timezone}`);
  return zone;
}

/** A calendar date (`YYYY-MM-DD`) `days` later (or earlier, when negative): calendar days, no time zone. */
export function addDays(date: string, days: number): string {
  return DateTime.fromISO(date, { zone: 'utc' }).plus({ days }).toISODate()!;
}

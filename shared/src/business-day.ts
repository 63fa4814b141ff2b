/**
 * The business day (YYYY-MM-DD) of a UTC instant at a location (spec: ingestion rule 8): the local
 * calendar date, or the day before when the local time of day is before the cut-off (01:30 with a
 * 04:00 cut-off belongs to the previous day). Compared as wall-clock time, so both passes through a
 * repeated hour land on the same day, and a cut-off inside a skipped hour takes effect at the first
 * local time after it.
 *
 * Hot path (every ingested record): the zone's UTC offset comes from Intl once per zone and
 * quarter-hour and is then reused — offsets only change at transitions, and tz transitions fall
 * on quarter hours; a quarter hour whose two ends disagree is never cached.
 */
export function businessDayOf(occurredAtUtc: string, timezone: string, cutoff: string): string {
  const ms = Date.parse(occurredAtUtc);
  if (Number.isNaN(ms)) throw new Error(`businessDayOf: invalid instant ${occurredAtUtc}`);
  const cutoffMinutes = parseCutoff(cutoff);
  const local = new Date(ms + offsetMs(timezone, ms));
  const minuteOfDay = local.getUTCHours() * 60 + local.getUTCMinutes();
  if (minuteOfDay < cutoffMinutes) local.setUTCDate(local.getUTCDate() - 1);
  return local.toISOString().slice(0, 10);
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
const formatters = new Map<string, Intl.DateTimeFormat>();
const offsets = new Map<string, number>();

/** The zone's offset from UTC at an instant, in ms (local wall clock = instant + offset). */
export function offsetMs(timezone: string, ms: number): number {
  const bucket = Math.floor(ms / QUARTER);
  const key = `${timezone}|${bucket}`;
  const cached = offsets.get(key);
  if (cached !== undefined) return cached;
  const start = exactOffset(timezone, bucket * QUARTER);
  const end = exactOffset(timezone, bucket * QUARTER + QUARTER - 1);
  if (start !== end) return exactOffset(timezone, ms);
  if (offsets.size > 100_000) offsets.clear();
  offsets.set(key, start);
  return start;
}

function exactOffset(timezone: string, ms: number): number {
  let f = formatters.get(timezone);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat('en-US', { timeZone: timezone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
    } catch {
      throw new Error(`businessDayOf: invalid zone ${timezone}`);
    }
    formatters.set(timezone, f);
  }
  const p: Record<string, number> = {};
  for (const part of f.formatToParts(ms)) if (part.type !== 'literal') p[part.type] = Number(part.value);
  const wall = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return wall - (ms - (((ms % 1000) + 1000) % 1000));
}

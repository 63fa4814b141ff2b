import { DateTime } from 'luxon';
import type { AvailabilityKindName } from './entities';

/** A stored availability window, as the rules read it. */
export interface WindowRow {
  kind: AvailabilityKindName;
  weekday?: string | null;
  date?: string | null;
  startTime: string;
  endTime: string;
  effectiveFrom?: string | null;
  effectiveUntil?: string | null;
}

export interface Interval {
  start: number;
  end: number;
}

const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

/** The windows that hold on a local date: that date's dated exceptions when it has any, else the recurring windows of its weekday in effect. */
export function windowsOn(windows: WindowRow[], date: string): WindowRow[] {
  const dated = windows.filter((w) => w.date === date);
  if (dated.length > 0) return dated;
  const weekday = WEEKDAYS[DateTime.fromISO(date, { zone: 'UTC' }).weekday - 1];
  return windows.filter((w) => !w.date && w.weekday === weekday && (!w.effectiveFrom || w.effectiveFrom <= date) && (!w.effectiveUntil || date <= w.effectiveUntil));
}

/** A window on a date as an instant interval in the zone (`24:00` is the next midnight; DST-safe). */
export function windowInterval(w: Pick<WindowRow, 'startTime' | 'endTime'>, date: string, zone: string): Interval {
  const at = (time: string) => {
    const day = DateTime.fromISO(date, { zone });
    if (time === '24:00') return day.plus({ days: 1 }).startOf('day').toMillis();
    const [h, m] = time.split(':').map(Number);
    return day.set({ hour: h, minute: m }).toMillis();
  };
  return { start: at(w.startTime), end: at(w.endTime) };
}

/** The local dates an instant interval touches in a zone. */
export function localDatesOf(start: number, end: number, zone: string): string[] {
  const dates: string[] = [];
  let day = DateTime.fromMillis(start, { zone }).startOf('day');
  while (day.toMillis() < end) {
    dates.push(day.toISODate()!);
    day = day.plus({ days: 1 }).startOf('day');
  }
  return dates;
}

/** Whether the union of intervals covers [start, end) entirely. */
function covers(intervals: Interval[], start: number, end: number): boolean {
  let reached = start;
  for (const i of [...intervals].sort((a, b) => a.start - b.start)) {
    if (i.start > reached) break;
    reached = Math.max(reached, i.end);
    if (reached >= end) return true;
  }
  return reached >= end;
}

const clock = (ms: number, zone: string) => DateTime.fromMillis(ms, { zone }).toFormat('ccc d LLL HH:mm');
/** a window's end as its wall-clock time: the next midnight reads 24:00 */
const until = (ms: number, zone: string) => {
  const t = DateTime.fromMillis(ms, { zone }).toFormat('HH:mm');
  return t === '00:00' ? '24:00' : t;
};

/**
 * What the employee's availability says about working [start, end), in words, or null when it fits:
 * an `unavailable` window it overlaps; or, for an employee who has stated when they can work (any
 * `available` or `preferred` window), a part of it outside those windows. An employee who has stated
 * nothing is taken as available.
 */
export function availabilityConflict(windows: WindowRow[], start: number, end: number, zone: string): string | null {
  const dates = localDatesOf(start - 86_400_000, end, zone);
  const held = dates.flatMap((d) => windowsOn(windows, d).map((w) => ({ kind: w.kind, ...windowInterval(w, d, zone) })));
  const blocked = held.find((w) => w.kind === 'unavailable' && w.start < end && w.end > start);
  if (blocked) return `is unavailable ${clock(blocked.start, zone)}–${until(blocked.end, zone)}`;
  if (!windows.some((w) => w.kind !== 'unavailable')) return null;
  const open = held.filter((w) => w.kind !== 'unavailable');
  if (covers(open, start, end)) return null;
  const touching = open.filter((w) => w.start < end && w.end > start);
  if (touching.length === 0) return 'has no availability then';
  return `is available only ${touching.map((w) => `${clock(w.start, zone)}–${until(w.end, zone)}`).join(', ')} then`;
}

/** Intervals merged where they touch or overlap, in order. */
export function mergeIntervals(list: Interval[]): Interval[] {
  const out: Interval[] = [];
  for (const i of [...list].filter((x) => x.end > x.start).sort((a, b) => a.start - b.start)) {
    const last = out.at(-1);
    if (last && i.start <= last.end) last.end = Math.max(last.end, i.end);
    else out.push({ ...i });
  }
  return out;
}

/** `from` less every interval of `less`. */
export function subtractIntervals(from: Interval[], less: Interval[]): Interval[] {
  let rest = mergeIntervals(from);
  for (const cut of mergeIntervals(less)) {
    rest = rest.flatMap((i) => {
      if (cut.end <= i.start || cut.start >= i.end) return [i];
      return [
        ...(cut.start > i.start ? [{ start: i.start, end: cut.start }] : []),
        ...(cut.end < i.end ? [{ start: cut.end, end: i.end }] : []),
      ];
    });
  }
  return rest;
}

/** A local day [00:00, next 00:00) as instants in the zone (23 or 25 hours on DST days). */
export function dayInterval(date: string, zone: string): Interval {
  const day = DateTime.fromISO(date, { zone }).startOf('day');
  return { start: day.toMillis(), end: day.plus({ days: 1 }).startOf('day').toMillis() };
}

/**
 * When an employee can work over the local days [from, to]: their `available` and `preferred`
 * windows (whole days when they have stated none), less their `unavailable` ones; and the preferred
 * part of it. Windows meeting at midnight join, so an overnight availability is one interval.
 */
export function workableIntervals(windows: WindowRow[], from: string, to: string, zone: string): { available: Interval[]; preferred: Interval[] } {
  const stated = windows.some((w) => w.kind !== 'unavailable');
  const available: Interval[] = [];
  const preferred: Interval[] = [];
  const blocked: Interval[] = [];
  for (let d = DateTime.fromISO(from, { zone: 'UTC' }); d.toISODate()! <= to; d = d.plus({ days: 1 })) {
    const date = d.toISODate()!;
    const held = windowsOn(windows, date);
    if (!stated) available.push(dayInterval(date, zone));
    for (const w of held) {
      const i = windowInterval(w, date, zone);
      if (w.kind === 'unavailable') blocked.push(i);
      else available.push(i);
      if (w.kind === 'preferred') preferred.push(i);
    }
  }
  return { available: subtractIntervals(available, blocked), preferred: subtractIntervals(preferred, blocked) };
}

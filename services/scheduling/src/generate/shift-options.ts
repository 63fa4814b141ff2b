import { HOUR_MS, minuteOfDay } from './clock';
import type { Prepared, Slot, Span, Worker } from './prepare';

/** A shift the solver may give: one employee, one position, one stretch of one availability window. */
export interface ShiftOption extends Span {
  index: number;
  worker: number;
  positionId: string;
  hours: number;
  /** local date of the start: the day the shift counts for */
  day: string;
  week: string;
  /** need slots of its position it lies over entirely */
  slots: number[];
  offPreferredHours: number;
}

export interface ShiftOptions {
  options: ShiftOption[];
  /** shifts looked at before dominated ones were dropped */
  considered: number;
}

function isOnGrid(t: number, p: Prepared): boolean {
  return p.minuteOf(t) % p.stepMinutes === 0;
}

/** Grid starts in [from, latest]: local minutes of the day on the step grid, DST-safe. */
function gridStarts(from: number, latest: number, p: Prepared): number[] {
  let t = Math.ceil(from / 60_000) * 60_000;
  const m = minuteOfDay(t, p.zone);
  t += ((p.stepMinutes - (m % p.stepMinutes)) % p.stepMinutes) * 60_000;
  for (let guard = 0; guard < p.stepMinutes && !isOnGrid(t, p); guard++) t += 60_000;
  const out: number[] = [];
  for (; t <= latest; t += p.stepMs) if (isOnGrid(t, p)) out.push(t);
  return out;
}

function outsideHours(s: Span, preferred: Span[] | null): number {
  if (!preferred) return 0;
  let inside = 0;
  for (const w of preferred) inside += Math.max(0, Math.min(s.end, w.end) - Math.max(s.start, w.start));
  return (s.end - s.start - inside) / HOUR_MS;
}

/** Breaks rest or the one-shift-a-day rule against a shift the employee already has. */
function clashesWithOther(s: Span, day: string, w: Worker, p: Prepared): boolean {
  return w.otherShifts.some((o) => (s.start < o.end + p.restMs && o.start < s.end + p.restMs) || p.dayOf(o.start) === day);
}

/** Where the need of a position rises and falls (the sum of needed across its slots changes). */
function needSteps(slots: Slot[]): { rises: Set<number>; falls: Set<number> } {
  const delta = new Map<number, number>();
  for (const s of slots) {
    delta.set(s.start, (delta.get(s.start) ?? 0) + s.needed);
    delta.set(s.end, (delta.get(s.end) ?? 0) - s.needed);
  }
  const rises = new Set<number>();
  const falls = new Set<number>();
  for (const [t, d] of delta) {
    if (d > 0) rises.add(t);
    if (d < 0) falls.add(t);
  }
  return { rises, falls };
}

/**
 * Every shift worth considering, per employee, availability window and position held.
 * Starts: the window's first grid start, every anchor (the hour, or the step when it is longer) and
 * every grid time where the position's need rises; ends: the minimum length, anchors, falls of the need
 * and the window's last grid end. This keeps a 15-minute grid from multiplying the shifts by four and
 * loses nothing when needs change on the hour.
 * A shift is then dropped when the next start or the previous end kept covers the same need slots (it
 * costs more for nothing, and the shorter one is looser for every rule), when it covers no need, or when
 * a rule already rules it out alone (a shift outside the draft, the weekly cap).
 */
export function shiftOptions(p: Prepared): ShiftOptions {
  const byPosition = new Map<string, Slot[]>();
  for (const s of p.slots) {
    const list = byPosition.get(s.positionId) ?? [];
    list.push(s);
    byPosition.set(s.positionId, list);
  }
  const steps = new Map([...byPosition].map(([id, slots]) => [id, needSteps(slots)]));
  const anchorMinutes = p.stepMinutes * Math.ceil(60 / p.stepMinutes);
  const onAnchor = (t: number) => p.minuteOf(t) % anchorMinutes === 0;
  const options: ShiftOption[] = [];
  let considered = 0;
  for (const w of p.workers) {
    for (const window of w.windows) {
      const from = p.now === null ? window.start : Math.max(window.start, p.now);
      const grid = gridStarts(from, window.end - p.minMs, p);
      for (const positionId of w.positions) {
        const inWindow = (byPosition.get(positionId) ?? []).filter((s) => s.start >= window.start && s.end <= window.end);
        if (inWindow.length === 0) continue;
        const { rises, falls } = steps.get(positionId)!;
        const starts = grid.filter((t, i) => i === 0 || onAnchor(t) || rises.has(t));
        starts.forEach((start, i) => {
          const day = p.dayOf(start);
          const week = p.weekOf(day);
          const room = p.allowOvertime ? Infinity : p.weeklyCap - w.alreadyIn(week);
          const next = starts[i + 1];
          const nextSameDay = next !== undefined && p.dayOf(next) === day;
          const ends: number[] = [];
          for (let len = p.minMs; len <= p.maxMs && start + len <= window.end; len += p.stepMs) {
            const end = start + len;
            if (len === p.minMs || end + p.stepMs > window.end || onAnchor(end) || falls.has(end)) ends.push(end);
          }
          ends.forEach((end, j) => {
            considered++;
            const covered = inWindow.filter((s) => s.start >= start && s.end <= end);
            if (covered.length === 0) return;
            if (nextSameDay && end - next >= p.minMs && !covered.some((s) => s.start < next)) return;
            const previous = ends[j - 1];
            if (previous !== undefined && !covered.some((s) => s.end > previous)) return;
            const hours = (end - start) / HOUR_MS;
            if (hours > room + 1e-9) return;
            const span = { start, end };
            if (clashesWithOther(span, day, w, p)) return;
            options.push({ index: options.length, worker: w.index, positionId, start, end, hours, day, week, slots: covered.map((s) => s.index), offPreferredHours: outsideHours(span, w.preferred) });
          });
        });
      }
    }
  }
  return { options, considered };
}

import { HOUR_MS, isoOf, spanInWords } from './clock';
import type { Prepared, Slot, Span, Worker } from './prepare';
import type { ShiftOption } from './shift-options';
import type { DraftUnmet } from './types';

/** English plural of a position name's last word ("line cook" → "line cooks", "hostess" → "hostesses"). */
export function pluralOf(name: string): string {
  if (/(s|x|z|ch|sh)$/i.test(name)) return `${name}es`;
  if (/[^aeiou]y$/i.test(name)) return `${name.slice(0, -1)}ies`;
  return `${name}s`;
}

const counted = (n: number, name: string) => `${n} ${n === 1 ? name : pluralOf(name)}`;
const fmtHours = (h: number) => `${Math.round(h * 100) / 100} h`;

const overlaps = (a: Span, b: Span) => a.start < b.end && b.start < a.end;
const within = (inner: Span, outer: Span) => outer.start <= inner.start && inner.end <= outer.end;

interface Group {
  positionId: string;
  slots: Slot[];
  missing: number;
  needed: number;
}

/** Consecutive slots of a position with the same shortfall read as one stretch. */
function groupsOf(p: Prepared, missingOf: number[]): Group[] {
  const out: Group[] = [];
  const open = new Map<string, Group>();
  for (const s of p.slots) {
    const missing = missingOf[s.index];
    if (missing <= 0) continue;
    const g = open.get(s.positionId);
    const last = g?.slots[g.slots.length - 1];
    if (g && last && last.end === s.start && g.missing === missing && g.needed === s.needed) {
      g.slots.push(s);
    } else {
      const fresh = { positionId: s.positionId, slots: [s], missing, needed: s.needed };
      out.push(fresh);
      open.set(s.positionId, fresh);
    }
  }
  return out;
}

type Blocker = [one: string, many: string];

const AWAY: Record<Worker['away'][number]['reason'], Blocker> = {
  time_off: ['is on approved time off then', 'are on approved time off then'],
  other_shift: ['works another shift then', 'work another shift then'],
  left: ['has left by then', 'have left by then'],
};

/** Why a holder of the position is not available for all of a stretch: what was taken out of their availability, else the availability itself. */
function awayOf(w: Worker, span: Span): Blocker {
  const away = w.away.find((a) => overlaps(a, span));
  if (away) return AWAY[away.reason];
  if (w.windows.length === 0 && w.away.length === 0) return ['has no availability in the period', 'have no availability in the period'];
  return ['has no availability then', 'have no availability then'];
}

/** "2 are on approved time off then; 1 has no pay rate in force on 2026-12-21" from blockers counted by their first form. */
function tallied(blockers: Blocker[]): string {
  const tally = new Map<string, { blocker: Blocker; n: number }>();
  for (const b of blockers) {
    const seen = tally.get(b[0]);
    if (seen) seen.n++;
    else tally.set(b[0], { blocker: b, n: 1 });
  }
  return [...tally.values()].map(({ blocker, n }) => `${n} ${n === 1 ? blocker[0] : blocker[1]}`).join('; ');
}

/** The plural form of a left-out reason in the third person singular ("has no pay rate…" → "have no pay rate…"). */
const leftOutBlocker = (reason: string): Blocker => [reason, reason.replace(/^has\b/, 'have').replace(/^is\b/, 'are')];

/** Why an employee who holds the position and is available then is not on it (singular and plural wording), or null when they are. */
function blockerOf(w: Worker, g: Group, span: Span, p: Prepared, mine: ShiftOption[], options: ShiftOption[]): Blocker | null {
  const working = mine.find((o) => overlaps(o, span));
  if (working) {
    if (working.positionId === g.positionId) return null;
    const as = p.positionName(working.positionId);
    return [`already works as ${as} then`, `already work as ${as} then`];
  }
  const day = p.dayOf(span.start);
  if (mine.some((o) => o.day === day) || w.otherShifts.some((o) => p.dayOf(o.start) === day)) return ['already has a shift that day', 'already have a shift that day'];
  const busy = [...mine, ...w.otherShifts];
  if (busy.some((o) => o.start < span.end + p.restMs && span.start < o.end + p.restMs)) {
    const rest = `less than ${fmtHours(p.restMs / HOUR_MS)} rest between shifts`;
    return [`would get ${rest}`, `would get ${rest}`];
  }
  if (!p.allowOvertime) {
    const week = p.weekOf(day);
    const worked = w.alreadyIn(week) + mine.filter((o) => o.week === week).reduce((sum, o) => sum + o.hours, 0);
    if (worked + p.minMs / HOUR_MS > p.weeklyCap + 1e-9) {
      const cap = `${fmtHours(p.weeklyCap)} in the workweek (no overtime)`;
      return [`would pass ${cap}`, `would pass ${cap}`];
    }
  }
  const fits = options.filter((o) => o.worker === w.index && o.positionId === g.positionId && o.slots.some((i) => g.slots.some((s) => s.index === i)));
  if (fits.length === 0) {
    if (p.now !== null && span.start < p.now + p.minMs) return ['cannot start a shift in time', 'cannot start a shift in time'];
    const short = `available for less than a ${fmtHours(p.minMs / HOUR_MS)} shift around it`;
    return [`is ${short}`, `are ${short}`];
  }
  return ['was left off: the solver found covering it not worth the cost', 'were left off: the solver found covering it not worth the cost'];
}

/** Every unmet need in words: how many are missing when, and why (nobody holds it, too few available and what keeps each away — time off, another shift, no pay rate, availability — or what keeps the available ones off it). */
export function explainUnmet(p: Prepared, options: ShiftOption[], chosen: ShiftOption[], missingOf: number[]): DraftUnmet[] {
  const byWorker = new Map<number, ShiftOption[]>();
  for (const o of chosen) byWorker.set(o.worker, [...(byWorker.get(o.worker) ?? []), o]);
  return groupsOf(p, missingOf).map((g) => {
    const span = { start: g.slots[0].start, end: g.slots[g.slots.length - 1].end };
    const name = p.positionName(g.positionId);
    const holders = p.workers.filter((w) => w.positions.includes(g.positionId));
    const availableFor = (s: Slot) => holders.filter((w) => w.windows.some((win) => within(s, win)));
    const available = Math.min(...g.slots.map((s) => availableFor(s).length));
    // the holders not available for all of the stretch, and those who could not be drafted at all, each with why
    const leftOut = p.leftOut.filter((l) => l.positionIds.includes(g.positionId)).map((l) => leftOutBlocker(l.reason));
    const unavailable = () => tallied([...holders.filter((w) => !g.slots.every((s) => w.windows.some((win) => within(s, win)))).map((w) => awayOf(w, span)), ...leftOut]);
    let why: string;
    if (holders.length === 0) {
      why = leftOut.length === 0 ? `nobody holds the position ${name}` : `nobody who holds the position ${name} can be drafted: ${tallied(leftOut)}`;
    } else if (available === 0) {
      why = `no ${name} is available then (${counted(holders.length + leftOut.length, 'employee')} ${holders.length + leftOut.length === 1 ? 'holds' : 'hold'} the position: ${unavailable()})`;
    } else if (available < g.needed) {
      const others = unavailable();
      why = `only ${available} of ${counted(g.needed, name)} ${available === 1 ? 'is' : 'are'} available then${others ? ` (${others})` : ''}`;
    } else {
      const tally = new Map<string, { blocker: Blocker; n: number }>();
      for (const w of holders.filter((h) => h.windows.some((win) => within(span, win)))) {
        const b = blockerOf(w, g, span, p, byWorker.get(w.index) ?? [], options);
        if (!b) continue;
        const seen = tally.get(b[0]);
        if (seen) seen.n++;
        else tally.set(b[0], { blocker: b, n: 1 });
      }
      const parts = [...tally.values()].map(({ blocker, n }) => `${n} ${n === 1 ? blocker[0] : blocker[1]}`);
      why = `${counted(available, name)} ${available === 1 ? 'is' : 'are'} available then${parts.length ? `, but ${parts.join('; ')}` : ''}`;
    }
    return {
      positionId: g.positionId,
      start: isoOf(span.start),
      end: isoOf(span.end),
      missing: g.missing,
      reason: `${counted(g.missing, name)} missing ${spanInWords(span.start, span.end, p.zone)}: ${why}`,
    };
  });
}

import Decimal from 'decimal.js';
import { HOUR_MS, isValidZone, localDayOf, minuteOfDay, parseInstant, workweekOf } from './clock';
import { DraftInputError, type DraftAway, type DraftInput, type DraftLeftOut, type DraftWeekStart, type DraftWindow } from './types';

export interface Span {
  start: number;
  end: number;
}

export interface Slot extends Span {
  index: number;
  positionId: string;
  hours: number;
  needed: number;
}

export interface Worker {
  index: number;
  id: string;
  name: string;
  positions: string[];
  rate: Decimal;
  rateValue: number;
  windows: Span[];
  /** null when the employee gave no preference */
  preferred: Span[] | null;
  otherShifts: Span[];
  /** stretches taken out of the availability, and why */
  away: Array<Span & { reason: DraftAway['reason'] }>;
  alreadyIn(week: string): number;
}

export interface Prepared {
  zone: string;
  slots: Slot[];
  workers: Worker[];
  now: number | null;
  stepMinutes: number;
  stepMs: number;
  minMs: number;
  maxMs: number;
  restMs: number;
  weekStart: DraftWeekStart;
  weeklyCap: number;
  allowOvertime: boolean;
  overtimeMultiplier: number;
  fairnessWeight: number;
  preferenceWeight: number;
  leftOut: DraftLeftOut[];
  positionName(id: string): string;
  /** local date of an instant (memoised: luxon is the slow part of enumerating shifts) */
  dayOf(ms: number): string;
  /** local minutes since midnight of an instant (memoised) */
  minuteOf(ms: number): number;
  /** first local date of the workweek holding a local date (memoised) */
  weekOf(day: string): string;
}

function memoised<K, V>(f: (k: K) => V): (k: K) => V {
  const seen = new Map<K, V>();
  return (k) => {
    let v = seen.get(k);
    if (v === undefined) seen.set(k, (v = f(k)));
    return v;
  };
}

function spansOf(windows: DraftWindow[], what: string): Span[] {
  const spans = windows.map((w, i) => {
    const s = { start: parseInstant(w.start, `${what}[${i}].start`), end: parseInstant(w.end, `${what}[${i}].end`) };
    if (s.end <= s.start) throw new DraftInputError(`${what}[${i}] ends before it starts`);
    return s;
  });
  return mergeSpans(spans);
}

/** Overlapping or touching windows become one, so a shift may run across their seam. */
export function mergeSpans(spans: Span[]): Span[] {
  const sorted = [...spans].sort((a, b) => a.start - b.start);
  const out: Span[] = [];
  for (const s of sorted) {
    const last = out[out.length - 1];
    if (last && s.start <= last.end) last.end = Math.max(last.end, s.end);
    else out.push({ ...s });
  }
  return out;
}

function checkRules(input: DraftInput): void {
  const r = input.rules;
  const finite = (v: number | undefined, name: string, min: number) => {
    if (v !== undefined && (!Number.isFinite(v) || v < min)) throw new DraftInputError(`rules.${name} must be a number ≥ ${min}`);
  };
  finite(r.minShiftHours, 'minShiftHours', 0.25);
  finite(r.maxShiftHours, 'maxShiftHours', r.minShiftHours);
  finite(r.minRestHours, 'minRestHours', 0);
  finite(r.maxHoursPerDay, 'maxHoursPerDay', 0);
  finite(r.weeklyOvertimeAfter, 'weeklyOvertimeAfter', 0);
  finite(r.overtimeMultiplier, 'overtimeMultiplier', 1);
  finite(r.fairnessWeight, 'fairnessWeight', 0);
  finite(r.preferenceWeight, 'preferenceWeight', 0);
  if (!Number.isInteger(r.shiftStartStepMinutes) || r.shiftStartStepMinutes < 5 || r.shiftStartStepMinutes > 240) {
    throw new DraftInputError('rules.shiftStartStepMinutes must be a whole number of minutes from 5 to 240');
  }
  if (!isValidZone(input.zone)) throw new DraftInputError(`zone "${input.zone}" is not an IANA time zone`);
}

/** Parses and checks the input, and brings it to milliseconds, merged windows and whole steps. */
export function prepareDraft(input: DraftInput): Prepared {
  checkRules(input);
  const r = input.rules;
  const step = r.shiftStartStepMinutes;
  const maxHours = Math.min(r.maxShiftHours, r.maxHoursPerDay ?? Infinity);
  const minSteps = Math.ceil((r.minShiftHours * 60) / step - 1e-9);
  const maxSteps = Math.floor((maxHours * 60) / step + 1e-9);
  if (maxSteps < minSteps) {
    throw new DraftInputError(`no shift length fits: at least ${r.minShiftHours} h, at most ${maxHours} h, in steps of ${step} min`);
  }
  const now = input.now === undefined ? null : parseInstant(input.now, 'now');

  const merged = new Map<string, Slot>();
  input.needs.forEach((n, i) => {
    if (!Number.isInteger(n.needed) || n.needed < 0) throw new DraftInputError(`needs[${i}].needed must be a whole number ≥ 0`);
    const start = parseInstant(n.start, `needs[${i}].start`);
    const end = parseInstant(n.end, `needs[${i}].end`);
    if (end <= start) throw new DraftInputError(`needs[${i}] ends before it starts`);
    if (n.needed === 0 || (now !== null && start < now)) return;
    const key = `${n.positionId}\u0000${start}\u0000${end}`;
    const seen = merged.get(key);
    if (seen) seen.needed += n.needed;
    else merged.set(key, { index: 0, positionId: n.positionId, start, end, hours: (end - start) / HOUR_MS, needed: n.needed });
  });
  const slots = [...merged.values()].sort((a, b) => a.start - b.start || a.end - b.end || a.positionId.localeCompare(b.positionId));
  slots.forEach((s, i) => (s.index = i));

  const seenIds = new Set<string>();
  const workers = input.candidates.map((c, i): Worker => {
    if (seenIds.has(c.employeeId)) throw new DraftInputError(`candidate ${c.employeeId} is listed twice`);
    seenIds.add(c.employeeId);
    let rate: Decimal;
    try {
      rate = new Decimal(c.hourlyRate);
    } catch {
      throw new DraftInputError(`candidates[${i}].hourlyRate "${c.hourlyRate}" is not a decimal`);
    }
    if (!rate.isFinite() || rate.isNegative()) throw new DraftInputError(`candidates[${i}].hourlyRate must be ≥ 0`);
    const already = c.hoursAlreadyScheduled;
    return {
      index: i,
      id: c.employeeId,
      name: c.name,
      positions: [...new Set(c.positionIds)],
      rate,
      rateValue: rate.toNumber(),
      windows: spansOf(c.available, `candidates[${i}].available`),
      preferred: c.preferred && c.preferred.length > 0 ? spansOf(c.preferred, `candidates[${i}].preferred`) : null,
      otherShifts: spansOf(c.otherShifts ?? [], `candidates[${i}].otherShifts`),
      away: (c.away ?? []).map((a, k) => ({ start: parseInstant(a.start, `candidates[${i}].away[${k}].start`), end: parseInstant(a.end, `candidates[${i}].away[${k}].end`), reason: a.reason })),
      alreadyIn: (week) => (typeof already === 'number' ? already : (already[week] ?? 0)),
    };
  });

  return {
    zone: input.zone,
    slots,
    workers,
    now,
    stepMinutes: step,
    stepMs: step * 60_000,
    minMs: minSteps * step * 60_000,
    maxMs: maxSteps * step * 60_000,
    restMs: r.minRestHours * HOUR_MS,
    weekStart: r.weekStart ?? 'monday',
    weeklyCap: r.weeklyOvertimeAfter,
    allowOvertime: r.allowOvertime,
    overtimeMultiplier: r.overtimeMultiplier,
    fairnessWeight: r.fairnessWeight ?? 0.1,
    preferenceWeight: r.preferenceWeight ?? 0.25,
    leftOut: input.leftOut ?? [],
    positionName: (id) => input.positionNames?.[id] ?? id,
    dayOf: memoised((ms: number) => localDayOf(ms, input.zone)),
    minuteOf: memoised((ms: number) => minuteOfDay(ms, input.zone)),
    weekOf: memoised((day: string) => workweekOf(day, r.weekStart ?? 'monday')),
  };
}

import Decimal from 'decimal.js';
import { offsetMs } from '@bop/shared';
import { classifyWeek, type ClassifiedDay, type OvertimeRules } from '../rules/overtime';

export type PunchType = 'clock_in' | 'clock_out' | 'break_start' | 'break_end';
export type WeekStart = 'monday' | 'tuesday' | 'wednesday' | 'thursday' | 'friday' | 'saturday' | 'sunday';

export interface CalcPunch {
  id: string;
  type: PunchType;
  /** UTC ISO instant */
  occurredAt: string;
  locationId: string;
  position: string | null;
}

export interface BreakRuleSet {
  breaks: Array<{ name: string; paid: boolean; minutes: number; dueAfterHours: string }>;
  maxShiftHours: string | null;
}

export interface TimesheetInput {
  /** the employee's punches from the first day of the first workweek touching the period to the period's end, in any order */
  punches: readonly CalcPunch[];
  /** inclusive local dates */
  period: { start: string; end: string };
  /** IANA zone the days are counted in (the employee's home location) */
  timezone: string;
  weekStart: WeekStart;
  overtime: OvertimeRules;
  breaks: BreakRuleSet;
  /** an open shift whose clock-in is within `maxOpenShiftHours` of now is in progress, not an exception */
  now: Date;
  /** default 16 */
  maxOpenShiftHours?: number;
}

export interface TimesheetShift {
  start: string;
  end: string | null;
  locationId: string;
  position: string | null;
  workedHours: string;
  breaks: Array<{ start: string; end: string | null; minutes: number; paid: boolean }>;
}

export interface TimesheetDay {
  date: string;
  workedHours: string;
  paidBreakHours: string;
  unpaidBreakHours: string;
  regularHours: string;
  /** multiplier → hours, e.g. {"1.5": "2.00"} */
  overtime: Record<string, string>;
  shifts: TimesheetShift[];
}

export type TimesheetExceptionCode =
  | 'missing_clock_out'
  | 'missing_clock_in'
  | 'overlapping_punches'
  | 'break_not_taken'
  | 'short_break'
  | 'shift_too_long'
  | 'break_not_ended'
  | 'unexpected_punch';

export interface TimesheetException {
  code: TimesheetExceptionCode;
  date: string;
  punchIds: string[];
  /** in words, with local dates and times */
  message: string;
}

export interface TimesheetFigures {
  /** every date of the period, in order, even with 0 hours */
  days: TimesheetDay[];
  /** every workweek overlapping the period, whole */
  weeks: Array<{ start: string; end: string; workedHours: string; regularHours: string; overtime: Record<string, string> }>;
  totals: { workedHours: string; regularHours: string; overtime: Record<string, string>; paidBreakHours: string; unpaidBreakHours: string };
  exceptions: TimesheetException[];
  /** an exception means a punch is missing: the timesheet cannot be approved */
  missingPunches: boolean;
  inProgress: boolean;
}

export const DEFAULT_MAX_OPEN_SHIFT_HOURS = 16;

const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
const WEEKDAYS: readonly WeekStart[] = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const MISSING_CODES: ReadonlySet<TimesheetExceptionCode> = new Set(['missing_clock_out', 'missing_clock_in', 'break_not_ended']);
const PUNCH_WORDS: Record<PunchType, string> = { clock_in: 'clock-in', clock_out: 'clock-out', break_start: 'break start', break_end: 'break end' };

interface Stamp {
  punch: CalcPunch;
  ms: number;
}

interface Break {
  start: Stamp;
  end: Stamp | null;
  paid: boolean;
}

interface Shift {
  date: string;
  in: Stamp;
  out: Stamp | null;
  breaks: Break[];
  /** the first clock-in punched while this shift was open */
  nextIn: Stamp | null;
  state: 'open' | 'closed' | 'missing' | 'in_progress';
  /** where its counted time starts: later than the clock-in when an earlier shift overlaps it */
  countedFrom: number;
  workedMs: number;
  paidBreakMs: number;
  unpaidBreakMs: number;
}

interface RaisedException extends TimesheetException {
  at: number;
}

/**
 * Timesheet figures from an employee's punches over a pay period (spec: timesheets derived from punches per
 * employee and pay period: daily and weekly hours, breaks, regular and overtime hours, exceptions in words).
 * Pure: the time comes only from `now`.
 */
export function calculateTimesheet(input: TimesheetInput): TimesheetFigures {
  const { timezone, breaks: breakRules } = input;
  const periodStart = dayNumber(input.period.start, 'period.start');
  const periodEnd = dayNumber(input.period.end, 'period.end');
  if (periodEnd < periodStart) throw new Error(`calculateTimesheet: period ends (${input.period.end}) before it starts (${input.period.start})`);
  const weekStartDay = WEEKDAYS.indexOf(input.weekStart);
  if (weekStartDay < 0) throw new Error(`calculateTimesheet: unknown weekStart ${String(input.weekStart)}`);
  const maxOpenMs = (input.maxOpenShiftHours ?? DEFAULT_MAX_OPEN_SHIFT_HOURS) * HOUR_MS;
  const nowMs = input.now.getTime();

  const local = (ms: number) => {
    const iso = new Date(ms + offsetMs(timezone, ms)).toISOString();
    return { date: iso.slice(0, 10), time: iso.slice(11, 16) };
  };
  const when = (s: Stamp) => `${local(s.ms).time} on ${local(s.ms).date}`;
  const span = (a: Stamp, b: Stamp) => (local(a.ms).date === local(b.ms).date ? `from ${local(a.ms).time} to ${local(b.ms).time} on ${local(a.ms).date}` : `from ${when(a)} to ${when(b)}`);

  const raised: RaisedException[] = [];
  const raise = (code: TimesheetExceptionCode, date: string, stamps: readonly Stamp[], message: string) =>
    raised.push({ code, date, punchIds: stamps.map((s) => s.punch.id), message, at: stamps[0].ms });

  // spec order: by occurredAt, then id
  const stamps = input.punches
    .map((punch) => ({ punch, ms: instant(punch.occurredAt, punch.id) }))
    .sort((a, b) => a.ms - b.ms || (a.punch.id < b.punch.id ? -1 : a.punch.id > b.punch.id ? 1 : 0));

  const shifts: Shift[] = [];
  const open: Shift[] = [];
  const markMissing = (s: Shift) => {
    s.state = 'missing';
    open.splice(open.indexOf(s), 1);
    const next = s.nextIn ? ` before the next clock-in at ${when(s.nextIn)}` : '';
    raise('missing_clock_out', s.date, [s.in], `Clock-in at ${when(s.in)} has no clock-out${next}.`);
  };

  const apply = (st: Stamp) => {
    switch (st.punch.type) {
      case 'clock_in': {
        for (const s of [...open]) {
          s.nextIn ??= st;
          // a shift left open this long was not closed by the employee: this clock-in starts new work
          if (st.ms - s.in.ms > maxOpenMs) markMissing(s);
        }
        const s: Shift = { date: local(st.ms).date, in: st, out: null, breaks: [], nextIn: null, state: 'open', countedFrom: st.ms, workedMs: 0, paidBreakMs: 0, unpaidBreakMs: 0 };
        open.push(s);
        shifts.push(s);
        return;
      }
      case 'clock_out': {
        // two devices may each have a shift open: a clock-out closes the latest one at its own location first
        const s = open.findLast((x) => x.in.punch.locationId === st.punch.locationId) ?? open.at(-1);
        if (!s) {
          raise('missing_clock_in', local(st.ms).date, [st], `Clock-out at ${when(st)} has no clock-in before it.`);
          return;
        }
        const b = s.breaks.at(-1);
        if (b && !b.end) raise('break_not_ended', s.date, [b.start], `Break started at ${when(b.start)} was not ended before the clock-out at ${when(st)}.`);
        s.out = st;
        s.state = 'closed';
        open.splice(open.indexOf(s), 1);
        return;
      }
      case 'break_start': {
        const s = open.at(-1);
        if (!s) {
          raise('unexpected_punch', local(st.ms).date, [st], `Break start at ${when(st)} is outside any shift (no clock-in before it).`);
          return;
        }
        const b = s.breaks.at(-1);
        if (b && !b.end) raise('break_not_ended', s.date, [b.start], `Break started at ${when(b.start)} was not ended before the next break started at ${when(st)}.`);
        s.breaks.push({ start: st, end: null, paid: false });
        return;
      }
      case 'break_end': {
        const s = open.at(-1);
        const b = s?.breaks.at(-1);
        if (!s) raise('unexpected_punch', local(st.ms).date, [st], `Break end at ${when(st)} is outside any shift (no clock-in before it).`);
        else if (!b || b.end) raise('unexpected_punch', s.date, [st], `Break end at ${when(st)} has no break start before it.`);
        else b.end = st;
        return;
      }
    }
  };

  for (let i = 0; i < stamps.length; ) {
    let j = i;
    while (j < stamps.length && stamps[j].ms === stamps[i].ms) j++;
    // punches of one type at one instant are one punch sent twice (two devices, a retry): it counts once
    const group = stamps.slice(i, j).filter((s, k, all) => all.findIndex((o) => o.punch.type === s.punch.type) === k);
    if (group.length > 1) {
      const words = group.map((s) => PUNCH_WORDS[s.punch.type]);
      raise('overlapping_punches', local(group[0].ms).date, group, `${capitalise(words.slice(0, -1).join(', '))} and ${words.at(-1)} were punched at the same moment, ${when(group[0])}; which came first cannot be told.`);
    }
    group.forEach(apply);
    i = j;
  }
  for (const s of [...open]) {
    // only the latest clock-in can still be running; an earlier one was followed by another clock-in
    if (!s.nextIn && nowMs - s.in.ms <= maxOpenMs) {
      s.state = 'in_progress';
      open.splice(open.indexOf(s), 1);
    } else markMissing(s);
  }

  const closed = shifts.filter((s) => s.state === 'closed').sort((a, b) => a.in.ms - b.in.ms);
  let reach: Shift | null = null;
  for (const s of closed) {
    const out = s.out!;
    if (reach && s.in.ms < reach.out!.ms) {
      // overlapping shifts: the time already counted in the earlier one is not counted again
      s.countedFrom = Math.min(reach.out!.ms, out.ms);
      raise('overlapping_punches', s.date, [s.in, out, reach.in, reach.out!], `Shift ${span(s.in, out)} starts before the shift ${span(reach.in, reach.out!)} ended; the overlapping time is counted once.`);
    }
    if (!reach || out.ms > reach.out!.ms) reach = s;
    evaluateShift(s);
  }

  function evaluateShift(s: Shift) {
    const out = s.out!;
    const elapsedMs = out.ms - s.in.ms;
    const rules = breakRules.breaks.map((r, i) => ({ ...r, i, dueMs: hoursToMs(r.dueAfterHours) }));
    const shortest = rules.length ? rules.reduce((a, b) => (b.minutes < a.minutes ? b : a)) : null;
    const taken = new Map<number, Break>();
    for (const b of s.breaks) {
      if (!b.end) continue;
      const length = b.end.ms - b.start.ms;
      // a break is the kind of the longest rule it reaches (a 30-minute meal is not a 10-minute rest);
      // of rules of that length, the first not yet taken, earliest due first
      const kind = Math.max(-1, ...rules.filter((r) => r.minutes * MINUTE_MS <= length).map((r) => r.minutes));
      const rule = rules
        .filter((r) => r.minutes === kind && !taken.has(r.i))
        .sort((a, b) => a.dueMs - b.dueMs || a.i - b.i)[0];
      if (rule) {
        taken.set(rule.i, b);
        b.paid = rule.paid;
      }
      if (shortest && length < shortest.minutes * MINUTE_MS)
        raise('short_break', s.date, [b.start, b.end], `Break ${span(b.start, b.end)} lasted ${minutesWords(length)} minutes, shorter than the ${shortest.minutes}-minute ${shortest.name}; it is unpaid.`);
    }
    for (const r of rules) {
      if (elapsedMs <= r.dueMs) continue;
      const b = taken.get(r.i);
      // spec: break due but not taken — none of the rule's length started by the time it was due
      if (b && b.start.ms - s.in.ms <= r.dueMs) continue;
      const due: Stamp = { punch: s.in.punch, ms: s.in.ms + r.dueMs };
      raise('break_not_taken', s.date, b ? [s.in, b.start] : [s.in], `${r.name} of ${r.minutes} minutes was due by ${when(due)} (${hoursWords(r.dueMs)} hours into the shift ${span(s.in, out)}) but was not taken by then.`);
    }
    if (breakRules.maxShiftHours !== null && elapsedMs > hoursToMs(breakRules.maxShiftHours))
      raise('shift_too_long', s.date, [s.in, out], `Shift ${span(s.in, out)} lasted ${hoursWords(elapsedMs)} hours, longer than the ${hoursWords(hoursToMs(breakRules.maxShiftHours))}-hour limit.`);
    // worked = counted length − unpaid breaks; paid breaks are worked time (and reported as paid break hours)
    for (const b of s.breaks) {
      if (!b.end) continue;
      const inside = Math.max(0, Math.min(b.end.ms, out.ms) - Math.max(b.start.ms, s.countedFrom));
      if (b.paid) s.paidBreakMs += inside;
      else s.unpaidBreakMs += inside;
    }
    s.workedMs = out.ms - s.countedFrom - s.unpaidBreakMs;
  }

  // every workweek overlapping the period, whole: days before the period count toward its weekly overtime
  const firstWeek = periodStart - ((weekDayOf(periodStart) - weekStartDay + 7) % 7);
  const lastDay = periodEnd - ((weekDayOf(periodEnd) - weekStartDay + 7) % 7) + 6;
  const inPeriod = (date: string) => date >= input.period.start && date <= input.period.end;
  const byDate = new Map<string, { workedMs: number; paidMs: number; unpaidMs: number; shifts: Shift[] }>();
  for (let d = firstWeek; d <= lastDay; d++) byDate.set(dateOf(d), { workedMs: 0, paidMs: 0, unpaidMs: 0, shifts: [] });
  // a shift belongs to the local date of its clock-in, even when it ends after midnight
  for (const s of shifts) {
    const day = byDate.get(s.date);
    if (!day) continue;
    day.shifts.push(s);
    day.workedMs += s.workedMs;
    day.paidMs += s.paidBreakMs;
    day.unpaidMs += s.unpaidBreakMs;
  }

  const classified = new Map<string, ClassifiedDay>();
  const weeks: TimesheetFigures['weeks'] = [];
  for (let w = firstWeek; w <= lastDay; w += 7) {
    const dates = Array.from({ length: 7 }, (_, k) => dateOf(w + k));
    const week = classifyWeek(
      dates.map((date) => ({ date, hours: hoursOf(byDate.get(date)!.workedMs) })),
      input.overtime,
    );
    week.forEach((c) => classified.set(c.date, c));
    const split = splitMultipliers(week.map((c) => c.byMultiplier));
    weeks.push({ start: dates[0], end: dates[6], workedHours: sum(week.map((c) => c.hours)), ...split });
  }

  const days: TimesheetDay[] = [];
  for (let d = periodStart; d <= periodEnd; d++) {
    const date = dateOf(d);
    const day = byDate.get(date)!;
    days.push({
      date,
      workedHours: hoursOf(day.workedMs),
      paidBreakHours: hoursOf(day.paidMs),
      unpaidBreakHours: hoursOf(day.unpaidMs),
      ...splitMultipliers([classified.get(date)!.byMultiplier]),
      shifts: day.shifts.sort((a, b) => a.in.ms - b.in.ms).map(shiftOut),
    });
  }

  const exceptions = raised
    .filter((e) => inPeriod(e.date))
    .sort((a, b) => a.at - b.at)
    .map(({ code, date, punchIds, message }) => ({ code, date, punchIds, message }));
  const split = splitMultipliers(days.map((d) => ({ '1': d.regularHours, ...d.overtime })));
  return {
    days,
    weeks,
    totals: {
      workedHours: sum(days.map((d) => d.workedHours)),
      ...split,
      paidBreakHours: sum(days.map((d) => d.paidBreakHours)),
      unpaidBreakHours: sum(days.map((d) => d.unpaidBreakHours)),
    },
    exceptions,
    missingPunches: exceptions.some((e) => MISSING_CODES.has(e.code)),
    inProgress: shifts.some((s) => s.state === 'in_progress' && inPeriod(s.date)),
  };
}

/** A shift as reported: an incomplete one (no clock-out) counts 0 hours, as its end cannot be guessed. */
function shiftOut(s: Shift): TimesheetShift {
  return {
    start: new Date(s.in.ms).toISOString(),
    end: s.out ? new Date(s.out.ms).toISOString() : null,
    locationId: s.in.punch.locationId,
    position: s.in.punch.position,
    workedHours: hoursOf(s.workedMs),
    breaks: s.breaks.map((b) => ({
      start: new Date(b.start.ms).toISOString(),
      end: b.end ? new Date(b.end.ms).toISOString() : null,
      minutes: b.end ? new Decimal(b.end.ms - b.start.ms).div(MINUTE_MS).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toNumber() : 0,
      paid: b.paid,
    })),
  };
}

/** classifyWeek's multipliers summed: "1" is regular, the others overtime. */
function splitMultipliers(list: ReadonlyArray<Record<string, string>>): { regularHours: string; overtime: Record<string, string> } {
  const by = new Map<string, Decimal>();
  for (const record of list) for (const [m, h] of Object.entries(record)) by.set(m, (by.get(m) ?? new Decimal(0)).plus(h));
  const overtime: Record<string, string> = {};
  for (const [m, h] of [...by.entries()].sort((a, b) => new Decimal(a[0]).comparedTo(b[0]))) if (m !== '1' && h.gt(0)) overtime[m] = h.toFixed(2);
  return { regularHours: (by.get('1') ?? new Decimal(0)).toFixed(2), overtime };
}

/** Hours from milliseconds taken between instants, rounded half up to 2 decimals (rounded per day, never per punch). */
function hoursOf(ms: number): string {
  return new Decimal(ms).div(HOUR_MS).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2);
}

function sum(values: readonly string[]): string {
  return values.reduce((a, v) => a.plus(v), new Decimal(0)).toFixed(2);
}

function hoursToMs(hours: string): number {
  return new Decimal(hours).times(HOUR_MS).round().toNumber();
}

const hoursWords = (ms: number) => new Decimal(ms).div(HOUR_MS).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toString();
const minutesWords = (ms: number) => new Decimal(ms).div(MINUTE_MS).toDecimalPlaces(1, Decimal.ROUND_HALF_UP).toString();
const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function instant(iso: string, id: string): number {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) throw new Error(`calculateTimesheet: punch ${id} has an invalid instant ${iso}`);
  return ms;
}

/** Days since 1970-01-01 of a YYYY-MM-DD date (calendar arithmetic, no zone involved). */
function dayNumber(date: string, field: string): number {
  const ms = /^\d{4}-\d{2}-\d{2}$/.test(date) ? Date.parse(`${date}T00:00:00Z`) : NaN;
  if (Number.isNaN(ms) || dateOf(ms / DAY_MS) !== date) throw new Error(`calculateTimesheet: ${field} must be a date YYYY-MM-DD, got ${date}`);
  return ms / DAY_MS;
}

function dateOf(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** 0 Sunday … 6 Saturday */
function weekDayOf(day: number): number {
  return new Date(day * DAY_MS).getUTCDay();
}

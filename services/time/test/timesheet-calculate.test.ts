/** Pure rules of timesheets: punches paired into shifts, breaks, daily and weekly hours, overtime and exceptions. */
import { DateTime } from 'luxon';
import { CALIFORNIA, FORTY_HOURS as FORTY } from './rule-sets';
import { calculateTimesheet, type BreakRuleSet, type CalcPunch, type PunchType, type TimesheetInput } from '../src/timesheets/calculate';

const LA = 'America/Los_Angeles';
const NY = 'America/New_York';
const NO_BREAKS: BreakRuleSet = { breaks: [], maxShiftHours: null };
const MEAL = { name: 'Meal break', paid: false, minutes: 30, dueAfterHours: '5' };
const REST = { name: 'Rest break', paid: true, minutes: 10, dueAfterHours: '2' };

let seq = 0;
/** A punch at a local wall-clock time ("2026-03-16T09:00") in the zone, or at a UTC instant ("…Z"). */
function punch(type: PunchType, at: string, o: { zone?: string; locationId?: string } = {}): CalcPunch {
  const occurredAt = at.endsWith('Z') ? at : DateTime.fromISO(at, { zone: o.zone ?? LA }).toUTC().toISO()!;
  return { id: `pun_${String(++seq).padStart(5, '0')}`, type, occurredAt, locationId: o.locationId ?? 'loc_a', position: 'cook' };
}
/** A shift on a local date from `from` to `to` (HH:mm; `to` before `from` ends the next day), with breaks [start, end]. */
function shift(date: string, from: string, to: string, breaks: Array<[string, string]> = []): CalcPunch[] {
  const next = to < from ? DateTime.fromISO(date).plus({ days: 1 }).toISODate()! : date;
  return [
    punch('clock_in', `${date}T${from}`),
    ...breaks.flatMap(([s, e]) => [punch('break_start', `${date}T${s}`), punch('break_end', `${date}T${e}`)]),
    punch('clock_out', `${next}T${to}`),
  ];
}
function calc(over: Partial<TimesheetInput> & Pick<TimesheetInput, 'punches' | 'period'>) {
  return calculateTimesheet({ timezone: LA, weekStart: 'monday', overtime: FORTY, breaks: NO_BREAKS, now: new Date('2026-12-01T00:00:00Z'), ...over });
}
const WEEK = { start: '2026-03-16', end: '2026-03-22' }; // Monday to Sunday
const dayOf = (r: ReturnType<typeof calc>, date: string) => r.days.find((d) => d.date === date)!;
const brief = (r: ReturnType<typeof calc>) => r.days.map((d) => [d.date, d.workedHours, d.regularHours, d.overtime]);

describe('timesheet: hours and overtime', () => {
  it('a plain 5 × 8 week: 40 regular hours, no overtime, every date present', () => {
    const days = ['16', '17', '18', '19', '20'].map((d) => `2026-03-${d}`);
    const r = calc({ period: WEEK, punches: days.flatMap((d) => shift(d, '09:00', '17:00')).reverse() });
    expect(brief(r)).toEqual([
      ['2026-03-16', '8.00', '8.00', {}],
      ['2026-03-17', '8.00', '8.00', {}],
      ['2026-03-18', '8.00', '8.00', {}],
      ['2026-03-19', '8.00', '8.00', {}],
      ['2026-03-20', '8.00', '8.00', {}],
      ['2026-03-21', '0.00', '0.00', {}],
      ['2026-03-22', '0.00', '0.00', {}],
    ]);
    expect(r.weeks).toEqual([{ start: '2026-03-16', end: '2026-03-22', workedHours: '40.00', regularHours: '40.00', overtime: {} }]);
    expect(r.totals).toEqual({ workedHours: '40.00', regularHours: '40.00', overtime: {}, paidBreakHours: '0.00', unpaidBreakHours: '0.00' });
    expect(r).toMatchObject({ exceptions: [], missingPunches: false, inProgress: false });
    expect(dayOf(r, '2026-03-16').shifts).toEqual([
      { start: '2026-03-16T16:00:00.000Z', end: '2026-03-17T00:00:00.000Z', locationId: 'loc_a', position: 'cook', workedHours: '8.00', breaks: [] },
    ]);
  });

  it('California, 5 × 9 h worked (08:00–17:30 with an unpaid 30-minute meal): 8 regular + 1 at 1.5 a day, 40 regular and 5 at 1.5 in all', () => {
    const days = ['16', '17', '18', '19', '20'].map((d) => `2026-03-${d}`);
    const r = calc({
      period: WEEK,
      overtime: CALIFORNIA,
      breaks: { breaks: [MEAL], maxShiftHours: null },
      punches: days.flatMap((d) => shift(d, '08:00', '17:30', [['12:00', '12:30']])),
    });
    expect(brief(r).slice(0, 5)).toEqual(days.map((d) => [d, '9.00', '8.00', { '1.5': '1.00' }]));
    expect(dayOf(r, '2026-03-16')).toMatchObject({ paidBreakHours: '0.00', unpaidBreakHours: '0.50' });
    expect(dayOf(r, '2026-03-16').shifts[0].breaks).toEqual([{ start: '2026-03-16T19:00:00.000Z', end: '2026-03-16T19:30:00.000Z', minutes: 30, paid: false }]);
    expect(r.weeks[0]).toMatchObject({ workedHours: '45.00', regularHours: '40.00', overtime: { '1.5': '5.00' } });
    expect(r.totals).toEqual({ workedHours: '45.00', regularHours: '40.00', overtime: { '1.5': '5.00' }, paidBreakHours: '0.00', unpaidBreakHours: '2.50' });
    expect(r.exceptions).toEqual([]);
  });

  it('California, seven days in a row: Mon–Sat 6 h, Sun 9 h → the 7th day 8 at 1.5 and 1 at 2', () => {
    const days = ['16', '17', '18', '19', '20', '21'].map((d) => `2026-03-${d}`);
    const r = calc({ period: WEEK, overtime: CALIFORNIA, punches: [...days.flatMap((d) => shift(d, '09:00', '15:00')), ...shift('2026-03-22', '08:00', '17:00')] });
    expect(dayOf(r, '2026-03-21')).toMatchObject({ workedHours: '6.00', regularHours: '6.00', overtime: {} });
    expect(dayOf(r, '2026-03-22')).toMatchObject({ workedHours: '9.00', regularHours: '0.00', overtime: { '1.5': '8.00', '2': '1.00' } });
    expect(r.totals).toMatchObject({ workedHours: '45.00', regularHours: '36.00', overtime: { '1.5': '8.00', '2': '1.00' } });
  });

  it('a 6-day 50-hour week under a plain weekly 40: the hours past 40 (Fri 2, Sat 8) at 1.5', () => {
    const r = calc({
      period: WEEK,
      punches: [
        ...shift('2026-03-16', '08:00', '17:00'),
        ...shift('2026-03-17', '08:00', '17:00'),
        ...shift('2026-03-18', '09:00', '17:00'),
        ...shift('2026-03-19', '09:00', '17:00'),
        ...shift('2026-03-20', '09:00', '17:00'),
        ...shift('2026-03-21', '09:00', '17:00'),
      ],
    });
    expect(brief(r)).toEqual([
      ['2026-03-16', '9.00', '9.00', {}],
      ['2026-03-17', '9.00', '9.00', {}],
      ['2026-03-18', '8.00', '8.00', {}],
      ['2026-03-19', '8.00', '8.00', {}],
      ['2026-03-20', '8.00', '6.00', { '1.5': '2.00' }],
      ['2026-03-21', '8.00', '0.00', { '1.5': '8.00' }],
      ['2026-03-22', '0.00', '0.00', {}],
    ]);
    expect(r.totals).toMatchObject({ workedHours: '50.00', regularHours: '40.00', overtime: { '1.5': '10.00' } });
  });

  it('a workweek straddling the period start: its days before the period count toward weekly overtime but are not reported', () => {
    // period 1–15 April (semimonthly); the workweek Mon 30 March – Sun 5 April
    const r = calc({
      period: { start: '2026-04-01', end: '2026-04-15' },
      punches: [
        punch('clock_in', '2026-03-29T09:00'), // Sunday before the workweek: its missing clock-out is not this timesheet's
        ...shift('2026-03-30', '08:00', '18:00'),
        ...shift('2026-03-31', '08:00', '18:00'),
        ...shift('2026-04-01', '08:00', '18:00'),
        ...shift('2026-04-02', '08:00', '18:00'),
        ...shift('2026-04-03', '09:00', '17:00'),
        ...shift('2026-04-06', '09:00', '17:00'),
      ],
    });
    expect(r.days.map((d) => d.date)).toEqual(Array.from({ length: 15 }, (_, i) => `2026-04-${String(i + 1).padStart(2, '0')}`));
    expect(dayOf(r, '2026-04-01')).toMatchObject({ workedHours: '10.00', regularHours: '10.00', overtime: {} });
    expect(dayOf(r, '2026-04-02')).toMatchObject({ workedHours: '10.00', regularHours: '10.00', overtime: {} });
    expect(dayOf(r, '2026-04-03')).toMatchObject({ workedHours: '8.00', regularHours: '0.00', overtime: { '1.5': '8.00' } });
    expect(dayOf(r, '2026-04-06')).toMatchObject({ workedHours: '8.00', regularHours: '8.00', overtime: {} });
    expect(r.weeks).toEqual([
      { start: '2026-03-30', end: '2026-04-05', workedHours: '48.00', regularHours: '40.00', overtime: { '1.5': '8.00' } },
      { start: '2026-04-06', end: '2026-04-12', workedHours: '8.00', regularHours: '8.00', overtime: {} },
      { start: '2026-04-13', end: '2026-04-19', workedHours: '0.00', regularHours: '0.00', overtime: {} },
    ]);
    expect(r.totals).toMatchObject({ workedHours: '36.00', regularHours: '28.00', overtime: { '1.5': '8.00' } });
    expect(r).toMatchObject({ exceptions: [], missingPunches: false });
  });
});

describe('timesheet: daylight saving time at a New York location', () => {
  const nyPunch = (type: PunchType, utc: string) => punch(type, utc, { zone: NY });
  const ny = (over: Partial<TimesheetInput> & Pick<TimesheetInput, 'punches' | 'period'>) => calc({ timezone: NY, ...over });

  it('spring forward (Sun 8 March 2026, a 23-hour day): 22:00–06:00 over the night is 7 h, on the clock-in date', () => {
    const r = ny({
      period: { start: '2026-03-02', end: '2026-03-08' },
      punches: [
        nyPunch('clock_in', '2026-03-08T03:00:00Z'), // Sat 7 March 22:00 EST
        nyPunch('clock_out', '2026-03-08T10:00:00Z'), // Sun 8 March 06:00 EDT
        nyPunch('clock_in', '2026-03-09T02:00:00Z'), // Sun 8 March 22:00 EDT
        nyPunch('clock_out', '2026-03-09T10:00:00Z'), // Mon 9 March 06:00 EDT (after the period)
      ],
    });
    expect(dayOf(r, '2026-03-07')).toMatchObject({ workedHours: '7.00', regularHours: '7.00' });
    expect(dayOf(r, '2026-03-07').shifts).toMatchObject([{ start: '2026-03-08T03:00:00.000Z', end: '2026-03-08T10:00:00.000Z', workedHours: '7.00' }]);
    expect(dayOf(r, '2026-03-08')).toMatchObject({ workedHours: '8.00', regularHours: '8.00' });
    expect(r.totals.workedHours).toBe('15.00');
    expect(r.exceptions).toEqual([]);
  });

  it('fall back (Sun 1 November 2026, a 25-hour day): 22:00–06:00 over the night is 9 h, 1 of it daily overtime in California', () => {
    const r = ny({
      period: { start: '2026-10-26', end: '2026-11-01' },
      overtime: CALIFORNIA,
      punches: [
        nyPunch('clock_in', '2026-11-01T02:00:00Z'), // Sat 31 October 22:00 EDT
        nyPunch('clock_out', '2026-11-01T11:00:00Z'), // Sun 1 November 06:00 EST
        nyPunch('clock_in', '2026-11-02T03:00:00Z'), // Sun 1 November 22:00 EST
        nyPunch('clock_out', '2026-11-02T11:00:00Z'), // Mon 2 November 06:00 EST
      ],
    });
    expect(dayOf(r, '2026-10-31')).toMatchObject({ workedHours: '9.00', regularHours: '8.00', overtime: { '1.5': '1.00' } });
    expect(dayOf(r, '2026-11-01')).toMatchObject({ workedHours: '8.00', regularHours: '8.00', overtime: {} });
    expect(r.weeks).toEqual([{ start: '2026-10-26', end: '2026-11-01', workedHours: '17.00', regularHours: '16.00', overtime: { '1.5': '1.00' } }]);
  });

  it('a shift from midnight to midnight lasts 23 h on 8 March and 25 h on 1 November', () => {
    const spring = ny({ period: { start: '2026-03-08', end: '2026-03-08' }, punches: [nyPunch('clock_in', '2026-03-08T05:00:00Z'), nyPunch('clock_out', '2026-03-09T04:00:00Z')] });
    expect(spring.days).toMatchObject([{ date: '2026-03-08', workedHours: '23.00' }]);
    const fall = ny({ period: { start: '2026-11-01', end: '2026-11-01' }, punches: [nyPunch('clock_in', '2026-11-01T04:00:00Z'), nyPunch('clock_out', '2026-11-02T05:00:00Z')] });
    expect(fall.days).toMatchObject([{ date: '2026-11-01', workedHours: '25.00' }]);
  });

  it('messages give local times, on either side of the change', () => {
    const r = ny({ period: { start: '2026-11-01', end: '2026-11-01' }, punches: [nyPunch('clock_in', '2026-11-02T03:00:00Z')] });
    expect(r.exceptions.map((e) => e.message)).toEqual(['Clock-in at 22:00 on 2026-11-01 has no clock-out.']);
  });
});

describe('timesheet: missing punches', () => {
  it('a clock-in with no clock-out, days later: an exception, 0 hours, the shift listed; the timesheet cannot be approved', () => {
    const p = punch('clock_in', '2026-03-17T09:02');
    const r = calc({ period: WEEK, punches: [p, ...shift('2026-03-16', '09:00', '17:00')], now: new Date('2026-03-20T12:00:00Z') });
    expect(r.exceptions).toEqual([{ code: 'missing_clock_out', date: '2026-03-17', punchIds: [p.id], message: 'Clock-in at 09:02 on 2026-03-17 has no clock-out.' }]);
    expect(dayOf(r, '2026-03-17')).toMatchObject({ workedHours: '0.00', shifts: [{ start: '2026-03-17T16:02:00.000Z', end: null, workedHours: '0.00', breaks: [] }] });
    expect(r.totals.workedHours).toBe('8.00');
    expect(r).toMatchObject({ missingPunches: true, inProgress: false });
  });

  it('the same clock-in an hour ago is a shift in progress, not an exception', () => {
    const r = calc({ period: WEEK, punches: [punch('clock_in', '2026-03-16T09:02')], now: new Date('2026-03-16T17:02:00Z') });
    expect(r).toMatchObject({ exceptions: [], missingPunches: false, inProgress: true });
    expect(dayOf(r, '2026-03-16')).toMatchObject({ workedHours: '0.00', shifts: [{ end: null, workedHours: '0.00' }] });
  });

  it('a clock-in followed by the next day\'s clock-in has no clock-out; the next day counts', () => {
    const first = punch('clock_in', '2026-03-16T09:00');
    const r = calc({ period: WEEK, punches: [first, ...shift('2026-03-17', '08:55', '17:00')], now: new Date('2026-03-17T16:00:00Z') });
    expect(r.exceptions).toEqual([
      { code: 'missing_clock_out', date: '2026-03-16', punchIds: [first.id], message: 'Clock-in at 09:00 on 2026-03-16 has no clock-out before the next clock-in at 08:55 on 2026-03-17.' },
    ]);
    expect(dayOf(r, '2026-03-17').workedHours).toBe('8.08');
    expect(r.missingPunches).toBe(true);
  });

  it('a clock-out with no clock-in, a break never ended, and a break punch outside a shift', () => {
    const stray = punch('clock_out', '2026-03-16T17:00');
    const [cin, bstart] = [punch('clock_in', '2026-03-17T09:00'), punch('break_start', '2026-03-17T12:00')];
    const cout = punch('clock_out', '2026-03-17T17:00');
    const lone = punch('break_end', '2026-03-18T12:30');
    const r = calc({ period: WEEK, punches: [stray, cin, bstart, cout, lone] });
    expect(r.exceptions).toEqual([
      { code: 'missing_clock_in', date: '2026-03-16', punchIds: [stray.id], message: 'Clock-out at 17:00 on 2026-03-16 has no clock-in before it.' },
      { code: 'break_not_ended', date: '2026-03-17', punchIds: [bstart.id], message: 'Break started at 12:00 on 2026-03-17 was not ended before the clock-out at 17:00 on 2026-03-17.' },
      { code: 'unexpected_punch', date: '2026-03-18', punchIds: [lone.id], message: 'Break end at 12:30 on 2026-03-18 is outside any shift (no clock-in before it).' },
    ]);
    expect(dayOf(r, '2026-03-17').shifts[0].breaks).toEqual([{ start: '2026-03-17T19:00:00.000Z', end: null, minutes: 0, paid: false }]);
    expect(r.missingPunches).toBe(true);
  });
});

describe('timesheet: breaks', () => {
  it('a meal break (unpaid, 30 min, due after 5 h) not taken in a 7-hour shift', () => {
    const [cin, cout] = shift('2026-03-16', '09:00', '16:00');
    const r = calc({ period: WEEK, breaks: { breaks: [MEAL], maxShiftHours: null }, punches: [cin, cout] });
    expect(r.exceptions).toEqual([
      {
        code: 'break_not_taken',
        date: '2026-03-16',
        punchIds: [cin.id],
        message: 'Meal break of 30 minutes was due by 14:00 on 2026-03-16 (5 hours into the shift from 09:00 to 16:00 on 2026-03-16) but was not taken by then.',
      },
    ]);
    expect(dayOf(r, '2026-03-16').workedHours).toBe('7.00');
    expect(r.missingPunches).toBe(false);
  });

  it('a 20-minute break under the 30-minute meal rule is short and unpaid (and the meal was still not taken)', () => {
    const punches = shift('2026-03-16', '09:00', '17:00', [['12:00', '12:20']]);
    const r = calc({ period: WEEK, breaks: { breaks: [MEAL], maxShiftHours: null }, punches });
    expect(r.exceptions.map((e) => [e.code, e.message])).toEqual([
      ['break_not_taken', 'Meal break of 30 minutes was due by 14:00 on 2026-03-16 (5 hours into the shift from 09:00 to 17:00 on 2026-03-16) but was not taken by then.'],
      ['short_break', 'Break from 12:00 to 12:20 on 2026-03-16 lasted 20 minutes, shorter than the 30-minute Meal break; it is unpaid.'],
    ]);
    expect(r.exceptions[1].punchIds).toEqual([punches[1].id, punches[2].id]);
    // 8 h less the unpaid 20 minutes = 7 h 40 min
    expect(dayOf(r, '2026-03-16')).toMatchObject({ workedHours: '7.67', paidBreakHours: '0.00', unpaidBreakHours: '0.33' });
    expect(dayOf(r, '2026-03-16').shifts[0].breaks).toEqual([{ start: '2026-03-16T19:00:00.000Z', end: '2026-03-16T19:20:00.000Z', minutes: 20, paid: false }]);
  });

  it('a paid 10-minute rest break satisfies its rule and counts as worked time; the 30-minute meal is not taken as the rest', () => {
    const r = calc({
      period: WEEK,
      breaks: { breaks: [REST, MEAL], maxShiftHours: null },
      punches: [
        ...shift('2026-03-16', '09:00', '15:00', [['10:30', '10:40'], ['13:00', '13:30']]),
        ...shift('2026-03-17', '09:00', '15:00', [['10:00', '10:30'], ['10:45', '10:57']]),
      ],
    });
    expect(r.exceptions).toEqual([]);
    // 6 h less the unpaid 30-minute meal; the 10 paid minutes are worked
    expect(dayOf(r, '2026-03-16')).toMatchObject({ workedHours: '5.50', paidBreakHours: '0.17', unpaidBreakHours: '0.50' });
    expect(dayOf(r, '2026-03-16').shifts[0].breaks.map((b) => [b.minutes, b.paid])).toEqual([
      [10, true],
      [30, false],
    ]);
    expect(dayOf(r, '2026-03-17').shifts[0].breaks.map((b) => [b.minutes, b.paid])).toEqual([
      [30, false],
      [12, true],
    ]);
    expect(r.totals).toMatchObject({ workedHours: '11.00', paidBreakHours: '0.37', unpaidBreakHours: '1.00' });
  });

  it('without break rules, breaks are unpaid and never short', () => {
    const r = calc({ period: WEEK, punches: shift('2026-03-16', '09:00', '17:00', [['12:00', '12:05']]) });
    expect(r.exceptions).toEqual([]);
    expect(dayOf(r, '2026-03-16')).toMatchObject({ workedHours: '7.92', unpaidBreakHours: '0.08' });
  });
});

describe('timesheet: overlaps and long shifts', () => {
  it('a double clock-in from two devices: the shifts overlap and their common time counts once', () => {
    const inA = punch('clock_in', '2026-03-16T09:00', { locationId: 'loc_a' });
    const inB = punch('clock_in', '2026-03-16T09:06', { locationId: 'loc_b' });
    const outA = punch('clock_out', '2026-03-16T17:00', { locationId: 'loc_a' });
    const outB = punch('clock_out', '2026-03-16T17:06', { locationId: 'loc_b' });
    const r = calc({ period: WEEK, punches: [outB, inB, outA, inA] });
    expect(r.exceptions).toEqual([
      {
        code: 'overlapping_punches',
        date: '2026-03-16',
        punchIds: [inB.id, outB.id, inA.id, outA.id],
        message: 'Shift from 09:06 to 17:06 on 2026-03-16 starts before the shift from 09:00 to 17:00 on 2026-03-16 ended; the overlapping time is counted once.',
      },
    ]);
    // 09:00–17:06
    expect(dayOf(r, '2026-03-16').workedHours).toBe('8.10');
    expect(dayOf(r, '2026-03-16').shifts.map((s) => [s.locationId, s.workedHours])).toEqual([
      ['loc_a', '8.00'],
      ['loc_b', '0.10'],
    ]);
    expect(r.missingPunches).toBe(false);
  });

  it('a clock-in and a clock-out at the same instant conflict; the same punch sent twice counts once', () => {
    const cin = punch('clock_in', '2026-03-16T09:00');
    const again = { ...cin, id: 'pun_zzz' };
    const cout = { ...punch('clock_out', '2026-03-16T17:00'), occurredAt: cin.occurredAt };
    const r = calc({ period: WEEK, punches: [cin, again, cout, punch('clock_out', '2026-03-16T17:00')] });
    expect(r.exceptions.map((e) => [e.code, e.punchIds.length])).toContainEqual(['overlapping_punches', 2]);
    expect(r.exceptions.find((e) => e.code === 'overlapping_punches')!.message).toBe('Clock-in and clock-out were punched at the same moment, 09:00 on 2026-03-16; which came first cannot be told.');

    const dup = calc({ period: WEEK, punches: [cin, again, punch('clock_out', '2026-03-16T17:00')] });
    expect(dup.exceptions).toEqual([]);
    expect(dayOf(dup, '2026-03-16').workedHours).toBe('8.00');
  });

  it('a shift over maxShiftHours is an exception, and its hours still count', () => {
    const [cin, cout] = shift('2026-03-16', '06:00', '19:30');
    const r = calc({ period: WEEK, breaks: { breaks: [], maxShiftHours: '12' }, punches: [cin, cout] });
    expect(r.exceptions).toEqual([
      { code: 'shift_too_long', date: '2026-03-16', punchIds: [cin.id, cout.id], message: 'Shift from 06:00 to 19:30 on 2026-03-16 lasted 13.5 hours, longer than the 12-hour limit.' },
    ]);
    expect(dayOf(r, '2026-03-16').workedHours).toBe('13.50');
    expect(r.missingPunches).toBe(false);
  });

  it('refuses a period that ends before it starts', () => {
    expect(() => calc({ period: { start: '2026-03-22', end: '2026-03-16' }, punches: [] })).toThrow(/ends \(2026-03-16\) before it starts/);
  });
});

import { DateTime } from 'luxon';
import { draftRuleViolations, draftSchedule, DraftInputError, type DraftCandidate, type DraftInput, type DraftNeedSlot, type DraftRules } from '../src/generate/solve';

const UTC = 'UTC';
const NY = 'America/New_York';

/** Hourly need slots from `from` to `to` local time on a local date ("24:00" is the next midnight). */
function hourly(zone: string, date: string, from: string, to: string, positionId: string, needed = 1): DraftNeedSlot[] {
  const out: DraftNeedSlot[] = [];
  const end = local(zone, date, to);
  for (let t = local(zone, date, from); t < end; t = t.plus({ hours: 1 })) {
    out.push({ start: t.toUTC().toISO()!, end: t.plus({ hours: 1 }).toUTC().toISO()!, positionId, needed });
  }
  return out;
}

function local(zone: string, date: string, time: string): DateTime {
  if (time === '24:00') return DateTime.fromISO(`${date}T00:00`, { zone }).plus({ days: 1 });
  return DateTime.fromISO(`${date}T${time}`, { zone });
}

function window(zone: string, date: string, from: string, to: string) {
  return { start: local(zone, date, from).toUTC().toISO()!, end: local(zone, date, to).toUTC().toISO()! };
}

function candidate(id: string, rate: string, positionIds: string[], available: { start: string; end: string }[], over: Partial<DraftCandidate> = {}): DraftCandidate {
  return { employeeId: id, name: id.toUpperCase(), positionIds, hourlyRate: rate, available, hoursAlreadyScheduled: 0, ...over };
}

const RULES: DraftRules = { minShiftHours: 4, maxShiftHours: 8, minRestHours: 10, weeklyOvertimeAfter: 40, overtimeMultiplier: 1.5, allowOvertime: false, shiftStartStepMinutes: 60 };

function draft(needs: DraftNeedSlot[], candidates: DraftCandidate[], over: Partial<DraftInput> = {}): DraftInput {
  return { needs, candidates, rules: RULES, zone: UTC, positionNames: { cook: 'cook', server: 'server' }, ...over };
}

async function solved(input: DraftInput) {
  const result = await draftSchedule(input);
  expect(draftRuleViolations(input, result.shifts)).toEqual([]);
  return result;
}

const day = (iso: string, zone: string) => DateTime.fromISO(iso, { zone }).toFormat('ccc HH:mm');
const hoursOf = (shifts: { employeeId: string; hours: number }[], id: string) => shifts.filter((s) => s.employeeId === id).reduce((sum, s) => sum + s.hours, 0);

describe('draftSchedule (pure, HiGHS)', () => {
  it('a tiny case reaches its known optimum: the cheaper employee works the one shift', async () => {
    const all = [window(UTC, '2026-12-21', '08:00', '20:00')];
    const r = await solved(draft(hourly(UTC, '2026-12-21', '10:00', '14:00', 'cook'), [candidate('ana', '20.00', ['cook'], all), candidate('ben', '15.50', ['cook'], all)]));
    expect(r.shifts).toEqual([{ employeeId: 'ben', positionId: 'cook', start: '2026-12-21T10:00:00Z', end: '2026-12-21T14:00:00Z', hours: 4, overtimeHours: 0, cost: '62.00' }]);
    expect(r).toMatchObject({ neededHours: 4, coveredHours: 4, coverage: 1, cost: '62.00', overtimeHours: 0, unmet: [] });
    expect(r.method).toMatch(/^milp \(HiGHS [\d.]+\), optimal/);
  });

  it('a position is only given to those who hold it; one nobody holds is reported', async () => {
    const all = [window(UTC, '2026-12-21', '08:00', '20:00')];
    const needs = [...hourly(UTC, '2026-12-21', '10:00', '14:00', 'server'), ...hourly(UTC, '2026-12-21', '10:00', '12:00', 'dishwasher')];
    const r = await solved(draft(needs, [candidate('ana', '10.00', ['cook'], all), candidate('ben', '18.00', ['server'], all)]));
    expect(r.shifts.map((s) => [s.employeeId, s.positionId])).toEqual([['ben', 'server']]);
    expect(r.unmet).toEqual([{ positionId: 'dishwasher', start: '2026-12-21T10:00:00Z', end: '2026-12-21T12:00:00Z', missing: 1, reason: '1 dishwasher missing Mon 21 Dec 10:00–12:00: nobody holds the position dishwasher' }]);
    expect(r.coverage).toBeCloseTo(4 / 6);
  });

  it('shifts stay inside availability: two part-time windows cover the day between them', async () => {
    const r = await solved(
      draft(hourly(UTC, '2026-12-21', '10:00', '18:00', 'cook'), [
        candidate('ana', '12.00', ['cook'], [window(UTC, '2026-12-21', '09:00', '14:00')]),
        candidate('ben', '30.00', ['cook'], [window(UTC, '2026-12-21', '13:00', '19:00')]),
      ]),
    );
    expect(r.shifts.map((s) => [s.employeeId, s.start, s.end])).toEqual([
      ['ana', '2026-12-21T10:00:00Z', '2026-12-21T14:00:00Z'],
      ['ben', '2026-12-21T14:00:00Z', '2026-12-21T18:00:00Z'],
    ]);
    expect(r.coverage).toBe(1);
  });

  it('rest: the cheap closer does not open the next morning; the open goes to someone else', async () => {
    const all = [window(UTC, '2026-12-21', '00:00', '24:00'), window(UTC, '2026-12-22', '00:00', '24:00')];
    const needs = [...hourly(UTC, '2026-12-21', '18:00', '24:00', 'cook'), ...hourly(UTC, '2026-12-22', '06:00', '10:00', 'cook')];
    const r = await solved(draft(needs, [candidate('ana', '10.00', ['cook'], all), candidate('ben', '20.00', ['cook'], all)]));
    expect(r.shifts.map((s) => [s.employeeId, s.start, s.end])).toEqual([
      ['ana', '2026-12-21T18:00:00Z', '2026-12-22T00:00:00Z'],
      ['ben', '2026-12-22T06:00:00Z', '2026-12-22T10:00:00Z'],
    ]);
    const noRest = await solved({ ...draft(needs, [candidate('ana', '10.00', ['cook'], all), candidate('ben', '20.00', ['cook'], all)]), rules: { ...RULES, minRestHours: 6 } });
    expect(noRest.shifts.map((s) => s.employeeId)).toEqual(['ana', 'ana']);
  });

  it('quarter-hour needs get quarter-hour starts, and a shift outside the draft counts for rest', async () => {
    const quarters = (from: string, to: string) => {
      const out: DraftNeedSlot[] = [];
      for (let t = DateTime.fromISO(from, { zone: UTC }); t < DateTime.fromISO(to, { zone: UTC }); t = t.plus({ minutes: 15 })) {
        out.push({ start: t.toISO()!, end: t.plus({ minutes: 15 }).toISO()!, positionId: 'cook', needed: 1 });
      }
      return out;
    };
    const all = [window(UTC, '2026-12-21', '00:00', '24:00')];
    const late = { otherShifts: [window(UTC, '2026-12-20', '20:00', '24:00')] };
    const r = await solved(
      draft(quarters('2026-12-21T06:15:00Z', '2026-12-21T10:15:00Z'), [candidate('ana', '10.00', ['cook'], all, late), candidate('ben', '14.00', ['cook'], all)], {
        rules: { ...RULES, shiftStartStepMinutes: 15 },
      }),
    );
    expect(r.shifts.map((s) => [s.employeeId, s.start, s.end, s.cost])).toEqual([['ben', '2026-12-21T06:15:00Z', '2026-12-21T10:15:00Z', '56.00']]);
  });

  it('the weekly threshold caps hours without overtime, and overtime is priced at the multiplier when allowed', async () => {
    const days = ['2026-12-21', '2026-12-22', '2026-12-23', '2026-12-24', '2026-12-25', '2026-12-26'];
    const needs = days.flatMap((d) => hourly(UTC, d, '09:00', '17:00', 'cook'));
    const available = days.map((d) => window(UTC, d, '08:00', '18:00'));
    const people = [candidate('ana', '10.00', ['cook'], available), candidate('ben', '20.00', ['cook'], available)];
    const capped = await solved(draft(needs, people, { rules: { ...RULES, fairnessWeight: 0 } }));
    expect(hoursOf(capped.shifts, 'ana')).toBe(40);
    expect(hoursOf(capped.shifts, 'ben')).toBe(8);
    expect(capped).toMatchObject({ coverage: 1, overtimeHours: 0, cost: '560.00' });

    const overtime = await solved(draft(needs, people, { rules: { ...RULES, fairnessWeight: 0, allowOvertime: true } }));
    expect(hoursOf(overtime.shifts, 'ana')).toBe(48);
    expect(overtime).toMatchObject({ overtimeHours: 8, cost: '520.00' });
    expect(overtime.shifts.at(-1)).toMatchObject({ start: '2026-12-26T09:00:00Z', overtimeHours: 8, cost: '120.00' });

    const busyWeek = await solved(draft(needs, [candidate('ana', '10.00', ['cook'], available, { hoursAlreadyScheduled: { '2026-12-21': 37 } })]));
    expect(busyWeek.shifts).toEqual([]);
    expect(busyWeek.unmet[0].reason).toBe('1 cook missing Mon 21 Dec 09:00–17:00: 1 cook is available then, but 1 would pass 40 h in the workweek (no overtime)');
  });

  it('an unmet need names what keeps each holder away: time off, another shift, leaving, no availability given, no pay rate', async () => {
    const needs = hourly(UTC, '2026-12-28', '10:00', '14:00', 'cook', 6);
    const day = window(UTC, '2026-12-28', '08:00', '20:00');
    const r = await solved(
      draft(
        needs,
        [
          candidate('ana', '10.00', ['cook'], [day]),
          candidate('ben', '10.00', ['cook'], [], { away: [{ ...day, reason: 'time_off' }] }),
          candidate('cy', '10.00', ['cook'], [window(UTC, '2026-12-28', '15:00', '20:00')], { away: [{ ...window(UTC, '2026-12-28', '08:00', '15:00'), reason: 'other_shift' }] }),
          candidate('di', '10.00', ['cook'], [], { away: [{ start: '2026-12-27T00:00:00Z', end: '2027-01-05T00:00:00Z', reason: 'left' }] }),
          candidate('ed', '10.00', ['cook'], []),
        ],
        { leftOut: [{ employeeId: 'fay', name: 'FAY', positionIds: ['cook'], reason: 'has no pay rate in force on 2026-12-28' }] },
      ),
    );
    expect(r.unmet.map((u) => u.reason)).toEqual([
      '5 cooks missing Mon 28 Dec 10:00–14:00: only 1 of 6 cooks is available then (1 is on approved time off then; 1 works another shift then; 1 has left by then; 1 has no availability in the period; 1 has no pay rate in force on 2026-12-28)',
    ]);
    // nobody draftable at all: the reason, not "nobody holds the position"
    const none = await solved(draft(needs.slice(0, 1), [], { leftOut: ['fay', 'gus'].map((id) => ({ employeeId: id, name: id, positionIds: ['cook'], reason: 'has no pay rate in force on 2026-12-28' })) }));
    expect(none.unmet[0].reason).toMatch(/: nobody who holds the position cook can be drafted: 2 have no pay rate in force on 2026-12-28$/);
    expect((await solved(draft(needs.slice(0, 1), []))).unmet[0].reason).toMatch(/: nobody holds the position cook$/);
  });

  it('an unmet need is reported in words when too few or nobody are available', async () => {
    const needs = [...hourly(UTC, '2026-12-26', '18:00', '20:00', 'cook', 2), ...hourly(UTC, '2026-12-27', '12:00', '16:00', 'cook')];
    const r = await solved(draft(needs, [candidate('ana', '10.00', ['cook'], [window(UTC, '2026-12-26', '16:00', '22:00')])]));
    expect(r.unmet.map((u) => u.reason)).toEqual([
      '1 cook missing Sat 26 Dec 18:00–20:00: only 1 of 2 cooks is available then',
      '1 cook missing Sun 27 Dec 12:00–16:00: no cook is available then (1 employee holds the position: 1 has no availability then)',
    ]);
    expect(r.unmet.map((u) => [u.start, u.end, u.missing])).toEqual([
      ['2026-12-26T18:00:00Z', '2026-12-26T20:00:00Z', 1],
      ['2026-12-27T12:00:00Z', '2026-12-27T16:00:00Z', 1],
    ]);
    expect(r).toMatchObject({ neededHours: 8, coveredHours: 2, coverage: 0.25 });
  });

  it('fairness spreads the hours when costs are equal', async () => {
    const days = ['2026-12-21', '2026-12-22', '2026-12-23', '2026-12-24'];
    const needs = days.flatMap((d) => hourly(UTC, d, '09:00', '17:00', 'cook'));
    const available = days.map((d) => window(UTC, d, '08:00', '18:00'));
    const r = await solved(draft(needs, [candidate('ana', '15.00', ['cook'], available), candidate('ben', '15.00', ['cook'], available)]));
    expect(hoursOf(r.shifts, 'ana')).toBe(16);
    expect(hoursOf(r.shifts, 'ben')).toBe(16);
    expect(r.cost).toBe('480.00');
  });

  it('a week across the DST change in America/New_York keeps local days, the local grid and elapsed hours', async () => {
    const days = ['2026-03-05', '2026-03-06', '2026-03-07', '2026-03-08', '2026-03-09', '2026-03-10', '2026-03-11'];
    const needs = [...days.flatMap((d) => hourly(NY, d, '10:00', '18:00', 'cook')), ...hourly(NY, '2026-03-07', '22:00', '24:00', 'server'), ...hourly(NY, '2026-03-08', '00:00', '04:00', 'server')];
    const r = await solved(
      draft(
        needs,
        [
          candidate('ana', '10.00', ['cook'], days.map((d) => window(NY, d, '09:00', '19:00'))),
          candidate('cy', '12.00', ['server'], [window(NY, '2026-03-07', '20:00', '24:00'), window(NY, '2026-03-08', '00:00', '06:00')]),
        ],
        { zone: NY, rules: { ...RULES, weekStart: 'thursday', weeklyOvertimeAfter: 60 } },
      ),
    );
    expect(r.coverage).toBe(1);
    const cooks = r.shifts.filter((s) => s.positionId === 'cook');
    expect(cooks.map((s) => day(s.start, NY))).toEqual(['Thu 10:00', 'Fri 10:00', 'Sat 10:00', 'Sun 10:00', 'Mon 10:00', 'Tue 10:00', 'Wed 10:00']);
    expect(cooks.map((s) => s.start.slice(11, 16))).toEqual(['15:00', '15:00', '15:00', '14:00', '14:00', '14:00', '14:00']);
    expect(cooks.every((s) => s.hours === 8 && day(s.end, NY).endsWith('18:00'))).toBe(true);
    const night = r.shifts.find((s) => s.positionId === 'server')!;
    expect([day(night.start, NY), day(night.end, NY), night.hours, night.cost]).toEqual(['Sat 22:00', 'Sun 04:00', 5, '60.00']);
  });

  it('no shift starts before now, and input that cannot describe a draft is refused', async () => {
    const all = [window(UTC, '2026-12-21', '08:00', '20:00')];
    const r = await solved(draft(hourly(UTC, '2026-12-21', '10:00', '16:00', 'cook'), [candidate('ana', '10.00', ['cook'], all)], { now: '2026-12-21T11:30:00Z' }));
    expect(r.shifts.map((s) => [s.start, s.end])).toEqual([['2026-12-21T12:00:00Z', '2026-12-21T16:00:00Z']]);
    expect(r.neededHours).toBe(4);
    await expect(draftSchedule(draft([], [], { zone: 'Mars/Olympus' }))).rejects.toThrow(DraftInputError);
    await expect(draftSchedule(draft([], [], { rules: { ...RULES, minShiftHours: 9 } }))).rejects.toThrow('rules.maxShiftHours');
  });
});

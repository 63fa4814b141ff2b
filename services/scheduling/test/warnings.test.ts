import { shiftWarnings, workweekStart, type WarningInput } from '../src/shifts/warnings';
import { availabilityConflict, localDatesOf } from '../src/availability/windows';

const ms = (iso: string) => Date.parse(iso);
const NY = 'America/New_York';

function input(over: Partial<WarningInput> = {}): WarningInput {
  return {
    shift: { locationId: 'loc_a', position: 'Cook', start: ms('2026-12-21T14:00:00Z'), end: ms('2026-12-21T22:00:00Z'), breakMinutes: 30 },
    zone: NY,
    employee: { id: 'emp_1', name: 'Ana Lopez', status: 'active', positions: ['Cook'], locationIds: ['loc_a'], homeLocationId: 'loc_a', terminationDate: null },
    availability: [],
    availabilityZone: NY,
    otherShifts: [],
    timeOff: [],
    settings: { weekStart: 'monday', minRestHours: 10, weeklyOvertimeAfter: 40, overtimeMultiplier: 1.5 },
    ...over,
  };
}
const codes = (i: WarningInput) => shiftWarnings(i).map((w) => w.code);

describe('shift warnings (pure)', () => {
  it('a shift that fits says nothing', () => {
    expect(shiftWarnings(input())).toEqual([]);
  });

  it('position, location and employment are named in words', () => {
    const w = shiftWarnings(input({ employee: { id: 'emp_1', name: 'Ana Lopez', status: 'active', positions: ['Server'], locationIds: ['loc_b'], homeLocationId: 'loc_b', terminationDate: '2026-12-20' } }));
    expect(w.map((x) => x.code)).toEqual(['employee_not_active', 'position_not_held', 'location_not_worked']);
    expect(w[0].message).toBe("Ana Lopez's employment ended on 2026-12-20; the shift on 2026-12-21 comes after it.");
    expect(w[1].message).toBe('Ana Lopez does not hold the position Cook (holds Server).');
  });

  it('availability: recurring windows, a dated exception replacing them, and unavailable windows', () => {
    const weekly = [{ kind: 'available' as const, weekday: 'monday', startTime: '08:00', endTime: '16:00' }];
    // 09:00–17:00 New York on Monday 21 Dec: the last hour lies outside 08:00–16:00
    expect(shiftWarnings(input({ availability: weekly }))[0]).toEqual({ code: 'outside_availability', message: 'Ana Lopez is available only Mon 21 Dec 08:00–16:00 then.' });
    // a dated exception for that Monday replaces the weekly window
    const exception = [...weekly, { kind: 'available' as const, date: '2026-12-21', startTime: '09:00', endTime: '24:00' }];
    expect(codes(input({ availability: exception }))).toEqual([]);
    const blocked = [{ kind: 'unavailable' as const, weekday: 'monday', startTime: '16:00', endTime: '24:00' }];
    expect(shiftWarnings(input({ availability: blocked }))[0].message).toBe('Ana Lopez is unavailable Mon 21 Dec 16:00–24:00.');
    // a recurring window out of its effective dates does not hold
    expect(codes(input({ availability: [{ ...weekly[0], startTime: '09:00', endTime: '17:00', effectiveFrom: '2027-01-01' }] }))).toEqual(['outside_availability']);
  });

  it('overlap and rest under the company minimum, with the other shift named', () => {
    const late = { id: 'shf_late', locationId: 'loc_a', start: ms('2026-12-21T03:00:00Z'), end: ms('2026-12-21T07:00:00Z'), breakMinutes: 0 };
    const w = shiftWarnings(input({ otherShifts: [late] }));
    expect(w).toEqual([{ code: 'short_rest', message: 'Ana Lopez rests only 7 hours after the shift ending Mon 21 Dec 02:00; the company minimum is 10.' }]);
    const overlapping = { id: 'shf_o', locationId: 'loc_b', start: ms('2026-12-21T20:00:00Z'), end: ms('2026-12-22T01:00:00Z'), breakMinutes: 0 };
    expect(shiftWarnings(input({ otherShifts: [overlapping] }))[0]).toEqual({ code: 'overlapping_shift', message: 'Ana Lopez already works Mon 21 Dec 15:00–20:00 at location loc_b.' });
    expect(codes(input({ otherShifts: [late], settings: { weekStart: 'monday', minRestHours: 0, weeklyOvertimeAfter: 40, overtimeMultiplier: 1.5 } }))).toEqual([]);
  });

  it("the workweek's hours past the overtime threshold, counted by paid hours in the company's workweek", () => {
    // Mon–Thu 10 paid hours each (10.5 h less 30 min); the 7.5 paid hours on Monday 21st belong to the next workweek
    const prior = [14, 15, 16, 17].map((d, i) => ({ id: `shf_${i}`, locationId: 'loc_a', start: ms(`2026-12-${d}T13:00:00Z`), end: ms(`2026-12-${d}T23:30:00Z`), breakMinutes: 30 }));
    expect(codes(input({ otherShifts: prior }))).toEqual([]);
    const friday = input({ otherShifts: prior, shift: { ...input().shift, start: ms('2026-12-18T14:00:00Z'), end: ms('2026-12-18T22:00:00Z') } });
    expect(shiftWarnings(friday)).toEqual([{ code: 'overtime', message: "Ana Lopez's workweek from 2026-12-14 reaches 47.5 hours, 7.5 past the 40 after which overtime is paid." }]);
    // a workweek starting on Sunday puts Sunday 20th with the 21st
    expect(workweekStart('2026-12-21', 'sunday')).toBe('2026-12-20');
    expect(workweekStart('2026-12-20', 'monday')).toBe('2026-12-14');
  });

  it('approved time off on a day the shift touches', () => {
    expect(shiftWarnings(input({ timeOff: [{ startDate: '2026-12-21', endDate: '2026-12-23', partialHours: null }] }))).toEqual([
      { code: 'time_off', message: 'Ana Lopez has approved time off 2026-12-21 to 2026-12-23.' },
    ]);
    expect(codes(input({ timeOff: [{ startDate: '2026-12-22', endDate: '2026-12-22', partialHours: '4' }] }))).toEqual([]);
  });

  it('DST: a shift across the spring-forward night lasts 7 real hours, and days are local', () => {
    // 22:00 Sat 7 Mar to 06:00 Sun 8 Mar 2026 New York: 2 a.m. does not exist, 7 hours elapse
    const start = ms('2026-03-08T03:00:00Z');
    const end = ms('2026-03-08T10:00:00Z');
    expect(localDatesOf(start, end, NY)).toEqual(['2026-03-07', '2026-03-08']);
    const sat = [{ kind: 'available' as const, weekday: 'saturday', startTime: '18:00', endTime: '24:00' }];
    const sun = { kind: 'available' as const, weekday: 'sunday', startTime: '00:00', endTime: '06:00' };
    // Saturday 18:00 to midnight plus Sunday to 06:00 covers it; without Sunday's window the morning is outside
    expect(availabilityConflict([...sat, sun], start, end, NY)).toBeNull();
    expect(availabilityConflict(sat, start, end, NY)).toBe('is available only Sat 7 Mar 18:00–24:00 then');
    // the fall-back night: 25-hour Sunday 1 Nov, a 00:00–24:00 window covers all of it
    const allSunday = [{ kind: 'available' as const, weekday: 'sunday', startTime: '00:00', endTime: '24:00' }];
    expect(availabilityConflict(allSunday, ms('2026-11-01T04:00:00Z'), ms('2026-11-02T05:00:00Z'), NY)).toBeNull();
  });
});

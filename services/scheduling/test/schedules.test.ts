import { fixedClock, useClock } from '@bop/shared';
import { integration, outboxPayloads, publishEvent, startTestServices, eventually, sql, type TestService, type TestServices } from '@bop/test-support';
import { schedulingService } from '../src';
import { replicaEmployee, replicaLocation, replicaRate } from './fixtures';

let stack: TestServices;
let t: TestService;
beforeAll(async () => {
  stack = await startTestServices([schedulingService]);
  t = stack.services.scheduling;
}, 60_000);
afterAll(async () => {
  useClock({ now: () => new Date() });
  await stack?.close();
});
afterEach(() => useClock({ now: () => new Date() }));

const overlaps = (a: { start: string; end: string }, b: { start: string; end: string }) => Date.parse(a.start) < Date.parse(b.end) && Date.parse(b.start) < Date.parse(a.end);

describe('schedules', () => {
  it('costs a period: rates in force per day and position, overtime past the weekly threshold, labor cost against forecast sales', async () => {
    useClock(fixedClock('2026-12-07T06:00:00Z'));
    const loc = await replicaLocation(t);
    const ana = await replicaEmployee(t, { home: loc });
    const ben = await replicaEmployee(t, { home: loc, positions: ['Cook', 'Server'] });
    await replicaRate(t, ana, '20.00');
    await replicaRate(t, ana, '22.00', '2026-12-09');
    await replicaRate(t, ben, '18.00', '2025-01-01', { position: 'Server' });
    await replicaRate(t, ben, '41600', '2025-01-01', { type: 'salary' });
    // 10 weeks of 1,000 net sales a day (125 a quarter from 10:00 to 12:00)
    const drivers: unknown[] = [];
    for (let d = 0; d < 70; d++) for (let q = 40; q < 48; q++) {
      const at = new Date(Date.parse('2026-09-28T00:00:00Z') + d * 86_400_000 + q * 900_000).toISOString();
      drivers.push({ externalId: at, locationId: loc, driver: 'net_sales', intervalStart: at, value: '125' });
    }
    for (let i = 0; i < drivers.length; i += 1000) await t.call('POST', '/demand-drivers', { as: integration(['scheduling:write']), body: { source: 'pos-sum', drivers: drivers.slice(i, i + 1000) } });
    const add = (employeeId: string | null, position: string, day: number, hours: number) =>
      t.call('POST', '/shifts', { body: { locationId: loc, position, employeeId, start: `2026-12-${String(day).padStart(2, '0')}T08:00:00Z`, end: new Date(Date.parse(`2026-12-${String(day).padStart(2, '0')}T08:00:00Z`) + hours * 3_600_000).toISOString() } });
    // Ana: 9 h Mon–Fri = 45 h, the last 5 overtime at 1.5 (Friday, at the new rate of 22)
    for (const d of [7, 8, 9, 10, 11]) await add(ana, 'Cook', d, 9);
    await add(ben, 'Server', 7, 5);
    await add(ben, 'Cook', 7, 5);
    await add(null, 'Cook', 12, 6);
    const r = await t.call('GET', `/schedules?locationId=${loc}&from=2026-12-07&to=2026-12-13`);
    expect(r.status).toBe(200);
    const day = (date: string, position: string) => r.body.days.find((d: { date: string; position: string }) => d.date === date && d.position === position);
    expect(day('2026-12-07', 'Cook')).toEqual({ date: '2026-12-07', position: 'Cook', hours: '14.00', openHours: '0.00', overtimeHours: '0.00', cost: '280.00' });
    expect(day('2026-12-07', 'Server')).toMatchObject({ hours: '5.00', cost: '90.00' });
    expect(day('2026-12-08', 'Cook')).toMatchObject({ cost: '180.00' });
    expect(day('2026-12-09', 'Cook')).toMatchObject({ cost: '198.00' });
    // Friday: 4 regular hours at 22, 5 overtime at 33
    expect(day('2026-12-11', 'Cook')).toMatchObject({ hours: '9.00', overtimeHours: '5.00', cost: '253.00' });
    expect(day('2026-12-12', 'Cook')).toMatchObject({ hours: '6.00', openHours: '6.00', cost: '0.00' });
    // Ben's cook hours at his salary's hourly equivalent (41,600 / 2,080 = 20)
    expect(r.body.totals).toMatchObject({ hours: '61.00', openHours: '6.00', overtimeHours: '5.00', cost: '1199.00' });
    expect(Math.abs(Number(r.body.totals.forecastSales) - 7000)).toBeLessThan(150);
    expect(Number(r.body.totals.laborCostPercent)).toBeCloseTo((1199 / Number(r.body.totals.forecastSales)) * 100, 1);
    expect(r.body.shifts).toHaveLength(8);
  });

  it('drafts a schedule that covers the needs within availability, time off, rest and weekly hours, and names what it cannot cover', async () => {
    useClock(fixedClock('2026-12-10T06:00:00Z'));
    const loc = await replicaLocation(t);
    await t.call('POST', '/staffing-rules', { body: { locationId: loc, position: 'Cook', minStaff: 2, fromTime: '10:00', toTime: '18:00' } });
    await t.call('POST', '/staffing-rules', { body: { locationId: loc, position: 'Host', minStaff: 1, fromTime: '12:00', toTime: '14:00' } });
    const cooks: string[] = [];
    for (const [i, rate] of ['15', '16', '25', '30'].entries()) {
      const e = await replicaEmployee(t, { home: loc, firstName: `Cook${i}` });
      await replicaRate(t, e, rate);
      cooks.push(e);
    }
    // the cheapest cook is off on the 15th; the second only works mornings
    await publishEvent(stack, 'time', 'time_off.approved', { id: 'tor_gen', employeeId: cooks[0], startDate: '2026-12-15', endDate: '2026-12-15', partialHours: null, version: 2 });
    await eventually(async () => (await sql(t, `select 1 from scheduling.approved_time_off where id = 'tor_gen'`)).length > 0 || undefined);
    for (const weekday of ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']) {
      await t.call('POST', '/availability', { body: { employeeId: cooks[1], kind: 'available', weekday, startTime: '06:00', endTime: '14:00' } });
    }
    const before = await t.call('POST', '/shifts', { body: { locationId: loc, position: 'Cook', employeeId: cooks[3], start: '2026-12-14T10:00:00Z', end: '2026-12-14T12:00:00Z' } });
    const g = await t.call('POST', '/schedules:generate', { body: { locationId: loc, from: '2026-12-14', to: '2026-12-15', minShiftHours: 4, maxShiftHours: 8 } });
    expect(g.status).toBe(200);
    expect(g.body).toMatchObject({ locationId: loc, neededHours: 36, replacedDrafts: 1 });
    // cooks are covered; nobody holds Host, so that need is named
    expect(g.body.coveredHours).toBe(32);
    expect(g.body.unmet.map((u: { position: string }) => u.position)).toEqual(expect.arrayContaining(['Host']));
    expect(g.body.unmet.every((u: { position: string; reason: string }) => u.position === 'Host' && u.reason.length > 10)).toBe(true);
    expect(g.body.method).toMatch(/HiGHS|milp/i);
    const shifts = g.body.shifts as Array<{ employeeId: string; start: string; end: string; status: string; position: string }>;
    expect(shifts.every((s) => s.status === 'draft' && s.position === 'Cook')).toBe(true);
    // the rules: time off, availability, no overlap per employee, at most 8 hours
    expect(shifts.filter((s) => s.employeeId === cooks[0] && s.start.startsWith('2026-12-15'))).toEqual([]);
    for (const s of shifts.filter((x) => x.employeeId === cooks[1])) {
      expect(new Date(s.start).getUTCHours()).toBeGreaterThanOrEqual(6);
      expect(Date.parse(s.end)).toBeLessThanOrEqual(Date.parse(`${s.start.slice(0, 10)}T14:00:00Z`));
    }
    for (const a of shifts) for (const b of shifts) if (a !== b && a.employeeId === b.employeeId) expect(overlaps(a, b)).toBe(false);
    expect(shifts.every((s) => Date.parse(s.end) - Date.parse(s.start) <= 8 * 3_600_000)).toBe(true);
    // the cheapest cover: the dearest cook only on the 15th, when the cheapest is off and the second gone by 14:00
    expect(shifts.filter((s) => s.employeeId === cooks[3]).map((s) => s.start.slice(0, 10))).toEqual(['2026-12-15']);
    expect((await t.call('GET', `/shifts/${before.body.id}`)).body.status).toBe('archived');
    expect((await outboxPayloads(t, 'scheduling', { type: 'shift.changed' })).filter((e) => e.locationId === loc).length).toBe(shifts.length + 2);
    const needs = await t.call('GET', `/staffing-needs?locationId=${loc}&from=2026-12-14&to=2026-12-15`);
    expect(needs.body.positions.find((p: { position: string }) => p.position === 'Cook').shortHours).toBe('0.00');
  });
  it('names the real reason of an unmet need: no pay rate, time off, availability — not "nobody holds the position"', async () => {
    useClock(fixedClock('2026-12-10T06:00:00Z'));
    const loc = await replicaLocation(t);
    await t.call('POST', '/staffing-rules', { body: { locationId: loc, position: 'Baker', minStaff: 1, fromTime: '06:00', toTime: '10:00' } });
    await t.call('POST', '/staffing-rules', { body: { locationId: loc, position: 'Runner', minStaff: 2, fromTime: '12:00', toTime: '14:00' } });
    // the only baker has no pay rate; of the two runners one is off that day, the other works mornings only
    await replicaEmployee(t, { home: loc, firstName: 'Bea', positions: ['Baker'] });
    const [off, idle] = [await replicaEmployee(t, { home: loc, firstName: 'Ray', positions: ['Runner'] }), await replicaEmployee(t, { home: loc, firstName: 'Rex', positions: ['Runner'] })];
    for (const e of [off, idle]) await replicaRate(t, e, '15');
    await publishEvent(stack, 'time', 'time_off.approved', { id: 'tor_why', employeeId: off, startDate: '2026-12-14', endDate: '2026-12-14', partialHours: null, version: 2 });
    await eventually(async () => (await sql(t, `select 1 from scheduling.approved_time_off where id = 'tor_why'`)).length > 0 || undefined);
    await t.call('POST', '/availability', { body: { employeeId: idle, kind: 'available', weekday: 'monday', startTime: '06:00', endTime: '11:00' } });
    const g = await t.call('POST', '/schedules:generate', { body: { locationId: loc, from: '2026-12-14', to: '2026-12-14', minShiftHours: 2, maxShiftHours: 8 } });
    expect(g.status).toBe(200);
    const reasons = g.body.unmet.map((u: { reason: string }) => u.reason.replace(/^.*?: /, ''));
    expect(reasons).toEqual([
      'nobody who holds the position Baker can be drafted: 1 has no pay rate in force on 2026-12-14',
      'no Runner is available then (2 employees hold the position: 1 is on approved time off then; 1 has no availability then)',
    ]);
  });
});

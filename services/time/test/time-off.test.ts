import { fixedClock, useClock, type Principal } from '@bop/shared';
import { outboxPayloads, person, startTestService, type TestService } from '@bop/test-support';
import { timeService } from '../src';
import { paidTimeOffHoursByDay } from '../src/time-off/request-store';
import { balanceOverVersions } from '../src/time-off/policy-versions';
import { requestHoursByDay } from '../src/time-off/request-days';
import { replicaEmployee, replicaLocation } from './fixtures';
import { inDepartment, storedPayPeriod, uniqueName, workedTimesheet } from './time-off-fixtures';

let t: TestService;
beforeAll(async () => {
  t = await startTestService(timeService, {}, { workers: false });
});
afterAll(async () => {
  await t?.close();
});
afterEach(() => useClock({ now: () => new Date() }));

const call = (method: string, path: string, body?: unknown, as?: Principal) => t.call(method, path, { body, as });
const paths = (r: { body: { errors?: Array<{ path: string }> } }) => (r.body.errors ?? []).map((e) => e.path).sort();
/** Fixes the kit clock (2026-12-01 is a Tuesday). */
const at = (iso: string) => useClock(fixedClock(iso));
/** A person signed in to the employee area as the employee. */
const me = (employeeId: string) => person(undefined, { employeeId, actingAsEmployee: true });

async function newType(o: { paid?: boolean; allowNegativeBalance?: boolean; hoursPerDay?: string } = {}) {
  const r = await call('POST', '/time-off/types', { name: uniqueName('Vacation'), paid: o.paid ?? true, ...o });
  expect(r.status).toBe(201);
  return r.body as { id: string; name: string };
}

async function newPolicy(typeId: string, o: Record<string, unknown> = {}) {
  const r = await call('POST', '/time-off/policies', { typeId, name: 'Standard', accrual: { kind: 'none' }, ...o });
  expect(r.status).toBe(201);
  return r.body as { id: string; version: number };
}

/** A type with a policy covering everyone, and an employee at a fresh location with `opening` hours adjusted in on 2026-11-02. */
async function setup(o: { opening?: string; timezone?: string; type?: Parameters<typeof newType>[0] } = {}) {
  const loc = await replicaLocation(t, { timezone: o.timezone });
  const emp = await replicaEmployee(t, { home: loc });
  const type = await newType(o.type);
  const policy = await newPolicy(type.id);
  if (o.opening) expect((await call('POST', '/time-off/balances:adjust', { employeeId: emp, typeId: type.id, hours: o.opening, date: '2026-11-02', reason: 'opening balance' })).status).toBe(200);
  return { loc, emp, type, policy };
}

async function balanceOf(employeeId: string, typeId: string, asOf?: string) {
  const r = await call('GET', `/time-off/balances?employeeId=${employeeId}&typeId=${typeId}${asOf ? `&asOf=${asOf}` : ''}`);
  expect(r.status).toBe(200);
  return r.body.data[0];
}

describe('time-off types', () => {
  it('are created (hours per day 8 by default) and listed; a name is unique regardless of case; bad fields are named; company-wide writes need reach Everyone', async () => {
    const name = uniqueName('Sick');
    const created = await call('POST', '/time-off/types', { name, paid: true });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name, paid: true, allowNegativeBalance: false, hoursPerDay: '8', version: 1 });
    expect(created.body.id).toMatch(/^tot_/);
    const listed = await call('GET', '/time-off/types?limit=200');
    expect(listed.body.data.map((x: { id: string }) => x.id)).toContain(created.body.id);

    const twin = await call('POST', '/time-off/types', { name: name.toUpperCase(), paid: false });
    expect(twin.status).toBe(409);
    expect(twin.body.code).toBe('conflict');

    const bad = await call('POST', '/time-off/types', { name: ' ', paid: 'yes', hoursPerDay: '8.123456' });
    expect(bad.status).toBe(422);
    expect(paths(bad)).toEqual(['hoursPerDay', 'name', 'paid']);
    expect(paths(await call('POST', '/time-off/types', { name: 'X', paid: true, hoursPerDay: '25' }))).toEqual(['hoursPerDay']);

    const local = person({ 'time_off.manage': [{ type: 'locations', ids: ['loc_x'] }] });
    expect((await call('POST', '/time-off/types', { name: uniqueName('Other'), paid: true }, local)).body.code).toBe('out_of_reach');
    // one change event (issue 41 item 3), data.object the type as the API returns it; the refused ones record none
    const events = await outboxPayloads(t, 'time', { type: 'time_off_type.created', aggregateId: created.body.id });
    expect(events.map((e) => e.data.object)).toEqual([created.body]);
  });
});

describe('time-off policies', () => {
  it('are created with defaults, refused with field paths, and listed by type', async () => {
    const type = await newType();
    const r = await call('POST', '/time-off/policies', { typeId: type.id, name: 'Full-time', accrual: { kind: 'per_hour_worked', hours: '1', per: '30' }, cap: '40', carryOver: '16' });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      typeId: type.id,
      accrual: { kind: 'per_hour_worked', hours: '1', per: '30' },
      cap: '40',
      carryOver: '16',
      yearStart: '01-01',
      eligibility: { locationIds: [], departmentIds: [], positions: [] },
      effectiveFrom: null,
      history: [],
      version: 1,
    });
    expect(r.body.id).toMatch(/^top_/);
    const listed = await call('GET', `/time-off/policies?typeId=${type.id}`);
    expect(listed.body.data.map((p: { id: string }) => p.id)).toEqual([r.body.id]);

    const shape = await call('POST', '/time-off/policies', { typeId: type.id, name: 'x', accrual: { kind: 'per_hour_worked', hours: 'one', per: '0' }, cap: '-1', yearStart: '02-29' });
    expect(shape.status).toBe(422);
    expect(paths(shape)).toEqual(['accrual.hours', 'accrual.per', 'cap', 'yearStart']);
    const unknown = await call('POST', '/time-off/policies', { typeId: 'tot_nope', name: 'x', accrual: { kind: 'none' }, eligibility: { locationIds: ['loc_nowhere'] } });
    expect(unknown.status).toBe(422);
    expect(paths(unknown)).toEqual(['eligibility.locationIds[0]', 'typeId']);
    const local = person({ 'time_off.manage': [{ type: 'locations', ids: ['loc_x'] }] });
    expect((await call('POST', '/time-off/policies', { typeId: type.id, name: 'x', accrual: { kind: 'none' } }, local)).body.code).toBe('out_of_reach');
  });

  it('cover employees by location, department and position; the narrowest eligible policy governs', async () => {
    const loc = await replicaLocation(t);
    const cook = await replicaEmployee(t, { home: loc, positions: ['Cook'] });
    const manager = await replicaEmployee(t, { home: loc, positions: ['Manager'] });
    await inDepartment(t, manager, 'dep_kitchen');
    const type = await newType();
    const everyone = await newPolicy(type.id, { name: 'Everyone' });
    const managers = await newPolicy(type.id, { name: 'Kitchen managers', eligibility: { locationIds: [loc], departmentIds: ['dep_kitchen'], positions: ['manager'] } });
    expect((await balanceOf(cook, type.id)).policyId).toBe(everyone.id);
    expect((await balanceOf(manager, type.id)).policyId).toBe(managers.id);

    const onlyManagers = await newType();
    await newPolicy(onlyManagers.id, { eligibility: { positions: ['MANAGER'] } });
    expect(await balanceOf(cook, onlyManagers.id)).toBeUndefined();
    expect((await balanceOf(manager, onlyManagers.id)).balance).toBe('0');
  });

  it('PATCH changes the terms from the change date (If-Match); balances before it replay under the earlier terms', async () => {
    const loc = await replicaLocation(t);
    const emp = await replicaEmployee(t, { home: loc });
    const type = await newType();
    const policy = await newPolicy(type.id, { accrual: { kind: 'per_hour_worked', hours: '1', per: '30' } });
    await workedTimesheet(t, emp, loc, [
      ['2026-11-20', '30'],
      ['2026-12-02', '10'],
    ]);
    expect((await balanceOf(emp, type.id, '2026-12-05')).balance).toBe('1.3333');

    at('2026-12-01T12:00:00Z');
    const stale = await t.call('PATCH', `/time-off/policies/${policy.id}`, { body: { cap: '80' }, headers: { 'if-match': '"7"' } });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('version_mismatch');
    const patched = await t.call('PATCH', `/time-off/policies/${policy.id}`, { body: { accrual: { kind: 'per_hour_worked', hours: '1', per: '10' }, name: 'Richer' }, headers: { 'if-match': '"1"' } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      name: 'Richer',
      accrual: { kind: 'per_hour_worked', hours: '1', per: '10' },
      effectiveFrom: '2026-12-01',
      history: [{ effectiveFrom: null, effectiveTo: '2026-11-30', terms: { accrual: { kind: 'per_hour_worked', hours: '1', per: '30' }, cap: null, carryOver: null, yearStart: '01-01' } }],
      version: 2,
    });
    // 30 h before the change at 1 per 30, 10 h after it at 1 per 10
    const b = await balanceOf(emp, type.id, '2026-12-05');
    expect(b).toMatchObject({ balance: '2', accrued: '2' });
    expect(b.movements.map((m: { date: string; hours: string }) => [m.date, m.hours])).toEqual([
      ['2026-11-20', '1'],
      ['2026-12-02', '1'],
    ]);
    // a second change the same day replaces that day's terms; history keeps one entry
    const again = await t.call('PATCH', `/time-off/policies/${policy.id}`, { body: { accrual: { kind: 'per_hour_worked', hours: '1', per: '5' } } });
    expect(again.body).toMatchObject({ effectiveFrom: '2026-12-01', version: 3 });
    expect(again.body.history).toHaveLength(1);
    expect((await balanceOf(emp, type.id, '2026-12-05')).balance).toBe('3');
    // a change event per change (issue 41 item 3), data.object the policy as the API returns it; the stale PATCH records none
    const events = await outboxPayloads(t, 'time', { aggregateId: policy.id });
    expect(events.map((e) => e.type)).toEqual(['time_off_policy.created', 'time_off_policy.updated', 'time_off_policy.updated']);
    expect(events[1].data.object).toEqual(patched.body);
    expect(events[1].data.previous).toMatchObject({ name: 'Standard', effectiveFrom: null, history: [] });
    expect(events[2].data.object).toEqual(again.body);
    expect(paths(await call('PATCH', `/time-off/policies/${policy.id}`, { carryOver: 'lots' }))).toEqual(['carryOver']);
    expect((await call('PATCH', '/time-off/policies/top_nope', { name: 'x' })).status).toBe(404);
  });
});

describe('time-off balances', () => {
  it('accrue from timesheet hours worked up to the cap, carry over at most carryOver into a new year, as of any date', async () => {
    const loc = await replicaLocation(t);
    const emp = await replicaEmployee(t, { home: loc });
    const type = await newType();
    const policy = await newPolicy(type.id, { accrual: { kind: 'per_hour_worked', hours: '1', per: '30' }, cap: '40', carryOver: '16' });
    await call('POST', '/time-off/balances:adjust', { employeeId: emp, typeId: type.id, hours: '38', date: '2026-10-01', reason: 'opening balance' });
    await workedTimesheet(t, emp, loc, [
      ['2026-12-07', '12'],
      ['2026-12-08', '12'],
      ['2026-12-09', '12'],
      ['2026-12-10', '12'],
      ['2026-12-11', '12'],
    ]);
    await workedTimesheet(t, emp, loc, [['2026-12-14', '30']], 'open');
    await workedTimesheet(t, emp, loc, [['2027-01-04', '15']], 'open');

    expect(await balanceOf(emp, type.id, '2026-12-08')).toMatchObject({ balance: '38.8', accrued: '0.8', adjusted: '38', asOf: '2026-12-08', policyId: policy.id });
    // 60 h worked earn 2 h, the last of them only up to the cap; 2026-12-14 earns nothing at the cap
    expect(await balanceOf(emp, type.id, '2026-12-31')).toMatchObject({ balance: '40', accrued: '2', forfeited: '0' });
    const newYear = await balanceOf(emp, type.id, '2027-01-01');
    expect(newYear).toMatchObject({ balance: '16', forfeited: '24', pendingHours: '0' });
    expect(newYear.movements.at(-1)).toEqual({ date: '2027-01-01', kind: 'forfeited', hours: '-24', balanceAfter: '16' });
    expect(newYear.movements[0]).toEqual({ date: '2026-10-01', kind: 'adjustment', hours: '38', balanceAfter: '38', reason: 'opening balance' });
    expect((await balanceOf(emp, type.id, '2027-01-05')).balance).toBe('16.5');

    // the list: every employee in reach, no movements
    const listed = await call('GET', `/time-off/balances?typeId=${type.id}&asOf=2027-01-01&limit=200`);
    const row = listed.body.data.find((b: { employeeId: string }) => b.employeeId === emp);
    expect(row).toMatchObject({ balance: '16', typeId: type.id });
    expect(row.movements).toBeUndefined();
    expect((await call('GET', '/time-off/balances?asOf=2027-02-30')).status).toBe(400);
  });

  it('accrue per pay period ended on or before the date, from the hire date on', async () => {
    const loc = await replicaLocation(t);
    const emp = await replicaEmployee(t, { home: loc, hireDate: '2030-01-10' });
    const type = await newType();
    await newPolicy(type.id, { accrual: { kind: 'per_pay_period', hours: '3.08' } });
    await storedPayPeriod(t, '2029-12-18', '2029-12-31');
    await storedPayPeriod(t, '2030-01-01', '2030-01-14');
    await storedPayPeriod(t, '2030-01-15', '2030-01-28');
    expect((await balanceOf(emp, type.id, '2030-01-13')).balance).toBe('0');
    expect((await balanceOf(emp, type.id, '2030-01-14')).balance).toBe('3.08');
    expect((await balanceOf(emp, type.id, '2030-01-31')).balance).toBe('6.16');
  });

  it('are adjusted with a reason (signed hours), within the reach; bad input is named', async () => {
    at('2026-12-01T12:00:00Z');
    const { emp, type, loc } = await setup();
    const r = await call('POST', '/time-off/balances:adjust', { employeeId: emp, typeId: type.id, hours: '40', reason: 'Opening balance from the HR tool' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ employeeId: emp, typeId: type.id, asOf: '2026-12-01', balance: '40', adjusted: '40' });
    expect(r.body.movements).toEqual([{ date: '2026-12-01', kind: 'adjustment', hours: '40', balanceAfter: '40', reason: 'Opening balance from the HR tool' }]);
    const minus = await call('POST', '/time-off/balances:adjust', { employeeId: emp, typeId: type.id, hours: '-2.5', date: '2026-11-30', reason: 'correction' });
    expect(minus.body).toMatchObject({ balance: '37.5', adjusted: '37.5' });
    // a change event per adjustment (issue 41 item 3), data.object the balance as the API answers it, at the home location
    const adjusted = await outboxPayloads(t, 'time', { type: 'time_off.balance_adjusted', aggregateId: `${emp}:${type.id}` });
    expect(adjusted.map((e) => e.data.object)).toEqual([r.body, minus.body]);
    expect(adjusted[0].locationId).toBe(loc);

    const bad = await call('POST', '/time-off/balances:adjust', { employeeId: emp, typeId: type.id, hours: '1e2', date: '2026-02-30' });
    expect(bad.status).toBe(422);
    expect(paths(bad)).toEqual(['date', 'hours', 'reason']);
    expect(paths(await call('POST', '/time-off/balances:adjust', { employeeId: emp, typeId: type.id, hours: '0', reason: 'x' }))).toEqual(['hours']);
    expect(paths(await call('POST', '/time-off/balances:adjust', { employeeId: 'emp_nobody', typeId: type.id, hours: '1', reason: 'x' }))).toEqual(['employeeId']);
    const uncovered = await newType();
    expect(paths(await call('POST', '/time-off/balances:adjust', { employeeId: emp, typeId: uncovered.id, hours: '1', reason: 'x' }))).toEqual(['typeId']);
    const elsewhere = person({ 'time_off.manage': [{ type: 'locations', ids: [`${loc}-other`] }] });
    expect((await call('POST', '/time-off/balances:adjust', { employeeId: emp, typeId: type.id, hours: '1', reason: 'x' }, elsewhere)).body.code).toBe('out_of_reach');
  });
});

describe('time-off requests', () => {
  it('pending (time_off.requested) → approved: the balance is deducted (time_off.approved with employee and dates); only a pending one is decided', async () => {
    at('2026-12-01T12:00:00Z');
    const { emp, type, loc } = await setup({ opening: '40' });
    const r = await call('POST', '/time-off/requests', { employeeId: emp, typeId: type.id, startDate: '2026-12-07', endDate: '2026-12-09', note: 'Family visit' });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ employeeId: emp, typeId: type.id, locationId: loc, startDate: '2026-12-07', endDate: '2026-12-09', hours: '24', partialHours: null, status: 'pending', note: 'Family visit', requestedBy: { type: 'user', id: 'usr_test' }, version: 1 });
    expect(r.body.id).toMatch(/^tor_/);
    const requested = await outboxPayloads(t, 'time', { type: 'time_off.requested', aggregateId: r.body.id });
    expect(requested).toHaveLength(1);
    expect(requested[0]).toMatchObject({ actor: { type: 'user', id: 'usr_test' }, locationId: loc, data: { object: { id: r.body.id, status: 'pending', hours: '24' } } });
    expect(await balanceOf(emp, type.id)).toMatchObject({ balance: '40', pendingHours: '24' });

    const approved = await call('POST', `/time-off/requests/${r.body.id}:approve`);
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ status: 'approved', decidedBy: { type: 'user', id: 'usr_test' }, version: 2 });
    const event = (await outboxPayloads(t, 'time', { type: 'time_off.approved', aggregateId: r.body.id }))[0];
    expect(event).toMatchObject({ locationId: loc, data: { object: { id: r.body.id, employeeId: emp, startDate: '2026-12-07', endDate: '2026-12-09', hours: '24', status: 'approved' } } });
    // deducted on its first day
    expect(await balanceOf(emp, type.id, '2026-12-06')).toMatchObject({ balance: '40', pendingHours: '0' });
    const after = await balanceOf(emp, type.id, '2026-12-07');
    expect(after).toMatchObject({ balance: '16', taken: '24' });
    expect(after.movements.at(-1)).toEqual({ date: '2026-12-07', kind: 'taken', hours: '-24', balanceAfter: '16', requestId: r.body.id });

    const twice = await call('POST', `/time-off/requests/${r.body.id}:approve`);
    expect(twice.status).toBe(409);
    expect(twice.body.code).toBe('conflict');
    expect((await call('POST', `/time-off/requests/${r.body.id}:reject`, { reason: 'late' })).status).toBe(409);
    expect((await call('POST', '/time-off/requests/tor_nope:approve')).status).toBe(404);
  });

  it('pending → rejected with a reason (final, time_off.rejected); a partial day counts its hours', async () => {
    at('2026-12-01T12:00:00Z');
    const { emp, type } = await setup({ opening: '8' });
    const r = await call('POST', '/time-off/requests', { employeeId: emp, typeId: type.id, startDate: '2026-12-14', endDate: '2026-12-14', partialHours: '4.5' });
    expect(r.body).toMatchObject({ hours: '4.5', partialHours: '4.5', status: 'pending' });
    expect(paths(await call('POST', `/time-off/requests/${r.body.id}:reject`, {}))).toEqual(['reason']);
    const rejected = await call('POST', `/time-off/requests/${r.body.id}:reject`, { reason: 'Short-staffed that day' });
    expect(rejected.body).toMatchObject({ status: 'rejected', rejectionReason: 'Short-staffed that day' });
    expect((await outboxPayloads(t, 'time', { type: 'time_off.rejected', aggregateId: r.body.id }))[0].data.object).toMatchObject({ id: r.body.id, status: 'rejected' });
    expect((await call('POST', `/time-off/requests/${r.body.id}:approve`)).status).toBe(409);
    expect(await balanceOf(emp, type.id, '2026-12-31')).toMatchObject({ balance: '8', pendingHours: '0', taken: '0' });
  });

  it('beyond the balance (pending requests counted) is refused with 409, unless the type allows a negative balance', async () => {
    at('2026-12-01T12:00:00Z');
    const { emp, type } = await setup({ opening: '16' });
    expect((await call('POST', '/time-off/requests', { employeeId: emp, typeId: type.id, startDate: '2026-12-07', endDate: '2026-12-07' })).status).toBe(201);
    const refused = await call('POST', '/time-off/requests', { employeeId: emp, typeId: type.id, startDate: '2026-12-08', endDate: '2026-12-09' });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('conflict');
    expect(refused.body.detail).toContain('is 16 h (8 h in pending requests: 8 h left)');
    expect(refused.body.detail).toContain('16 h are asked');
    expect((await call('POST', '/time-off/requests', { employeeId: emp, typeId: type.id, startDate: '2026-12-08', endDate: '2026-12-08' })).status).toBe(201);

    const negative = await setup({ type: { allowNegativeBalance: true } });
    const r = await call('POST', '/time-off/requests', { employeeId: negative.emp, typeId: negative.type.id, startDate: '2026-12-07', endDate: '2026-12-11' });
    expect(r.status).toBe(201);
    expect(r.body.hours).toBe('40');
    await call('POST', `/time-off/requests/${r.body.id}:approve`);
    expect((await balanceOf(negative.emp, negative.type.id, '2026-12-31')).balance).toBe('-40');
  });

  it('refuses bad input with field paths', async () => {
    at('2026-12-01T12:00:00Z');
    const { emp, type, loc } = await setup({ opening: '40' });
    const req = (body: Record<string, unknown>) => call('POST', '/time-off/requests', { employeeId: emp, typeId: type.id, startDate: '2026-12-07', endDate: '2026-12-07', ...body });
    expect(paths(await req({ endDate: '2026-12-04' }))).toEqual(['endDate']);
    expect(paths(await req({ endDate: '2026-12-08', partialHours: '4' }))).toEqual(['partialHours']);
    expect(paths(await req({ startDate: '2026-12-05', endDate: '2026-12-06' }))).toEqual(['endDate']);
    expect(paths(await req({ startDate: '2026-13-01', partialHours: '0' }))).toEqual(['partialHours', 'startDate']);
    expect(paths(await req({ employeeId: 'emp_nobody' }))).toEqual(['employeeId']);
    expect(paths(await req({ typeId: 'tot_nope' }))).toEqual(['typeId']);
    const managersOnly = await newType();
    await newPolicy(managersOnly.id, { eligibility: { positions: ['Manager'] } });
    const notCovered = await req({ typeId: managersOnly.id });
    expect(notCovered.status).toBe(422);
    expect(paths(notCovered)).toEqual(['typeId']);
    const ending = await replicaEmployee(t, { home: loc, terminationDate: '2026-12-08' });
    expect(paths(await req({ employeeId: ending, endDate: '2026-12-09' }))).toEqual(['endDate']);
    expect((await req({ extra: 1 })).status).toBe(422);
  });

  /** Two employees at two locations, each with 40 h and a pending request (A's in the week of Dec 7, B's of Dec 21). */
  async function twoEmployeesRequesting() {
    at('2026-12-01T12:00:00Z');
    const a = await setup({ opening: '40' });
    const b = await setup({ opening: '40' });
    const ra = await call('POST', '/time-off/requests', { employeeId: a.emp, typeId: a.type.id, startDate: '2026-12-07', endDate: '2026-12-08' });
    const rb = await call('POST', '/time-off/requests', { employeeId: b.emp, typeId: b.type.id, startDate: '2026-12-21', endDate: '2026-12-22' });
    return { a, b, ra, rb };
  }

  it('lists by status, employee, location and dates, within the reach of the employee\'s home location', async () => {
    const { a, b, ra, rb } = await twoEmployeesRequesting();
    await call('POST', `/time-off/requests/${rb.body.id}:approve`);

    const ids = async (q: string, as?: Principal) => (await call('GET', `/time-off/requests?limit=200&${q}`, undefined, as)).body.data.map((r: { id: string }) => r.id);
    expect(await ids(`employeeId=${a.emp}`)).toEqual([ra.body.id]);
    expect(await ids(`locationId=${b.loc}&status=approved`)).toEqual([rb.body.id]);
    expect(await ids(`locationId=${b.loc}&status=pending`)).toEqual([]);
    expect(await ids(`locationId=${a.loc}&from=2026-12-08&to=2026-12-31`)).toEqual([ra.body.id]);
    expect(await ids(`locationId=${a.loc}&from=2026-12-09`)).toEqual([]);

    // a person whose time_off.* reach is location B only
    const onlyB = person({ 'time_off.read': [{ type: 'locations', ids: [b.loc] }], 'time_off.approve': [{ type: 'locations', ids: [b.loc] }], 'time_off.manage': [{ type: 'locations', ids: [b.loc] }] });
    expect(await ids('', onlyB)).toEqual([rb.body.id]);
    expect((await call('GET', `/time-off/requests?locationId=${a.loc}`, undefined, onlyB)).body.code).toBe('out_of_reach');
    expect((await call('GET', `/time-off/balances?employeeId=${a.emp}`, undefined, onlyB)).body.code).toBe('out_of_reach');
    const balances = await call('GET', '/time-off/balances?limit=200', undefined, onlyB);
    expect(new Set(balances.body.data.map((x: { employeeId: string }) => x.employeeId))).toEqual(new Set([b.emp]));
    expect((await call('GET', `/time-off/balances?employeeId=${b.emp}&typeId=${b.type.id}`, undefined, onlyB)).body.data).toEqual([expect.objectContaining({ balance: '40', taken: '0' })]);
    expect((await call('POST', `/time-off/requests/${ra.body.id}:approve`, undefined, onlyB)).body.code).toBe('out_of_reach');
    expect((await call('POST', '/time-off/requests', { employeeId: a.emp, typeId: a.type.id, startDate: '2026-12-09', endDate: '2026-12-09' }, onlyB)).body.code).toBe('out_of_reach');
    // types and policies are company-wide: any reach reads them
    expect((await call('GET', '/time-off/types', undefined, onlyB)).status).toBe(200);
    expect((await call('GET', '/time-off/policies', undefined, onlyB)).status).toBe(200);
  });

  it('an employee set reaches its employees\' requests and balances, and no one else\'s', async () => {
    const { a, b, ra, rb } = await twoEmployeesRequesting();
    const set = [{ type: 'employee_set' as const, ids: [a.emp] }];
    const as = person({ 'time_off.read': set, 'time_off.approve': set, 'time_off.manage': set });
    const ids = async (q: string) => (await call('GET', `/time-off/requests?limit=200&${q}`, undefined, as)).body.data.map((r: { id: string }) => r.id);
    expect(await ids('')).toEqual([ra.body.id]);
    expect(await ids(`locationId=${a.loc}`)).toEqual([ra.body.id]);
    expect(await ids(`locationId=${b.loc}`)).toEqual([]);
    const balances = await call('GET', '/time-off/balances?limit=200', undefined, as);
    expect(new Set(balances.body.data.map((x: { employeeId: string }) => x.employeeId))).toEqual(new Set([a.emp]));
    expect((await call('GET', `/time-off/balances?employeeId=${b.emp}`, undefined, as)).body.code).toBe('out_of_reach');
    expect((await call('POST', `/time-off/requests/${rb.body.id}:approve`, undefined, as)).body.code).toBe('out_of_reach');
    expect((await call('POST', `/time-off/requests/${ra.body.id}:approve`, undefined, as)).body.status).toBe('approved');
    expect((await call('POST', '/time-off/requests', { employeeId: a.emp, typeId: a.type.id, startDate: '2026-12-10', endDate: '2026-12-10' }, as)).status).toBe(201);
    expect((await call('POST', '/time-off/balances:adjust', { employeeId: a.emp, typeId: a.type.id, hours: '1', reason: 'opening' }, as)).status).toBe(200);
    expect((await call('POST', '/time-off/balances:adjust', { employeeId: b.emp, typeId: b.type.id, hours: '1', reason: 'opening' }, as)).body.code).toBe('out_of_reach');
  });
});

describe('/me/time-off', () => {
  it('needs an account linked to an employee', async () => {
    const unlinked = person();
    for (const [method, path, body] of [
      ['GET', '/me/time-off/balances'],
      ['GET', '/me/time-off/requests'],
      ['POST', '/me/time-off/requests', { typeId: 'tot_x', startDate: '2026-12-07', endDate: '2026-12-07' }],
      ['POST', '/me/time-off/requests/tor_x:cancel'],
    ] as Array<[string, string, unknown?]>) {
      const r = await call(method, path, body, unlinked);
      expect([path, r.status, r.body.code]).toEqual([path, 403, 'not_linked_to_employee']);
    }
  });

  it('requests for oneself (the employee is the actor), lists and balances one\'s own, cancels a pending one; another\'s is not found', async () => {
    at('2026-12-01T12:00:00Z');
    const { emp, type } = await setup({ opening: '24' });
    const other = await setup({ opening: '24' });
    const mine = await call('POST', '/me/time-off/requests', { typeId: type.id, startDate: '2026-12-10', endDate: '2026-12-10' }, me(emp));
    expect(mine.status).toBe(201);
    expect(mine.body).toMatchObject({ employeeId: emp, status: 'pending', hours: '8', requestedBy: { type: 'employee', id: emp } });
    expect((await outboxPayloads(t, 'time', { type: 'time_off.requested', aggregateId: mine.body.id }))[0].actor).toEqual({ type: 'employee', id: emp });
    expect(paths(await call('POST', '/me/time-off/requests', { employeeId: other.emp, typeId: type.id, startDate: '2026-12-10', endDate: '2026-12-10' }, me(emp)))).toEqual(['employeeId']);
    const theirs = await call('POST', '/time-off/requests', { employeeId: other.emp, typeId: other.type.id, startDate: '2026-12-10', endDate: '2026-12-10' });

    const listed = await call('GET', '/me/time-off/requests', undefined, me(emp));
    expect(listed.body.data.map((r: { id: string }) => r.id)).toEqual([mine.body.id]);
    const balances = await call('GET', `/me/time-off/balances?typeId=${type.id}`, undefined, me(emp));
    expect(balances.body.data).toEqual([expect.objectContaining({ employeeId: emp, typeId: type.id, balance: '24', pendingHours: '8', asOf: '2026-12-01', movements: [expect.objectContaining({ kind: 'adjustment' })] })]);

    expect((await call('POST', `/me/time-off/requests/${theirs.body.id}:cancel`, undefined, me(emp))).status).toBe(404);
    const cancelled = await call('POST', `/me/time-off/requests/${mine.body.id}:cancel`, undefined, me(emp));
    expect(cancelled.body).toMatchObject({ status: 'cancelled', version: 2 });
    expect(cancelled.body.cancelledAt).toBe('2026-12-01T12:00:00.000Z');
    expect((await call('POST', `/me/time-off/requests/${mine.body.id}:cancel`, undefined, me(emp))).status).toBe(409);
    // the cancel records time_off.cancelled (the project's own type), data.object the request as the API returns it
    const cancelEvents = await outboxPayloads(t, 'time', { type: 'time_off.cancelled', aggregateId: mine.body.id });
    expect(cancelEvents.map((e) => e.data.object)).toEqual([cancelled.body]);
    expect((await call('GET', '/me/time-off/requests?status=cancelled', undefined, me(emp))).body.data).toHaveLength(1);
    expect((await balanceOf(emp, type.id)).pendingHours).toBe('0');
  });

  it('cancels an approved request before its first day at the home location (balance restored); once it has begun, 409', async () => {
    // 2026-12-01T12:00Z: still 1 December in Los Angeles (04:00), already 2 December in Auckland (01:00)
    at('2026-12-01T12:00:00Z');
    const la = await setup({ opening: '16', timezone: 'America/Los_Angeles' });
    const akl = await setup({ opening: '16', timezone: 'Pacific/Auckland' });
    const approved = async (s: typeof la) => {
      const r = await call('POST', '/me/time-off/requests', { typeId: s.type.id, startDate: '2026-12-02', endDate: '2026-12-02' }, me(s.emp));
      expect((await call('POST', `/time-off/requests/${r.body.id}:approve`)).body.status).toBe('approved');
      return r.body.id as string;
    };
    const early = await approved(la);
    expect((await balanceOf(la.emp, la.type.id, '2026-12-31')).balance).toBe('8');
    const cancelled = await call('POST', `/me/time-off/requests/${early}:cancel`, undefined, me(la.emp));
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe('cancelled');
    // internal: scheduling stops warning of the days off
    expect((await outboxPayloads(t, 'time', { type: 'time.time_off_request.cancelled', aggregateId: early })).map((e) => e.data.object.status)).toEqual(['cancelled']);
    const restored = await balanceOf(la.emp, la.type.id, '2026-12-31');
    expect(restored).toMatchObject({ balance: '16', taken: '0' });
    expect(restored.movements.slice(-2).map((m: { kind: string; hours: string }) => [m.kind, m.hours])).toEqual([
      ['taken', '-8'],
      ['restored', '8'],
    ]);

    const begun = await approved(akl);
    const refused = await call('POST', `/me/time-off/requests/${begun}:cancel`, undefined, me(akl.emp));
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('conflict');
    expect(refused.body.detail).toContain('today is 2026-12-02');
    expect((await balanceOf(akl.emp, akl.type.id, '2026-12-31')).balance).toBe('8');
  });
});

describe('paid time off per day (for the payroll export)', () => {
  it('spreads approved requests of paid types over their workdays within the range; partial days on their day; others left out', async () => {
    at('2026-12-01T12:00:00Z');
    const paid = await setup({ opening: '80' });
    const unpaidType = await newType({ paid: false, allowNegativeBalance: true });
    await newPolicy(unpaidType.id);
    const make = async (typeId: string, startDate: string, endDate: string, extra: Record<string, unknown> = {}, approve = true) => {
      const r = await call('POST', '/time-off/requests', { employeeId: paid.emp, typeId, startDate, endDate, ...extra });
      expect(r.status).toBe(201);
      if (approve) await call('POST', `/time-off/requests/${r.body.id}:approve`);
      return r.body.id as string;
    };
    await make(paid.type.id, '2026-12-04', '2026-12-08'); // Fri to Tue: 3 workdays, 24 h
    await make(paid.type.id, '2026-12-09', '2026-12-09', { partialHours: '3.5' });
    await make(paid.type.id, '2026-12-10', '2026-12-10', {}, false); // pending
    const cancelled = await make(paid.type.id, '2026-12-11', '2026-12-11');
    expect((await call('POST', `/me/time-off/requests/${cancelled}:cancel`, undefined, me(paid.emp))).status).toBe(200);
    // an approved request cancelled through /me: the employee is the event's actor
    expect((await outboxPayloads(t, 'time', { type: 'time.time_off_request.cancelled', aggregateId: cancelled }))[0].actor).toEqual({ type: 'employee', id: paid.emp });
    await make(unpaidType.id, '2026-12-14', '2026-12-14', {}, true);

    const byDayOf = (ids: string[], from: string, to: string) => t.svc.runtime.read((w) => paidTimeOffHoursByDay(w, ids, from, to));
    const byDay = await byDayOf([paid.emp, 'emp_nobody'], '2026-12-05', '2026-12-31');
    expect([...byDay.keys()]).toEqual([paid.emp]);
    expect(byDay.get(paid.emp)).toEqual({ '2026-12-07': '8', '2026-12-08': '8', '2026-12-09': '3.5' });
    expect((await byDayOf([paid.emp], '2026-12-01', '2026-12-04')).get(paid.emp)).toEqual({ '2026-12-04': '8' });
    expect((await byDayOf([], '2026-12-01', '2026-12-31')).size).toBe(0);
  });
});

describe('time-off rules', () => {
  it('replays each stretch under the terms then in force; a year start on the change date forfeits under the new terms', () => {
    const versions = [
      { effectiveFrom: null, terms: { accrual: { kind: 'none' as const }, cap: null, carryOver: null, yearStart: '01-01' } },
      { effectiveFrom: '2027-01-01', terms: { accrual: { kind: 'none' as const }, cap: null, carryOver: '5', yearStart: '01-01' } },
    ];
    const b = balanceOverVersions(versions, [{ kind: 'adjustment', date: '2026-06-01', hours: '20', reason: 'opening balance' }], '2027-01-02');
    expect(b).toMatchObject({ balance: '5', adjusted: '20', forfeited: '15' });
    expect(b.movements.map((m) => [m.date, m.kind, m.hours])).toEqual([
      ['2026-06-01', 'adjustment', '20'],
      ['2027-01-01', 'forfeited', '-15'],
    ]);
    // before the change only the first terms count
    expect(balanceOverVersions(versions, [{ kind: 'adjustment', date: '2026-06-01', hours: '20', reason: 'x' }], '2026-12-31').balance).toBe('20');
  });

  it('spreads a request over its workdays', () => {
    expect(requestHoursByDay({ startDate: '2026-12-04', endDate: '2026-12-08', hours: '22.5', partialHours: null }, '2026-01-01', '2026-12-31')).toEqual([
      { date: '2026-12-04', hours: '7.5' },
      { date: '2026-12-07', hours: '7.5' },
      { date: '2026-12-08', hours: '7.5' },
    ]);
    expect(requestHoursByDay({ startDate: '2026-12-05', endDate: '2026-12-05', hours: '4', partialHours: '4' }, '2026-12-01', '2026-12-31')).toEqual([{ date: '2026-12-05', hours: '4' }]);
  });
});

import { fixedClock, useClock } from '@bop/shared';
import { outboxEvents, person, sql, startTestService, type TestService } from '@bop/test-support';
import { peopleService } from '../src';
import { employeeBody, newEmployee, replicaDepartment, replicaLocation } from './fixtures';

let t: TestService;
beforeAll(async () => {
  t = await startTestService(peopleService, {}, { workers: false });
});
afterAll(async () => {
  await t?.close();
});

const eventsOf = async (id: string) => (await outboxEvents(t, 'people')).filter((e) => e.aggregate_id === id);
/** A round of the effective-changes worker (its loop is off) */
const applyDue = () => t.svc.worker('employee-effective-changes').runOnce();

describe('employees', () => {
  it('creates an employee with its places of work and records employee.created and the audit trail', async () => {
    const home = await replicaLocation(t);
    const further = await replicaLocation(t);
    const dep = await replicaDepartment(t, home);
    const res = await t.call('POST', '/employees', {
      body: employeeBody(home, { preferredName: 'Ani', email: 'ana@example.com', locationIds: [further, home, further], departmentId: dep, positions: ['Cook', 'Server'], employeeNumber: 'E-100', externalId: 'hr-100', address: { line1: '1 Main St', city: 'Springfield', country: 'US' } }),
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ homeLocationId: home, locationIds: [further], departmentId: dep, positions: ['Cook', 'Server'], status: 'active', terminationDate: null, scheduledTransfer: null, employmentHistory: [], version: 1 });
    expect(res.body.id).toMatch(/^emp_/);
    const events = await eventsOf(res.body.id);
    expect(events.map((e) => [e.type, e.location_id])).toEqual([['employee.created', home]]);
    expect(events[0].payload.data.object).toEqual(res.body);
    const trail = await sql(t, `select action, changes from people.activity where employee_id = $1`, [res.body.id]);
    expect(trail[0].action).toBe('created');
    expect(trail[0].changes).toContainEqual({ field: 'legalFirstName', from: null, to: 'Ana' });
    const dup = await t.call('POST', '/employees', { body: employeeBody(home, { externalId: 'hr-100' }) });
    expect(dup.status).toBe(409);
    expect(dup.body.errors).toEqual([{ path: 'externalId', message: 'Already used by another employee.' }]);
  });

  it('names the field at fault: locations, department, positions', async () => {
    const home = await replicaLocation(t);
    const archived = await replicaLocation(t, 'UTC', 'archived');
    const elsewhere = await replicaLocation(t);
    const depElsewhere = await replicaDepartment(t, elsewhere);
    const depArchived = await replicaDepartment(t, null, 'archived');
    const res = await t.call('POST', '/employees', { body: employeeBody(home, { locationIds: ['loc_nope', archived], departmentId: depElsewhere, positions: ['Cook', 'cook'] }) });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      { path: 'locationIds[0]', message: 'No location loc_nope.' },
      { path: 'locationIds[1]', message: `Location ${archived} is archived; it takes no new employees.` },
      { path: 'departmentId', message: `Department ${depElsewhere} belongs to location ${elsewhere}, not to the home location ${home}.` },
      { path: 'positions[1]', message: 'Position "cook" is listed twice.' },
    ]);
    const arch = await t.call('POST', '/employees', { body: employeeBody(home, { departmentId: depArchived }) });
    expect(arch.body.errors).toEqual([{ path: 'departmentId', message: `Department ${depArchived} is archived.` }]);
    const moved = await t.call('PATCH', `/employees/${(await newEmployee(t, home)).id}`, { body: { homeLocationId: elsewhere } });
    expect(moved.status).toBe(422);
    expect(moved.body.errors[0].path).toBe('homeLocationId');
    const nul = await t.call('POST', '/employees', { body: employeeBody(home, { legalLastName: 'a\u0000b' }) });
    expect(nul.status).toBe(422);
    expect(nul.body.errors[0].path).toBe('legalLastName');
  });

  it('applies reach: home or further locations for reads, the home location for writes', async () => {
    const here = await replicaLocation(t);
    const there = await replicaLocation(t);
    const local = await newEmployee(t, here);
    const visiting = await newEmployee(t, there, { locationIds: [here] });
    const far = await newEmployee(t, there);
    const manager = person({ 'employees.read': [{ type: 'locations', ids: [here] }], 'employees.manage': [{ type: 'locations', ids: [here] }] });
    const listed = await t.call('GET', '/employees?limit=200', { as: manager });
    const ids = listed.body.data.map((e: { id: string }) => e.id);
    expect(ids).toEqual(expect.arrayContaining([local.id, visiting.id]));
    expect(ids).not.toContain(far.id);
    const byLocation = await t.call('GET', `/employees?locationId=${here}&limit=200`);
    expect(byLocation.body.data.map((e: { id: string }) => e.id).sort()).toEqual([local.id, visiting.id].sort());
    expect((await t.call('GET', `/employees/${far.id}`, { as: manager })).body.code).toBe('out_of_reach');
    expect((await t.call('GET', `/employees?locationId=${there}`, { as: manager })).body.code).toBe('out_of_reach');
    expect((await t.call('POST', '/employees', { as: manager, body: employeeBody(there) })).body.code).toBe('out_of_reach');
    expect((await t.call('POST', '/employees', { as: manager, body: employeeBody(here) })).status).toBe(201);
    expect((await t.call('PATCH', `/employees/${far.id}`, { as: manager, body: { phone: '555-0100' } })).body.code).toBe('out_of_reach');
    const noRead = await t.call('GET', '/employees', { as: person({}) });
    expect(noRead.status).toBe(403);
    const filtered = await t.call('GET', `/employees?status=terminated&limit=200`);
    expect(filtered.body.data.every((e: { status: string }) => e.status === 'terminated')).toBe(true);
  });

  it('patches personal fields (employee.updated with the old values), honours If-Match, and ignores a no-op', async () => {
    const home = await replicaLocation(t);
    const e = await newEmployee(t, home, { phone: '555-0001' });
    const res = await t.call('PATCH', `/employees/${e.id}`, { body: { phone: '555-0002', preferredName: 'Ani' }, headers: { 'if-match': '"1"' } });
    expect(res.body).toMatchObject({ phone: '555-0002', preferredName: 'Ani', version: 2 });
    const stale = await t.call('PATCH', `/employees/${e.id}`, { body: { phone: '555-0003' }, headers: { 'if-match': '"1"' } });
    expect(stale.body.code).toBe('version_mismatch');
    const same = await t.call('PATCH', `/employees/${e.id}`, { body: { phone: '555-0002' } });
    expect(same.body.version).toBe(2);
    const events = await eventsOf(e.id);
    expect(events.map((x) => x.type)).toEqual(['employee.created', 'employee.updated']);
    expect(events[1].payload.data.previous).toEqual({ phone: '555-0001', preferredName: null });
  });
});

describe('effective-dated transfers and terminations', () => {
  afterEach(() => useClock({ now: () => new Date() }));

  it('transfers at once, or on the day at the new home location (a time-zone day boundary)', async () => {
    const ny = await replicaLocation(t, 'America/New_York');
    const auckland = await replicaLocation(t, 'Pacific/Auckland');
    const la = await replicaLocation(t, 'America/Los_Angeles');
    const now = await newEmployee(t, ny);
    const at = await t.call('POST', `/employees/${now.id}:transfer`, { body: { effectiveDate: '2026-01-01', homeLocationId: la } });
    expect(at.body).toMatchObject({ homeLocationId: la, scheduledTransfer: null, version: 2 });
    expect((await eventsOf(now.id)).map((e) => e.type)).toEqual(['employee.created', 'employee.transferred']);

    useClock(fixedClock('2026-11-30T10:00:00Z'));
    const toAuckland = await newEmployee(t, ny);
    const toLa = await newEmployee(t, ny);
    const a = await t.call('POST', `/employees/${toAuckland.id}:transfer`, { body: { effectiveDate: '2026-12-01', homeLocationId: auckland } });
    expect(a.body).toMatchObject({ homeLocationId: ny, scheduledTransfer: { effectiveDate: '2026-12-01', homeLocationId: auckland, departmentId: null, locationIds: [] } });
    await t.call('POST', `/employees/${toLa.id}:transfer`, { body: { effectiveDate: '2026-12-01', homeLocationId: la } });
    // 12:00 UTC: already 1 December in Auckland (01:00), still 30 November in Los Angeles (04:00)
    useClock(fixedClock('2026-11-30T12:00:00Z'));
    await applyDue();
    expect((await t.call('GET', `/employees/${toAuckland.id}`)).body).toMatchObject({ homeLocationId: auckland, scheduledTransfer: null });
    expect((await t.call('GET', `/employees/${toLa.id}`)).body).toMatchObject({ homeLocationId: ny, scheduledTransfer: { homeLocationId: la } });
    useClock(fixedClock('2026-12-01T08:00:00Z'));
    await applyDue();
    expect((await t.call('GET', `/employees/${toLa.id}`)).body).toMatchObject({ homeLocationId: la, scheduledTransfer: null });
    const events = await eventsOf(toLa.id);
    expect(events.map((e) => e.type)).toEqual(['employee.created', 'employee.updated', 'employee.transferred']);
    expect(events[2].payload.actor).toEqual({ type: 'system', id: null });
    const noChange = await t.call('POST', `/employees/${toLa.id}:transfer`, { body: { effectiveDate: '2026-12-02', homeLocationId: la } });
    expect(noChange.status).toBe(422);
  });

  it('terminates from the effective date, archives, and rehires with the history kept', async () => {
    useClock(fixedClock('2026-11-30T15:00:00Z'));
    const home = await replicaLocation(t, 'America/New_York');
    const e = await newEmployee(t, home);
    const early = await t.call('POST', `/employees/${e.id}:terminate`, { body: { effectiveDate: '2025-12-31', reason: 'x' } });
    expect(early.body.errors[0].path).toBe('effectiveDate');
    const scheduled = await t.call('POST', `/employees/${e.id}:terminate`, { body: { effectiveDate: '2026-12-15', reason: 'Moved away' } });
    expect(scheduled.body).toMatchObject({ status: 'active', terminationDate: '2026-12-15', terminationReason: 'Moved away' });
    expect((await t.call('DELETE', `/employees/${e.id}`)).status).toBe(409);
    const moved = await t.call('POST', `/employees/${e.id}:terminate`, { body: { effectiveDate: '2026-12-16', reason: 'Moved away' } });
    expect(moved.body).toMatchObject({ status: 'active', terminationDate: '2026-12-16' });
    const back1 = await t.call('POST', `/employees/${e.id}:terminate`, { body: { effectiveDate: '2026-12-15', reason: 'Moved away' } });
    const again = await t.call('POST', `/employees/${e.id}:terminate`, { body: { effectiveDate: '2026-12-15', reason: 'Moved away' } });
    expect(again.body.version).toBe(back1.body.version);
    useClock(fixedClock('2026-12-15T04:59:00Z')); // 23:59 on the 14th in New York
    await applyDue();
    expect((await t.call('GET', `/employees/${e.id}`)).body.status).toBe('active');
    useClock(fixedClock('2026-12-15T05:00:00Z'));
    await applyDue();
    expect((await t.call('GET', `/employees/${e.id}`)).body.status).toBe('terminated');
    const types = (await eventsOf(e.id)).map((x) => x.type);
    expect(types).toEqual(['employee.created', 'employee.terminated', 'employee.terminated', 'employee.terminated', 'employee.updated']);
    expect((await t.call('POST', `/employees/${e.id}:terminate`, { body: { effectiveDate: '2026-12-20', reason: 'x' } })).status).toBe(409);

    const tooSoon = await t.call('POST', `/employees/${e.id}:rehire`, { body: { effectiveDate: '2026-12-15' } });
    expect(tooSoon.body.errors[0].path).toBe('effectiveDate');
    const back = await t.call('POST', `/employees/${e.id}:rehire`, { body: { effectiveDate: '2027-03-01' } });
    expect(back.body).toMatchObject({ status: 'active', hireDate: '2027-03-01', terminationDate: null, employmentHistory: [{ hireDate: '2026-01-05', terminationDate: '2026-12-15', terminationReason: 'Moved away' }] });

    const now = await t.call('POST', `/employees/${e.id}:terminate`, { body: { effectiveDate: '2026-12-15', reason: 'x' } });
    expect(now.body.errors[0].path).toBe('effectiveDate'); // before the new hire date
    const gone = await t.call('POST', `/employees/${e.id}:terminate`, { body: { effectiveDate: '2027-03-01', reason: 'Did not start' } });
    expect(gone.body.status).toBe('active');
    useClock(fixedClock('2027-03-01T12:00:00Z'));
    await applyDue();
    const archived = await t.call('DELETE', `/employees/${e.id}`);
    expect(archived.body).toMatchObject({ status: 'archived' });
    expect(archived.body.archivedAt).not.toBeNull();
    expect((await t.call('PATCH', `/employees/${e.id}`, { body: { phone: '1234' } })).status).toBe(409);
    expect((await eventsOf(e.id)).map((x) => x.type).slice(-1)).toEqual(['employee.archived']);
  });

  it('terminates at once when the date has come', async () => {
    const home = await replicaLocation(t);
    const e = await newEmployee(t, home);
    const res = await t.call('POST', `/employees/${e.id}:terminate`, { body: { effectiveDate: '2026-02-01', reason: 'Resigned' } });
    expect(res.body).toMatchObject({ status: 'terminated', terminationDate: '2026-02-01' });
    expect((await eventsOf(e.id)).map((x) => x.type)).toEqual(['employee.created', 'employee.terminated']);
  });
});

describe('emergency contacts and the audit trail', () => {
  it('replaces the contacts, and /me/activity shows the changes to the caller\'s own record', async () => {
    const home = await replicaLocation(t);
    const e = await newEmployee(t, home);
    const contacts = [{ name: 'Rui Silva', relationship: 'spouse', phone: '+1 555 0100' }];
    const put = await t.call('PUT', `/employees/${e.id}/emergency-contacts`, { body: { contacts } });
    expect(put.body).toEqual({ contacts: [{ ...contacts[0], email: null }] });
    expect((await t.call('GET', `/employees/${e.id}/emergency-contacts`)).body).toEqual(put.body);
    await t.call('PATCH', `/employees/${e.id}`, { body: { phone: '555-7777' }, as: person(undefined, { id: 'usr_hr', userId: 'usr_hr' }) });
    const self = person({}, { id: 'usr_self', userId: 'usr_self', employeeId: e.id });
    const mine = await t.call('GET', '/me/activity', { as: self });
    expect(mine.status).toBe(200);
    expect(mine.body.data.map((a: { action: string }) => a.action)).toEqual(['created', 'emergency_contacts_replaced', 'updated']);
    expect(mine.body.data[2]).toMatchObject({ actor: { type: 'user', id: 'usr_hr' }, changes: [{ field: 'phone', from: null, to: '555-7777' }] });
    const unlinked = await t.call('GET', '/me/activity', { as: person({}) });
    expect(unlinked.status).toBe(403);
    expect(unlinked.body.code).toBe('not_linked_to_employee');
  });
});

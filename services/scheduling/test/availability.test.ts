import { integration, outboxPayloads, person, startTestService, type TestService } from '@bop/test-support';
import { schedulingService } from '../src';
import { me, replicaEmployee, replicaLocation } from './fixtures';

let t: TestService;
beforeAll(async () => {
  t = await startTestService(schedulingService);
});
afterAll(async () => {
  await t?.close();
});

describe('availability', () => {
  it('a manager adds, reads, changes and archives an employee\'s windows; the employee manages their own', async () => {
    const loc = await replicaLocation(t, { timezone: 'Europe/Berlin' });
    const emp = await replicaEmployee(t, { home: loc });
    const added = await t.call('POST', '/availability', { body: { employeeId: emp, kind: 'preferred', weekday: 'friday', startTime: '17:00', endTime: '24:00' } });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ employeeId: emp, kind: 'preferred', weekday: 'friday', date: null, startTime: '17:00', endTime: '24:00', timezone: 'Europe/Berlin', status: 'active', version: 1 });
    const changed = await t.call('PATCH', `/availability/${added.body.id}`, { body: { startTime: '16:00', effectiveUntil: '2027-06-30' }, headers: { 'if-match': '"1"' } });
    expect(changed.body).toMatchObject({ startTime: '16:00', effectiveUntil: '2027-06-30', version: 2 });
    expect((await t.call('PATCH', `/availability/${added.body.id}`, { body: { startTime: '23:00', endTime: '22:00' } })).body.errors).toEqual([{ path: 'endTime', message: 'The window must end after it starts on the same day.' }]);
    expect((await t.call('GET', `/availability?employeeId=${emp}`)).body.data.map((a: { id: string }) => a.id)).toEqual([added.body.id]);
    expect((await t.call('GET', `/availability?locationId=${loc}`)).body.data).toHaveLength(1);

    const own = await t.call('POST', '/me/availability', { as: me(emp), body: { kind: 'unavailable', date: '2026-12-24' } });
    expect(own.body).toMatchObject({ employeeId: emp, kind: 'unavailable', date: '2026-12-24', startTime: '00:00', endTime: '24:00' });
    expect((await t.call('GET', '/me/availability', { as: me(emp) })).body.data).toHaveLength(2);
    const someoneElse = await replicaEmployee(t, { home: loc });
    expect((await t.call('DELETE', `/me/availability/${own.body.id}`, { as: me(someoneElse) })).status).toBe(404);
    expect((await t.call('DELETE', `/me/availability/${own.body.id}`, { as: me(emp) })).status).toBe(204);
    const archived = await t.call('DELETE', `/availability/${added.body.id}`);
    expect(archived.body.status).toBe('archived');
    expect((await t.call('GET', '/me/availability', { as: me(emp) })).body.data).toEqual([]);
    // a change event per change (issue 41 item 3), data.object the window as the API returns it, at the employee's home location
    const events = await outboxPayloads(t, 'scheduling', { aggregateId: added.body.id });
    expect(events.map((e) => e.type)).toEqual(['availability.created', 'availability.updated', 'availability.archived']);
    expect(events.map((e) => e.data.object)).toEqual([added.body, changed.body, archived.body]);
    expect(events[1]).toMatchObject({ locationId: loc, data: { previous: { startTime: '17:00', effectiveUntil: null } } });
    expect((await outboxPayloads(t, 'scheduling', { aggregateId: own.body.id })).map((e) => e.type)).toEqual(['availability.created', 'availability.archived']);
  });

  it('refuses a window that is neither weekly nor dated, or both, backwards times, and an unknown employee', async () => {
    const loc = await replicaLocation(t);
    const emp = await replicaEmployee(t, { home: loc });
    const both = await t.call('POST', '/availability', { body: { employeeId: emp, kind: 'available', weekday: 'monday', date: '2026-12-21' } });
    expect([both.status, both.body.errors[0].path]).toEqual([422, 'weekday']);
    const backwards = await t.call('POST', '/availability', { body: { employeeId: emp, kind: 'available', weekday: 'monday', startTime: '18:00', endTime: '09:00' } });
    expect(backwards.body.errors).toEqual([{ path: 'endTime', message: 'The window must end after it starts on the same day (split an overnight window at 24:00).' }]);
    expect((await t.call('POST', '/availability', { body: { employeeId: emp, kind: 'sometimes', weekday: 'monday' } })).body.errors[0].path).toBe('kind');
    expect((await t.call('POST', '/availability', { body: { employeeId: emp, kind: 'available', weekday: 'monday', startTime: '25:00' } })).body.errors[0].path).toBe('startTime');
    expect((await t.call('POST', '/availability', { body: { employeeId: 'emp_nope', kind: 'available', weekday: 'monday' } })).body.errors).toEqual([{ path: 'employeeId', message: 'No employee emp_nope.' }]);
  });

  it('checks reach and the employee link (scopes and permissions: the gateway, test/access.test.ts)', async () => {
    const loc = await replicaLocation(t);
    const other = await replicaLocation(t);
    const emp = await replicaEmployee(t, { home: loc });
    const body = { employeeId: emp, kind: 'available', weekday: 'monday' };
    expect((await t.call('POST', '/availability', { as: integration(['scheduling:write']), body })).status).toBe(201);
    const elsewhere = person({ 'schedules.manage': [{ type: 'locations', ids: [other] }], 'schedules.read': [{ type: 'locations', ids: [other] }] });
    expect((await t.call('POST', '/availability', { as: elsewhere, body })).body.code).toBe('out_of_reach');
    expect((await t.call('GET', `/availability?employeeId=${emp}`, { as: elsewhere })).body.code).toBe('out_of_reach');
    expect((await t.call('GET', '/me/availability', { as: person({}) })).body.code).toBe('not_linked_to_employee');
  });
});

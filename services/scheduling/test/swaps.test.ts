import { fixedClock } from '@bop/shared';
import { outboxPayloads, person, startTestService, type TestService } from '@bop/test-support';
import { schedulingService } from '../src';
import { me, replicaEmployee, replicaLocation } from './fixtures';

// the service's clock, set by each test; the swap expiry runs only when a test runs a round
const clock = fixedClock('2027-01-01T00:00:00Z');
let t: TestService;
beforeAll(async () => {
  t = await startTestService(schedulingService, {}, { workers: false, clock });
});
afterAll(async () => {
  await t?.close();
});
const expirySweep = () => t.svc.worker('shift-swap-expiry').runOnce();

async function publishedShift(loc: string, employeeId: string | null, start: string, end: string): Promise<string> {
  const s = await t.call('POST', '/shifts', { body: { locationId: loc, position: 'Cook', employeeId, start, end } });
  await t.call('POST', '/schedules:publish', { body: { locationId: loc, from: start.slice(0, 10), to: start.slice(0, 10) } });
  return s.body.id;
}

describe('shift swaps', () => {
  it('an employee offers a shift; the manager approves and the shift is reassigned', async () => {
    clock.set('2027-02-01T08:00:00Z');
    const loc = await replicaLocation(t);
    const ana = await replicaEmployee(t, { home: loc, firstName: 'Ana' });
    const ben = await replicaEmployee(t, { home: loc, firstName: 'Ben' });
    const shiftId = await publishedShift(loc, ana, '2027-02-03T10:00:00Z', '2027-02-03T18:00:00Z');
    const offered = await t.call('POST', '/me/shift-swaps', { as: me(ana), body: { shiftId, toEmployeeId: ben, note: 'Doctor' } });
    expect(offered.status).toBe(201);
    expect(offered.body).toMatchObject({ shiftId, locationId: loc, fromEmployeeId: ana, toEmployeeId: ben, status: 'pending', shiftStart: '2027-02-03T10:00:00.000Z', requestedBy: { type: 'employee', id: ana } });
    const requested = await outboxPayloads(t, 'scheduling', { type: 'shift.swap_requested', aggregateId: offered.body.id });
    expect(requested.length).toBe(1);
    // caused through /me: the employee is the actor (supplement: the actor follows from the caller)
    expect(requested[0].actor).toEqual({ type: 'employee', id: ana });
    // both see it; a second pending swap of the shift is refused
    expect((await t.call('GET', '/me/shift-swaps', { as: me(ben) })).body.data.map((w: { id: string }) => w.id)).toEqual([offered.body.id]);
    expect((await t.call('POST', '/shift-swaps', { body: { shiftId, toEmployeeId: ben } })).status).toBe(409);
    const approved = await t.call('POST', `/shift-swaps/${offered.body.id}:approve`);
    expect(approved.body).toMatchObject({ status: 'approved', decidedBy: { type: 'user' } });
    expect((await t.call('GET', `/shifts/${shiftId}`)).body.employeeId).toBe(ben);
    expect((await outboxPayloads(t, 'scheduling', { type: 'shift.swap_approved', aggregateId: offered.body.id })).length).toBe(1);
    expect((await outboxPayloads(t, 'scheduling', { type: 'shift.changed', aggregateId: shiftId })).at(-1).data.previous).toEqual({ employeeId: ana });
    expect((await t.call('POST', `/shift-swaps/${offered.body.id}:reject`, { body: { reason: 'late' } })).status).toBe(409);
  });

  it('refuses what the states do not allow: a draft, an open shift, another\'s shift, oneself, a double-booking', async () => {
    clock.set('2027-02-01T08:00:00Z');
    const loc = await replicaLocation(t);
    const ana = await replicaEmployee(t, { home: loc });
    const ben = await replicaEmployee(t, { home: loc });
    const draft = await t.call('POST', '/shifts', { body: { locationId: loc, position: 'Cook', employeeId: ana, start: '2027-02-10T10:00:00Z', end: '2027-02-10T18:00:00Z' } });
    expect((await t.call('POST', '/shift-swaps', { body: { shiftId: draft.body.id, toEmployeeId: ben } })).status).toBe(409);
    const open = await publishedShift(loc, null, '2027-02-04T10:00:00Z', '2027-02-04T18:00:00Z');
    expect((await t.call('POST', '/shift-swaps', { body: { shiftId: open, toEmployeeId: ben } })).body.detail).toMatch(/is open/);
    const anas = await publishedShift(loc, ana, '2027-02-05T10:00:00Z', '2027-02-05T18:00:00Z');
    expect((await t.call('POST', '/me/shift-swaps', { as: me(ben), body: { shiftId: anas, toEmployeeId: ben } })).body.errors).toEqual([{ path: 'shiftId', message: `No shift ${anas} of yours.` }]);
    expect((await t.call('POST', '/me/shift-swaps', { as: me(ana), body: { shiftId: anas, toEmployeeId: ana } })).body.errors[0].path).toBe('toEmployeeId');
    expect((await t.call('POST', '/me/shift-swaps', { as: me(ana), body: { shiftId: anas, toEmployeeId: 'emp_nope' } })).body.errors).toEqual([{ path: 'toEmployeeId', message: 'No employee emp_nope.' }]);
    // Ben already works then: approving would double-book him
    await publishedShift(loc, ben, '2027-02-05T16:00:00Z', '2027-02-05T22:00:00Z');
    const w = await t.call('POST', '/me/shift-swaps', { as: me(ana), body: { shiftId: anas, toEmployeeId: ben } });
    const refused = await t.call('POST', `/shift-swaps/${w.body.id}:approve`);
    expect([refused.status, refused.body.detail]).toEqual([409, expect.stringMatching(/would double-book them/)]);
    const rejected = await t.call('POST', `/shift-swaps/${w.body.id}:reject`, { body: { reason: 'Ben is on then' } });
    expect(rejected.body).toMatchObject({ status: 'rejected', rejectionReason: 'Ben is on then' });
    const rejections = await outboxPayloads(t, 'scheduling', { type: 'shift.swap_rejected', aggregateId: w.body.id });
    expect(rejections.map((e) => e.data.object)).toEqual([rejected.body]);
    // reach
    const elsewhere = person({ 'shift_swaps.approve': [{ type: 'locations', ids: [await replicaLocation(t)] }] });
    expect((await t.call('POST', `/shift-swaps/${w.body.id}:approve`, { as: elsewhere })).body.code).toBe('out_of_reach');
    // an employee set: either employee to read the swap, both to decide it
    const setOf = (ids: string[]) => person({ 'schedules.read': [{ type: 'employee_set', ids }], 'shift_swaps.approve': [{ type: 'employee_set', ids }] });
    expect((await t.call('GET', `/shift-swaps/${w.body.id}`, { as: setOf([ben]) })).status).toBe(200);
    expect((await t.call('GET', '/shift-swaps?limit=200', { as: setOf([ben]) })).body.data.map((x: { id: string }) => x.id)).toContain(w.body.id);
    expect((await t.call('GET', '/shift-swaps?limit=200', { as: setOf(['emp_nobody']) })).body.data).toEqual([]);
    expect((await t.call('POST', `/shift-swaps/${w.body.id}:reject`, { as: setOf([ana]), body: { reason: 'x' } })).body.code).toBe('out_of_reach');
    // both in the set: in reach (the swap is decided already: 409)
    expect((await t.call('POST', `/shift-swaps/${w.body.id}:reject`, { as: setOf([ana, ben]), body: { reason: 'x' } })).status).toBe(409);
  });

  it('a pending swap expires when the shift starts, and is cancelled when the shift is removed', async () => {
    clock.set('2027-03-01T08:00:00Z');
    const loc = await replicaLocation(t);
    const ana = await replicaEmployee(t, { home: loc });
    const ben = await replicaEmployee(t, { home: loc });
    const soon = await publishedShift(loc, ana, '2027-03-01T10:00:00Z', '2027-03-01T18:00:00Z');
    const later = await publishedShift(loc, ana, '2027-03-02T10:00:00Z', '2027-03-02T18:00:00Z');
    const a = await t.call('POST', '/me/shift-swaps', { as: me(ana), body: { shiftId: soon, toEmployeeId: ben } });
    const b = await t.call('POST', '/me/shift-swaps', { as: me(ana), body: { shiftId: later, toEmployeeId: ben } });
    // before the shift starts a round expires nothing
    expect(await expirySweep()).toBe(false);
    expect((await t.call('GET', `/shift-swaps/${a.body.id}`)).body.status).toBe('pending');
    clock.set('2027-03-01T10:00:00Z');
    expect(await expirySweep()).toBe(true);
    expect((await t.call('GET', `/shift-swaps/${a.body.id}`)).body.status).toBe('expired');
    expect((await t.call('GET', `/shift-swaps/${b.body.id}`)).body.status).toBe('pending');
    await t.call('DELETE', `/shifts/${later}`);
    expect((await t.call('GET', `/shift-swaps/${b.body.id}`)).body.status).toBe('cancelled');
    expect((await t.call('GET', `/shift-swaps?status=pending&locationId=${loc}`)).body.data).toEqual([]);
  });
});

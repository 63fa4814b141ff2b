import { outboxPayloads, person, startTestService, type TestService } from '@bop/test-support';
import { timeService } from '../src';
import { currentTimesheet as currentTimesheetOf, punch, replicaEmployee, replicaLocation, replicaRate, sendPunches, shift } from './fixtures';

let t: TestService;
beforeAll(async () => {
  t = await startTestService(timeService, {}, { workers: false });
});
afterAll(async () => {
  await t?.close();
});

const batch = (source: string, punches: unknown[]) => sendPunches(t, source, punches);
/** The employee's own session (a user linked to the employee record, acting in /me). */
const me = (employeeId: string) => person({}, { employeeId, actingAsEmployee: true });

const sheetOf = (employeeId: string) => currentTimesheetOf(t, employeeId);

describe('punch corrections', () => {
  it('an employee asks to fix a wrong punch; the manager approves and the punch and timesheet change', async () => {
    const loc = await replicaLocation(t);
    const emp = await replicaEmployee(t, { home: loc });
    const r = await batch('clock-r', shift('w', emp, loc, '2026-06-01T08:00:00Z', '2026-06-01T12:00:00Z'));
    const outId = r.body.results[1].id;
    const asked = await t.call('POST', '/me/punch-corrections', { as: me(emp), body: { punchId: outId, occurredAt: '2026-06-01T13:00:00Z', reason: 'Stayed to close' } });
    expect(asked.status).toBe(201);
    expect(asked.body).toMatchObject({ employeeId: emp, punchId: outId, locationId: loc, type: 'clock_out', occurredAt: '2026-06-01T13:00:00.000Z', status: 'pending', current: { type: 'clock_out', occurredAt: '2026-06-01T12:00:00.000Z' } });
    expect((await t.call('GET', '/me/punch-corrections', { as: me(emp) })).body.data.map((c: { id: string }) => c.id)).toEqual([asked.body.id]);
    const pending = await t.call('GET', `/time/punch-corrections?status=pending&locationId=${loc}`);
    expect(pending.body.data.map((c: { id: string }) => c.id)).toEqual([asked.body.id]);

    const approved = await t.call('POST', `/time/punch-corrections/${asked.body.id}:approve`);
    expect(approved.body).toMatchObject({ status: 'approved', appliedPunchId: outId, decidedBy: { type: 'user' } });
    const punchNow = await t.call('GET', `/time/punches/${outId}`);
    expect(punchNow.body).toMatchObject({ occurredAt: '2026-06-01T13:00:00.000Z', corrections: [expect.objectContaining({ via: 'request' })] });
    expect(await outboxPayloads(t, 'time', { type: 'punch.corrected', aggregateId: outId })).toHaveLength(1);
    expect((await sheetOf(emp)).totals.workedHours).toBe('5.00');
    // decided once
    expect((await t.call('POST', `/time/punch-corrections/${asked.body.id}:reject`, { body: { reason: 'late' } })).status).toBe(409);
    // a change event per change of the request (issue 41 item 3), data.object the request as the API returns it
    const events = await outboxPayloads(t, 'time', { aggregateId: asked.body.id });
    expect(events.map((e) => e.type)).toEqual(['punch_correction.requested', 'punch_correction.approved']);
    expect(events.map((e) => e.data.object)).toEqual([asked.body, approved.body]);
    expect(events[1]).toMatchObject({ locationId: loc, data: { previous: { status: 'pending', appliedPunchId: null, decidedAt: null, decidedBy: null } } });
  });

  it('a missing punch is added when approved; a request is rejected with a reason or cancelled by the employee', async () => {
    const loc = await replicaLocation(t);
    const emp = await replicaEmployee(t, { home: loc });
    await batch('clock-r', [punch('m-in', emp, loc, 'clock_in', '2026-06-02T08:00:00Z')]);
    expect((await sheetOf(emp)).missingPunches).toBe(true);
    const missing = await t.call('POST', '/me/punch-corrections', { as: me(emp), body: { type: 'clock_out', occurredAt: '2026-06-02T16:00:00Z', reason: 'Forgot to clock out' } });
    expect(missing.body).toMatchObject({ punchId: null, locationId: loc, status: 'pending' });
    const approved = await t.call('POST', `/time/punch-corrections/${missing.body.id}:approve`);
    expect(approved.body.appliedPunchId).toMatch(/^pun_/);
    expect((await t.call('GET', `/time/punches/${approved.body.appliedPunchId}`)).body).toMatchObject({ source: 'punch-corrections', externalId: missing.body.id, type: 'clock_out' });
    expect(await sheetOf(emp)).toMatchObject({ missingPunches: false, totals: { workedHours: '8.00' } });

    const other = await t.call('POST', '/me/punch-corrections', { as: me(emp), body: { type: 'clock_in', occurredAt: '2026-06-03T08:00:00Z', reason: 'Clock was down' } });
    const rejected = await t.call('POST', `/time/punch-corrections/${other.body.id}:reject`, { body: { reason: 'You were off that day' } });
    expect(rejected.body).toMatchObject({ status: 'rejected', rejectionReason: 'You were off that day' });
    const third = await t.call('POST', '/me/punch-corrections', { as: me(emp), body: { type: 'clock_in', occurredAt: '2026-06-04T08:00:00Z', reason: 'typo' } });
    expect((await t.call('POST', `/me/punch-corrections/${third.body.id}:cancel`, { as: me(emp) })).body.status).toBe('cancelled');
    expect((await t.call('POST', `/me/punch-corrections/${third.body.id}:cancel`, { as: me(emp) })).status).toBe(409);
    expect((await outboxPayloads(t, 'time', { aggregateId: other.body.id })).map((e) => [e.type, e.data.object.status])).toEqual([
      ['punch_correction.requested', 'pending'],
      ['punch_correction.rejected', 'rejected'],
    ]);
    expect((await outboxPayloads(t, 'time', { aggregateId: third.body.id })).map((e) => e.type)).toEqual(['punch_correction.requested', 'punch_correction.cancelled']);
    // someone else's request is not found
    const stranger = await replicaEmployee(t, { home: loc });
    expect((await t.call('POST', `/me/punch-corrections/${other.body.id}:cancel`, { as: me(stranger) })).status).toBe(404);
  });

  it('refuses a punch of someone else, a request without the missing punch\'s time, and an account not linked to an employee', async () => {
    const loc = await replicaLocation(t);
    const a = await replicaEmployee(t, { home: loc });
    const b = await replicaEmployee(t, { home: loc });
    const r = await batch('clock-r', [punch('o-in', a, loc, 'clock_in', '2026-06-08T08:00:00Z')]);
    const notMine = await t.call('POST', '/me/punch-corrections', { as: me(b), body: { punchId: r.body.results[0].id, occurredAt: '2026-06-08T09:00:00Z', reason: 'x' } });
    expect(notMine.body.errors).toEqual([expect.objectContaining({ path: 'punchId' })]);
    const bad = await t.call('POST', '/me/punch-corrections', { as: me(b), body: { reason: 'x' } });
    expect(bad.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['occurredAt', 'type']);
    const unlinked = await t.call('POST', '/me/punch-corrections', { as: person(), body: { type: 'clock_in', occurredAt: '2026-06-08T09:00:00Z', reason: 'x' } });
    expect([unlinked.status, unlinked.body.code]).toEqual([403, 'not_linked_to_employee']);
  });
});

describe('/me/punches, /me/timesheets and /me/pay', () => {
  it('show only the caller\'s own, with the rate history and an estimate per pay period', async () => {
    const loc = await replicaLocation(t);
    const emp = await replicaEmployee(t, { home: loc });
    const other = await replicaEmployee(t, { home: loc });
    await replicaRate(t, emp, '18.00', '2025-01-01');
    await batch('clock-me', [...shift('me1', emp, loc, '2026-06-15T08:00:00Z', '2026-06-15T18:00:00Z'), ...shift('me2', other, loc, '2026-06-15T08:00:00Z', '2026-06-15T12:00:00Z')]);
    const mine = await t.call('GET', '/me/punches?from=2026-06-15T00:00:00Z&to=2026-06-16T00:00:00Z', { as: me(emp) });
    expect(mine.body.data.map((p: { employeeId: string }) => p.employeeId)).toEqual([emp, emp]);
    await sheetOf(emp);
    const sheets = await t.call('GET', '/me/timesheets', { as: me(emp) });
    expect(sheets.body.data).toHaveLength(1);
    expect(sheets.body.data[0]).toMatchObject({ employeeId: emp, totals: { workedHours: '10.00' } });
    const pay = await t.call('GET', '/me/pay', { as: me(emp) });
    expect(pay.body).toMatchObject({ currency: 'USD', rates: [{ type: 'hourly', amount: '18', position: null, effectiveDate: '2025-01-01' }] });
    // 10 h under the default weekly rule: all regular, 10 × 18.00
    expect(pay.body.periods).toEqual([expect.objectContaining({ startDate: '2026-06-08', timesheetStatus: 'open', regularHours: '10.00', overtimeHours: '0.00', estimatedGross: '180.00' })]);
  });
});

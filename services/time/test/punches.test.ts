import { outboxPayloads, person, startTestService, type TestService } from '@bop/test-support';
import { timeService } from '../src';
import { currentTimesheet as currentTimesheetOf, punch, replicaEmployee, replicaLocation, sendPunches, shift } from './fixtures';

let t: TestService;
beforeAll(async () => {
  t = await startTestService(timeService, {}, { workers: false });
});
afterAll(async () => {
  await t?.close();
});

const batch = (source: string, punches: unknown[]) => sendPunches(t, source, punches);

const currentTimesheet = (employeeId: string) => currentTimesheetOf(t, employeeId);

describe('POST /time/punches:batch', () => {
  it('stores each punch once: created, unchanged when re-sent, updated (punch.corrected) when its content changes, duplicate within a batch', async () => {
    const loc = await replicaLocation(t);
    const emp = await replicaEmployee(t, { home: loc });
    const first = await batch('clock-1', [...shift('a', emp, loc, '2026-02-02T09:00:00Z', '2026-02-02T17:00:00Z'), punch('a-in', emp, loc, 'clock_in', '2026-02-02T09:00:00Z')]);
    expect(first.status).toBe(202);
    expect(first.body).toMatchObject({ received: 3, created: 2, updated: 0, unchanged: 0, duplicate: 1, rejected: 0 });
    expect(first.body.results.map((r: { status: string }) => r.status)).toEqual(['created', 'created', 'duplicate']);
    expect(first.body.results[0].id).toMatch(/^pun_/);

    const again = await batch('clock-1', shift('a', emp, loc, '2026-02-02T09:00:00Z', '2026-02-02T17:00:00Z'));
    expect(again.body).toMatchObject({ created: 0, unchanged: 2 });

    const moved = await batch('clock-1', [punch('a-out', emp, loc, 'clock_out', '2026-02-02T17:30:00Z')]);
    expect(moved.body).toMatchObject({ updated: 1 });
    const id = moved.body.results[0].id;
    const got = await t.call('GET', `/time/punches/${id}`);
    expect(got.body).toMatchObject({ id, type: 'clock_out', occurredAt: '2026-02-02T17:30:00.000Z', status: 'active', original: { type: 'clock_out', occurredAt: '2026-02-02T17:00:00.000Z' }, version: 2 });
    expect(got.body.corrections).toEqual([expect.objectContaining({ via: 'resend', before: { type: 'clock_out', occurredAt: '2026-02-02T17:00:00.000Z' }, after: { type: 'clock_out', occurredAt: '2026-02-02T17:30:00.000Z' } })]);

    const received = await outboxPayloads(t, 'time', { type: 'punch.received' });
    expect(received.filter((e) => e.data.object.employeeId === emp)).toHaveLength(2);
    const corrected = (await outboxPayloads(t, 'time', { type: 'punch.corrected', aggregateId: id }))[0];
    expect(corrected).toMatchObject({ actor: { type: 'integration', id: 'int_test' }, locationId: loc, data: { object: { id, occurredAt: '2026-02-02T17:30:00.000Z' }, previous: { occurredAt: '2026-02-02T17:00:00.000Z' } } });
    // the same externalId from another source is another punch
    expect((await batch('clock-2', [punch('a-in', emp, loc, 'clock_in', '2026-02-02T09:00:00Z')])).body.created).toBe(1);
  });

  it('rejects each bad punch on its own with the field path, and stores the rest', async () => {
    const loc = await replicaLocation(t, { externalId: 'STORE-7' });
    const emp = await replicaEmployee(t, { home: loc, externalId: `HR-${Date.now()}` });
    const ended = await replicaEmployee(t, { home: loc, terminationDate: '2026-02-03', status: 'terminated' });
    const r = await batch('clock-3', [
      punch('ok-1', emp, loc, 'clock_in', '2026-02-03T08:00:00Z'),
      punch('unknown', 'emp_nobody', loc, 'clock_in', '2026-02-03T08:00:00Z'),
      { externalId: 'by-ext', employeeExternalId: 'HR-none', locationExternalId: 'STORE-7', type: 'clock_in', occurredAt: '2026-02-03T08:00:00Z' },
      punch('after-end', ended, loc, 'clock_in', '2026-02-04T08:00:00Z'),
      punch('last-day', ended, loc, 'clock_in', '2026-02-03T08:00:00Z'),
      punch('bad-type', emp, loc, 'lunch', '2026-02-03T12:00:00Z'),
      punch('local-time', emp, loc, 'clock_out', '2026-02-03T16:00:00+01:00'),
      punch('nul\u0000', emp, loc, 'clock_out', '2026-02-03T16:00:00Z'),
      { externalId: 'both', employeeId: emp, employeeExternalId: 'x', locationId: loc, type: 'clock_in', occurredAt: '2026-02-03T08:00:00Z' },
      punch('no-loc', emp, 'loc_nowhere', 'clock_in', '2026-02-03T08:00:00Z'),
      { employeeId: emp, locationId: loc, type: 'clock_in', occurredAt: '2026-02-03T08:00:00Z' },
    ]);
    expect(r.status).toBe(202);
    const by = (i: number) => r.body.results[i];
    expect(by(0).status).toBe('created');
    expect(by(1)).toMatchObject({ status: 'rejected', errors: [{ path: 'employeeId', message: 'No employee emp_nobody.' }] });
    expect(by(2)).toMatchObject({ status: 'rejected', errors: [{ path: 'employeeExternalId', message: 'No employee with externalId HR-none.' }] });
    expect(by(3)).toMatchObject({ status: 'rejected', errors: [{ path: 'occurredAt' }] });
    expect(by(3).errors[0].message).toContain('ended on 2026-02-03');
    expect(by(4).status).toBe('created');
    expect(by(5)).toMatchObject({ status: 'rejected', errors: [expect.objectContaining({ path: 'type' })] });
    expect(by(6)).toMatchObject({ status: 'rejected', errors: [expect.objectContaining({ path: 'occurredAt' })] });
    expect(by(7)).toMatchObject({ status: 'rejected', externalId: null });
    expect(by(8)).toMatchObject({ status: 'rejected', errors: [expect.objectContaining({ path: 'employeeId' })] });
    expect(by(9)).toMatchObject({ status: 'rejected', errors: [{ path: 'locationId', message: 'No location loc_nowhere.' }] });
    expect(by(10)).toMatchObject({ status: 'rejected', errors: [{ path: 'externalId' }] });
    expect(r.body).toMatchObject({ received: 11, created: 2, rejected: 9 });
  });

  it('keeps a punch at a location outside the employee\'s, or in a position not held, with an exception', async () => {
    const home = await replicaLocation(t);
    const borrowed = await replicaLocation(t);
    const emp = await replicaEmployee(t, { home, positions: ['Cook'] });
    const r = await batch('clock-4', [punch('b-1', emp, borrowed, 'clock_in', '2026-02-05T08:00:00Z', { position: 'Server', deviceId: 'front' })]);
    expect(r.body.results[0].status).toBe('created');
    const got = await t.call('GET', `/time/punches/${r.body.results[0].id}`);
    expect(got.body).toMatchObject({ locationId: borrowed, position: 'Server', deviceId: 'front' });
    expect(got.body.exceptions.map((e: { code: string }) => e.code)).toEqual(['outside_locations', 'position_not_held']);
  });
});

describe('GET /time/punches', () => {
  it('lists by employee, location and time, within the reach', async () => {
    const a = await replicaLocation(t);
    const b = await replicaLocation(t);
    const ea = await replicaEmployee(t, { home: a });
    const eb = await replicaEmployee(t, { home: b });
    await batch('clock-6', [...shift('x', ea, a, '2026-02-09T08:00:00Z', '2026-02-09T12:00:00Z'), ...shift('y', eb, b, '2026-02-09T08:00:00Z', '2026-02-09T12:00:00Z')]);
    const mine = await t.call('GET', `/time/punches?employeeId=${ea}&from=2026-02-09T00:00:00Z&to=2026-02-09T10:00:00Z`);
    expect(mine.body.data.map((p: { type: string }) => p.type)).toEqual(['clock_in']);
    const onlyA = person({ 'time.read': [{ type: 'locations', ids: [a] }] });
    const listed = await t.call('GET', '/time/punches', { as: onlyA });
    expect(new Set(listed.body.data.map((p: { locationId: string }) => p.locationId))).toEqual(new Set([a]));
    expect((await t.call('GET', `/time/punches?locationId=${b}`, { as: onlyA })).body.code).toBe('out_of_reach');
    const other = (await t.call('GET', `/time/punches?employeeId=${eb}`)).body.data[0].id;
    expect((await t.call('GET', `/time/punches/${other}`, { as: onlyA })).body.code).toBe('out_of_reach');
  });

  it('an employee set reaches its employees\' punches and timesheets at every location, and no one else\'s', async () => {
    const a = await replicaLocation(t);
    const b = await replicaLocation(t);
    const mine = await replicaEmployee(t, { home: a });
    const other = await replicaEmployee(t, { home: a });
    await batch('clock-set', [
      ...shift('m', mine, a, '2026-02-10T08:00:00Z', '2026-02-10T12:00:00Z'),
      ...shift('mb', mine, b, '2026-02-11T08:00:00Z', '2026-02-11T12:00:00Z'),
      ...shift('o', other, a, '2026-02-10T08:00:00Z', '2026-02-10T12:00:00Z'),
    ]);
    const set = [{ type: 'employee_set' as const, ids: [mine] }];
    const as = person({ 'time.read': set, 'timesheets.read': set });
    const listed = async (path: string) => (await t.call('GET', path, { as })).body.data as Array<{ id: string; employeeId: string; locationId: string }>;
    const punches = await listed('/time/punches?limit=200');
    expect(new Set(punches.map((p) => p.employeeId))).toEqual(new Set([mine]));
    expect(new Set(punches.map((p) => p.locationId))).toEqual(new Set([a, b]));
    // a location asked for: the set's employees there
    expect(new Set((await listed(`/time/punches?locationId=${b}&limit=200`)).map((p) => `${p.employeeId}@${p.locationId}`))).toEqual(new Set([`${mine}@${b}`]));
    expect((await t.call('GET', `/time/punches/${punches[0].id}`, { as })).status).toBe(200);
    const theirs = (await t.call('GET', `/time/punches?employeeId=${other}`)).body.data[0].id;
    const refused = await t.call('GET', `/time/punches/${theirs}`, { as });
    expect(refused.body).toMatchObject({ code: 'out_of_reach', detail: `Your permission reaches neither location ${a} nor employee ${other}.` });

    const sheet = await currentTimesheet(mine);
    await currentTimesheet(other);
    expect(new Set((await listed('/time/timesheets?limit=200')).map((x) => x.employeeId))).toEqual(new Set([mine]));
    expect((await t.call('GET', `/time/timesheets/${sheet.id}`, { as })).status).toBe(200);
    const theirSheet = (await t.call('GET', `/time/timesheets?employeeId=${other}`)).body.data[0].id;
    expect((await t.call('GET', `/time/timesheets/${theirSheet}`, { as })).body.code).toBe('out_of_reach');
  });
});

describe('timesheets', () => {
  it('are opened by the first punch and recalculated in the background: hours, breaks, overtime and exceptions in words', async () => {
    const loc = await replicaLocation(t);
    const emp = await replicaEmployee(t, { home: loc });
    await batch('clock-7', [
      punch('d1-in', emp, loc, 'clock_in', '2026-02-16T08:00:00Z'),
      punch('d1-bs', emp, loc, 'break_start', '2026-02-16T12:00:00Z'),
      punch('d1-be', emp, loc, 'break_end', '2026-02-16T12:30:00Z'),
      punch('d1-out', emp, loc, 'clock_out', '2026-02-16T18:30:00Z'),
      punch('d2-in', emp, loc, 'clock_in', '2026-02-17T08:00:00Z'),
    ]);
    const sheet = await currentTimesheet(emp);
    expect(sheet).toMatchObject({ employeeId: emp, locationId: loc, status: 'open', periodStart: '2026-02-16', periodEnd: '2026-03-01', missingPunches: true });
    expect(sheet.totals).toMatchObject({ workedHours: '10.00', unpaidBreakHours: '0.50' });
    expect(sheet.exceptions).toEqual([expect.objectContaining({ code: 'missing_clock_out', date: '2026-02-17' })]);
    const detail = await t.call('GET', `/time/timesheets/${sheet.id}`);
    expect(detail.body.days).toHaveLength(14);
    expect(detail.body.days[0]).toMatchObject({ date: '2026-02-16', workedHours: '10.00', regularHours: '10.00' });

    // approval needs every punch: refused while the clock-out is missing
    const refused = await t.call('POST', `/time/timesheets/${sheet.id}:approve`);
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toContain('missing punches');
    await batch('clock-7', [punch('d2-out', emp, loc, 'clock_out', '2026-02-17T16:00:00Z')]);
    // approving brings the figures up to date first, whatever the background has done
    const approved = await t.call('POST', `/time/timesheets/${sheet.id}:approve`);
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ status: 'approved', missingPunches: false, totals: { workedHours: '18.00' } });
    expect((await outboxPayloads(t, 'time', { type: 'timesheet.approved', aggregateId: sheet.id }))[0].data.object).toMatchObject({ id: sheet.id, status: 'approved' });

    // a punch in it changes: the approval is withdrawn
    await batch('clock-7', [punch('d2-out', emp, loc, 'clock_out', '2026-02-17T16:15:00Z')]);
    const reopened = await currentTimesheet(emp);
    expect(reopened).toMatchObject({ status: 'open', approvedAt: null, totals: { workedHours: '18.25' } });
    const rejected = await t.call('POST', `/time/timesheets/${sheet.id}:reject`, { body: { reason: 'Check Tuesday' } });
    expect(rejected.body).toMatchObject({ status: 'rejected', rejectionReason: 'Check Tuesday' });
    expect((await t.call('POST', `/time/timesheets/${sheet.id}:reject`, { body: { reason: '' } })).status).toBe(422);
  });

  it('count the real hours of a New York week with a 23-hour and a 25-hour day', async () => {
    const ny = await replicaLocation(t, { timezone: 'America/New_York' });
    const emp = await replicaEmployee(t, { home: ny });
    // Saturday 2026-03-07 22:00 EST to Sunday 06:00 EDT: 7 hours; Sunday 2026-03-08 is 23 hours long
    await batch('clock-8', shift('dst-1', emp, ny, '2026-03-08T03:00:00Z', '2026-03-08T10:00:00Z'));
    const spring = await currentTimesheet(emp);
    const day = (await t.call('GET', `/time/timesheets/${spring.id}`)).body.days.find((d: { date: string }) => d.date === '2026-03-07');
    expect(day.workedHours).toBe('7.00');
    // Saturday 2026-10-31 22:00 EDT to Sunday 06:00 EST: 9 hours
    const emp2 = await replicaEmployee(t, { home: ny });
    await batch('clock-8', shift('dst-2', emp2, ny, '2026-11-01T02:00:00Z', '2026-11-01T11:00:00Z'));
    const fall = await currentTimesheet(emp2);
    expect((await t.call('GET', `/time/timesheets/${fall.id}`)).body.days.find((d: { date: string }) => d.date === '2026-10-31').workedHours).toBe('9.00');
  });

  it('are recalculated by the rules of their location when the rules change', async () => {
    const loc = await replicaLocation(t);
    const emp = await replicaEmployee(t, { home: loc });
    await batch('clock-9', shift('long', emp, loc, '2026-03-16T06:00:00Z', '2026-03-16T16:00:00Z'));
    expect((await currentTimesheet(emp)).totals).toMatchObject({ regularHours: '10.00', overtime: {} });
    const put = await t.call('PUT', '/time/overtime-rules', { body: { locationId: loc, daily: [{ after: '8', multiplier: '1.5' }], weekly: [{ after: '40', multiplier: '1.5' }], consecutiveDay: null } });
    expect(put.status).toBe(200);
    const after = await currentTimesheet(emp);
    expect(after.totals).toMatchObject({ regularHours: '8.00', overtime: { '1.5': '2.00' } });
  });
});

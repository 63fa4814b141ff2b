import { fixedClock, useClock } from '@bop/shared';
import { integration, outboxEvents, person, sql, startTestService, system, type TestService } from '@bop/test-support';
import { peopleService } from '../src';
import { anonymiseExpired } from '../src/employees/effective-changes-worker';
import { newEmployee, replicaLocation } from './fixtures';

let t: TestService;
beforeAll(async () => {
  t = await startTestService(peopleService, {}, { workers: false });
});
afterAll(async () => {
  await t?.close();
});
afterEach(() => useClock({ now: () => new Date() }));

const types = async (id: string) => (await outboxEvents(t, 'people')).filter((e) => e.aggregate_id === id).map((e) => e.type);
const hr = integration(['people:write', 'people:read']);

describe('PUT /employees/external/{externalId} (an HR tool)', () => {
  it('creates, answers unchanged for the same record, and maps each change to its event', async () => {
    const home = await replicaLocation(t);
    const other = await replicaLocation(t);
    const record = { legalFirstName: 'Jo', legalLastName: 'Park', homeLocationId: home, hireDate: '2026-03-01', phone: '555-0100', payRates: [{ type: 'hourly', amount: '18.50', effectiveDate: '2026-03-01' }] };
    const put = (body: Record<string, unknown>) => t.call('PUT', '/employees/external/hr-jo', { as: hr, body });
    const created = await put(record);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ result: 'created', externalId: 'hr-jo', phone: '555-0100', status: 'active' });
    const id = created.body.id;
    expect(await types(id)).toEqual(['employee.created', 'pay_rate.changed']);

    const same = await put(record);
    expect(same.status).toBe(200);
    expect(same.body).toMatchObject({ result: 'unchanged', id, version: created.body.version });
    expect(await types(id)).toHaveLength(2);

    const phone = await put({ ...record, phone: '555-0199' });
    expect(phone.body).toMatchObject({ result: 'updated', phone: '555-0199' });
    const moved = await put({ ...record, phone: '555-0199', homeLocationId: other, effectiveDate: '2026-03-02' });
    expect(moved.body).toMatchObject({ result: 'updated', homeLocationId: other });
    const raised = await put({ ...record, phone: '555-0199', homeLocationId: other, payRates: [...record.payRates, { type: 'hourly', amount: '19.25', effectiveDate: '2026-06-01' }] });
    expect(raised.body.result).toBe('updated');
    const ended = await put({ ...record, phone: '555-0199', homeLocationId: other, terminationDate: '2026-06-30', terminationReason: 'Contract ended' });
    expect(ended.body).toMatchObject({ result: 'updated', status: 'terminated', terminationDate: '2026-06-30' });
    expect(await types(id)).toEqual(['employee.created', 'pay_rate.changed', 'employee.updated', 'employee.transferred', 'pay_rate.changed', 'employee.terminated']);
    const again = await put({ ...record, phone: '555-0199', homeLocationId: other, terminationDate: '2026-06-30', terminationReason: 'Contract ended' });
    expect(again.body.result).toBe('unchanged');

    const got = await t.call('GET', '/employees/external/hr-jo', { as: integration(['people:read']) });
    expect(got.body.id).toBe(id);
    const rates = await t.call('GET', `/employees/${id}/pay-rates`);
    expect(rates.body.data.map((r: { amount: string; effectiveDate: string }) => [r.amount, r.effectiveDate])).toEqual([
      ['19.25', '2026-06-01'],
      ['18.50', '2026-03-01'],
    ]);
    const bad = await put({ ...record, homeLocationId: 'loc_nope', payRates: [{ type: 'weekly', amount: '1', effectiveDate: '2026-01-01' }] });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { path: string }) => e.path)).toEqual(['payRates[0].type']);
    const unknownLocation = await put({ ...record, homeLocationId: 'loc_nope' });
    expect(unknownLocation.body.errors).toEqual([{ path: 'homeLocationId', message: 'No location loc_nope.' }]);
  });
});

describe('pay rates', () => {
  it('adds hourly and salaried rates, per position, newest first; readable only with pay_rates.read', async () => {
    const home = await replicaLocation(t);
    const e = await newEmployee(t, home);
    const add = (body: Record<string, unknown>) => t.call('POST', `/employees/${e.id}/pay-rates`, { body });
    const base = await add({ type: 'hourly', amount: '17', effectiveDate: '2026-01-05' });
    expect(base.status).toBe(201);
    expect(base.body).toMatchObject({ id: expect.stringMatching(/^prt_/), type: 'hourly', amount: '17.00', position: null, effectiveDate: '2026-01-05' });
    await add({ type: 'hourly', amount: '19.375', position: 'Cook', effectiveDate: '2026-02-01' });
    await add({ type: 'salary', amount: '52000', effectiveDate: '2026-07-01' });
    const list = await t.call('GET', `/employees/${e.id}/pay-rates?limit=2`);
    expect(list.body.data.map((r: { amount: string }) => r.amount)).toEqual(['52000.00', '19.375']);
    expect(list.body.hasMore).toBe(true);
    const rest = await t.call('GET', `/employees/${e.id}/pay-rates?limit=2&cursor=${list.body.nextCursor}`);
    expect(rest.body.data.map((r: { amount: string }) => r.amount)).toEqual(['17.00']);
    const events = (await outboxEvents(t, 'people')).filter((x) => x.type === 'pay_rate.changed' && x.aggregate_id === e.id);
    expect(events).toHaveLength(3);
    expect(events[0].payload.data.object).toEqual(base.body);
    const hidden = await t.call('GET', `/employees/${e.id}/pay-rates`, { as: person({ 'employees.read': [{ type: 'everyone' }] }) });
    expect(hidden.status).toBe(403);
    const negative = await add({ type: 'hourly', amount: '-1', effectiveDate: '2026-01-05' });
    expect(negative.body.errors[0].path).toBe('amount');
    const float = await add({ type: 'hourly', amount: 18.5, effectiveDate: '2026-01-05' });
    expect(float.body.errors[0].path).toBe('amount');
  });
});

describe('anonymisation after the retention period', () => {
  it('clears the personal fields of an archived employee, also in the audit trail; ids and rates stay', async () => {
    const home = await replicaLocation(t);
    const e = await newEmployee(t, home, { email: 'kim@example.com', phone: '555-0142', birthDate: '1990-04-01' });
    await t.call('POST', `/employees/${e.id}/pay-rates`, { body: { type: 'hourly', amount: '20', effectiveDate: '2026-01-05' } });
    await t.call('PUT', `/employees/${e.id}/emergency-contacts`, { body: { contacts: [{ name: 'Lee', relationship: 'parent', phone: '555-0143' }] } });
    await t.call('POST', `/employees/${e.id}:terminate`, { body: { effectiveDate: '2026-02-01', reason: 'Personal reasons' } });
    useClock(fixedClock('2026-12-01T00:00:00Z'));
    await t.call('DELETE', `/employees/${e.id}`);
    useClock(fixedClock('2027-11-30T00:00:00Z'));
    expect(await anonymiseExpired(t.svc.runtime, 365)).toBe(0);
    useClock(fixedClock('2027-12-02T00:00:00Z'));
    expect(await anonymiseExpired(t.svc.runtime, 365)).toBeGreaterThanOrEqual(1);
    const after = await t.call('GET', `/employees/${e.id}`);
    expect(after.body).toMatchObject({ id: e.id, legalFirstName: 'Former', legalLastName: 'employee', email: null, phone: null, birthDate: null, terminationReason: null, homeLocationId: home, hireDate: '2026-01-05', terminationDate: '2026-02-01', status: 'archived' });
    expect(after.body.anonymisedAt).not.toBeNull();
    expect((await t.call('GET', `/employees/${e.id}/emergency-contacts`)).body).toEqual({ contacts: [] });
    expect((await t.call('GET', `/employees/${e.id}/pay-rates`)).body.data).toHaveLength(1);
    const trail = JSON.stringify(await sql(t, `select changes from people.activity where employee_id = $1`, [e.id]));
    for (const personal of ['kim@example.com', '555-0142', '1990-04-01', 'Personal reasons', 'Lee']) expect(trail).not.toContain(personal);
    expect((await outboxEvents(t, 'people')).filter((x) => x.aggregate_id === e.id).map((x) => x.type).slice(-1)).toEqual(['employee.updated']);
  });
});

describe('POST /internal/employees:resolve', () => {
  it('answers whole only the employees whose version the caller does not hold; the others by id in current', async () => {
    const home = await replicaLocation(t);
    const a = await newEmployee(t, home, { externalId: 'res-a' });
    const b = await newEmployee(t, home, { externalId: 'res-b' });
    const resolve = (body: Record<string, unknown>) => t.call('POST', '/internal/employees:resolve', { as: system, body });

    const whole = await resolve({ ids: [a.id], externalIds: ['res-b', 'res-unknown'], payRates: false });
    expect(whole.status).toBe(200);
    expect(whole.body.data.map((e: { id: string }) => e.id).sort()).toEqual([a.id, b.id].sort());
    expect(whole.body.current).toEqual([]);

    // b changed since the caller's copy: only b comes whole; a (by its externalId) is current; the unknown one is in neither
    expect((await t.call('PATCH', `/employees/${b.id}`, { body: { phone: '555-0142' } })).status).toBe(200);
    const known = [{ id: a.id, version: a.version }, { id: b.id, version: b.version }];
    const fresh = await resolve({ ids: [b.id], externalIds: ['res-a', 'res-unknown'], payRates: false, known });
    expect(fresh.body.current).toEqual([a.id]);
    expect(fresh.body.data).toEqual([expect.objectContaining({ id: b.id, version: b.version + 1, externalId: 'res-b' })]);

    expect((await resolve({ ids: [], known: [{ id: a.id, version: 'one' }] })).status).toBe(422);
    expect((await t.call('POST', '/internal/employees:resolve', { as: person(), body: { ids: [a.id] } })).status).toBe(403);
  });
});

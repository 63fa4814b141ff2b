/**
 * Time and attendance through the gateway with every service running (all-in-one runtime): punches
 * for an employee created a moment ago at people (time reads it through: read-your-writes), the
 * timesheet recalculated in the background, a termination refusing later punches, the company's
 * pay-period calendar from identity, and time's part of the employee's personal-data export.
 */
import { strFromU8, unzipSync } from 'fflate';
import { identityAdmin } from '@svc/identity';
import { eventually, http, startTestRuntime, type TestRuntime } from '@bop/test-support';

let t: TestRuntime;
beforeAll(async () => {
  t = await startTestRuntime({ STORAGE_S3_BUCKET: '', TIME_TIMESHEET_POLL_MS: '100' });
});
afterAll(async () => {
  await t?.close();
});

const api = (method: string, p: string, body?: unknown, headers = t.owner) => http(t.rt.url, method, `/api/v1${p}`, { body, headers });

it('takes punches for an employee people created a moment ago, counts them, and refuses those after a termination', async () => {
  const location = await api('POST', '/locations', { name: 'Pier', timezone: 'America/New_York', externalId: 'PIER' });
  expect(location.status).toBe(201);
  // the company's pay periods: weekly from Monday 2026-01-05, in New York
  expect((await api('PATCH', '/company-settings', { payPeriodFrequency: 'weekly', timezone: 'America/New_York' })).status).toBe(200);
  const reg = await api('POST', '/integrations', { manifest: { name: 'Clock', version: '1.0.0', description: 'timeclock', scopes: ['time:write', 'time:read', 'people:write'], webhooks: [] } });
  const clock = { authorization: `Bearer ${reg.body.apiKey}` };
  const hired = await api('PUT', '/employees/external/HR-9', { legalFirstName: 'Ana', legalLastName: 'Lima', homeLocationId: location.body.id, hireDate: '2026-01-05' }, clock);
  expect(hired.status).toBe(201);

  // at once: time has not heard of the employee yet, and reads it through from people
  const punches = [
    { externalId: 'k-1', employeeExternalId: 'HR-9', locationExternalId: 'PIER', type: 'clock_in', occurredAt: '2026-03-02T13:00:00Z' },
    { externalId: 'k-2', employeeExternalId: 'HR-9', locationExternalId: 'PIER', type: 'clock_out', occurredAt: '2026-03-02T21:30:00Z' },
  ];
  const sent = await api('POST', '/time/punches:batch', { source: 'pier-clock', punches }, clock);
  expect(sent.status).toBe(202);
  expect(sent.body).toMatchObject({ created: 2, rejected: 0 });

  const sheet = await eventually(async () => {
    const s = (await api('GET', `/time/timesheets?employeeId=${hired.body.id}`)).body.data?.[0];
    return s?.current && s.calculatedAt ? s : undefined;
  }, 20_000);
  expect(sheet).toMatchObject({ periodStart: '2026-03-02', periodEnd: '2026-03-08', locationId: location.body.id, totals: { workedHours: '8.50' } });

  // the termination's effective date is the last day: a punch after it is refused on occurredAt
  const ended = await api('POST', `/employees/${hired.body.id}:terminate`, { effectiveDate: '2026-03-03', reason: 'Moved away' });
  expect(ended.status).toBe(200);
  const late = await api('POST', '/time/punches:batch', { source: 'pier-clock', punches: [{ ...punches[0], externalId: 'k-3', occurredAt: '2026-03-04T13:00:00Z' }] }, clock);
  expect(late.body.results[0]).toMatchObject({ status: 'rejected', errors: [{ path: 'occurredAt' }] });
});

it('puts the employee\'s punches and timesheets in their personal-data export', async () => {
  const location = await api('POST', '/locations', { name: 'Dock', timezone: 'UTC' });
  const employee = await api('POST', '/employees', { legalFirstName: 'Rui', legalLastName: 'Alves', homeLocationId: location.body.id, hireDate: '2026-01-05', email: 'rui@example.com' });
  const identity = t.rt.services.find((s) => s.name === 'identity')!;
  const user = await identityAdmin.createAdmin(identity.runtime, { email: 'rui@example.com', password: 'rui-password-123456' });
  expect((await api('PATCH', `/users/${user.id}`, { employeeId: employee.body.id })).status).toBe(200);
  const reg = await api('POST', '/integrations', { manifest: { name: 'Clock 2', version: '1.0.0', description: 'timeclock', scopes: ['time:write'], webhooks: [] } });
  const clock = { authorization: `Bearer ${reg.body.apiKey}` };
  const r = await api('POST', '/time/punches:batch', { source: 'dock', punches: [{ externalId: 'd-1', employeeId: employee.body.id, locationId: location.body.id, type: 'clock_in', occurredAt: '2026-03-02T08:00:00Z' }] }, clock);
  expect(r.body.created).toBe(1);
  const rui = await t.signIn('rui@example.com', 'rui-password-123456');
  await eventually(async () => (await api('GET', '/me/timesheets', undefined, rui)).body.data?.length === 1, 20_000);
  expect((await api('GET', '/me/punches', undefined, rui)).body.data.map((p: { externalId: string }) => p.externalId)).toEqual(['d-1']);

  const exported = await fetch(`${t.rt.url}/api/v1/me/export`, { headers: rui });
  expect(exported.status).toBe(200);
  const files = unzipSync(new Uint8Array(await exported.arrayBuffer()));
  for (const name of ['time/punches', 'time/timesheets', 'time/punch-corrections', 'time/time-off-requests', 'time/time-off-ledger']) expect(Object.keys(files)).toEqual(expect.arrayContaining([`${name}.json`, `${name}.csv`]));
  expect(JSON.parse(strFromU8(files['time/punches.json']))).toEqual([expect.objectContaining({ externalId: 'd-1', type: 'clock_in' })]);
});

/**
 * `GET /me/export` through the gateway with every service running (all-in-one runtime): people asks
 * each service that holds personal data, and the ZIP carries communication's part (a shout-out the
 * employee received, their notification preferences) and insights' (their hours as counted from the
 * timesheet time calculated for their punches).
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

async function exported(headers: Record<string, string>): Promise<Record<string, Uint8Array>> {
  const res = await fetch(`${t.rt.url}/api/v1/me/export`, { headers });
  expect(res.status).toBe(200);
  return unzipSync(new Uint8Array(await res.arrayBuffer()));
}
const rows = (files: Record<string, Uint8Array>, name: string) => JSON.parse(strFromU8(files[`${name}.json`])) as Array<Record<string, unknown>>;

it('puts communication\'s and insights\' datasets about the employee in their export', async () => {
  const location = await api('POST', '/locations', { name: 'Quay', timezone: 'UTC' });
  const employee = await api('POST', '/employees', { legalFirstName: 'Lia', legalLastName: 'Reis', homeLocationId: location.body.id, hireDate: '2026-01-05', email: 'lia@example.com' });
  expect(employee.status).toBe(201);
  const identity = t.rt.services.find((s) => s.name === 'identity')!;
  const user = await identityAdmin.createAdmin(identity.runtime, { email: 'lia@example.com', password: 'lia-password-123456' });
  expect((await api('PATCH', `/users/${user.id}`, { employeeId: employee.body.id })).status).toBe(200);
  const reg = await api('POST', '/integrations', { manifest: { name: 'Quay clock', version: '1.0.0', description: 'timeclock', scopes: ['time:write'], webhooks: [] } });
  const clock = { authorization: `Bearer ${reg.body.apiKey}` };
  const punches = [
    { externalId: 'q-1', employeeId: employee.body.id, locationId: location.body.id, type: 'clock_in', occurredAt: '2026-03-02T08:00:00Z' },
    { externalId: 'q-2', employeeId: employee.body.id, locationId: location.body.id, type: 'clock_out', occurredAt: '2026-03-02T12:00:00Z' },
  ];
  expect((await api('POST', '/time/punches:batch', { source: 'quay', punches }, clock)).body.created).toBe(2);
  // communication hears of the employee from people's events before a shout-out can name them
  const shout = await eventually(async () => {
    const r = await api('POST', '/recognitions', { employeeId: employee.body.id, locationId: location.body.id, message: 'Kept the quay running.' });
    return r.status === 201 ? r.body : undefined;
  }, 20_000);
  const lia = await t.signIn('lia@example.com', 'lia-password-123456');
  expect((await api('PUT', '/me/notification-preferences', { kinds: { shift_offered: { inApp: true, email: false, sms: false, push: false } } }, lia)).status).toBe(200);

  // insights counts the hours once time has calculated the timesheet and its event arrived
  const files = await eventually(async () => {
    const f = await exported(lia);
    return rows(f, 'insights/labor-hours').length > 0 ? f : undefined;
  }, 30_000);
  for (const name of ['notifications', 'notification-deliveries', 'notification-preferences', 'contact-details', 'messages', 'announcements', 'recognitions-received', 'recognitions-given'].map((n) => `communication/${n}`)
    .concat(['labor-hours', 'scheduled-shifts', 'report-exports', 'report-schedules', 'alert-rules'].map((n) => `insights/${n}`))) {
    expect(Object.keys(files)).toEqual(expect.arrayContaining([`${name}.json`, `${name}.csv`]));
  }
  expect(rows(files, 'communication/recognitions-received')).toEqual([expect.objectContaining({ id: shout.id, message: 'Kept the quay running.' })]);
  expect(rows(files, 'communication/notification-preferences')).toEqual([expect.objectContaining({ kind: 'shift_offered', inApp: true, email: false })]);
  expect(rows(files, 'communication/contact-details')).toEqual([expect.objectContaining({ email: 'lia@example.com' })]);
  expect(rows(files, 'insights/labor-hours')).toEqual([expect.objectContaining({ businessDay: '2026-03-02', locationId: location.body.id, regularHours: '4.0000' })]);
  expect(strFromU8(files['README.txt'])).toContain('communication/recognitions-received (1 rows)');
}, 90_000);

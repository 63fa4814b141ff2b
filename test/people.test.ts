/**
 * People through the gateway with identity and organization running (all-in-one runtime): positions
 * checked against the company settings, the HR feed's PUT, the link to a user account, and a
 * termination ending the linked user's access within seconds.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { identityAdmin } from '@svc/identity';
import { eventually, http, postMultipart, startTestRuntime, type TestRuntime } from '@bop/test-support';

const PDF = Buffer.from('%PDF-1.4\n%%EOF\n');

let t: TestRuntime;
let dir: string;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bop-people-'));
  t = await startTestRuntime({ FILES_DIR: dir, STORAGE_S3_BUCKET: '' });
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const api = (method: string, p: string, body?: unknown, headers = t.owner) => http(t.rt.url, method, `/api/v1${p}`, { body, headers });

it('checks positions against the company settings, takes the HR feed, and ends the linked user\'s access on termination', async () => {
  const location = await api('POST', '/locations', { name: 'Harbour', timezone: 'Europe/Lisbon' });
  expect(location.status).toBe(201);
  expect((await api('PATCH', '/company-settings', { positions: ['Cook', 'Server'] })).status).toBe(200);

  // people reads organization through (the location was created a moment ago) and the company's positions
  const wrong = await api('POST', '/employees', { legalFirstName: 'Inês', legalLastName: 'Costa', homeLocationId: location.body.id, hireDate: '2026-05-01', positions: ['Barista'] });
  expect(wrong.status).toBe(422);
  expect(wrong.body.errors).toEqual([{ path: 'positions[0]', message: 'Position "Barista" is not one of the company\'s positions (company settings `positions`).' }]);
  const created = await api('POST', '/employees', { legalFirstName: 'Inês', legalLastName: 'Costa', homeLocationId: location.body.id, hireDate: '2026-05-01', positions: ['cook'] });
  expect(created.status).toBe(201);
  expect(created.body.positions).toEqual(['Cook']);

  const integration = await api('POST', '/integrations', { manifest: { name: 'HR', version: '1.0.0', description: 'HR feed', scopes: ['people:write', 'people:read'], webhooks: [] } });
  expect(integration.status).toBe(201);
  const hr = { authorization: `Bearer ${integration.body.apiKey}` };
  const record = { legalFirstName: 'Tomás', legalLastName: 'Reis', homeLocationId: location.body.id, hireDate: '2026-04-01', positions: ['Server'] };
  const first = await api('PUT', '/employees/external/hr-77', record, hr);
  expect([first.status, first.body.result]).toEqual([201, 'created']);
  const second = await api('PUT', '/employees/external/hr-77', record, hr);
  expect([second.status, second.body.result]).toEqual([200, 'unchanged']);

  // a user linked to the employee (on the user, in identity); people learns the link from identity's events
  const identity = t.rt.services.find((s) => s.name === 'identity')!;
  const user = await identityAdmin.createAdmin(identity.runtime, { email: 'ines@example.com', password: 'ines-password-1234' });
  expect((await api('PATCH', `/users/${user.id}`, { employeeId: created.body.id })).status).toBe(200);
  await eventually(async () => (await api('GET', `/employees/${created.body.id}`)).body.userId === user.id, 15_000);
  const ines = await t.signIn('ines@example.com', 'ines-password-1234');
  expect((await api('GET', '/me/activity', undefined, ines)).status).toBe(200);

  const ended = await api('POST', `/employees/${created.body.id}:terminate`, { effectiveDate: '2026-06-30', reason: 'Seasonal contract ended' });
  expect(ended.body.status).toBe('terminated');
  await eventually(async () => (await api('GET', `/users/${user.id}`)).body.status === 'deactivated', 15_000);
  // the gateway's cache of the session lets go as soon as it hears of the deactivation
  await eventually(async () => (await api('GET', '/me/activity', undefined, ines)).status === 401, 15_000);
});

it('shares a document\'s file with the employee only while it is visible to them, and exports everything stored about them', async () => {
  const location = await api('POST', '/locations', { name: 'Quay', timezone: 'Europe/Lisbon' });
  const employee = await api('POST', '/employees', { legalFirstName: 'Rita', legalLastName: 'Sousa', homeLocationId: location.body.id, hireDate: '2026-05-01', email: 'rita@example.com' });
  expect(employee.status).toBe(201);
  const identity = t.rt.services.find((s) => s.name === 'identity')!;
  const user = await identityAdmin.createAdmin(identity.runtime, { email: 'rita@example.com', password: 'rita-password-12345' });
  expect((await api('PATCH', `/users/${user.id}`, { employeeId: employee.body.id })).status).toBe(200);
  // an employee, not an administrator: no permission over attachments
  const role = await api('POST', '/roles', { name: 'Crew', permissions: ['recognition.give'] });
  expect((await api('PUT', `/users/${user.id}/assignments`, { assignments: [{ roleId: role.body.id, reach: { type: 'everyone' } }] })).status).toBe(200);
  const rita = await t.signIn('rita@example.com', 'rita-password-12345');

  // files asks people about the employee an upload concerns
  const unknown = await postMultipart(t.rt.url, '/api/v1/attachments', [{ fileName: 'x.pdf', contentType: 'application/pdf', content: PDF }, { name: 'employeeId', value: 'emp_nobody' }], t.owner);
  expect(unknown.body.errors).toEqual([{ path: 'employeeId', message: 'No employee emp_nobody.' }]);
  const upload = await postMultipart(t.rt.url, '/api/v1/attachments', [{ fileName: 'payslip-2026-11.pdf', contentType: 'application/pdf', content: PDF }], t.owner);
  expect(upload.status).toBe(201);
  const content = `/attachments/${upload.body.id}/content`;
  expect((await api('GET', content, undefined, rita)).status).toBe(404);

  const doc = await api('POST', '/employee-documents', { employeeId: employee.body.id, attachmentId: upload.body.id, type: 'payslip', visibleToEmployee: true });
  expect(doc.status).toBe(201);
  expect(doc.body.title).toBe('payslip-2026-11.pdf');
  const mine = await api('GET', '/me/payslips', undefined, rita);
  expect(mine.body.data.map((d: { id: string }) => d.id)).toEqual([doc.body.id]);
  const download = await fetch(`${t.rt.url}/api/v1${content}`, { headers: rita });
  expect(download.status).toBe(200);
  expect(Buffer.from(await download.arrayBuffer())).toEqual(PDF);
  const unseen = await api('POST', '/employee-documents', { employeeId: employee.body.id, attachmentId: 'att_nope', type: 'contract' });
  expect(unseen.body.errors).toEqual([{ path: 'attachmentId', message: 'No attachment att_nope.' }]);

  expect((await api('PATCH', `/employee-documents/${doc.body.id}`, { visibleToEmployee: false })).status).toBe(200);
  expect((await api('GET', content, undefined, rita)).status).toBe(404);
  expect((await api('GET', '/me/payslips', undefined, rita)).body.data).toHaveLength(0);

  const exported = await fetch(`${t.rt.url}/api/v1/me/export`, { headers: rita });
  expect(exported.status).toBe(200);
  const files = unzipSync(new Uint8Array(await exported.arrayBuffer()));
  for (const name of ['people/employee-record', 'people/documents', 'identity/account', 'identity/sessions', 'files/attachments-concerning-you']) {
    expect(Object.keys(files)).toEqual(expect.arrayContaining([`${name}.json`, `${name}.csv`]));
  }
  expect(JSON.parse(strFromU8(files['identity/account.json']))[0]).toMatchObject({ id: user.id, email: 'rita@example.com' });
  expect(strFromU8(files['README.txt'])).not.toMatch(/Not part of this deployment/);
  const all = Object.values(files).map((f) => strFromU8(f)).join('\n');
  expect(all).not.toContain('rita-password-12345');
  expect(all).not.toMatch(/\$argon2|\$2[aby]\$/);
});

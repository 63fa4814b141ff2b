import { unzipSync, strFromU8 } from 'fflate';
import { outboxEvents, person, startTestService, testKeys, type TestService } from '@bop/test-support';
import { peopleService } from '../src';
import { toCsv } from '@bop/shared';
import { newEmployee, replicaLocation } from './fixtures';

let t: TestService;
beforeAll(async () => {
  t = await startTestService(peopleService, {}, { workers: false });
});
afterAll(async () => {
  await t?.close();
});

describe('/me/profile', () => {
  it('shows the own record and changes contact details and emergency contacts only, as the employee', async () => {
    const home = await replicaLocation(t);
    const e = await newEmployee(t, home, { phone: '555-0001' });
    const self = person({}, { id: 'usr_me', userId: 'usr_me', employeeId: e.id });
    const got = await t.call('GET', '/me/profile', { as: self });
    expect(got.body).toMatchObject({ id: e.id, phone: '555-0001', emergencyContacts: [] });
    const patched = await t.call('PATCH', '/me/profile', { as: self, body: { phone: '555-0002', emergencyContacts: [{ name: 'Max', relationship: 'brother', phone: '555-0003' }] } });
    expect(patched.body).toMatchObject({ phone: '555-0002', emergencyContacts: [{ name: 'Max', relationship: 'brother', phone: '555-0003', email: null }] });
    const refused = await t.call('PATCH', '/me/profile', { as: self, body: { legalLastName: 'Other', homeLocationId: 'loc_x' } });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.map((x: { path: string }) => x.path).sort()).toEqual(['homeLocationId', 'legalLastName']);
    const events = (await outboxEvents(t, 'people')).filter((x) => x.aggregate_id === e.id && x.type === 'employee.updated');
    expect(events.map((x) => x.payload.actor)).toEqual([
      { type: 'employee', id: e.id },
      { type: 'employee', id: e.id },
    ]);
    expect((await t.call('GET', '/me/profile', { as: person({}) })).body.code).toBe('not_linked_to_employee');
  });
});

describe('/me/export', () => {
  it('is a ZIP of JSON and CSV files with everything people holds about the caller', async () => {
    const home = await replicaLocation(t);
    const e = await newEmployee(t, home, { email: 'me@example.com' });
    await t.call('POST', `/employees/${e.id}/pay-rates`, { body: { type: 'hourly', amount: '21.5', effectiveDate: '2026-01-05' } });
    await t.call('POST', '/certifications', { body: { employeeId: e.id, name: 'Food handler', issuedOn: '2026-01-10' } });
    const other = await newEmployee(t, home, { email: 'other@example.com' });
    const self = person({}, { id: 'usr_me2', userId: 'usr_me2', employeeId: e.id });
    const res = await fetch(`${t.svc.url}/me/export`, { headers: { 'x-internal-token': await (await testKeys()).signer.sign(self) } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="personal-data-\d{4}-\d{2}-\d{2}\.zip"$/);
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
    const names = Object.keys(files).sort();
    expect(names).toEqual(expect.arrayContaining(['README.txt', 'people/employee-record.json', 'people/employee-record.csv', 'people/pay-rates.json', 'people/pay-rates.csv', 'people/certifications.json', 'people/record-changes.json']));
    const record = JSON.parse(strFromU8(files['people/employee-record.json']));
    expect(record).toEqual([expect.objectContaining({ id: e.id, email: 'me@example.com' })]);
    expect(JSON.parse(strFromU8(files['people/pay-rates.json']))[0]).toMatchObject({ amount: '21.50' });
    expect(strFromU8(files['people/pay-rates.csv']).split('\r\n')[0]).toBe('id,employeeId,type,amount,position,effectiveDate,createdAt,createdBy');
    expect(strFromU8(files['README.txt'])).toMatch(/Not part of this deployment, so not included: identity, files, time, communication, insights\./);
    const everything = Object.values(files).map((f) => strFromU8(f)).join('\n');
    expect(everything).not.toContain(other.id);
    expect(everything).not.toContain('other@example.com');
    const unlinked = await fetch(`${t.svc.url}/me/export`, { headers: { 'x-internal-token': await (await testKeys()).signer.sign(person({})) } });
    expect(unlinked.status).toBe(403);
    expect(((await unlinked.json()) as { code: string }).code).toBe('not_linked_to_employee');
  });

  it('writes CSV by RFC 4180, and keeps spreadsheet formulas inert', () => {
    expect(toCsv([{ a: 'x', b: 'has, comma' }, { b: 'say "hi"', c: { n: 1 } }, { a: '=SUM(A1)', c: null }])).toBe('a,b,c\r\nx,"has, comma",\r\n,"say ""hi""","{""n"":1}"\r\n\'=SUM(A1),,\r\n');
  });
});

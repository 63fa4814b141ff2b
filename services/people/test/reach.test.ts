import { person, startTestService, type TestService } from '@bop/test-support';
import { peopleService } from '../src';
import { newEmployee, replicaLocation } from './fixtures';

let t: TestService;
beforeAll(async () => {
  t = await startTestService(peopleService, {}, { workers: false });
});
afterAll(async () => {
  await t?.close();
});

/** Every permission of the people area, reaching one location only. */
const reachingOnly = (locationId: string) =>
  person(
    Object.fromEntries(
      ['employees.read', 'employees.manage', 'employees.terminate', 'pay_rates.read', 'pay_rates.manage', 'documents.read', 'documents.manage', 'certifications.read', 'certifications.manage'].map((p) => [p, [{ type: 'locations' as const, ids: [locationId] }]]),
    ),
  );

it('refuses out_of_reach on every employee endpoint for an employee of another location, and serves the one in reach', async () => {
  const here = await replicaLocation(t);
  const there = await replicaLocation(t);
  const mine = await newEmployee(t, here);
  const far = await newEmployee(t, there);
  const cert = await t.call('POST', '/certifications', { body: { employeeId: far.id, name: 'First aid', issuedOn: '2026-01-01' } });
  const doc = await t.call('POST', '/employee-documents', { body: { employeeId: far.id, attachmentId: 'att_far', type: 'contract' } });
  const as = reachingOnly(here);
  const calls: Array<[string, string, unknown?]> = [
    ['GET', '/employees/{id}'],
    ['PATCH', '/employees/{id}', { phone: '555-0101' }],
    ['POST', '/employees/{id}:transfer', { effectiveDate: '2026-02-01', locationIds: [] as string[] }],
    ['GET', '/employees/{id}/pay-rates'],
    ['POST', '/employees/{id}/pay-rates', { type: 'hourly', amount: '15', effectiveDate: '2026-01-05' }],
    ['GET', '/employees/{id}/emergency-contacts'],
    ['PUT', '/employees/{id}/emergency-contacts', { contacts: [] }],
    ['POST', '/employees/{id}:terminate', { effectiveDate: '2026-03-01', reason: 'x' }],
  ];
  for (const [method, p, body] of calls) {
    const res = await t.call(method, p.replace('{id}', far.id), { as, body });
    expect({ call: `${method} ${p}`, code: res.body?.code }).toEqual({ call: `${method} ${p}`, code: 'out_of_reach' });
  }
  expect((await t.call('PATCH', `/certifications/${cert.body.id}`, { as, body: { name: 'CPR' } })).body.code).toBe('out_of_reach');
  expect((await t.call('DELETE', `/certifications/${cert.body.id}`, { as })).body.code).toBe('out_of_reach');
  expect((await t.call('PATCH', `/employee-documents/${doc.body.id}`, { as, body: { title: 'x' } })).body.code).toBe('out_of_reach');
  expect((await t.call('DELETE', `/employee-documents/${doc.body.id}`, { as })).body.code).toBe('out_of_reach');
  expect((await t.call('POST', '/certifications', { as, body: { employeeId: far.id, name: 'x', issuedOn: '2026-01-01' } })).body.code).toBe('out_of_reach');
  expect((await t.call('GET', '/certifications?limit=200', { as })).body.data.map((c: { employeeId: string }) => c.employeeId)).not.toContain(far.id);
  expect((await t.call('DELETE', `/employees/${far.id}`, { as })).body.code).toBe('out_of_reach');
  const extFar = await t.call('PUT', '/employees/external/ext-far', { body: { legalFirstName: 'A', legalLastName: 'B', homeLocationId: there, hireDate: '2026-01-01' } });
  expect(extFar.status).toBe(201);
  expect((await t.call('GET', '/employees/external/ext-far', { as })).body.code).toBe('out_of_reach');
  expect((await t.call('PUT', '/employees/external/ext-far', { as, body: { legalFirstName: 'A', legalLastName: 'B', homeLocationId: here, hireDate: '2026-01-01' } })).body.code).toBe('out_of_reach');

  // the same calls for the employee in reach succeed
  expect((await t.call('GET', `/employees/${mine.id}/pay-rates`, { as })).status).toBe(200);
  expect((await t.call('POST', `/employees/${mine.id}/pay-rates`, { as, body: { type: 'hourly', amount: '15', effectiveDate: '2026-01-05' } })).status).toBe(201);
  expect((await t.call('PUT', `/employees/${mine.id}/emergency-contacts`, { as, body: { contacts: [{ name: 'Z', relationship: 'friend', phone: '555-0102' }] } })).status).toBe(200);
  expect((await t.call('POST', `/employees/${mine.id}:terminate`, { as, body: { effectiveDate: '2026-03-01', reason: 'Left' } })).body.status).toBe('terminated');
  expect((await t.call('DELETE', `/employees/${mine.id}`, { as })).body.status).toBe('archived');
  // moving an employee in reach to a location out of reach is refused
  const another = await newEmployee(t, here);
  expect((await t.call('POST', `/employees/${another.id}:transfer`, { as, body: { effectiveDate: '2026-02-01', homeLocationId: there } })).body.code).toBe('out_of_reach');
});

/** Every permission of the people area, reaching the employees named (an employee set) only. */
const reachingEmployees = (employeeIds: string[]) =>
  person(
    Object.fromEntries(
      ['employees.read', 'employees.manage', 'employees.terminate', 'pay_rates.read', 'pay_rates.manage', 'documents.read', 'documents.manage', 'certifications.read', 'certifications.manage'].map((p) => [p, [{ type: 'employee_set' as const, ids: employeeIds }]]),
    ),
  );

it('an employee set reaches its employees wherever they work, and no one else', async () => {
  const there = await replicaLocation(t);
  const elsewhere = await replicaLocation(t);
  const mine = await newEmployee(t, there);
  const other = await newEmployee(t, there);
  const as = reachingEmployees([mine.id]);

  expect((await t.call('GET', `/employees/${mine.id}`, { as })).status).toBe(200);
  expect((await t.call('PATCH', `/employees/${mine.id}`, { as, body: { phone: '555-0103' } })).status).toBe(200);
  expect((await t.call('POST', `/employees/${mine.id}/pay-rates`, { as, body: { type: 'hourly', amount: '16', effectiveDate: '2026-01-05' } })).status).toBe(201);
  expect((await t.call('GET', `/employees/${mine.id}/pay-rates`, { as })).status).toBe(200);
  const cert = await t.call('POST', '/certifications', { as, body: { employeeId: mine.id, name: 'Food safety', issuedOn: '2026-01-01' } });
  expect(cert.status).toBe(201);
  const otherCert = await t.call('POST', '/certifications', { body: { employeeId: other.id, name: 'Food safety', issuedOn: '2026-01-01' } });

  const refused = await t.call('GET', `/employees/${other.id}`, { as });
  expect(refused.body).toMatchObject({ status: 403, code: 'out_of_reach', detail: `Your permission does not reach employee ${other.id}.` });
  expect((await t.call('PATCH', `/employees/${other.id}`, { as, body: { phone: '555-0104' } })).body.code).toBe('out_of_reach');
  expect((await t.call('POST', '/certifications', { as, body: { employeeId: other.id, name: 'x', issuedOn: '2026-01-01' } })).body.code).toBe('out_of_reach');
  expect((await t.call('DELETE', `/certifications/${otherCert.body.id}`, { as })).body.code).toBe('out_of_reach');

  // lists: the set's employees, also when a location out of reach is asked for
  const ids = async (path: string) => ((await t.call('GET', path, { as })).body.data as Array<{ id?: string; employeeId?: string }>).map((r) => r.employeeId ?? r.id);
  expect(await ids('/employees?limit=200')).toEqual([mine.id]);
  expect(await ids(`/employees?locationId=${there}&limit=200`)).toEqual([mine.id]);
  expect(await ids(`/employees?locationId=${elsewhere}&limit=200`)).toEqual([]);
  expect(await ids('/certifications?limit=200')).toEqual([mine.id]);

  // a new employee, or one moved, is at a location: an employee set does not reach a location as a whole
  const created = await t.call('POST', '/employees', { as, body: { legalFirstName: 'N', legalLastName: 'E', homeLocationId: there, hireDate: '2026-01-05' } });
  expect(created.body).toMatchObject({ code: 'out_of_reach' });
  expect(created.body.detail).toMatch(/An employee set reaches the records of its employees, not a location as a whole/);
  expect((await t.call('POST', `/employees/${mine.id}:transfer`, { as, body: { effectiveDate: '2026-02-01', homeLocationId: elsewhere } })).body.code).toBe('out_of_reach');
});

import { outboxPayloads, person, sql, startTestService, type TestService } from '@bop/test-support';
import { peopleService } from '../src';
import { newEmployee, replicaLocation } from './fixtures';

let t: TestService;
beforeAll(async () => {
  t = await startTestService(peopleService, {}, { workers: false });
});
afterAll(async () => {
  await t?.close();
});

describe('employee documents', () => {
  it('adds, lists by type and expiry within reach, shares with the employee, archives', async () => {
    const here = await replicaLocation(t);
    const there = await replicaLocation(t);
    const ana = await newEmployee(t, here);
    const bo = await newEmployee(t, there);
    const add = (body: Record<string, unknown>, as = person()) => t.call('POST', '/employee-documents', { body, as });
    const contract = await add({ employeeId: ana.id, attachmentId: 'att_contract', type: 'Contract', title: 'Employment contract', expiresOn: '2027-01-31' });
    expect(contract.status).toBe(201);
    expect(contract.body).toMatchObject({ employeeId: ana.id, type: 'contract', visibleToEmployee: false, status: 'active', version: 1 });
    const payslip = await add({ employeeId: ana.id, attachmentId: 'att_pay1', type: 'payslip', title: 'November payslip', visibleToEmployee: true });
    await add({ employeeId: bo.id, attachmentId: 'att_bo', type: 'id', expiresOn: '2026-12-31' });
    const expiring = await t.call('GET', '/employee-documents?expiresBefore=2027-01-01&limit=200');
    expect(expiring.body.data.every((d: { expiresOn: string }) => d.expiresOn < '2027-01-01')).toBe(true);
    expect(expiring.body.data.map((d: { employeeId: string }) => d.employeeId)).toContain(bo.id);
    const byType = await t.call('GET', `/employee-documents?employeeId=${ana.id}&type=PAYSLIP`);
    expect(byType.body.data.map((d: { id: string }) => d.id)).toEqual([payslip.body.id]);
    const local = person({ 'documents.read': [{ type: 'locations', ids: [here] }], 'documents.manage': [{ type: 'locations', ids: [here] }] });
    const seen = await t.call('GET', '/employee-documents?limit=200', { as: local });
    expect(seen.body.data.every((d: { employeeId: string }) => d.employeeId === ana.id)).toBe(true);
    expect((await add({ employeeId: bo.id, attachmentId: 'att_x', type: 'other' }, local)).body.code).toBe('out_of_reach');
    expect((await add({ employeeId: 'emp_nope', attachmentId: 'att_x', type: 'other' })).body.errors).toEqual([{ path: 'employeeId', message: 'No employee emp_nope.' }]);
    expect((await add({ employeeId: ana.id, attachmentId: 'att_x', type: 'no spaces please' })).body.errors[0].path).toBe('type');

    const self = person({}, { id: 'usr_ana', userId: 'usr_ana', employeeId: ana.id });
    const mine = await t.call('GET', '/me/documents', { as: self });
    expect(mine.body.data.map((d: { id: string }) => d.id)).toEqual([payslip.body.id]);
    expect((await t.call('GET', '/me/payslips', { as: self })).body.data.map((d: { id: string }) => d.id)).toEqual([payslip.body.id]);
    const shared = await t.call('PATCH', `/employee-documents/${contract.body.id}`, { body: { visibleToEmployee: true, expiresOn: '2028-01-31' } });
    expect(shared.body).toMatchObject({ visibleToEmployee: true, expiresOn: '2028-01-31', version: 2 });
    expect((await t.call('GET', '/me/documents', { as: self })).body.data).toHaveLength(2);
    expect((await t.call('GET', '/me/payslips', { as: self })).body.data).toHaveLength(1);
    const archived = await t.call('DELETE', `/employee-documents/${payslip.body.id}`);
    expect(archived.body.status).toBe('archived');
    expect((await t.call('GET', '/me/payslips', { as: self })).body.data).toHaveLength(0);
    expect((await t.call('GET', '/me/documents', { as: person({}) })).body.code).toBe('not_linked_to_employee');
    const trail = await sql(t, `select action from people.activity where employee_id = $1 order by id`, [ana.id]);
    expect(trail.map((r) => r.action)).toEqual(['created', 'document_added', 'document_added', 'document_updated', 'document_archived']);

    // a change event per change (issue 41 item 3), data.object the document as the API returns it, at the employee's home location
    const contractEvents = await outboxPayloads(t, 'people', { aggregateId: contract.body.id });
    expect(contractEvents.map((e) => e.type)).toEqual(['document.created', 'document.updated']);
    expect(contractEvents[0]).toMatchObject({ locationId: here, data: { object: contract.body } });
    expect(contractEvents[1].data).toEqual({ object: shared.body, previous: { visibleToEmployee: false, expiresOn: '2027-01-31' } });
    const payslipEvents = await outboxPayloads(t, 'people', { aggregateId: payslip.body.id });
    expect(payslipEvents.map((e) => e.type)).toEqual(['document.created', 'document.archived']);
    expect(payslipEvents[1].data).toEqual({ object: archived.body, previous: { status: 'active' } });
    // archiving again changes nothing: no event
    expect((await t.call('DELETE', `/employee-documents/${payslip.body.id}`)).status).toBe(200);
    expect(await outboxPayloads(t, 'people', { aggregateId: payslip.body.id })).toHaveLength(2);
  });
});

describe('certifications', () => {
  it('records, renews, filters by name and expiry, archives', async () => {
    const here = await replicaLocation(t);
    const ana = await newEmployee(t, here);
    const add = (body: Record<string, unknown>) => t.call('POST', '/certifications', { body });
    const cert = await add({ employeeId: ana.id, name: 'Food handler', issuer: 'County health', issuedOn: '2025-03-01', expiresOn: '2026-03-01', attachmentId: 'att_card' });
    expect(cert.status).toBe(201);
    expect(cert.body).toMatchObject({ name: 'Food handler', attachmentId: 'att_card', status: 'active' });
    expect((await add({ employeeId: ana.id, name: 'First aid', issuedOn: '2026-05-01', expiresOn: '2026-04-01' })).body.errors[0].path).toBe('expiresOn');
    const due = await t.call('GET', `/certifications?employeeId=${ana.id}&expiresBefore=2026-06-01`);
    expect(due.body.data.map((c: { id: string }) => c.id)).toEqual([cert.body.id]);
    expect((await t.call('GET', `/certifications?name=food%20HANDLER&employeeId=${ana.id}`)).body.data).toHaveLength(1);
    expect((await t.call('GET', `/certifications?name=food%25&employeeId=${ana.id}`)).body.data).toHaveLength(0);
    const renewed = await t.call('PATCH', `/certifications/${cert.body.id}`, { body: { issuedOn: '2026-02-20', expiresOn: '2029-02-20' } });
    expect(renewed.body).toMatchObject({ expiresOn: '2029-02-20', version: 2 });
    expect((await t.call('GET', `/certifications?employeeId=${ana.id}&expiresBefore=2026-06-01`)).body.data).toHaveLength(0);
    const archived = await t.call('DELETE', `/certifications/${cert.body.id}`);
    expect(archived.body.status).toBe('archived');
    expect((await t.call('GET', `/certifications?employeeId=${ana.id}&status=archived`)).body.data).toHaveLength(1);

    // a change event per change (issue 41 item 3), data.object the certification as the API returns it
    const events = await outboxPayloads(t, 'people', { aggregateId: cert.body.id });
    expect(events.map((e) => e.type)).toEqual(['certification.created', 'certification.updated', 'certification.archived']);
    expect(events.map((e) => e.data.object)).toEqual([cert.body, renewed.body, archived.body]);
    expect(events[1]).toMatchObject({ locationId: here, data: { previous: { issuedOn: '2025-03-01', expiresOn: '2026-03-01' } } });
  });
});

import { organizationService } from '@svc/organization';
import { peopleService } from '@svc/people';
import { schedulingService } from '@svc/scheduling';
import { filesService } from '@svc/files';
import type { Principal } from '@bop/shared';
import { eventually, person, postMultipart, sql, standardLocations, startTestServices, testKeys, type TestService, type TestServices } from '@bop/test-support';
import { communicationService } from '../src';
import { me, paths } from './fixtures';

/** Audiences from the replicas other services' events keep: organization's locations, people's employees, scheduling's shifts; attachments checked with files. */
let stack: TestServices;
let comm: TestService;
beforeAll(async () => {
  stack = await startTestServices([organizationService, peopleService, schedulingService, filesService, communicationService]);
  comm = stack.services.communication;
}, 90_000);
afterAll(async () => {
  await stack?.close();
});

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

async function uploaded(as: Principal): Promise<string> {
  const { signer } = await testKeys();
  const r = await postMultipart(stack.services.files.svc.url, '/attachments', [{ fileName: 'allergens.pdf', contentType: 'application/pdf', content: PDF }], { 'x-internal-token': await signer.sign(as) });
  if (r.status !== 201) throw new Error(`upload: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.id;
}

async function hired(locationId: string, positions: string[]): Promise<string> {
  const r = await stack.services.people.call('POST', '/employees', { body: { legalFirstName: 'Ana', legalLastName: 'Silva', homeLocationId: locationId, hireDate: '2026-01-05', positions } });
  if (r.status !== 201) throw new Error(`employee: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.id;
}

const replicated = (schema: string, table: string, id: string, extra = 'true') => eventually(async () => (await sql(stack, `select 1 from "${schema}"."${table}" where id = $1 and ${extra}`, [id])).length === 1, 15_000);

describe('audiences from other services\' events', () => {
  it('locations, employees and on-shift people arrive by events; attachments are checked with files', async () => {
    const { 'NYC-1': nyc } = await standardLocations(stack, ['people', 'scheduling', 'files', 'communication']);
    const cook = await hired(nyc, ['Cook']);
    const server = await hired(nyc, ['Server']);
    for (const id of [cook, server]) {
      await replicated('communication', 'employees', id);
      await replicated('scheduling', 'employees', id);
    }

    // a published shift for the cook on the 24th (New York)
    const shift = await stack.services.scheduling.call('POST', '/shifts', { body: { locationId: nyc, position: 'Cook', employeeId: cook, start: '2026-12-24T14:00:00Z', end: '2026-12-24T22:00:00Z' } });
    expect(shift.status).toBe(201);
    const published = await stack.services.scheduling.call('POST', '/schedules:publish', { body: { locationId: nyc, from: '2026-12-24', to: '2026-12-24' } });
    expect(published.status).toBe(200);
    await replicated('communication', 'shifts', shift.body.id, `status = 'published' and local_date = '2026-12-24'`);

    const author = person();
    const attachment = await uploaded(author);
    const unknown = await comm.call('POST', '/announcements', { body: { title: 'Allergens', body: 'Read and confirm.', audience: { onShift: { locationId: nyc, date: '2026-12-24' } }, attachmentIds: [attachment, 'att_nope'] } });
    expect([unknown.status, paths(unknown.body)]).toEqual([422, ['attachmentIds[1]']]);

    const onShift = await comm.call('POST', '/announcements', { body: { title: 'Allergens', body: 'Read and confirm.', audience: { onShift: { locationId: nyc, date: '2026-12-24' } }, attachmentIds: [attachment] } });
    expect(onShift.status).toBe(201);
    expect((await comm.call('POST', `/announcements/${onShift.body.id}:publish`)).body).toMatchObject({ status: 'published', audienceCount: 1 });
    expect((await comm.call('GET', '/me/announcements', { as: me(cook) })).body.data).toEqual([expect.objectContaining({ id: onShift.body.id, attachmentIds: [attachment] })]);

    const everyoneAtNyc = await comm.call('POST', '/announcements', { body: { title: 'Holiday hours', body: 'We close at 6.', audience: { locationIds: [nyc] } } });
    const all = await comm.call('POST', `/announcements/${everyoneAtNyc.body.id}:publish`);
    expect(all.body.audienceCount).toBe(2);
    const acks = await comm.call('GET', `/announcements/${everyoneAtNyc.body.id}/acknowledgements`);
    expect(acks.body.data.map((r: { employeeId: string; firstName: string }) => [r.employeeId, r.firstName]).sort()).toEqual([[cook, 'Ana'], [server, 'Ana']].sort());
  });

  it('an on-shift employee the employee replica lacks is read through from people at publication', async () => {
    const nyc = (await sql(stack, `select id from communication.locations where external_id = 'NYC-1'`))[0].id as string;
    const lagging = await hired(nyc, ['Cook']);
    await replicated('communication', 'employees', lagging);
    await replicated('scheduling', 'employees', lagging);
    // as if people's event had not reached communication yet
    await sql(stack, `delete from communication.employees where id = $1`, [lagging]);
    const shift = await stack.services.scheduling.call('POST', '/shifts', { body: { locationId: nyc, position: 'Cook', employeeId: lagging, start: '2026-12-26T14:00:00Z', end: '2026-12-26T22:00:00Z' } });
    expect((await stack.services.scheduling.call('POST', '/schedules:publish', { body: { locationId: nyc, from: '2026-12-26', to: '2026-12-26' } })).status).toBe(200);
    await replicated('communication', 'shifts', shift.body.id, `status = 'published'`);
    const ann = await comm.call('POST', '/announcements', { body: { title: 'Boxing Day', body: 'Inventory at 8.', audience: { onShift: { locationId: nyc, date: '2026-12-26' } } } });
    expect((await comm.call('POST', `/announcements/${ann.body.id}:publish`)).body.audienceCount).toBe(1);
    expect((await comm.call('GET', '/me/announcements', { as: me(lagging) })).body.data).toEqual([expect.objectContaining({ id: ann.body.id })]);
  });
});

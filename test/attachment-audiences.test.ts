/**
 * Attachments readable by their audience (issue 39, item 2), across communication and files: files
 * shows a file to its uploader, the employee it concerns and `attachments.read`; communication tells
 * files (internal event `communication.attachments.audience`) who else may read an attachment: the
 * audience of a published announcement, the members of a channel whose message carries it.
 */
import { communicationService } from '@svc/communication';
import { filesService } from '@svc/files';
import { organizationService } from '@svc/organization';
import { peopleService } from '@svc/people';
import type { Principal } from '@bop/shared';
import { eventually, person, postMultipart, publishEvent, sql, standardLocations, startTestServices, testKeys, type TestServices } from '@bop/test-support';

let stack: TestServices;
beforeAll(async () => {
  stack = await startTestServices([organizationService, peopleService, filesService, communicationService]);
}, 90_000);
afterAll(async () => {
  await stack?.close();
});

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
/** today's date at a location (a transfer takes effect by the new home's local date) */
const todayIn = (timeZone: string) => new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());

/** A person of their own (distinct user id: nobody else is the uploader) linked to an employee, with no permission. */
const staff = (employeeId: string): Principal => person({}, { id: `usr_${employeeId}`, userId: `usr_${employeeId}`, employeeId });

async function uploaded(as: Principal): Promise<string> {
  const { signer } = await testKeys();
  const r = await postMultipart(stack.services.files.svc.url, '/attachments', [{ fileName: 'allergens.pdf', contentType: 'application/pdf', content: PDF }], { 'x-internal-token': await signer.sign(as) });
  if (r.status !== 201) throw new Error(`upload: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.id;
}

async function hired(homeLocationId: string): Promise<string> {
  const r = await stack.services.people.call('POST', '/employees', { body: { legalFirstName: 'Ana', legalLastName: 'Silva', homeLocationId, hireDate: '2026-01-05' } });
  if (r.status !== 201) throw new Error(`employee: ${r.status} ${JSON.stringify(r.body)}`);
  await eventually(async () => (await sql(stack, `select 1 from communication.employees where id = $1`, [r.body.id])).length === 1, 15_000);
  return r.body.id;
}

const details = (id: string, as: Principal) => stack.services.files.call('GET', `/attachments/${id}`, { as });
const content = (id: string, as: Principal) => stack.services.files.call('GET', `/attachments/${id}/content`, { as });
/** Waits until files answers `status` for the attachment's details to `as` (communication's event is applied after its commit). */
const until = (id: string, as: Principal, status: number) => eventually(async () => (await details(id, as)).status === status, 15_000);

describe('attachments readable by their audience', () => {
  let nyc: string;
  let ber: string;
  beforeAll(async () => {
    ({ 'NYC-1': nyc, 'BER-1': ber } = await standardLocations(stack, ['people', 'files', 'communication']));
  });

  it('a published announcement\'s attachment: every person of the audience reads and downloads it, no one else; archived, no longer', async () => {
    const [ana, ben, outsider] = [await hired(nyc), await hired(nyc), await hired(ber)];
    const author = person(undefined, { id: 'usr_author', userId: 'usr_author' });
    const file = await uploaded(author);
    expect((await details(file, staff(ana))).status).toBe(404);

    const draft = await stack.services.communication.call('POST', '/announcements', { as: author, body: { title: 'Allergens', body: 'Read and confirm.', audience: { locationIds: [nyc] }, attachmentIds: [file] } });
    expect(draft.status).toBe(201);
    // a draft shares nothing
    expect((await details(file, staff(ana))).status).toBe(404);
    expect((await stack.services.communication.call('POST', `/announcements/${draft.body.id}:publish`, { as: author })).body.audienceCount).toBe(2);

    await until(file, staff(ana), 200);
    expect((await details(file, staff(ben))).status).toBe(200);
    const download = await content(file, staff(ben));
    expect([download.status, download.headers.get('content-type')]).toEqual([200, 'application/pdf']);
    expect((await details(file, staff(outsider))).status).toBe(404);
    expect((await content(file, staff(outsider))).status).toBe(404);
    // the internal resolve (another service checking the file as the caller sees it) agrees
    const resolved = await stack.services.files.call('POST', '/internal/attachments:resolve', { as: { kind: 'system', via: 'internal', id: 'system' }, body: { ids: [file], viewer: staff(ana) } });
    expect(resolved.body.data).toEqual([expect.objectContaining({ id: file, visibleToViewer: true })]);

    expect((await stack.services.communication.call('DELETE', `/announcements/${draft.body.id}`, { as: author })).body.status).toBe('archived');
    await until(file, staff(ana), 404);
    expect((await details(file, author)).status).toBe(200);
  });

  it('a channel message\'s attachment: the channel\'s members read it, also who joins later; who leaves no longer', async () => {
    const [ana, ben, carol] = [await hired(ber), await hired(ber), await hired(nyc)];
    const group = await stack.services.communication.call('POST', '/channels', { body: { kind: 'group', name: 'Openers', memberIds: [ana, ben] } });
    expect(group.status).toBe(201);
    const file = await uploaded(staff(ana));
    // a member may attach only what they see themselves
    const foreign = await uploaded(staff(carol));
    const refused = await stack.services.communication.call('POST', `/channels/${group.body.id}/messages`, { as: staff(ana), body: { text: 'Look', attachmentIds: [foreign] } });
    expect([refused.status, refused.body.errors]).toEqual([422, [{ path: 'attachmentIds[0]', message: `No attachment ${foreign}.` }]]);

    const posted = await stack.services.communication.call('POST', `/channels/${group.body.id}/messages`, { as: staff(ana), body: { text: 'Opening checklist attached.', attachmentIds: [file] } });
    expect(posted.status).toBe(201);
    await until(file, staff(ben), 200);
    expect((await content(file, staff(ben))).status).toBe(200);
    expect((await details(file, staff(carol))).status).toBe(404);
    // once shared, a member may attach it again
    expect((await stack.services.communication.call('POST', `/channels/${group.body.id}/messages`, { as: staff(ben), body: { text: 'Same again.', attachmentIds: [file] } })).status).toBe(201);

    // a location team channel: who is hired at the location later reads its attachments too; who is transferred away no longer
    const team = await stack.services.communication.call('POST', '/channels', { body: { kind: 'location_team', name: 'Berlin', locationId: ber } });
    expect(team.status).toBe(201);
    const memo = await uploaded(staff(ana));
    expect((await stack.services.communication.call('POST', `/channels/${team.body.id}/messages`, { as: staff(ana), body: { text: 'Rota memo.', attachmentIds: [memo] } })).status).toBe(201);
    await until(memo, staff(ben), 200);
    const dana = await hired(ber);
    await until(memo, staff(dana), 200);
    const moved = await stack.services.people.call('POST', `/employees/${ben}:transfer`, { body: { effectiveDate: todayIn('America/New_York'), homeLocationId: nyc } });
    expect(moved.status).toBe(200);
    await until(memo, staff(ben), 404);
    // still in the group channel: its file stays readable
    expect((await details(file, staff(ben))).status).toBe(200);
  });

  it('an older audience never overwrites a newer one; a repeated event changes nothing', async () => {
    const ana = await hired(nyc);
    const file = await uploaded(person(undefined, { id: 'usr_owner', userId: 'usr_owner' }));
    const audienceId = 'chn_replayed';
    await publishEvent(stack, 'communication', 'communication.attachments.audience', { id: audienceId, audienceId, version: 5, employeeIds: [ana], attachmentIds: [file] });
    await until(file, staff(ana), 200);
    await publishEvent(stack, 'communication', 'communication.attachments.audience', { id: audienceId, audienceId, version: 4, employeeIds: [], attachmentIds: [] });
    const marker = await publishEvent(stack, 'communication', 'communication.attachments.audience', { id: audienceId, audienceId, version: 5, employeeIds: [], attachmentIds: [] });
    await eventually(async () => (await sql(stack, `select 1 from files.processed_events where event_id = $1`, [marker.id])).length === 1, 15_000);
    expect((await details(file, staff(ana))).status).toBe(200);
    expect(await sql(stack, `select version from files.attachment_audiences where id = $1`, [audienceId])).toEqual([{ version: 5 }]);
  });
});

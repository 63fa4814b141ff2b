import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { filesService } from '../src';
import { eventually, integration, outboxEvents, person, sql, startTestService, type TestService } from '@bop/test-support';
import { GIF, PDF, PNG, replicaLocation, upload, uploadedPng } from './fixtures';

let t: TestService;
let dir: string;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bop-files-'));
  // the local directory (its files are looked at below), whatever storage the environment names
  // the removal worker runs only when a test runs its round
  t = await startTestService(filesService, { FILES_DIR: dir, STORAGE_S3_BUCKET: '', STORAGE_MAX_UPLOAD_MB: '1', STORAGE_ALLOWED_TYPES: 'image/png,image/jpeg,application/pdf,text/plain,text/csv' }, { workers: false });
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const stored = (id: string) => fs.existsSync(path.join(dir, 'attachments', id));
const storedFiles = () => (fs.existsSync(path.join(dir, 'attachments')) ? fs.readdirSync(path.join(dir, 'attachments')).filter((f) => !f.endsWith('.sha256')) : []);

describe('POST /attachments', () => {
  it('stores the file streamed, identified by its bytes, and records attachment.uploaded', async () => {
    const loc = await replicaLocation(t);
    const res = await upload(t, [
      { name: 'description', value: 'Till photo' },
      { name: 'locationId', value: loc },
      { fileName: 'till photo ✓.png', contentType: 'image/png', content: PNG },
    ]);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      fileName: 'till photo ✓.png',
      contentType: 'image/png',
      size: PNG.length,
      sha256: sha(PNG),
      description: 'Till photo',
      locationId: loc,
      employeeId: null,
      uploadedBy: { type: 'user', id: 'usr_test' },
      status: 'active',
      version: 1,
      deletedAt: null,
      contentUrl: `/api/v1/attachments/${res.body.id}/content`,
    });
    expect(res.body.id).toMatch(/^att_/);
    expect(fs.readFileSync(path.join(dir, 'attachments', res.body.id))).toEqual(PNG);
    const events = (await outboxEvents(t, 'files')).filter((e) => e.aggregate_id === res.body.id);
    expect(events.map((e) => [e.type, e.location_id])).toEqual([['attachment.uploaded', loc]]);
    expect(events[0].payload.data.object).toEqual(res.body);
  });

  it('takes a generic declared type from the bytes, text as text/plain or text/csv', async () => {
    const pdf = await upload(t, [{ fileName: 'invoice.pdf', contentType: 'application/octet-stream', content: PDF }]);
    expect(pdf.body.contentType).toBe('application/pdf');
    const csv = await upload(t, [{ fileName: 'counts.csv', content: Buffer.from('item,qty\nmilk,3\n') }]);
    expect(csv.status).toBe(201);
    expect(csv.body.contentType).toBe('text/csv');
    const jpgAlias = await upload(t, [{ fileName: 'notes.txt', contentType: 'text/plain; charset=utf-8', content: Buffer.from('Grüße aus der Küche\n') }]);
    expect(jpgAlias.body.contentType).toBe('text/plain');
  });

  it('refuses bytes that contradict the declared type, and types the allow-list does not name: nothing stored', async () => {
    const before = storedFiles().length;
    const lie = await upload(t, [{ fileName: 'photo.png', contentType: 'image/png', content: PDF }]);
    expect(lie.status).toBe(422);
    expect(lie.body.errors).toEqual([{ path: 'file', message: "The file's bytes are application/pdf, not the declared image/png." }]);
    const text = await upload(t, [{ fileName: 'photo.jpg', contentType: 'image/jpeg', content: Buffer.from('just text') }]);
    expect(text.body.errors[0]).toMatchObject({ path: 'file', message: "The file's bytes are text, not the declared image/jpeg." });
    const gif = await upload(t, [{ fileName: 'anim.gif', contentType: 'image/gif', content: GIF }]);
    expect(gif.status).toBe(422);
    expect(gif.body.errors[0].message).toMatch(/^Files of type image\/gif are not accepted \(setting STORAGE_ALLOWED_TYPES/);
    const binary = await upload(t, [{ fileName: 'blob.bin', content: Buffer.from([0, 1, 2, 3, 0xff, 0xfe]) }]);
    expect(binary.body.errors[0].message).toMatch(/application\/octet-stream are not accepted/);
    expect(storedFiles().length).toBe(before);
    expect(await sql(t, `select count(*)::int as n from files.attachments where file_name in ('photo.png','photo.jpg','anim.gif','blob.bin')`)).toEqual([{ n: 0 }]);
  });

  it('answers 413 with the limit over STORAGE_MAX_UPLOAD_MB, with or without a declared length, and keeps nothing', async () => {
    const before = storedFiles().length;
    const big = Buffer.concat([PDF, Buffer.alloc(1024 * 1024 + 1, 'x')]);
    const declared = await upload(t, [{ fileName: 'big.pdf', contentType: 'application/pdf', content: big }]);
    expect(declared.status).toBe(413);
    expect(declared.body).toMatchObject({ code: 'payload_too_large', limitBytes: 1024 * 1024, limitMb: 1 });
    expect(declared.body.detail).toBe('The file is larger than the upload limit of 1 MB (setting STORAGE_MAX_UPLOAD_MB).');
    const { postMultipart, testKeys, generatedBytes } = await import('@bop/test-support');
    const token = await (await testKeys()).signer.sign(person());
    const chunked = await postMultipart(t.svc.url, '/attachments', [{ fileName: 'big.pdf', contentType: 'application/pdf', content: generatedBytes(3 * 1024 * 1024, PDF) }], { 'x-internal-token': token });
    expect(chunked.status).toBe(413);
    expect(chunked.body.limitBytes).toBe(1024 * 1024);
    // the refused upload's bytes are removed as its stream ends
    await eventually(async () => storedFiles().length === before && fs.readdirSync(path.join(dir, 'attachments')).every((f) => !f.endsWith('.partial')));
    expect(storedFiles().length).toBe(before);
    expect(fs.readdirSync(path.join(dir, 'attachments')).filter((f) => f.endsWith('.partial'))).toEqual([]);
  });

  it('names the part or field at fault', async () => {
    const none = await upload(t, [{ name: 'description', value: 'no file' }]);
    expect(none.status).toBe(422);
    expect(none.body.errors).toEqual([{ path: 'file', message: 'Add the file as a part named `file`.' }]);
    const two = await upload(t, [{ fileName: 'a.png', contentType: 'image/png', content: PNG }, { fileName: 'b.png', contentType: 'image/png', content: PNG }]);
    expect(two.status).toBe(422);
    expect(two.body.errors[0]).toMatchObject({ path: 'file', message: 'Send exactly one file.' });
    const other = await upload(t, [{ name: 'photo', fileName: 'a.png', contentType: 'image/png', content: PNG }]);
    expect(other.body.errors).toContainEqual({ path: 'photo', message: 'Unexpected file part: send the file in the part named `file`.' });
    const empty = await upload(t, [{ fileName: 'empty.txt', content: Buffer.alloc(0) }]);
    expect(empty.body.errors).toEqual([{ path: 'file', message: 'The file is empty.' }]);
    const unknownField = await upload(t, [{ fileName: 'a.png', contentType: 'image/png', content: PNG }, { name: 'colour', value: 'red' }]);
    expect(unknownField.status).toBe(422);
    expect(unknownField.body.errors[0].path).toBe('colour');
    const nul = await upload(t, [{ fileName: 'a.png', contentType: 'image/png', content: PNG }, { name: 'description', value: 'a\u0000b' }]);
    expect(nul.body.errors).toEqual([{ path: 'description', message: 'Must not contain the NUL character (\\u0000).' }]);
    const archived = await replicaLocation(t, 'archived');
    const badLocations = await upload(t, [{ fileName: 'a.png', contentType: 'image/png', content: PNG }, { name: 'locationId', value: archived }]);
    expect(badLocations.body.errors).toEqual([{ path: 'locationId', message: `Location ${archived} is archived; it takes no new files.` }]);
    const unknown = await upload(t, [{ fileName: 'a.png', contentType: 'image/png', content: PNG }, { name: 'locationId', value: 'loc_nope' }]);
    expect(unknown.body.errors).toEqual([{ path: 'locationId', message: 'No location loc_nope.' }]);
    const notEmployee = await upload(t, [{ fileName: 'a.png', contentType: 'image/png', content: PNG }, { name: 'employeeId', value: 'usr_1' }]);
    expect(notEmployee.body.errors[0].path).toBe('employeeId');
    const json = await t.call('POST', '/attachments', { body: { file: 'x' } });
    expect(json.status).toBe(400);
    expect(json.body.detail).toBe('Send the file as multipart/form-data, in a part named `file`.');
  });
});

describe('GET /attachments/{id}/content', () => {
  it('streams the bytes with their type, a download name, an ETag and byte ranges', async () => {
    const a = await uploadedPng(t);
    const whole = await fetch(`${t.svc.url}/attachments/${a.id}/content`, { headers: await tokenFor() });
    expect(whole.status).toBe(200);
    expect(Buffer.from(await whole.arrayBuffer())).toEqual(PNG);
    expect(whole.headers.get('content-type')).toBe('image/png');
    expect(whole.headers.get('content-length')).toBe(String(PNG.length));
    expect(whole.headers.get('content-disposition')).toBe(`attachment; filename="photo.png"; filename*=UTF-8''photo.png`);
    expect(whole.headers.get('x-content-type-options')).toBe('nosniff');
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    const etag = whole.headers.get('etag')!;
    expect(etag).toBe(`"${sha(PNG)}"`);

    const part = await fetch(`${t.svc.url}/attachments/${a.id}/content`, { headers: { ...(await tokenFor()), range: 'bytes=0-7' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 0-7/${PNG.length}`);
    expect(Buffer.from(await part.arrayBuffer())).toEqual(PNG.subarray(0, 8));
    const suffix = await fetch(`${t.svc.url}/attachments/${a.id}/content`, { headers: { ...(await tokenFor()), range: 'bytes=-4' } });
    expect(Buffer.from(await suffix.arrayBuffer())).toEqual(PNG.subarray(PNG.length - 4));

    const outside = await fetch(`${t.svc.url}/attachments/${a.id}/content`, { headers: { ...(await tokenFor()), range: 'bytes=5000-6000' } });
    expect(outside.status).toBe(416);
    expect(outside.headers.get('content-range')).toBe(`bytes */${PNG.length}`);
    expect(((await outside.json()) as { code: string }).code).toBe('range_not_satisfiable');
    const several = await fetch(`${t.svc.url}/attachments/${a.id}/content`, { headers: { ...(await tokenFor()), range: 'bytes=0-1,5-6' } });
    expect(several.status).toBe(200);
    await several.arrayBuffer();
    const stale = await fetch(`${t.svc.url}/attachments/${a.id}/content`, { headers: { ...(await tokenFor()), range: 'bytes=0-1', 'if-range': '"old"' } });
    expect(stale.status).toBe(200);
    await stale.arrayBuffer();
    const current = await fetch(`${t.svc.url}/attachments/${a.id}/content`, { headers: { ...(await tokenFor()), range: 'bytes=0-1', 'if-range': etag } });
    expect(current.status).toBe(206);
    await current.arrayBuffer();
  });
});

async function tokenFor(as = person()) {
  const { testKeys } = await import('@bop/test-support');
  return { 'x-internal-token': await (await testKeys()).signer.sign(as) };
}

describe('who may see and delete a file (404 for anyone else)', () => {
  const uploader = person({}, { id: 'usr_up', userId: 'usr_up' });
  const stranger = person({}, { id: 'usr_other', userId: 'usr_other' });
  const employee = person({}, { id: 'usr_emp', userId: 'usr_emp', employeeId: 'emp_concerned' });

  it('the uploader, the employee concerned, or attachments.read within its reach', async () => {
    const here = await replicaLocation(t);
    const there = await replicaLocation(t);
    const a = await uploadedPng(t, { locationId: here, employeeId: 'emp_concerned' }, uploader);
    const wide = await uploadedPng(t, {}, uploader);
    const readsHere = person({ 'attachments.read': [{ type: 'locations', ids: [here] }] }, { id: 'usr_mgr', userId: 'usr_mgr' });
    const readsThere = person({ 'attachments.read': [{ type: 'locations', ids: [there] }] }, { id: 'usr_mgr2', userId: 'usr_mgr2' });
    const readsAll = person({ 'attachments.read': [{ type: 'everyone' }] }, { id: 'usr_hq', userId: 'usr_hq' });
    const cases: Array<[string, object, string, number]> = [
      ['uploader', uploader, a.id, 200],
      ['employee concerned', employee, a.id, 200],
      ['stranger', stranger, a.id, 404],
      ['read reaches the location', readsHere, a.id, 200],
      ['read reaches another location', readsThere, a.id, 404],
      ['company-wide file, location reach', readsHere, wide.id, 404],
      ['company-wide file, reach Everyone', readsAll, wide.id, 200],
      ['integration with attachments:read', integration(['attachments:read']), a.id, 200],
    ];
    for (const [label, as, id, status] of cases) {
      const details = await t.call('GET', `/attachments/${id}`, { as: as as never });
      const content = await fetch(`${t.svc.url}/attachments/${id}/content`, { headers: await tokenFor(as as never) });
      await content.arrayBuffer();
      expect({ label, details: details.status, content: content.status }).toEqual({ label, details: status, content: status });
      if (status === 404) expect(details.body).toMatchObject({ code: 'not_found', detail: `No attachment with id ${id}.` });
    }
  });

  it('deletes for the uploader or attachments.manage within its reach; 403 for one who only sees it', async () => {
    const here = await replicaLocation(t);
    const there = await replicaLocation(t);
    const a = await uploadedPng(t, { locationId: here, employeeId: 'emp_concerned' }, uploader);
    const b = await uploadedPng(t, { locationId: there }, uploader);
    expect((await t.call('DELETE', `/attachments/${a.id}`, { as: stranger })).status).toBe(404);
    const byEmployee = await t.call('DELETE', `/attachments/${a.id}`, { as: employee });
    expect(byEmployee.status).toBe(403);
    expect(byEmployee.body.code).toBe('forbidden');
    const managesHere = person({ 'attachments.read': [{ type: 'everyone' }], 'attachments.manage': [{ type: 'locations', ids: [here] }] }, { id: 'usr_mgr', userId: 'usr_mgr' });
    const far = await t.call('DELETE', `/attachments/${b.id}`, { as: managesHere });
    expect(far.status).toBe(403);
    expect(far.body.code).toBe('out_of_reach');
    const stale = await t.call('DELETE', `/attachments/${a.id}`, { as: managesHere, headers: { 'if-match': '"7"' } });
    expect(stale.body.code).toBe('version_mismatch');
    const gone = await t.call('DELETE', `/attachments/${a.id}`, { as: managesHere });
    expect(gone.status).toBe(200);
    expect(gone.body).toMatchObject({ status: 'deleted', version: 2 });
    expect(gone.body.deletedAt).not.toBeNull();
    expect(stored(a.id)).toBe(false);
    expect(await sql(t, `select content_removed_at is not null as removed from files.attachments where id = $1`, [a.id])).toEqual([{ removed: true }]);
    expect((await t.call('GET', `/attachments/${a.id}`, { as: uploader })).status).toBe(404);
    expect((await t.call('DELETE', `/attachments/${a.id}`, { as: uploader })).status).toBe(404);
    const own = await t.call('DELETE', `/attachments/${b.id}`, { as: uploader });
    expect(own.status).toBe(200);
    const events = (await outboxEvents(t, 'files')).filter((e) => e.aggregate_id === a.id);
    expect(events.map((e) => e.type)).toEqual(['attachment.uploaded', 'attachment.deleted']);
    expect(events[1].payload.data.previous).toMatchObject({ status: 'active', deletedAt: null });
    expect(events[1].payload.actor).toEqual({ type: 'user', id: 'usr_mgr' });
  });

  it('lists what attachments.read reaches, with filters, and /me/attachments what the caller uploaded or concerns them', async () => {
    const here = await replicaLocation(t);
    const there = await replicaLocation(t);
    const mine = await uploadedPng(t, { locationId: here }, uploader);
    const theirs = await uploadedPng(t, { locationId: there, employeeId: 'emp_concerned' }, stranger);
    const readsHere = person({ 'attachments.read': [{ type: 'locations', ids: [here] }] });
    const listed = await t.call('GET', '/attachments?limit=200', { as: readsHere });
    expect(listed.body.data.map((x: { id: string }) => x.id)).toEqual([mine.id]);
    const outOfReach = await t.call('GET', `/attachments?locationId=${there}`, { as: readsHere });
    expect(outOfReach.body.code).toBe('out_of_reach');
    // an employee set: the files about its employees, wherever they are
    const readsEmployee = person({ 'attachments.read': [{ type: 'employee_set', ids: ['emp_concerned'] }] });
    const aboutThem = (await t.call('GET', '/attachments?limit=200', { as: readsEmployee })).body.data;
    expect(aboutThem.length).toBeGreaterThan(0);
    expect(aboutThem.map((x: { id: string }) => x.id)).toContain(theirs.id);
    expect(aboutThem.every((x: { employeeId: string }) => x.employeeId === 'emp_concerned')).toBe(true);
    expect((await t.call('GET', `/attachments?locationId=${there}&limit=200`, { as: readsEmployee })).body.data.map((x: { id: string }) => x.id)).toEqual([theirs.id]);
    expect((await t.call('GET', `/attachments?locationId=${here}&limit=200`, { as: readsEmployee })).body.data).toEqual([]);
    expect((await t.call('GET', `/attachments/${theirs.id}`, { as: readsEmployee })).status).toBe(200);
    expect((await t.call('GET', `/attachments/${mine.id}`, { as: readsEmployee })).status).toBe(404);
    const byEmployee = await t.call('GET', '/attachments?employeeId=emp_concerned&limit=200');
    expect(byEmployee.body.data.map((x: { id: string }) => x.id)).toContain(theirs.id);
    expect(byEmployee.body.data.every((x: { employeeId: string }) => x.employeeId === 'emp_concerned')).toBe(true);
    const byUploader = await t.call('GET', '/attachments?uploadedBy=usr_up&contentType=image/png&limit=200');
    expect(byUploader.body.data.every((x: { uploadedBy: { id: string } }) => x.uploadedBy.id === 'usr_up')).toBe(true);
    const noPermission = await t.call('GET', '/attachments', { as: stranger });
    expect(noPermission.status).toBe(403);
    const me = await t.call('GET', '/me/attachments?limit=200', { as: employee });
    expect(me.body.data.map((x: { id: string }) => x.id)).toContain(theirs.id);
    expect(me.body.data.map((x: { id: string }) => x.id)).not.toContain(mine.id);
    const meUploader = await t.call('GET', '/me/attachments?limit=200', { as: uploader });
    expect(meUploader.body.data.map((x: { id: string }) => x.id)).toContain(mine.id);
    expect(meUploader.body.data.every((x: { uploadedBy: { id: string } }) => x.uploadedBy.id === 'usr_up')).toBe(true);
  });
});

describe('removing the bytes of a deleted file', () => {
  it('keeps the delete when the storage fails and removes the bytes later', async () => {
    const a = await uploadedPng(t);
    const file = path.join(dir, 'attachments', a.id);
    // the storage cannot remove what is now a directory
    fs.rmSync(file);
    fs.mkdirSync(file);
    fs.writeFileSync(path.join(file, 'x'), 'x');
    const res = await t.call('DELETE', `/attachments/${a.id}`);
    expect(res.status).toBe(200);
    expect(await sql(t, `select status, content_removed_at from files.attachments where id = $1`, [a.id])).toEqual([{ status: 'deleted', content_removed_at: null }]);
    fs.rmSync(file, { recursive: true });
    fs.writeFileSync(file, PNG);
    await t.svc.worker('attachment-content-removal').runOnce();
    expect(await sql(t, `select content_removed_at is not null as removed from files.attachments where id = $1`, [a.id])).toEqual([{ removed: true }]);
    expect(fs.existsSync(file)).toBe(false);
  });
});

describe('bytes stored but never recorded (the process died in between)', () => {
  const intents = async (ids: string[]) => (await sql(t, `select id from files.upload_intents where id = any($1) order by id`, [ids])).map((r: { id: string }) => r.id);
  /** what a process that died after storing the bytes leaves: the intent (started `hoursAgo`) and the bytes */
  const leftBehind = async (id: string, hoursAgo: number) => {
    await sql(t, `insert into files.upload_intents (id, storage_key, started_at) values ($1, $2, now() - make_interval(hours => $3))`, [id, `attachments/${id}`, hoursAgo]);
    fs.mkdirSync(path.join(dir, 'attachments'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'attachments', id), PNG);
    fs.writeFileSync(path.join(dir, 'attachments', `${id}.sha256`), sha(PNG));
  };

  it('an upload recorded or refused leaves no intent behind', async () => {
    const a = await uploadedPng(t);
    const refused = await upload(t, [{ fileName: 'x.exe', contentType: 'application/octet-stream', content: Buffer.from('MZ\x90\x00 not allowed here') }]);
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(await sql(t, `select count(*)::int as n from files.upload_intents`)).toEqual([{ n: 0 }]);
    expect(stored(a.id)).toBe(true);
  });

  it('the sweeper removes them once older than any upload takes; an upload under way and recorded bytes stay', async () => {
    await leftBehind('att_ORPHAN1', 7);
    await leftBehind('att_INFLIGHT', 1);
    // recorded, but its intent was left (a record written by another path): only the intent goes
    const kept = await uploadedPng(t);
    await sql(t, `insert into files.upload_intents (id, storage_key, started_at) values ($1, $2, now() - interval '7 hours')`, [kept.id, `attachments/${kept.id}`]);
    await t.svc.worker('upload-sweep').runOnce();
    expect(stored('att_ORPHAN1')).toBe(false);
    expect(fs.existsSync(path.join(dir, 'attachments', 'att_ORPHAN1.sha256'))).toBe(false);
    expect(stored('att_INFLIGHT')).toBe(true);
    expect(stored(kept.id)).toBe(true);
    expect((await t.call('GET', `/attachments/${kept.id}/content`)).status).toBe(200);
    expect(await intents(['att_ORPHAN1', 'att_INFLIGHT', kept.id])).toEqual(['att_INFLIGHT']);
  });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { filesService } from '../src';
import { outboxEvents, person, startTestService, system, type TestService } from '@bop/test-support';
import type { Principal } from '@bop/shared';
import { replicaLocation, uploadedPng } from './fixtures';

let t: TestService;
let dir: string;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bop-files-internal-'));
  t = await startTestService(filesService, { FILES_DIR: dir, STORAGE_S3_BUCKET: '' });
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

let n = 0;
/** A person of their own (an id no other test uses) with the given permissions. */
function someone(perms: Parameters<typeof person>[0] = {}, employeeId: string | null = null): Principal {
  n += 1;
  return person(perms, { id: `usr_int${n}`, userId: `usr_int${n}`, employeeId });
}

const resolve = (body: Record<string, unknown>, as: Principal = system) => t.call('POST', '/internal/attachments:resolve', { as, body });
const concern = (id: string, body: Record<string, unknown>, as: Principal = system) => t.call('POST', `/internal/attachments/${id}:concern`, { as, body });
const exportData = (body: Record<string, unknown>, as: Principal = system) => t.call('POST', '/internal/personal-data:export', { as, body });
const remove = (id: string, as: Principal) => t.call('DELETE', `/attachments/${id}`, { as });

describe('POST /internal/attachments:resolve', () => {
  it('answers the active attachments asked for, in the order asked; deleted and unknown ones are absent', async () => {
    const uploader = someone();
    const a = await uploadedPng(t, { description: 'first' }, uploader);
    const b = await uploadedPng(t, { employeeId: 'emp_res1' }, uploader);
    const gone = await uploadedPng(t, {}, uploader);
    expect((await remove(gone.id, uploader)).status).toBe(200);

    const r = await resolve({ ids: [b.id, 'att_unknown', gone.id, a.id, b.id] });
    expect(r.status).toBe(200);
    expect(r.body.data.map((x: { id: string }) => x.id)).toEqual([b.id, a.id]);
    const { visibleToViewer, ...dto } = r.body.data[1];
    expect(visibleToViewer).toBe(true);
    expect(dto).toEqual((await t.call('GET', `/attachments/${a.id}`)).body);
    expect(r.body.data[0]).toMatchObject({ employeeId: 'emp_res1', visibleToViewer: true, uploadedBy: { type: 'user', id: uploader.id } });

    expect((await resolve({ ids: [] })).body).toEqual({ data: [] });
  });

  it('with a viewer, says what GET /attachments/{id} would show them', async () => {
    const loc = await replicaLocation(t);
    const other = await replicaLocation(t);
    const uploader = someone();
    const atLoc = await uploadedPng(t, { locationId: loc }, uploader);
    const atOther = await uploadedPng(t, { locationId: other }, uploader);
    const companyWide = await uploadedPng(t, {}, uploader);
    const concerning = await uploadedPng(t, { employeeId: 'emp_viewer' }, uploader);
    const ids = [atLoc.id, atOther.id, companyWide.id, concerning.id];

    const viewers: Array<[string, Principal, boolean[]]> = [
      ['the uploader', uploader, [true, true, true, true]],
      ['the employee concerned, without permissions', someone({}, 'emp_viewer'), [false, false, false, true]],
      ['attachments.read at one location', someone({ 'attachments.read': [{ type: 'locations', ids: [loc] }] }), [true, false, false, false]],
      ['attachments.read at Everyone', someone({ 'attachments.read': [{ type: 'everyone' }] }), [true, true, true, true]],
      ['attachments.manage only', someone({ 'attachments.manage': [{ type: 'everyone' }] }), [false, false, false, false]],
    ];
    for (const [who, viewer, expected] of viewers) {
      const r = await resolve({ ids, viewer });
      expect(r.status).toBe(200);
      expect([who, r.body.data.map((x: { visibleToViewer: boolean }) => x.visibleToViewer)]).toEqual([who, expected]);
      const direct = await Promise.all(ids.map(async (id) => (await t.call('GET', `/attachments/${id}`, { as: viewer })).status === 200));
      expect([who, direct]).toEqual([who, expected]);
    }
  });

  it('refuses a malformed request or viewer with field paths', async () => {
    const bad = await resolve({ ids: 'att_1' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { path: string }) => e.path)).toEqual(['ids']);
    const extra = await resolve({ ids: [], other: true });
    expect(extra.status).toBe(422);

    // without a kind, the viewer would read as the platform (reach Everyone)
    const noKind = await resolve({ ids: [], viewer: { id: 'usr_x', via: 'session' } });
    expect(noKind.status).toBe(422);
    expect(noKind.body.errors.map((e: { path: string }) => e.path)).toEqual(['viewer.kind']);
    const badReach = await resolve({ ids: [], viewer: { kind: 'user', via: 'session', id: 'usr_x', permissions: { 'attachments.read': [{ type: 'locations' }] } } });
    expect(badReach.status).toBe(422);
    expect(badReach.body.errors[0].path).toMatch(/^viewer\.permissions/);
  });

  it('answers the platform only', async () => {
    const r = await resolve({ ids: [] }, person());
    expect(r.status).toBe(403);
    expect(r.body.code).toBe('forbidden');
  });
});

describe('POST /internal/attachments/{id}:concern', () => {
  it('sets and clears the employee a file concerns, who may then read it; the version moves; no event', async () => {
    const uploader = someone();
    const employee = someone({}, 'emp_conc1');
    const att = await uploadedPng(t, {}, uploader);
    expect((await t.call('GET', `/attachments/${att.id}`, { as: employee })).status).toBe(404);

    const set = await concern(att.id, { employeeId: 'emp_conc1' });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ id: att.id, employeeId: 'emp_conc1', version: 2, status: 'active' });
    const seen = await t.call('GET', `/attachments/${att.id}`, { as: employee });
    expect(seen.status).toBe(200);
    expect(seen.body).toEqual(set.body);
    expect((await t.call('GET', `/attachments/${att.id}/content`, { as: employee })).status).toBe(200);

    // the same employee again changes nothing
    expect((await concern(att.id, { employeeId: 'emp_conc1' })).body.version).toBe(2);

    const cleared = await concern(att.id, { employeeId: null });
    expect(cleared.body).toMatchObject({ employeeId: null, version: 3 });
    expect((await t.call('GET', `/attachments/${att.id}`, { as: employee })).status).toBe(404);

    const events = (await outboxEvents(t, 'files')).filter((e) => e.aggregate_id === att.id);
    expect(events.map((e) => e.type)).toEqual(['attachment.uploaded']);
  });

  it('an unknown or deleted attachment → 404', async () => {
    const uploader = someone();
    const att = await uploadedPng(t, {}, uploader);
    expect((await remove(att.id, uploader)).status).toBe(200);
    const deleted = await concern(att.id, { employeeId: 'emp_x' });
    expect(deleted.status).toBe(404);
    expect(deleted.body.code).toBe('not_found');
    expect((await concern('att_unknown', { employeeId: 'emp_x' })).status).toBe(404);
  });

  it('refuses a body without employeeId, and an id that is not an employee', async () => {
    const att = await uploadedPng(t, {}, someone());
    const missing = await concern(att.id, {});
    expect(missing.status).toBe(422);
    expect(missing.body.errors.map((e: { path: string }) => e.path)).toEqual(['employeeId']);
    const notEmployee = await concern(att.id, { employeeId: 'usr_1' });
    expect(notEmployee.status).toBe(422);
    expect(notEmployee.body.errors).toEqual([{ path: 'employeeId', message: 'usr_1 is not an employee id.' }]);
    expect((await t.call('GET', `/attachments/${att.id}`)).body.version).toBe(1);
  });

  it('answers the platform only', async () => {
    const att = await uploadedPng(t, {}, someone());
    expect((await concern(att.id, { employeeId: 'emp_x' }, person())).status).toBe(403);
  });
});

describe('POST /internal/personal-data:export', () => {
  it('answers the active files the user uploaded and those concerning the employee, as their details', async () => {
    const me = someone({}, 'emp_exp1');
    const colleague = someone();
    const mine = await uploadedPng(t, { description: 'my receipt' }, me);
    const mineDeleted = await uploadedPng(t, {}, me);
    expect((await remove(mineDeleted.id, me)).status).toBe(200);
    const aboutMe = await uploadedPng(t, { employeeId: 'emp_exp1' }, colleague);
    const aboutMeDeleted = await uploadedPng(t, { employeeId: 'emp_exp1' }, colleague);
    expect((await remove(aboutMeDeleted.id, colleague)).status).toBe(200);
    await uploadedPng(t, {}, colleague);

    const r = await exportData({ userId: me.id, employeeId: 'emp_exp1' });
    expect(r.status).toBe(200);
    expect(r.body.service).toBe('files');
    expect(r.body.datasets.map((d: { name: string }) => d.name)).toEqual(['attachments-uploaded', 'attachments-concerning-you']);
    const [uploaded, concerning] = r.body.datasets;
    expect(uploaded.description).toEqual(expect.any(String));
    expect(uploaded.rows).toEqual([(await t.call('GET', `/attachments/${mine.id}`)).body]);
    expect(concerning.rows).toEqual([(await t.call('GET', `/attachments/${aboutMe.id}`)).body]);
  });

  it('a null id gives an empty dataset', async () => {
    const me = someone({}, 'emp_exp2');
    await uploadedPng(t, { employeeId: 'emp_exp2' }, me);
    const noEmployee = await exportData({ userId: me.id, employeeId: null });
    expect(noEmployee.body.datasets.map((d: { rows: unknown[] }) => d.rows.length)).toEqual([1, 0]);
    const noUser = await exportData({ userId: null, employeeId: 'emp_exp2' });
    expect(noUser.body.datasets.map((d: { rows: unknown[] }) => d.rows.length)).toEqual([0, 1]);
    const nobody = await exportData({ userId: null, employeeId: null });
    expect(nobody.body).toEqual({ service: 'files', datasets: [expect.objectContaining({ rows: [] }), expect.objectContaining({ rows: [] })] });
  });

  it('refuses a body without both ids, and any caller but the platform', async () => {
    const bad = await exportData({ userId: 'usr_1' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { path: string }) => e.path)).toEqual(['employeeId']);
    expect((await exportData({ userId: null, employeeId: null }, person())).status).toBe(403);
  });
});

describe('POST /internal/attachments', () => {
  const store = (body: Record<string, unknown>, as: Principal = system) => t.call('POST', '/internal/attachments', { as, body });
  const csv = Buffer.from('businessDay,netSales\r\n2026-11-16,45.00\r\n', 'utf8');

  it('stores a generated file as uploaded by the person who asked for it: they download it, others do not see it', async () => {
    const asker = someone();
    const stranger = someone();
    const r = await store({ fileName: 'sales.csv', contentType: 'text/csv', contentBase64: csv.toString('base64'), description: 'Sales by day', uploadedBy: { type: 'user', id: asker.id } });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ fileName: 'sales.csv', contentType: 'text/csv', size: csv.length, description: 'Sales by day', locationId: null, uploadedBy: { type: 'user', id: asker.id } });
    expect(fs.readFileSync(path.join(dir, 'attachments', r.body.id))).toEqual(csv);
    expect((await t.call('GET', `/attachments/${r.body.id}`, { as: asker })).status).toBe(200);
    expect((await t.call('GET', `/attachments/${r.body.id}`, { as: stranger })).status).toBe(404);
    expect((await outboxEvents(t, 'files', { type: 'attachment.uploaded', aggregateId: r.body.id })).length).toBe(1);
  });

  it('refuses another type, a missing uploader, and any caller but the platform', async () => {
    const png = await store({ fileName: 'x.png', contentType: 'image/png', contentBase64: csv.toString('base64'), uploadedBy: { type: 'user', id: 'usr_x' } });
    expect(png.status).toBe(422);
    expect(png.body.errors.map((e: { path: string }) => e.path)).toEqual(['contentType']);
    const nobody = await store({ fileName: 'x.csv', contentType: 'text/csv', contentBase64: csv.toString('base64') });
    expect(nobody.body.errors.map((e: { path: string }) => e.path)).toEqual(['uploadedBy']);
    expect((await store({ fileName: 'x.csv', contentType: 'text/csv', contentBase64: csv.toString('base64'), uploadedBy: { type: 'user', id: 'usr_x' } }, person())).status).toBe(403);
  });
});

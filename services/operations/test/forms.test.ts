import { outboxPayloads, person, startTestService, system, type TestService } from '@bop/test-support';
import type { Principal } from '@bop/shared';
import { operationsService } from '../src';
import { brandAudit, formName, formsLocation, localPerson, openingChecklist } from './forms-fixtures';

let t: TestService;
beforeAll(async () => {
  t = await startTestService(operationsService);
});
afterAll(async () => {
  await t?.close();
});

const call = (method: string, path: string, body?: unknown, as?: Principal, headers?: Record<string, string>) => t.call(method, path, { body, as, headers });
const paths = (r: { body: { errors?: Array<{ path: string }> } }) => (r.body.errors ?? []).map((e) => e.path);

async function newForm(body: Record<string, unknown> = openingChecklist()) {
  const r = await call('POST', '/forms', body);
  expect(r.status).toBe(201);
  return r.body;
}

describe('POST /forms and GET /forms/{id}', () => {
  it('creates a checklist with sections and questions, defaults filled in; gets it back; version 1', async () => {
    const body = openingChecklist();
    const r = await call('POST', '/forms', body);
    expect(r.status).toBe(201);
    expect(r.headers.get('location')).toBe(`/api/v1/forms/${r.body.id}`);
    expect(r.body).toMatchObject({ name: body.name, kind: 'checklist', scored: false, passMark: null, locationIds: [], questionCount: 4, status: 'active', archivedAt: null, version: 1, externalId: null });
    expect(r.body.id).toMatch(/^frm_/);
    expect(r.body.sections[0].questions[0]).toEqual({
      id: 'cooler',
      type: 'temperature',
      text: 'Walk-in cooler temperature',
      help: null,
      required: true,
      weight: '1',
      critical: false,
      allowNotApplicable: false,
      correctiveAction: { priority: 'high', dueWithinHours: 4 },
      unit: 'C',
      min: '0',
      max: '5',
    });
    expect(r.body.sections[1].questions[1]).toMatchObject({ id: 'notes', type: 'text', required: false, maxLength: 2000 });
    const got = await call('GET', `/forms/${r.body.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(r.body);
    expect(got.headers.get('etag')).toBe('"1"');
  });

  it('an audit is scored by default and keeps its pass mark', async () => {
    const audit = await newForm(brandAudit());
    expect(audit).toMatchObject({ kind: 'audit', scored: true, passMark: '80', questionCount: 4 });
    expect(audit.sections[1].questions[1].correctiveAction).toEqual({ priority: 'medium', dueWithinHours: 24 });
  });

  it('refuses bad definitions with field paths (422), never a 500', async () => {
    const bad = await call('POST', '/forms', {
      name: ' ',
      kind: 'survey',
      sections: [{ title: 'A', questions: [{ type: 'temperature', text: 'T', min: '1', max: 'hot' }, { type: 'dial', text: 'D' }] }],
      extra: true,
    });
    expect(bad.status).toBe(422);
    expect(bad.body.code).toBe('validation_error');
    expect(paths(bad)).toEqual(expect.arrayContaining(['name', 'kind', 'extra', 'sections[0].questions[0].max', 'sections[0].questions[0].unit', 'sections[0].questions[1].type']));

    const rules = await call('POST', '/forms', {
      name: formName('Bad'),
      kind: 'audit',
      scored: false,
      passMark: '101',
      sections: [{ title: 'A', questions: [{ id: 'x', type: 'number', text: 'N', min: '5', max: '1' }, { id: 'x', type: 'yes_no', text: 'Y' }] }],
    });
    expect(rules.status).toBe(422);
    expect(paths(rules)).toEqual(['passMark']);
    const consistent = await call('POST', '/forms', {
      name: formName('Bad'),
      kind: 'audit',
      scored: false,
      sections: [{ title: 'A', questions: [{ id: 'x', type: 'number', text: 'N', min: '5', max: '1' }, { id: 'x', type: 'yes_no', text: 'Y' }] }],
    });
    expect(paths(consistent)).toEqual(['scored', 'sections[0].questions[0].max', 'sections[0].questions[1].id']);

    const nul = await call('POST', '/forms', { ...openingChecklist(), name: 'a\u0000b' });
    expect(nul.status).toBe(422);
    expect(paths(nul)).toEqual(['name']);
    const huge = await call('POST', '/forms', { ...openingChecklist(), sections: [{ title: 'A', questions: [{ type: 'number', text: 'N', max: '1'.repeat(400) }] }] });
    expect(huge.status).toBe(422);
    expect(paths(huge)).toEqual(['sections[0].questions[0].max']);
    const many = await call('POST', '/forms', { ...openingChecklist(), sections: Array.from({ length: 3 }, (_, i) => ({ title: `S${i}`, questions: Array.from({ length: 200 }, () => ({ type: 'yes_no', text: 'Y' })) })) });
    expect(many.status).toBe(422);
    expect(paths(many)).toEqual(['sections']);
  });

  it('refuses unknown or archived locations (422) and an externalId another form holds (409)', async () => {
    const archived = await formsLocation(t, { status: 'archived' });
    const r = await call('POST', '/forms', openingChecklist({ locationIds: ['loc_nowhere', archived] }));
    expect(r.status).toBe(422);
    expect(r.body.errors).toEqual([
      { path: 'locationIds[0]', message: 'No location loc_nowhere.' },
      { path: 'locationIds[1]', message: `Location ${archived} is archived; it takes no new forms.` },
    ]);
    const ext = `EXT-${Date.now()}`;
    await newForm(openingChecklist({ externalId: ext }));
    const twin = await call('POST', '/forms', openingChecklist({ externalId: ext }));
    expect(twin.status).toBe(409);
    expect(paths(twin)).toEqual(['externalId']);
  });

  it('writes need forms.manage at reach Everyone; reads follow the locations a form is used at', async () => {
    const here = await formsLocation(t);
    const there = await formsLocation(t);
    const local = localPerson([here]);
    const manager = person({ 'forms.manage': [{ type: 'locations', ids: [here] }] });
    expect((await call('POST', '/forms', openingChecklist(), manager)).body.code).toBe('out_of_reach');
    expect((await call('POST', '/forms', openingChecklist(), local)).body.code).toBe('forbidden');

    const everywhere = await newForm();
    const atHere = await newForm(openingChecklist({ locationIds: [here] }));
    const atThere = await newForm(openingChecklist({ locationIds: [there] }));
    expect((await call('GET', `/forms/${atHere.id}`, undefined, local)).status).toBe(200);
    expect((await call('GET', `/forms/${everywhere.id}`, undefined, local)).status).toBe(200);
    const hidden = await call('GET', `/forms/${atThere.id}`, undefined, local);
    expect(hidden.status).toBe(403);
    expect(hidden.body.code).toBe('out_of_reach');
    const listed = (await call('GET', '/forms?limit=200', undefined, local)).body.data.map((f: { id: string }) => f.id);
    expect(listed).toEqual(expect.arrayContaining([everywhere.id, atHere.id]));
    expect(listed).not.toContain(atThere.id);
    expect((await call('GET', `/forms?locationId=${there}`, undefined, local)).body.code).toBe('out_of_reach');
    expect((await call('GET', '/forms/frm_nothing')).status).toBe(404);
  });

  it('lists by kind, status, location and externalId, paging by cursor', async () => {
    const loc = await formsLocation(t);
    const a = await newForm(openingChecklist({ locationIds: [loc] }));
    const b = await newForm(brandAudit({ locationIds: [loc] }));
    const byLoc = await call('GET', `/forms?locationId=${loc}&limit=200`);
    expect(byLoc.body.data.map((f: { id: string }) => f.id)).toEqual(expect.arrayContaining([a.id, b.id]));
    const audits = (await call('GET', `/forms?locationId=${loc}&kind=audit&limit=200`)).body.data;
    expect(audits.map((f: { id: string }) => f.id)).toContain(b.id);
    expect(audits.every((f: { kind: string }) => f.kind === 'audit')).toBe(true);
    const first = await call('GET', '/forms?limit=1');
    expect(first.body).toMatchObject({ hasMore: true });
    const second = await call('GET', `/forms?limit=1&cursor=${first.body.nextCursor}`);
    expect(second.body.data[0].id > first.body.data[0].id).toBe(true);
    expect((await call('GET', '/forms?kind=poll')).status).toBe(400);
  });
});

describe('form versions', () => {
  it('PATCH makes a new version (If-Match guards it); the earlier version stays readable', async () => {
    const form = await newForm();
    const stale = await call('PATCH', `/forms/${form.id}`, { name: 'Renamed' }, undefined, { 'If-Match': '"7"' });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('version_mismatch');

    const sections = [{ id: 'only', title: 'Only', questions: [{ id: 'cooler', type: 'temperature', text: 'Cooler', unit: 'C', max: '4' }] }];
    const changed = await call('PATCH', `/forms/${form.id}`, { sections }, undefined, { 'If-Match': '"1"' });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ version: 2, questionCount: 1, name: form.name });
    expect(changed.body.sections[0].questions[0]).toMatchObject({ id: 'cooler', max: '4', min: null });

    const v1 = await call('GET', `/forms/${form.id}?version=1`);
    expect(v1.body).toEqual(form);
    expect((await call('GET', `/forms/${form.id}?version=2`)).body).toEqual(changed.body);
    expect((await call('GET', `/forms/${form.id}?version=3`)).status).toBe(404);
    expect((await call('GET', `/forms/${form.id}?version=zero`)).status).toBe(400);

    // the same again changes nothing (no new version)
    expect((await call('PATCH', `/forms/${form.id}`, { sections })).body.version).toBe(2);
    expect((await call('PATCH', `/forms/${form.id}`, { passMark: '50' })).body.errors).toEqual([{ path: 'passMark', message: 'Only a scored form has a pass mark.' }]);
    expect((await call('PATCH', `/forms/${form.id}`, { scored: true, passMark: '50' })).body).toMatchObject({ version: 3, scored: true, passMark: '50' });
    expect((await call('PATCH', '/forms/frm_nothing', { name: 'x' })).status).toBe(404);
  });

  it('DELETE archives (history kept); archiving again changes nothing; PATCH status active restores it', async () => {
    const form = await newForm();
    const archived = await call('DELETE', `/forms/${form.id}`);
    expect(archived.body).toMatchObject({ status: 'archived', version: 2 });
    expect(archived.body.archivedAt).toEqual(expect.any(String));
    expect((await call('DELETE', `/forms/${form.id}`)).body).toMatchObject({ status: 'archived', version: 2, archivedAt: archived.body.archivedAt });
    expect((await call('GET', `/forms?status=archived&limit=200`)).body.data.map((f: { id: string }) => f.id)).toContain(form.id);
    const restored = await call('PATCH', `/forms/${form.id}`, { status: 'active' });
    expect(restored.body).toMatchObject({ status: 'active', archivedAt: null, version: 3 });

    // a change event per change (the project's own types), data.object the form as the API returns it; archiving again records none
    const events = await outboxPayloads(t, 'operations', { aggregateId: form.id });
    expect(events.map((e) => e.type)).toEqual(['form.created', 'form.archived', 'form.updated']);
    expect(events[0]).toMatchObject({ locationId: null, data: { object: form } });
    expect(events[1].data).toEqual({ object: archived.body, previous: { status: 'active', archivedAt: null } });
    expect(events[2].data.object).toEqual(restored.body);
  });
  it('kind may change until the form has submissions (a form made an audit is scored); then 409', async () => {
    const loc = await formsLocation(t);
    const form = await newForm();
    const audit = await call('PATCH', `/forms/${form.id}`, { kind: 'audit', passMark: '75' });
    expect(audit.body).toMatchObject({ kind: 'audit', scored: true, passMark: '75', version: 2 });
    expect(paths(await call('PATCH', `/forms/${form.id}`, { scored: false }))).toEqual(['scored', 'passMark']);
    const answers = [{ questionId: 'cooler', value: '2' }, { questionId: 'seals', value: true }, { questionId: 'floor', value: 'clean' }];
    expect((await call('POST', '/form-submissions', { formId: form.id, locationId: loc, completedAt: '2026-01-05T08:00:00Z', answers })).status).toBe(201);
    const locked = await call('PATCH', `/forms/${form.id}`, { kind: 'inspection' });
    expect(locked.status).toBe(409);
    expect(paths(locked)).toEqual(['kind']);
    expect((await call('PATCH', `/forms/${form.id}`, { name: 'Still an audit' })).body).toMatchObject({ kind: 'audit', version: 3 });
  });
});

describe('PUT /forms/external/{externalId}', () => {
  it('creates (201), replaces (200, a new version) and answers the same content unchanged (no version); GET by externalId', async () => {
    const ext = `HQ-${Date.now()}`;
    const body = (({ name, kind, sections }) => ({ name, kind, sections }))(openingChecklist());
    const created = await call('PUT', `/forms/external/${ext}`, body);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ externalId: ext, version: 1 });
    const same = await call('PUT', `/forms/external/${ext}`, body);
    expect(same.status).toBe(200);
    expect(same.body).toEqual(created.body);
    const replaced = await call('PUT', `/forms/external/${ext}`, { ...body, name: `${body.name} v2` });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ id: created.body.id, version: 2, name: `${body.name} v2` });
    expect((await call('GET', `/forms/external/${ext}`)).body).toEqual(replaced.body);
    expect((await call('GET', '/forms/external/none-such')).status).toBe(404);
    // a sync that says archived archives; one that says nothing of status keeps it archived
    expect((await call('PUT', `/forms/external/${ext}`, { ...body, status: 'archived' })).body).toMatchObject({ status: 'archived', version: 3 });
    expect((await call('PUT', `/forms/external/${ext}`, body)).body).toMatchObject({ status: 'archived', version: 3, name: body.name });
    // created, replaced, archived; the unchanged sends record nothing
    const events = await outboxPayloads(t, 'operations', { aggregateId: created.body.id });
    expect(events.map((e) => [e.type, e.data.object.id, e.data.object.version])).toEqual([
      ['form.created', created.body.id, 1],
      ['form.updated', created.body.id, 2],
      ['form.archived', created.body.id, 3],
    ]);
    expect(events[1].data.object).toEqual(replaced.body);
    const bad = await call('PUT', `/forms/external/${ext}`, { ...body, kind: undefined });
    expect(bad.status).toBe(422);
    expect(paths(bad)).toEqual(['kind']);
  });

  it('concurrent first PUTs of one externalId make one form', async () => {
    const ext = `RACE-${Date.now()}`;
    const body = (({ name, kind, sections }) => ({ name, kind, sections }))(openingChecklist());
    const answers = await Promise.all([1, 2, 3, 4].map(() => call('PUT', `/forms/external/${ext}`, body)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 201]);
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
    expect(new Set(answers.map((a) => a.body.version))).toEqual(new Set([1]));
  });
});

describe('POST /internal/forms:states', () => {
  it('answers the current state of the forms named; unknown ids are absent; the platform only', async () => {
    const form = await newForm();
    await call('DELETE', `/forms/${form.id}`);
    const r = await call('POST', '/internal/forms:states', { ids: [form.id, 'frm_unknown'] }, system);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ data: [{ id: form.id, name: form.name, kind: 'checklist', status: 'archived', version: 2 }] });
    expect((await call('POST', '/internal/forms:states', { ids: [] }, system)).status).toBe(422);
    expect((await call('POST', '/internal/forms:states', { ids: [form.id] })).status).toBe(403);
  });
});

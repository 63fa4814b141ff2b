import { fixedClock, useClock, type Principal } from '@bop/shared';
import { integration, outboxPayloads, person, startTestService, type TestService } from '@bop/test-support';
import { operationsService } from '../src';
import { formsEmployee, formsLocation, localPerson, openingChecklist } from './forms-fixtures';

let t: TestService;
beforeAll(async () => {
  t = await startTestService(operationsService);
});
afterAll(async () => {
  await t?.close();
});
const NOW = '2026-12-01T12:00:00.000Z';
beforeEach(() => useClock(fixedClock(NOW)));
afterEach(() => useClock({ now: () => new Date() }));

const call = (method: string, path: string, body?: unknown, as?: Principal, headers?: Record<string, string>) => t.call(method, path, { body, as, headers });
const paths = (r: { body: { errors?: Array<{ path: string }> } }) => (r.body.errors ?? []).map((e) => e.path);

async function newAction(body: Record<string, unknown>, as?: Principal) {
  const r = await call('POST', '/corrective-actions', { title: 'Replace the cooler door seal', ...body }, as);
  expect(r.status).toBe(201);
  return r.body;
}

describe('POST /corrective-actions', () => {
  it('creates an open action by hand (assignee, due date, priority); corrective_action.created', async () => {
    const loc = await formsLocation(t);
    const emp = await formsEmployee(t, loc);
    const r = await call('POST', '/corrective-actions', { locationId: loc, title: 'Replace the cooler door seal', description: 'Torn at the hinge', priority: 'urgent', assigneeId: emp, dueAt: '2026-12-02T09:00:00Z' });
    expect(r.status).toBe(201);
    expect(r.headers.get('location')).toBe(`/api/v1/corrective-actions/${r.body.id}`);
    expect(r.body).toEqual({
      id: expect.stringMatching(/^cra_/),
      locationId: loc,
      title: 'Replace the cooler door seal',
      description: 'Torn at the hinge',
      status: 'open',
      priority: 'urgent',
      assigneeId: emp,
      dueAt: '2026-12-02T09:00:00.000Z',
      overdue: false,
      source: 'manual',
      submissionId: null,
      formId: null,
      questionId: null,
      failureReason: null,
      resolution: null,
      resolutionAttachmentIds: [],
      startedAt: null,
      closedAt: null,
      closedBy: null,
      createdBy: { type: 'user', id: 'usr_test' },
      version: 1,
      createdAt: NOW,
      updatedAt: NOW,
    });
    const [created] = await outboxPayloads(t, 'operations', { type: 'corrective_action.created', aggregateId: r.body.id });
    expect(created).toMatchObject({ type: 'corrective_action.created', locationId: loc, actor: { type: 'user', id: 'usr_test' }, data: { object: r.body } });
    expect((await call('GET', `/corrective-actions/${r.body.id}`)).body).toEqual(r.body);
  });

  it('links a failed answer of a submission at the same location', async () => {
    const loc = await formsLocation(t);
    const other = await formsLocation(t);
    const form = (await call('POST', '/forms', openingChecklist())).body;
    const s = (await call('POST', '/form-submissions', { formId: form.id, locationId: loc, completedAt: '2026-12-01T08:00:00Z', answers: [{ questionId: 'cooler', value: '2' }, { questionId: 'seals', value: false }, { questionId: 'floor', value: 'clean' }] })).body;
    const linked = await newAction({ locationId: loc, submissionId: s.id, questionId: 'seals' });
    expect(linked).toMatchObject({ source: 'manual', submissionId: s.id, formId: form.id, questionId: 'seals' });
    const wrong = await call('POST', '/corrective-actions', { locationId: other, title: 'X', submissionId: s.id, questionId: 'nope' });
    expect(wrong.status).toBe(422);
    expect(paths(wrong)).toEqual(['submissionId', 'questionId']);
    expect(paths(await call('POST', '/corrective-actions', { locationId: loc, title: 'X', questionId: 'seals' }))).toEqual(['questionId']);
    expect(paths(await call('POST', '/corrective-actions', { locationId: loc, title: 'X', submissionId: 'fsb_nothing' }))).toEqual(['submissionId']);
  });

  it('refuses bad fields with paths, unknown or archived locations, and assignees who are unknown or not employed', async () => {
    const loc = await formsLocation(t);
    const gone = await formsEmployee(t, loc, { status: 'terminated' });
    const bad = await call('POST', '/corrective-actions', { locationId: loc, title: '', priority: 'asap', dueAt: '2026-12-02 09:00', colour: 'red' });
    expect(bad.status).toBe(422);
    expect(paths(bad).sort()).toEqual(['colour', 'dueAt', 'priority', 'title']);
    const archived = await formsLocation(t, { status: 'archived' });
    const refs = await call('POST', '/corrective-actions', { locationId: archived, title: 'X', assigneeId: gone });
    expect(refs.body.errors).toEqual([
      { path: 'locationId', message: `Location ${archived} is archived; it takes no new corrective actions.` },
      { path: 'assigneeId', message: `Employee ${gone} is terminated; assign someone employed.` },
    ]);
    expect((await call('POST', '/corrective-actions', { locationId: loc, title: 'X', assigneeId: 'emp_nobody' })).body.errors).toEqual([{ path: 'assigneeId', message: 'No employee emp_nobody.' }]);
    expect((await call('POST', '/corrective-actions', { locationId: loc, title: 'a\uD800b' })).status).toBe(422);
  });
});

describe('PATCH /corrective-actions/{id} and :close', () => {
  it('open → in_progress by PATCH, then closed with a resolution (final); corrective_action.closed', async () => {
    const loc = await formsLocation(t);
    const emp = await formsEmployee(t, loc);
    const a = await newAction({ locationId: loc });
    const stale = await call('PATCH', `/corrective-actions/${a.id}`, { priority: 'low' }, undefined, { 'If-Match': '"4"' });
    expect(stale.body.code).toBe('version_mismatch');

    useClock(fixedClock('2026-12-01T13:00:00Z'));
    const started = await call('PATCH', `/corrective-actions/${a.id}`, { status: 'in_progress', assigneeId: emp, priority: 'high', dueAt: '2026-12-01T18:00:00Z' }, undefined, { 'If-Match': '"1"' });
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({ status: 'in_progress', startedAt: '2026-12-01T13:00:00.000Z', assigneeId: emp, priority: 'high', dueAt: '2026-12-01T18:00:00.000Z', version: 2 });
    // nothing new: nothing written
    expect((await call('PATCH', `/corrective-actions/${a.id}`, { status: 'in_progress', priority: 'high' })).body.version).toBe(2);
    expect((await call('PATCH', `/corrective-actions/${a.id}`, { status: 'open' })).status).toBe(422);
    expect((await call('PATCH', `/corrective-actions/${a.id}`, { status: 'closed' })).status).toBe(422);
    // the change records corrective_action.updated (the project's own type) once; the unchanged PATCH none
    const updated = await outboxPayloads(t, 'operations', { type: 'corrective_action.updated', aggregateId: a.id });
    expect(updated).toHaveLength(1);
    expect(updated[0]).toMatchObject({ locationId: loc, data: { object: started.body, previous: { status: 'open', startedAt: null, assigneeId: null, priority: 'medium', dueAt: null } } });

    useClock(fixedClock('2026-12-01T17:00:00Z'));
    expect(paths(await call('POST', `/corrective-actions/${a.id}:close`, {}))).toEqual(['resolution']);
    const closed = await call('POST', `/corrective-actions/${a.id}:close`, { resolution: 'Seal replaced; the cooler holds 3 °C.' });
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({ status: 'closed', resolution: 'Seal replaced; the cooler holds 3 °C.', closedAt: '2026-12-01T17:00:00.000Z', closedBy: { type: 'user', id: 'usr_test' }, overdue: false, version: 3 });
    const [event] = await outboxPayloads(t, 'operations', { type: 'corrective_action.closed', aggregateId: a.id });
    expect(event).toMatchObject({ locationId: loc, data: { object: closed.body, previous: { status: 'in_progress', resolution: null, closedAt: null, closedBy: null } } });

    const again = await call('POST', `/corrective-actions/${a.id}:close`, { resolution: 'again' });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('conflict');
    expect((await call('PATCH', `/corrective-actions/${a.id}`, { title: 'Reopen?' })).status).toBe(409);
    expect((await call('POST', '/corrective-actions/cra_nothing:close', { resolution: 'x' })).status).toBe(404);
  });

  it('an open action closes directly; closing evidence is refused when listed twice', async () => {
    const loc = await formsLocation(t);
    const a = await newAction({ locationId: loc });
    expect(paths(await call('POST', `/corrective-actions/${a.id}:close`, { resolution: 'Done', attachmentIds: ['att_1', 'att_1'] }))).toEqual(['attachmentIds[1]']);
    // without the files service (operations run alone) attachments are taken as named
    const closed = await call('POST', `/corrective-actions/${a.id}:close`, { resolution: 'Done', attachmentIds: ['att_1'] });
    expect(closed.body).toMatchObject({ status: 'closed', startedAt: null, resolutionAttachmentIds: ['att_1'] });
  });
});

describe('GET /corrective-actions', () => {
  it('filters by status, location, overdue, priority, assignee and submission', async () => {
    const loc = await formsLocation(t);
    const emp = await formsEmployee(t, loc);
    const late = await newAction({ locationId: loc, dueAt: '2026-12-01T11:00:00Z', priority: 'high', assigneeId: emp });
    const onTime = await newAction({ locationId: loc, dueAt: '2026-12-01T13:00:00Z' });
    const noDue = await newAction({ locationId: loc });
    const closedLate = await newAction({ locationId: loc, dueAt: '2026-12-01T10:00:00Z' });
    await call('POST', `/corrective-actions/${closedLate.id}:close`, { resolution: 'Done' });
    await call('PATCH', `/corrective-actions/${onTime.id}`, { status: 'in_progress' });

    const ids = async (q: string) => (await call('GET', `/corrective-actions?locationId=${loc}&${q}`)).body.data.map((a: { id: string }) => a.id);
    expect(await ids('limit=50')).toEqual([late.id, onTime.id, noDue.id, closedLate.id]);
    expect(await ids('overdue=true')).toEqual([late.id]);
    expect(await ids('overdue=false')).toEqual([onTime.id, noDue.id, closedLate.id]);
    expect(await ids('status=open')).toEqual([late.id, noDue.id]);
    expect(await ids('status=in_progress')).toEqual([onTime.id]);
    expect(await ids('status=closed')).toEqual([closedLate.id]);
    expect(await ids('priority=high')).toEqual([late.id]);
    expect(await ids(`assigneeId=${emp}`)).toEqual([late.id]);
    expect((await call('GET', `/corrective-actions/${late.id}`)).body.overdue).toBe(true);
    // an hour later the on-time one is overdue too
    useClock(fixedClock('2026-12-01T13:30:00Z'));
    expect(await ids('overdue=true')).toEqual([late.id, onTime.id]);
    expect((await call('GET', '/corrective-actions?overdue=yes')).status).toBe(400);
  });

  it('reach: corrective_actions.manage by location, for reads and writes', async () => {
    const here = await formsLocation(t);
    const there = await formsLocation(t);
    const local = localPerson([here]);
    const mine = await newAction({ locationId: here }, local);
    const theirs = await newAction({ locationId: there });
    expect((await call('POST', '/corrective-actions', { locationId: there, title: 'X' }, local)).body.code).toBe('out_of_reach');
    expect((await call('GET', `/corrective-actions/${theirs.id}`, undefined, local)).body.code).toBe('out_of_reach');
    expect((await call('PATCH', `/corrective-actions/${theirs.id}`, { priority: 'low' }, local)).body.code).toBe('out_of_reach');
    expect((await call('POST', `/corrective-actions/${theirs.id}:close`, { resolution: 'x' }, local)).body.code).toBe('out_of_reach');
    const listed = (await call('GET', '/corrective-actions?limit=200', undefined, local)).body.data.map((a: { id: string }) => a.id);
    expect(listed).toContain(mine.id);
    expect(listed).not.toContain(theirs.id);
    expect((await call('GET', `/corrective-actions?locationId=${there}`, undefined, local)).body.code).toBe('out_of_reach');
    expect((await call('GET', '/corrective-actions', undefined, person({ 'checklists.manage': [{ type: 'everyone' }] }))).body.code).toBe('forbidden');
    // an integration key (operations scopes) reaches every location
    const key = integration(['operations:read', 'operations:write']);
    expect((await call('GET', `/corrective-actions/${theirs.id}`, undefined, key)).status).toBe(200);
  });
});

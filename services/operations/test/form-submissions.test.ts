import { fixedClock, useClock, type Principal } from '@bop/shared';
import { integration, outboxPayloads, person, startTestService, type TestService } from '@bop/test-support';
import { operationsService } from '../src';
import { brandAudit, formsEmployee, formsLocation, localPerson, openingChecklist } from './forms-fixtures';

let t: TestService;
beforeAll(async () => {
  t = await startTestService(operationsService);
});
afterAll(async () => {
  await t?.close();
});
beforeEach(() => useClock(fixedClock(NOW)));
afterEach(() => useClock({ now: () => new Date() }));

const call = (method: string, path: string, body?: unknown, as?: Principal) => t.call(method, path, { body, as });
const paths = (r: { body: { errors?: Array<{ path: string }> } }) => (r.body.errors ?? []).map((e) => e.path);
/** A tablet app at the location (an integration key with the operations scopes). */
const tablet = integration(['operations:read', 'operations:write']);
const NOW = '2026-12-01T12:00:00.000Z';

async function newForm(body: Record<string, unknown>) {
  const r = await call('POST', '/forms', body);
  expect(r.status).toBe(201);
  return r.body as { id: string; version: number; name: string };
}

const passingChecklist = [
  { questionId: 'cooler', value: '3.5' },
  { questionId: 'seals', value: true },
  { questionId: 'floor', value: 'clean' },
];

describe('POST /form-submissions', () => {
  it('judges each answer by its question\'s rule, keeps completedAt as sent, and records form.submitted', async () => {
    useClock(fixedClock(NOW));
    const loc = await formsLocation(t);
    const emp = await formsEmployee(t, loc);
    const form = await newForm(openingChecklist());
    const r = await call('POST', '/form-submissions', { formId: form.id, locationId: loc, completedAt: '2026-11-28T07:15:00Z', completedByEmployeeId: emp, answers: passingChecklist }, tablet);
    expect(r.status).toBe(201);
    expect(r.headers.get('location')).toBe(`/api/v1/form-submissions/${r.body.id}`);
    expect(r.body).toMatchObject({
      formId: form.id,
      formName: form.name,
      formKind: 'checklist',
      formVersion: 1,
      locationId: loc,
      completedAt: '2026-11-28T07:15:00.000Z',
      submittedAt: NOW,
      completedByEmployeeId: emp,
      submittedBy: { type: 'integration', id: 'int_test' },
      scored: false,
      score: null,
      passed: true,
      failedCount: 0,
      correctiveActionIds: [],
    });
    expect(r.body.id).toMatch(/^fsb_/);
    expect(r.body.results.map((x: { questionId: string; outcome: string; reason: string }) => [x.questionId, x.outcome, x.reason])).toEqual([
      ['cooler', 'passed', '3.5 °C is between 0 and 5 °C.'],
      ['seals', 'passed', 'Answered yes, as expected.'],
      ['floor', 'passed', 'Chose Clean.'],
      ['notes', 'unanswered', 'Not answered (optional).'],
    ]);
    expect((await call('GET', `/form-submissions/${r.body.id}`)).body).toEqual(r.body);
    const [submitted] = await outboxPayloads(t, 'operations', { type: 'form.submitted', aggregateId: r.body.id });
    expect(submitted).toMatchObject({ type: 'form.submitted', actor: { type: 'integration', id: 'int_test' }, locationId: loc, createdAt: NOW, data: { object: r.body } });
    expect(await outboxPayloads(t, 'operations', { type: 'form.answer_failed', aggregateId: r.body.id })).toEqual([]);
  });

  it('a failed answer on a question set to raise one opens its corrective action; form.answer_failed once per failed answer', async () => {
    useClock(fixedClock(NOW));
    const loc = await formsLocation(t);
    const form = await newForm(openingChecklist());
    const answers = [
      { questionId: 'cooler', value: '46.4', unit: 'F', comment: 'door left open' },
      { questionId: 'seals', value: false },
      { questionId: 'floor', value: 'dirty' },
    ];
    const r = await call('POST', '/form-submissions', { formId: form.id, locationId: loc, completedAt: '2026-12-01T06:00:00Z', answers }, person(undefined, { employeeId: 'emp_me' }));
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ passed: false, failedCount: 3, completedByEmployeeId: 'emp_me', submittedBy: { type: 'user', id: 'usr_test' } });
    const cooler = r.body.results[0];
    expect(cooler).toMatchObject({ outcome: 'failed', reason: '46.4 °F (8 °C) is above the maximum 5 °C.', answer: { value: '46.4', unit: 'F', comment: 'door left open', attachmentIds: [], notApplicable: false } });
    expect(cooler.correctiveActionId).toMatch(/^cra_/);
    // only the cooler question raises one
    expect(r.body.correctiveActionIds).toEqual([cooler.correctiveActionId]);
    expect(r.body.results.slice(1).map((x: { correctiveActionId: string | null }) => x.correctiveActionId)).toEqual([null, null, null]);

    const action = await call('GET', `/corrective-actions/${cooler.correctiveActionId}`);
    expect(action.body).toMatchObject({
      locationId: loc,
      title: 'Walk-in cooler temperature',
      status: 'open',
      priority: 'high',
      source: 'form_submission',
      submissionId: r.body.id,
      formId: form.id,
      questionId: 'cooler',
      failureReason: cooler.reason,
      // due 4 hours after completion (06:00); sent at 12:00, it is overdue already
      dueAt: '2026-12-01T10:00:00.000Z',
      overdue: true,
      assigneeId: null,
    });

    const failed = await outboxPayloads(t, 'operations', { type: 'form.answer_failed', aggregateId: r.body.id });
    expect(failed.map((e) => e.data.object.questionId)).toEqual(['cooler', 'seals', 'floor']);
    expect(failed[0]).toMatchObject({ locationId: loc, data: { object: { submissionId: r.body.id, formId: form.id, formVersion: 1, outcome: 'failed', reason: cooler.reason, correctiveActionId: cooler.correctiveActionId } } });
    const created = await outboxPayloads(t, 'operations', { type: 'corrective_action.created', aggregateId: cooler.correctiveActionId });
    expect(created).toHaveLength(1);
    expect(created[0].data.object).toEqual(action.body);
  });

  it('keeps the form version it answered: a device on an older version is judged by that version', async () => {
    const loc = await formsLocation(t);
    const form = await newForm(openingChecklist());
    const tighter = [{ id: 'cold', title: 'Cold holding', questions: [{ id: 'cooler', type: 'temperature', text: 'Cooler', unit: 'C', min: '0', max: '3' }] }];
    expect((await call('PATCH', `/forms/${form.id}`, { sections: tighter })).body.version).toBe(2);

    const onV1 = await call('POST', '/form-submissions', { formId: form.id, formVersion: 1, locationId: loc, completedAt: '2026-11-30T08:00:00Z', answers: passingChecklist });
    expect(onV1.status).toBe(201);
    expect(onV1.body).toMatchObject({ formVersion: 1, passed: true });
    expect(onV1.body.results).toHaveLength(4);

    const onV2 = await call('POST', '/form-submissions', { formId: form.id, locationId: loc, completedAt: '2026-11-30T09:00:00Z', answers: [{ questionId: 'cooler', value: '3.5' }] });
    expect(onV2.body).toMatchObject({ formVersion: 2, passed: false, failedCount: 1 });
    expect(onV2.body.results[0].reason).toBe('3.5 °C is above the maximum 3 °C.');
    // v2 no longer has the seals question
    const stale = await call('POST', '/form-submissions', { formId: form.id, locationId: loc, completedAt: '2026-11-30T09:00:00Z', answers: passingChecklist });
    expect(stale.status).toBe(422);
    expect(paths(stale)).toEqual(['answers[1].questionId', 'answers[2].questionId']);
    expect(paths(await call('POST', '/form-submissions', { formId: form.id, formVersion: 9, locationId: loc, completedAt: '2026-11-30T09:00:00Z', answers: [] }))).toEqual(['formVersion']);
    // the version it answered stays readable
    expect((await call('GET', `/forms/${form.id}?version=${onV1.body.formVersion}`)).body.sections).toHaveLength(2);
  });

  it('accepts a submission sent long after it was completed; refuses one completed in the future or after the form was archived', async () => {
    useClock(fixedClock(NOW));
    const loc = await formsLocation(t);
    const form = await newForm(openingChecklist());
    const send = (completedAt: string) => call('POST', '/form-submissions', { formId: form.id, locationId: loc, completedAt, answers: passingChecklist });
    expect((await send('2026-11-01T08:00:00Z')).status).toBe(201);
    expect((await send('2026-12-01T12:04:00Z')).status).toBe(201);
    const future = await send('2026-12-01T12:06:00Z');
    expect(future.status).toBe(422);
    expect(paths(future)).toEqual(['completedAt']);
    expect(paths(await send('2026-12-01T12:00:00+01:00'))).toEqual(['completedAt']);

    useClock(fixedClock('2026-12-02T00:00:00Z'));
    await call('DELETE', `/forms/${form.id}`);
    useClock(fixedClock('2026-12-03T00:00:00Z'));
    // an offline device's checklist from before the archive is still taken
    expect((await send('2026-12-01T23:00:00Z')).status).toBe(201);
    const late = await send('2026-12-02T08:00:00Z');
    expect(late.status).toBe(422);
    expect(late.body.errors).toEqual([{ path: 'formId', message: expect.stringContaining('was archived at 2026-12-02T00:00:00.000Z') }]);
  });

  it('the same externalId and content again answers the stored submission (200, no new events); other content is a 409', async () => {
    const loc = await formsLocation(t);
    const form = await newForm(openingChecklist());
    const body = { formId: form.id, locationId: loc, externalId: `tablet-7/${Date.now()}`, completedAt: '2026-11-30T08:00:00Z', answers: [...passingChecklist.slice(0, 2), { questionId: 'floor', value: 'dirty' }] };
    const first = await call('POST', '/form-submissions', body, tablet);
    expect(first.status).toBe(201);
    const again = await call('POST', '/form-submissions', body, tablet);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(await outboxPayloads(t, 'operations', { type: 'form.submitted', aggregateId: first.body.id })).toHaveLength(1);
    expect(await outboxPayloads(t, 'operations', { type: 'form.answer_failed', aggregateId: first.body.id })).toHaveLength(1);
    const other = await call('POST', '/form-submissions', { ...body, completedAt: '2026-11-30T09:00:00Z' }, tablet);
    expect(other.status).toBe(409);
    expect(paths(other)).toEqual(['externalId']);
    const raced = await Promise.all([1, 2, 3].map(() => call('POST', '/form-submissions', { ...body, externalId: `${body.externalId}-race` }, tablet)));
    expect(raced.map((x) => x.status).sort()).toEqual([200, 200, 201]);
    expect(new Set(raced.map((x) => x.body.id)).size).toBe(1);
  });

  it('refuses what cannot be judged with field paths: unanswered required questions, wrong value types, other locations, unknown people', async () => {
    const loc = await formsLocation(t);
    const other = await formsLocation(t);
    const form = await newForm(openingChecklist({ locationIds: [loc] }));
    const r = await call('POST', '/form-submissions', {
      formId: form.id,
      locationId: other,
      completedAt: '2026-11-30T08:00:00Z',
      completedByEmployeeId: 'emp_nobody',
      answers: [{ questionId: 'cooler', value: 'cold' }, { questionId: 'floor', value: ['clean'] }, { questionId: 'notes', value: true }],
    });
    expect(r.status).toBe(422);
    expect(paths(r)).toEqual(['completedByEmployeeId', 'locationId', 'answers[0].value', 'answers[1].value', 'answers[2].value', 'answers']);
    expect(r.body.errors.find((e: { path: string }) => e.path === 'answers').message).toBe('Required question not answered: seals.');
    const noForm = await call('POST', '/form-submissions', { formId: 'frm_nothing', locationId: loc, completedAt: '2026-11-30T08:00:00Z', answers: [] });
    expect(paths(noForm)).toEqual(['formId']);
    const badBody = await call('POST', '/form-submissions', { formId: form.id, locationId: loc, completedAt: 'yesterday', answers: [{ questionId: 'cooler\u0000', value: '1' }] });
    expect(badBody.status).toBe(422);
    expect(paths(badBody)).toEqual(['answers[0].questionId']);
    let nested: unknown = 'x';
    for (let i = 0; i < 80; i += 1) nested = [nested];
    const deep = await call('POST', '/form-submissions', { formId: form.id, locationId: loc, completedAt: '2026-11-30T08:00:00Z', answers: [{ questionId: 'floor', value: nested }] });
    expect(deep.status).toBe(400);
    const wrongShape = await call('POST', '/form-submissions', { formId: form.id, locationId: loc, completedAt: '2026-11-30T08:00:00Z', answers: [{ questionId: 'floor', value: [['x']] }, { questionId: 'seals', value: 1e308 }] });
    expect(wrongShape.status).toBe(422);
    expect(paths(wrongShape)).toEqual(['answers[0].value', 'answers[1].value']);
    expect((await call('POST', '/form-submissions', { formId: form.id, locationId: 'loc_nowhere', completedAt: '2026-11-30T08:00:00Z', answers: passingChecklist })).body.errors).toEqual(
      expect.arrayContaining([{ path: 'locationId', message: 'No location loc_nowhere.' }]),
    );
  });

  it('needs checklists.complete at the location; lists need checklists.manage and show the reach only', async () => {
    const here = await formsLocation(t);
    const there = await formsLocation(t);
    const form = await newForm(openingChecklist());
    const local = localPerson([here]);
    const body = (locationId: string) => ({ formId: form.id, locationId, completedAt: '2026-11-30T08:00:00Z', answers: passingChecklist });
    const mine = await call('POST', '/form-submissions', body(here), local);
    expect(mine.status).toBe(201);
    const outside = await call('POST', '/form-submissions', body(there), local);
    expect(outside.status).toBe(403);
    expect(outside.body.code).toBe('out_of_reach');
    const theirs = await call('POST', '/form-submissions', body(there));
    expect((await call('GET', `/form-submissions/${theirs.body.id}`, undefined, local)).body.code).toBe('out_of_reach');
    const listed = (await call('GET', '/form-submissions?limit=200', undefined, local)).body.data.map((s: { id: string }) => s.id);
    expect(listed).toContain(mine.body.id);
    expect(listed).not.toContain(theirs.body.id);
    const completer = person({ 'checklists.complete': [{ type: 'everyone' }] });
    expect((await call('GET', '/form-submissions', undefined, completer)).body.code).toBe('forbidden');
    expect((await call('GET', '/form-submissions/fsb_nothing')).status).toBe(404);
  });

  it('lists by form, kind, location, completion time and result', async () => {
    const loc = await formsLocation(t);
    const form = await newForm(openingChecklist());
    const ok = await call('POST', '/form-submissions', { formId: form.id, locationId: loc, completedAt: '2026-10-01T08:00:00Z', answers: passingChecklist });
    const bad = await call('POST', '/form-submissions', { formId: form.id, locationId: loc, completedAt: '2026-10-02T08:00:00Z', answers: [...passingChecklist.slice(0, 2), { questionId: 'floor', value: 'dirty' }] });
    const ids = async (q: string) => (await call('GET', `/form-submissions?formId=${form.id}&${q}`)).body.data.map((s: { id: string }) => s.id);
    expect(await ids('limit=10')).toEqual([ok.body.id, bad.body.id]);
    expect(await ids('passed=false')).toEqual([bad.body.id]);
    expect(await ids('passed=true')).toEqual([ok.body.id]);
    expect(await ids('from=2026-10-02T00:00:00Z')).toEqual([bad.body.id]);
    expect(await ids('to=2026-10-02T00:00:00Z')).toEqual([ok.body.id]);
    expect(await ids(`locationId=${loc}&kind=checklist`)).toEqual([ok.body.id, bad.body.id]);
    expect(await ids('kind=audit')).toEqual([]);
    expect((await call('GET', '/form-submissions?passed=maybe')).status).toBe(400);
  });
});

describe('audits', () => {
  it('a submitted audit is scored by its weights, appears in GET /audits with section scores and failed items; audit.completed', async () => {
    useClock(fixedClock(NOW));
    const loc = await formsLocation(t);
    const form = await newForm(brandAudit());
    const r = await call('POST', '/form-submissions', {
      formId: form.id,
      locationId: loc,
      completedAt: '2026-12-01T10:00:00Z',
      answers: [
        { questionId: 'greeting', value: true },
        { questionId: 'uniform', value: false },
        { questionId: 'hot', value: '65' },
        { questionId: 'labels', value: true },
      ],
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ formKind: 'audit', scored: true, score: '80', points: '8', maxPoints: '10', passMark: '80', passed: true, failedCount: 1, criticalFailed: false });
    expect(r.body.sectionScores).toEqual([
      { sectionId: 'front', title: 'Front of house', score: '33.33', points: '1', maxPoints: '3', failedCount: 1 },
      { sectionId: 'kitchen', title: 'Kitchen', score: '100', points: '7', maxPoints: '7', failedCount: 0 },
    ]);
    const uniformAction = r.body.results[1].correctiveActionId;
    expect(uniformAction).toMatch(/^cra_/);

    const audit = await call('GET', `/audits/${r.body.id}`);
    expect(audit.status).toBe(200);
    expect(audit.body).toMatchObject({ id: r.body.id, formId: form.id, score: '80', passed: true, sectionScores: r.body.sectionScores, correctiveActionIds: [uniformAction] });
    expect(audit.body.failedItems).toEqual([
      {
        questionId: 'uniform',
        sectionId: 'front',
        sectionTitle: 'Front of house',
        text: 'Uniforms clean?',
        critical: false,
        weight: '2',
        answer: { value: false, unit: null, attachmentIds: [], notApplicable: false, comment: null },
        reason: 'Answered no; yes was expected.',
        correctiveActionId: uniformAction,
      },
    ]);
    // the uniform question's corrective action has no due date; priority low
    expect((await call('GET', `/corrective-actions/${uniformAction}`)).body).toMatchObject({ priority: 'low', dueAt: null, overdue: false });
    const [completed] = await outboxPayloads(t, 'operations', { type: 'audit.completed', aggregateId: r.body.id });
    expect(completed).toMatchObject({ locationId: loc, data: { object: audit.body } });

    const listed = await call('GET', `/audits?formId=${form.id}`);
    expect(listed.body.data).toEqual([audit.body]);
    expect((await call('GET', `/audits?formId=${form.id}&passed=false`)).body.data).toEqual([]);
  });

  it('a failed critical question fails the audit whatever its score; checklists are not audits', async () => {
    const loc = await formsLocation(t);
    const form = await newForm(brandAudit());
    const r = await call('POST', '/form-submissions', {
      formId: form.id,
      locationId: loc,
      completedAt: '2026-11-30T10:00:00Z',
      answers: [
        { questionId: 'greeting', value: true },
        { questionId: 'uniform', value: true },
        { questionId: 'hot', value: '58' },
        { questionId: 'labels', value: true },
      ],
    });
    expect(r.body).toMatchObject({ score: '70', passed: false, criticalFailed: true });
    expect((await call('GET', `/audits/${r.body.id}`)).body.failedItems.map((i: { questionId: string; critical: boolean }) => [i.questionId, i.critical])).toEqual([['hot', true]]);

    const checklist = await newForm(openingChecklist());
    const plain = await call('POST', '/form-submissions', { formId: checklist.id, locationId: loc, completedAt: '2026-11-30T10:00:00Z', answers: passingChecklist });
    expect((await call('GET', `/audits/${plain.body.id}`)).status).toBe(404);
    expect(await outboxPayloads(t, 'operations', { type: 'audit.completed', aggregateId: plain.body.id })).toEqual([]);
    expect((await call('GET', `/audits?locationId=${loc}`)).body.data.map((a: { id: string }) => a.id)).toEqual([r.body.id]);
  });

  it('need audits.read within its reach', async () => {
    const here = await formsLocation(t);
    const there = await formsLocation(t);
    const form = await newForm(brandAudit());
    const answers = ['greeting', 'uniform', 'labels'].map((questionId) => ({ questionId, value: true })).concat([{ questionId: 'hot', value: '70' as never }]);
    const theirs = await call('POST', '/form-submissions', { formId: form.id, locationId: there, completedAt: '2026-11-30T10:00:00Z', answers });
    const mine = await call('POST', '/form-submissions', { formId: form.id, locationId: here, completedAt: '2026-11-30T10:00:00Z', answers });
    const local = localPerson([here]);
    expect((await call('GET', `/audits/${theirs.body.id}`, undefined, local)).body.code).toBe('out_of_reach');
    expect((await call('GET', `/audits?formId=${form.id}`, undefined, local)).body.data.map((a: { id: string }) => a.id)).toEqual([mine.body.id]);
    expect((await call('GET', `/audits?locationId=${there}`, undefined, local)).body.code).toBe('out_of_reach');
    expect((await call('GET', '/audits', undefined, person({ 'checklists.manage': [{ type: 'everyone' }] }))).body.code).toBe('forbidden');
  });
});

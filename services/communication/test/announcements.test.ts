import { fixedClock } from '@bop/shared';
import { integration, outboxPayloads, person, sql, startTestService, type TestService } from '@bop/test-support';
import { communicationService } from '../src';
import { managerAt, me, newDraft, paths, replicaEmployee, replicaLocation, replicaShift } from './fixtures';

const clock = fixedClock('2026-12-01T09:00:00Z');
let t: TestService;
beforeAll(async () => {
  t = await startTestService(communicationService, {}, { workers: false, clock });
});
afterAll(async () => {
  await t?.close();
});

const tick = () => t.svc.worker('announcement-clock').runOnce();
const ids = (body: { data: Array<{ id: string }> }) => body.data.map((x) => x.id);
const inHours = (h: number) => new Date(clock.now().getTime() + h * 3_600_000).toISOString();

describe('announcements', () => {
  it('draft → published: the audience (its locations, active employees) is fixed at publication; announcement.published', async () => {
    const a = await replicaLocation(t);
    const b = await replicaLocation(t);
    const home = await replicaEmployee(t, { home: a });
    const further = await replicaEmployee(t, { home: b, locations: [a] });
    const elsewhere = await replicaEmployee(t, { home: b });
    await replicaEmployee(t, { home: a, status: 'terminated' });

    const draft = await newDraft(t, { audience: { locationIds: [a] }, attachmentIds: ['att_1'], acknowledgementRequired: true });
    expect(draft).toMatchObject({ id: expect.stringMatching(/^ann_/), status: 'draft', audience: { locationIds: [a], departmentIds: [], positions: [], onShift: null }, attachmentIds: ['att_1'], audienceCount: null, publishedAt: null, createdBy: { type: 'user', id: 'usr_test' }, version: 1 });
    // a draft is no one's yet
    expect((await t.call('GET', '/me/announcements', { as: me(home) })).body.data).toEqual([]);
    expect((await t.call('POST', `/me/announcements/${draft.id}:acknowledge`, { as: me(home) })).status).toBe(404);

    const published = await t.call('POST', `/announcements/${draft.id}:publish`, { headers: { 'if-match': '"1"' } });
    expect(published.status).toBe(200);
    expect(published.body).toMatchObject({ status: 'published', publishedAt: expect.any(String), publishedBy: { type: 'user', id: 'usr_test' }, audienceCount: 2, acknowledgedCount: 0, version: 2 });
    const [created, event] = await outboxPayloads(t, 'communication', { aggregateId: draft.id });
    // the draft's own change event (the project's type), the announcement as the API returned it
    expect(created).toMatchObject({ type: 'announcement.created', locationId: a, data: { object: draft } });
    expect(event).toMatchObject({ id: expect.stringMatching(/^evt_/), type: 'announcement.published', apiVersion: 'v1', actor: { type: 'user', id: 'usr_test' }, locationId: a, data: { object: { id: draft.id, status: 'published', audienceCount: 2 }, previous: { status: 'draft' } } });

    // people who join later are not in it
    const later = await replicaEmployee(t, { home: a });
    for (const [employee, sees] of [[home, true], [further, true], [elsewhere, false], [later, false]] as const) {
      const mine = await t.call('GET', '/me/announcements', { as: me(employee) });
      expect(ids(mine.body)).toEqual(sees ? [draft.id] : []);
    }
    const acks = await t.call('GET', `/announcements/${draft.id}/acknowledgements`);
    expect(acks.body).toMatchObject({ announcementId: draft.id, audienceCount: 2, acknowledgedCount: 0, notAcknowledgedCount: 2, remindedCount: 0, authorToldAt: null, hasMore: false });
    expect(acks.body.data.map((r: { employeeId: string }) => r.employeeId).sort()).toEqual([home, further].sort());

    // published is not a draft: no change, no second publication
    for (const [method, path, body] of [['PATCH', `/announcements/${draft.id}`, { title: 'x' }], ['POST', `/announcements/${draft.id}:publish`, {}]] as const) {
      const r = await t.call(method, path, { body });
      expect([r.status, r.body.code, r.body.detail]).toEqual([409, 'conflict', expect.stringContaining('is published')]);
    }
  });

  it('audiences: departments and positions narrow the locations; on shift at a location on a day', async () => {
    const a = await replicaLocation(t);
    const cook = await replicaEmployee(t, { home: a, department: 'dep_kitchen', positions: ['cook', 'prep'] });
    await replicaEmployee(t, { home: a, department: 'dep_kitchen', positions: ['dishwasher'] });
    await replicaEmployee(t, { home: a, department: 'dep_front', positions: ['cook'] });
    const kitchenCooks = await newDraft(t, { audience: { locationIds: [a], departmentIds: ['dep_kitchen'], positions: ['cook'] } });
    const p1 = await t.call('POST', `/announcements/${kitchenCooks.id}:publish`);
    expect(p1.body.audienceCount).toBe(1);
    expect((await t.call('GET', `/announcements/${kitchenCooks.id}/acknowledgements`)).body.data).toEqual([expect.objectContaining({ employeeId: cook, firstName: 'Sam', acknowledgedAt: null, remindedAt: null, overdue: false })]);

    const morning = await replicaEmployee(t, { home: a });
    const otherDay = await replicaEmployee(t, { home: a });
    const draftOnly = await replicaEmployee(t, { home: a });
    await replicaShift(t, { locationId: a, employeeId: morning, date: '2026-12-24' });
    await replicaShift(t, { locationId: a, employeeId: otherDay, date: '2026-12-25' });
    await replicaShift(t, { locationId: a, employeeId: draftOnly, date: '2026-12-24', status: 'draft' });
    await replicaShift(t, { locationId: a, employeeId: null, date: '2026-12-24' });
    const onShift = await newDraft(t, { audience: { onShift: { locationId: a, date: '2026-12-24' } } });
    expect(onShift.audience).toEqual({ locationIds: [], departmentIds: [], positions: [], onShift: { locationId: a, date: '2026-12-24' } });
    const p2 = await t.call('POST', `/announcements/${onShift.id}:publish`);
    expect(p2.body.audienceCount).toBe(1);
    expect(ids((await t.call('GET', '/me/announcements', { as: me(morning) })).body)).toEqual([onShift.id]);
    expect(ids((await t.call('GET', '/me/announcements', { as: me(otherDay) })).body)).toEqual([]);
  });

  it('acknowledge: idempotent, actor the employee; only the audience; the list says who and when', async () => {
    const a = await replicaLocation(t);
    const first = await replicaEmployee(t, { home: a });
    const second = await replicaEmployee(t, { home: a });
    const outsider = await replicaEmployee(t, { home: await replicaLocation(t) });
    const ann = await newDraft(t, { audience: { locationIds: [a] }, acknowledgementRequired: true });
    await t.call('POST', `/announcements/${ann.id}:publish`);

    const ack = await t.call('POST', `/me/announcements/${ann.id}:acknowledge`, { as: me(first) });
    expect(ack.status).toBe(200);
    expect(ack.body).toMatchObject({ id: ann.id, acknowledgementRequired: true, acknowledgedAt: expect.any(String) });
    const again = await t.call('POST', `/me/announcements/${ann.id}:acknowledge`, { as: me(first) });
    expect(again.body.acknowledgedAt).toBe(ack.body.acknowledgedAt);
    // the first acknowledgement records announcement.acknowledged (the project's type): the announcement, its count moved; again: nothing
    const acknowledged = await outboxPayloads(t, 'communication', { type: 'announcement.acknowledged', aggregateId: ann.id });
    expect(acknowledged).toHaveLength(1);
    expect(acknowledged[0]).toMatchObject({ locationId: a, data: { object: { id: ann.id, acknowledgedCount: 1, audienceCount: 2 }, previous: { acknowledgedCount: 0 } } });
    const notMine = await t.call('POST', `/me/announcements/${ann.id}:acknowledge`, { as: me(outsider) });
    expect([notMine.status, notMine.body.code]).toEqual([404, 'not_found']);
    const notLinked = await t.call('GET', '/me/announcements', { as: person({}) });
    expect([notLinked.status, notLinked.body.code]).toEqual([403, 'not_linked_to_employee']);

    const [row] = await sql(t, `select acknowledged_by from communication.announcement_recipients where announcement_id = $1 and employee_id = $2`, [ann.id, first]);
    expect(row.acknowledged_by).toEqual({ type: 'employee', id: first });
    expect((await t.call('GET', `/announcements/${ann.id}`)).body).toMatchObject({ acknowledgedCount: 1, audienceCount: 2 });
    const done = await t.call('GET', `/announcements/${ann.id}/acknowledgements?acknowledged=true`);
    expect(done.body).toMatchObject({ acknowledgedCount: 1, notAcknowledgedCount: 1, data: [{ employeeId: first, acknowledgedAt: ack.body.acknowledgedAt }] });
    const pending = await t.call('GET', `/announcements/${ann.id}/acknowledgements?acknowledged=false`);
    expect(pending.body.data).toEqual([expect.objectContaining({ employeeId: second, acknowledgedAt: null })]);
    expect((await t.call('GET', '/me/announcements', { as: me(second) })).body.data).toEqual([expect.objectContaining({ id: ann.id, acknowledgedAt: null })]);
  });

  it('past the deadline: one reminder to those who have not acknowledged, the author told once (fixed clock)', async () => {
    const a = await replicaLocation(t);
    const done = await replicaEmployee(t, { home: a });
    const late = await replicaEmployee(t, { home: a });
    const deadline = inHours(2);
    const ann = await newDraft(t, { audience: { locationIds: [a] }, acknowledgementRequired: true, acknowledgeBy: deadline });
    await t.call('POST', `/announcements/${ann.id}:publish`);
    await t.call('POST', `/me/announcements/${ann.id}:acknowledge`, { as: me(done) });

    // at the deadline: not yet past it
    clock.set(deadline);
    await tick();
    const at = await t.call('GET', `/announcements/${ann.id}/acknowledgements`);
    expect(at.body).toMatchObject({ remindedCount: 0, authorToldAt: null });
    expect(at.body.data.every((r: { overdue: boolean }) => !r.overdue)).toBe(true);
    expect(await outboxPayloads(t, 'communication', { type: 'communication.announcement.reminded', aggregateId: ann.id })).toEqual([]);

    clock.set(new Date(new Date(deadline).getTime() + 60_000));
    await tick();
    await tick();
    const after = await t.call('GET', `/announcements/${ann.id}/acknowledgements`);
    expect(after.body).toMatchObject({ acknowledgedCount: 1, notAcknowledgedCount: 1, remindedCount: 1, authorToldAt: expect.any(String) });
    const byEmployee = Object.fromEntries(after.body.data.map((r: { employeeId: string }) => [r.employeeId, r]));
    expect(byEmployee[late]).toMatchObject({ acknowledgedAt: null, remindedAt: expect.any(String), overdue: true });
    expect(byEmployee[done]).toMatchObject({ acknowledgedAt: expect.any(String), remindedAt: null, overdue: false });
    const reminded = await outboxPayloads(t, 'communication', { type: 'communication.announcement.reminded', aggregateId: ann.id });
    const overdue = await outboxPayloads(t, 'communication', { type: 'communication.announcement.overdue', aggregateId: ann.id });
    expect(reminded).toHaveLength(1);
    expect(overdue).toHaveLength(1);
    expect(reminded[0]).toMatchObject({ actor: { type: 'system' }, locationId: a, data: { object: { announcementId: ann.id, acknowledgeBy: deadline, employeeIds: [late] } } });
    expect(overdue[0].data.object).toMatchObject({ author: { type: 'user', id: 'usr_test' }, overdueEmployeeIds: [late], audienceCount: 2, acknowledgedCount: 1 });
    expect((await t.call('GET', `/announcements/${ann.id}`)).body.remindedAt).toEqual(expect.any(String));

    // a late acknowledgement still counts; no second reminder
    await t.call('POST', `/me/announcements/${ann.id}:acknowledge`, { as: me(late) });
    clock.advance(3_600_000);
    await tick();
    expect(await outboxPayloads(t, 'communication', { type: 'communication.announcement.reminded', aggregateId: ann.id })).toHaveLength(1);
    expect((await t.call('GET', `/announcements/${ann.id}/acknowledgements`)).body).toMatchObject({ acknowledgedCount: 2, notAcknowledgedCount: 0, remindedCount: 1 });
  });

  it('scheduled publishes itself at publishAt (actor system); PATCH publishAt null takes it back to draft', async () => {
    const a = await replicaLocation(t);
    const staff = await replicaEmployee(t, { home: a });
    const publishAt = inHours(5);
    const ann = await newDraft(t, { audience: { locationIds: [a] } });
    const scheduled = await t.call('POST', `/announcements/${ann.id}:publish`, { body: { publishAt } });
    expect(scheduled.body).toMatchObject({ status: 'scheduled', publishAt, publishedAt: null, audienceCount: null });
    await tick();
    expect((await t.call('GET', `/announcements/${ann.id}`)).body.status).toBe('scheduled');
    expect((await t.call('GET', '/me/announcements', { as: me(staff) })).body.data).toEqual([]);

    // still changeable while scheduled; the audience is taken when it publishes
    const patched = await t.call('PATCH', `/announcements/${ann.id}`, { body: { title: 'Holiday hours' } });
    expect(patched.body).toMatchObject({ status: 'scheduled', title: 'Holiday hours', version: 3 });
    const [updated, ...moreUpdates] = await outboxPayloads(t, 'communication', { type: 'announcement.updated', aggregateId: ann.id });
    expect(moreUpdates).toEqual([]);
    expect(updated).toMatchObject({ locationId: a, data: { object: patched.body, previous: { title: ann.title } } });
    const joined = await replicaEmployee(t, { home: a });
    clock.set(publishAt);
    await tick();
    const published = await t.call('GET', `/announcements/${ann.id}`);
    expect(published.body).toMatchObject({ status: 'published', publishedBy: { type: 'system', id: null }, audienceCount: 2 });
    const [event] = await outboxPayloads(t, 'communication', { type: 'announcement.published', aggregateId: ann.id });
    expect(event).toMatchObject({ actor: { type: 'system', id: null }, data: { object: { status: 'published', title: 'Holiday hours' }, previous: { status: 'scheduled' } } });
    expect(ids((await t.call('GET', '/me/announcements', { as: me(joined) })).body)).toEqual([ann.id]);

    const back = await newDraft(t, { audience: { locationIds: [a] } });
    await t.call('POST', `/announcements/${back.id}:publish`, { body: { publishAt: inHours(1) } });
    const draft = await t.call('PATCH', `/announcements/${back.id}`, { body: { publishAt: null } });
    expect(draft.body).toMatchObject({ status: 'draft', publishAt: null });
    clock.advance(2 * 3_600_000);
    await tick();
    expect((await t.call('GET', `/announcements/${back.id}`)).body.status).toBe('draft');
    // a publishAt in the past publishes at once
    const now = await t.call('POST', `/announcements/${back.id}:publish`, { body: { publishAt: new Date(clock.now().getTime() - 60_000).toISOString() } });
    expect(now.body.status).toBe('published');
  });

  it('archive: hidden from the audience, acknowledgements kept; final', async () => {
    const a = await replicaLocation(t);
    const staff = await replicaEmployee(t, { home: a });
    const ann = await newDraft(t, { audience: { locationIds: [a] }, acknowledgementRequired: true });
    await t.call('POST', `/announcements/${ann.id}:publish`);
    await t.call('POST', `/me/announcements/${ann.id}:acknowledge`, { as: me(staff) });
    const archived = await t.call('DELETE', `/announcements/${ann.id}`);
    expect(archived.body).toMatchObject({ status: 'archived', archivedAt: expect.any(String) });
    expect((await t.call('GET', '/me/announcements', { as: me(staff) })).body.data).toEqual([]);
    expect((await t.call('POST', `/me/announcements/${ann.id}:acknowledge`, { as: me(staff) })).status).toBe(404);
    expect((await t.call('GET', `/announcements/${ann.id}/acknowledgements`)).body).toMatchObject({ acknowledgedCount: 1, data: [expect.objectContaining({ employeeId: staff, acknowledgedAt: expect.any(String) })] });
    expect((await t.call('POST', `/announcements/${ann.id}:publish`)).status).toBe(409);
    expect((await t.call('DELETE', `/announcements/${ann.id}`)).body.status).toBe('archived');
    // archiving records announcement.archived once (the project's type) next to the internal event
    const types = (await outboxPayloads(t, 'communication', { aggregateId: ann.id })).map((e) => e.type);
    expect(types.filter((x) => x.endsWith('archived'))).toEqual(['communication.announcement.archived', 'announcement.archived']);
    const [archivedEvent] = await outboxPayloads(t, 'communication', { type: 'announcement.archived', aggregateId: ann.id });
    expect(archivedEvent.data).toMatchObject({ object: archived.body, previous: { status: 'published', archivedAt: null } });
    // a draft archives too
    const d = await newDraft(t, { audience: { locationIds: [a] } });
    expect((await t.call('DELETE', `/announcements/${d.id}`)).body.status).toBe('archived');
    expect(ids((await t.call('GET', `/announcements?status=archived&locationId=${a}`)).body).sort()).toEqual([ann.id, d.id].sort());
  });

  it('bad input: a problem naming each field', async () => {
    const a = await replicaLocation(t);
    const closed = await replicaLocation(t, { status: 'archived' });
    const r1 = await t.call('POST', '/announcements', { body: { body: '', audience: { locationIds: [a], onShift: { locationId: a, date: '2026-13-01' } }, acknowledgeBy: inHours(1), extra: 1 } });
    expect(r1.status).toBe(422);
    expect(r1.body).toMatchObject({ code: 'validation_error', requestId: expect.any(String) });
    expect(paths(r1.body)).toEqual(expect.arrayContaining(['title', 'body', 'audience.onShift.date']));
    const r2 = await t.call('POST', '/announcements', { body: { title: 'T', body: 'B', audience: { locationIds: [a], onShift: { locationId: a, date: '2026-12-01' } }, acknowledgeBy: inHours(1) } });
    expect(paths(r2.body)).toEqual(['acknowledgeBy', 'audience.locationIds']);
    const r3 = await t.call('POST', '/announcements', { body: { title: 'T', body: 'B', audience: { locationIds: [a, 'loc_nowhere', closed] } } });
    expect([r3.status, paths(r3.body)]).toEqual([422, ['audience.locationIds[1]', 'audience.locationIds[2]']]);
    const r4 = await t.call('POST', '/announcements', { body: { title: 'T', body: 'B', audience: { positions: [''] }, acknowledgementRequired: 'yes' } });
    expect(paths(r4.body)).toEqual(['acknowledgementRequired', 'audience.positions[0]']);

    const past = await newDraft(t, { audience: { locationIds: [a] }, acknowledgementRequired: true, acknowledgeBy: inHours(1) });
    const tooLate = await t.call('POST', `/announcements/${past.id}:publish`, { body: { publishAt: inHours(2) } });
    expect([tooLate.status, paths(tooLate.body)]).toEqual([422, ['acknowledgeBy']]);
    const noDeadlineFlag = await t.call('PATCH', `/announcements/${past.id}`, { body: { acknowledgementRequired: false } });
    expect([noDeadlineFlag.status, paths(noDeadlineFlag.body)]).toEqual([422, ['acknowledgeBy']]);
    const badCursor = await t.call('GET', '/me/announcements?cursor=zzz', { as: me('emp_x') });
    expect([badCursor.status, paths(badCursor.body)]).toEqual([400, ['cursor']]);
    const stale = await t.call('PATCH', `/announcements/${past.id}`, { body: { title: 'x' }, headers: { 'if-match': '"9"' } });
    expect([stale.status, stale.body.code]).toEqual([409, 'version_mismatch']);
  });

  it('reach, permission and scope: locations the permission reaches; company-wide needs Everyone', async () => {
    const a = await replicaLocation(t);
    const b = await replicaLocation(t);
    const mine = await newDraft(t, { audience: { locationIds: [a] } }, managerAt(a));
    const theirs = await newDraft(t, { audience: { locationIds: [b] } });
    const both = await newDraft(t, { audience: { locationIds: [a, b] } });
    const everyone = await newDraft(t, { audience: {} });
    expect(everyone.audience.locationIds).toEqual([]);

    const outside = await t.call('POST', '/announcements', { body: { title: 'T', body: 'B', audience: { locationIds: [b] } }, as: managerAt(a) });
    expect([outside.status, outside.body.code]).toEqual([403, 'out_of_reach']);
    const companyWide = await t.call('POST', '/announcements', { body: { title: 'T', body: 'B', audience: {} }, as: managerAt(a) });
    expect([companyWide.status, companyWide.body.code]).toEqual([403, 'out_of_reach']);
    const list = await t.call('GET', '/announcements', { as: managerAt(a) });
    expect(ids(list.body)).toContain(mine.id);
    expect(ids(list.body)).not.toEqual(expect.arrayContaining([theirs.id]));
    expect(ids(list.body)).not.toEqual(expect.arrayContaining([both.id]));
    expect(ids(list.body)).not.toEqual(expect.arrayContaining([everyone.id]));
    for (const [method, path] of [['GET', `/announcements/${theirs.id}`], ['GET', `/announcements/${everyone.id}/acknowledgements`], ['POST', `/announcements/${both.id}:publish`], ['DELETE', `/announcements/${theirs.id}`]] as const) {
      const r = await t.call(method, path, { as: managerAt(a) });
      expect([method, path, r.status, r.body.code]).toEqual([method, path, 403, 'out_of_reach']);
    }
    expect((await t.call('GET', `/announcements?locationId=${b}`, { as: managerAt(a) })).status).toBe(403);

    // the permission itself (scopes and features: the gateway, test/access.test.ts)
    const readOnly = person({ 'announcements.read': [{ type: 'everyone' }] });
    expect((await t.call('POST', `/announcements/${mine.id}:publish`, { as: readOnly })).body.code).toBe('forbidden');
    expect((await t.call('GET', `/announcements/${mine.id}`, { as: readOnly })).status).toBe(200);
    const noPublish = person({ 'announcements.manage': [{ type: 'everyone' }] });
    expect((await t.call('POST', `/announcements/${mine.id}:publish`, { as: noPublish })).status).toBe(403);
    const writer = await t.call('POST', '/announcements', { body: { title: 'T', body: 'B', audience: {} }, as: integration(['communication:write']) });
    expect([writer.status, writer.body.createdBy]).toEqual([201, { type: 'integration', id: 'int_test' }]);
  });

  it('/me/announcements: newest first, cursor pages', async () => {
    const a = await replicaLocation(t);
    const staff = await replicaEmployee(t, { home: a });
    const published: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const d = await newDraft(t, { title: `Note ${i}`, audience: { locationIds: [a] } });
      await t.call('POST', `/announcements/${d.id}:publish`);
      published.push(d.id);
    }
    const first = await t.call('GET', '/me/announcements?limit=2', { as: me(staff) });
    expect([ids(first.body), first.body.hasMore]).toEqual([[published[2], published[1]], true]);
    const second = await t.call('GET', `/me/announcements?limit=2&cursor=${first.body.nextCursor}`, { as: me(staff) });
    expect([ids(second.body), second.body.hasMore, second.body.nextCursor]).toEqual([[published[0]], false, null]);
  });
});

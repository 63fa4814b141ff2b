import { fixedClock } from '@bop/shared';
import type { Principal } from '@bop/shared';
import { person, startTestService, system, type TestService } from '@bop/test-support';
import { communicationService } from '../src';
import { managerAt, me, newDraft, replicaEmployee, replicaLocation } from './fixtures';

const clock = fixedClock('2026-12-01T09:00:00Z');
let t: TestService;
beforeAll(async () => {
  t = await startTestService(communicationService, {}, { workers: false, clock });
});
afterAll(async () => {
  await t?.close();
});

const exportData = (body: Record<string, unknown>, as: Principal = system) => t.call('POST', '/internal/personal-data:export', { as, body });
const DATASETS = ['notifications', 'notification-deliveries', 'notification-preferences', 'contact-details', 'messages', 'announcements', 'recognitions-received', 'recognitions-given'];
/** A signed-in person with their own user account (the kit's default principal shares one). */
const userOf = (userId: string, employeeId: string, perms: Record<string, Array<{ type: 'locations'; ids: string[] }>> = {}): Principal => person(perms, { id: userId, userId, employeeId });
const rowsOf = (body: { datasets: Array<{ name: string; rows: unknown[] }> }) => Object.fromEntries(body.datasets.map((d) => [d.name, d.rows]));

describe('POST /internal/personal-data:export', () => {
  it('answers the person\'s messages, recognitions given and received, announcements, preferences and contact details, and no one else\'s', async () => {
    const a = await replicaLocation(t);
    const ana = await replicaEmployee(t, { home: a, firstName: 'Ana' });
    const bo = await replicaEmployee(t, { home: a, firstName: 'Bo' });
    const asAna = userOf('usr_ana', ana, { 'recognition.give': [{ type: 'locations', ids: [a] }] });
    const asBo = userOf('usr_bo', bo, { 'recognition.give': [{ type: 'locations', ids: [a] }] });

    const group = await t.call('POST', '/channels', { body: { name: 'Grill', kind: 'group', locationId: a, memberIds: [ana, bo] }, as: person({ 'messages.manage': [{ type: 'locations', ids: [a] }] }) });
    expect(group.status).toBe(201);
    const mine = await t.call('POST', `/channels/${group.body.id}/messages`, { body: { text: 'Grill is clean.' }, as: asAna });
    expect(mine.status).toBe(201);
    const bos = await t.call('POST', `/channels/${group.body.id}/messages`, { body: { text: 'Thanks!' }, as: asBo });
    expect(bos.status).toBe(201);
    const toAna = await t.call('POST', '/recognitions', { body: { employeeId: ana, locationId: a, message: 'Saved the rush.' }, as: asBo });
    const fromAna = await t.call('POST', '/recognitions', { body: { employeeId: bo, locationId: a, message: 'Great prep.' }, as: asAna });
    expect([toAna.status, fromAna.status]).toEqual([201, 201]);
    const ann = await newDraft(t, { title: 'Fire drill', audience: { locationIds: [a] }, acknowledgementRequired: true }, managerAt(a));
    expect((await t.call('POST', `/announcements/${ann.id}:publish`, { as: managerAt(a) })).status).toBe(200);
    expect((await t.call('POST', `/me/announcements/${ann.id}:acknowledge`, { as: me(ana) })).status).toBe(200);
    expect((await t.call('PUT', '/me/notification-preferences', { body: { kinds: { 'shift_offered': { inApp: true, email: false, sms: false, push: true } } }, as: me(ana) })).status).toBe(200);

    const r = await exportData({ userId: 'usr_ana', employeeId: ana });
    expect(r.status).toBe(200);
    expect(r.body.service).toBe('communication');
    expect(r.body.datasets.map((d: { name: string }) => d.name)).toEqual(DATASETS);
    const data = rowsOf(r.body);
    expect(data.messages).toEqual([mine.body]);
    expect(data['recognitions-received']).toEqual([toAna.body]);
    expect(data['recognitions-given']).toEqual([fromAna.body]);
    expect(data.announcements).toEqual([expect.objectContaining({ announcementId: ann.id, title: 'Fire drill', acknowledgementRequired: true, acknowledgedAt: '2026-12-01T09:00:00.000Z' })]);
    expect(data['notification-preferences']).toEqual([{ kind: 'shift_offered', inApp: true, email: false, sms: false, push: true, updatedAt: '2026-12-01T09:00:00.000Z' }]);

    // no one: nothing; the employee record alone: what they posted and received as that employee
    expect(rowsOf((await exportData({ userId: null, employeeId: null })).body)).toEqual({});
    const byRecord = rowsOf((await exportData({ userId: null, employeeId: bo })).body);
    expect([byRecord.messages, byRecord['recognitions-received'], byRecord['recognitions-given']]).toEqual([[bos.body], [fromAna.body], []]);
  });

  it('refuses a malformed body, and any caller but the platform', async () => {
    const bad = await exportData({ userId: 'usr_1' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { path: string }) => e.path)).toEqual(['employeeId']);
    const forbidden = await exportData({ userId: null, employeeId: null }, person());
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.code).toBe('forbidden');
  });
});

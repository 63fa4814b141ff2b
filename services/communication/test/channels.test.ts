import { fixedClock } from '@bop/shared';
import { integration, outboxPayloads, person, startTestService, type TestService } from '@bop/test-support';
import type { Principal } from '@bop/shared';
import { communicationService } from '../src';
import { paths, replicaEmployee, replicaLocation } from './fixtures';

const clock = fixedClock('2026-12-01T09:00:00Z');
let t: TestService;
beforeAll(async () => {
  t = await startTestService(communicationService, {}, { workers: false, clock });
});
afterAll(async () => {
  await t?.close();
});

const ids = (body: { data: Array<{ id: string }> }) => body.data.map((x) => x.id);
/** A person linked to an employee record, with no permission. */
const staff = (employeeId: string): Principal => person({}, { employeeId });
/** A person whose messages.manage reaches only these locations. */
const managerAt = (...locationIds: string[]): Principal => person({ 'messages.manage': [{ type: 'locations', ids: locationIds }] });

async function newChannel(body: Record<string, unknown>, as?: Principal): Promise<any> {
  const r = await t.call('POST', '/channels', { body: { name: 'Team', ...body }, as });
  if (r.status !== 201) throw new Error(`channel not created: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

describe('channels', () => {
  it('location team, department and group channels take their members; one location team channel per location', async () => {
    const a = await replicaLocation(t);
    const b = await replicaLocation(t);
    const home = await replicaEmployee(t, { home: a, department: 'dep_kitchen' });
    const further = await replicaEmployee(t, { home: b, locations: [a], department: 'dep_kitchen' });
    const elsewhere = await replicaEmployee(t, { home: b, department: 'dep_kitchen' });
    await replicaEmployee(t, { home: a, status: 'terminated', department: 'dep_kitchen' });

    const team = await newChannel({ kind: 'location_team', name: 'Downtown', locationId: a });
    expect(team).toMatchObject({ id: expect.stringMatching(/^chn_/), kind: 'location_team', name: 'Downtown', locationId: a, departmentId: null, memberCount: 2, isMember: false, lastMessageAt: null, createdBy: { type: 'user', id: 'usr_test' } });
    const again = await t.call('POST', '/channels', { body: { kind: 'location_team', name: 'Again', locationId: a } });
    expect([again.status, again.body.code]).toEqual([409, 'conflict']);

    const kitchen = await newChannel({ kind: 'department', name: 'Kitchen', departmentId: 'dep_kitchen' }, person({ 'messages.manage': [{ type: 'everyone' }] }, { employeeId: home }));
    expect([kitchen.memberCount, kitchen.isMember]).toEqual([3, true]);
    const kitchenA = await newChannel({ kind: 'department', name: 'Kitchen A', departmentId: 'dep_kitchen', locationId: a });
    expect(kitchenA.memberCount).toBe(2);

    const group = await newChannel({ kind: 'group', name: 'Closers', memberIds: [home, elsewhere, home] });
    expect([group.memberCount, group.locationId]).toEqual([2, null]);

    // each member sees their channels; a non-member none of them
    const mine = async (employeeId: string) => ids((await t.call('GET', '/channels', { as: staff(employeeId) })).body).sort();
    expect(await mine(home)).toEqual([team.id, kitchen.id, kitchenA.id, group.id].sort());
    expect(await mine(further)).toEqual([team.id, kitchen.id, kitchenA.id].sort());
    expect(await mine(elsewhere)).toEqual([kitchen.id, group.id].sort());
    const listed = await t.call('GET', `/channels?kind=group`, { as: staff(home) });
    expect(listed.body.data).toEqual([expect.objectContaining({ id: group.id, isMember: true })]);
  });

  it('bad input: problems with field paths', async () => {
    const a = await replicaLocation(t);
    const archived = await replicaLocation(t, { status: 'archived' });
    const terminated = await replicaEmployee(t, { home: a, status: 'terminated' });
    const cases: Array<[Record<string, unknown>, string[]]> = [
      [{ kind: 'location_team', name: 'X' }, ['locationId']],
      [{ kind: 'department', name: 'X' }, ['departmentId']],
      [{ kind: 'group', name: 'X' }, ['memberIds']],
      [{ kind: 'group', name: 'X', memberIds: [] }, ['memberIds']],
      [{ kind: 'location_team', name: 'X', locationId: a, memberIds: ['emp_1'], departmentId: 'dep_1' }, ['departmentId', 'memberIds']],
      [{ kind: 'forum', name: 'X' }, ['kind']],
      [{ kind: 'location_team', name: '  ', locationId: a }, ['name']],
      [{ kind: 'location_team', name: 'X', locationId: a, extra: 1 }, ['extra']],
      [{ kind: 'location_team', name: 'X', locationId: 'loc_nope' }, ['locationId']],
      [{ kind: 'location_team', name: 'X', locationId: archived }, ['locationId']],
      [{ kind: 'group', name: 'X', memberIds: ['emp_nope', terminated] }, ['memberIds[0]', 'memberIds[1]']],
    ];
    for (const [body, expected] of cases) {
      const r = await t.call('POST', '/channels', { body });
      expect([JSON.stringify(body), r.status, paths(r.body)]).toEqual([JSON.stringify(body), 422, expected]);
    }

    const member = await replicaEmployee(t, { home: a });
    const group = await newChannel({ kind: 'group', memberIds: [member] });
    for (const [body, expected] of [
      [{ text: '' }, ['text']],
      [{ text: 'x'.repeat(4001) }, ['text']],
      [{ text: 'Hi', attachmentIds: Array.from({ length: 11 }, (_, i) => `att_${i}`) }, ['attachmentIds']],
      [{ text: 'Hi', author: 'me' }, ['author']],
    ] as const) {
      const r = await t.call('POST', `/channels/${group.id}/messages`, { body, as: staff(member) });
      expect([r.status, paths(r.body)]).toEqual([422, expected]);
    }
    expect((await t.call('POST', `/channels/${group.id}/messages`, { body: { text: 'x'.repeat(4000) }, as: staff(member) })).status).toBe(201);
    const badCursor = await t.call('GET', `/channels/${group.id}/messages?cursor=nope`, { as: staff(member) });
    expect([badCursor.status, paths(badCursor.body)]).toEqual([400, ['cursor']]);
  });

  it('members only: others get 404 for the messages and for posting; integration keys read and post anywhere', async () => {
    const a = await replicaLocation(t);
    const alice = await replicaEmployee(t, { home: a, firstName: 'Alice' });
    const bob = await replicaEmployee(t, { home: a, firstName: 'Bob' });
    const carol = await replicaEmployee(t, { home: a, firstName: 'Carol' });
    const group = await newChannel({ kind: 'group', locationId: a, memberIds: [alice, bob] });

    const posted = await t.call('POST', `/channels/${group.id}/messages`, { body: { text: '  Walk-in is fixed.  ' }, as: staff(alice) });
    expect(posted.status).toBe(201);
    expect(posted.body).toEqual({ id: expect.stringMatching(/^msg_/), channelId: group.id, text: 'Walk-in is fixed.', attachmentIds: [], author: { type: 'user', id: 'usr_test' }, authorName: 'Alice Cook', createdAt: '2026-12-01T09:00:00.000Z' });
    expect((await t.call('GET', `/channels/${group.id}/messages`, { as: staff(bob) })).body.data).toEqual([posted.body]);

    for (const as of [staff(carol), person({}), managerAt(a), person({ 'messages.manage': [{ type: 'everyone' }] })]) {
      expect((await t.call('GET', `/channels/${group.id}/messages`, { as })).status).toBe(404);
      const r = await t.call('POST', `/channels/${group.id}/messages`, { body: { text: 'Let me in' }, as });
      expect([r.status, r.body.code]).toEqual([404, 'not_found']);
    }
    expect((await t.call('GET', '/channels/chn_nope/messages', { as: staff(alice) })).status).toBe(404);

    const bridge = integration(['communication:write', 'communication:read']);
    const fromKey = await t.call('POST', `/channels/${group.id}/messages`, { body: { text: 'Delivery at 3.' }, as: bridge });
    expect([fromKey.status, fromKey.body.author, fromKey.body.authorName]).toEqual([201, { type: 'integration', id: 'int_test' }, null]);
    expect(ids((await t.call('GET', `/channels/${group.id}/messages`, { as: bridge })).body)).toEqual([fromKey.body.id, posted.body.id]);
    expect((await t.call('GET', '/channels', { as: staff(alice) })).body.data).toEqual([expect.objectContaining({ id: group.id, lastMessageAt: '2026-12-01T09:00:00.000Z' })]);
    // the channel's creation and each message posted record their change event (the project's types), keyed by the channel
    const events = await outboxPayloads(t, 'communication', { aggregateId: group.id });
    expect(events.map((e) => [e.type, e.data.object.id])).toEqual([
      ['channel.created', group.id],
      ['message.posted', posted.body.id],
      ['message.posted', fromKey.body.id],
    ]);
    expect(events[0]).toMatchObject({ locationId: a, data: { object: group } });
    expect(events[1]).toMatchObject({ locationId: a, actor: { type: 'user', id: 'usr_test' }, data: { object: posted.body } });
    expect(events[2]).toMatchObject({ actor: { type: 'integration', id: 'int_test' }, data: { object: fromKey.body } });
  });

  it('messages newest first, in cursor pages with no skips or duplicates', async () => {
    const a = await replicaLocation(t);
    const alice = await replicaEmployee(t, { home: a });
    const group = await newChannel({ kind: 'group', memberIds: [alice] });
    const sent: string[] = [];
    for (let i = 0; i < 7; i += 1) sent.push((await t.call('POST', `/channels/${group.id}/messages`, { body: { text: `Message ${i}` }, as: staff(alice) })).body.id);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const r: any = await t.call('GET', `/channels/${group.id}/messages?limit=3${cursor ? `&cursor=${cursor}` : ''}`, { as: staff(alice) });
      expect(r.status).toBe(200);
      seen.push(...ids(r.body));
      cursor = r.body.nextCursor;
      pages += 1;
      expect(r.body.hasMore).toBe(cursor !== null);
    } while (cursor);
    expect([pages, seen]).toEqual([3, [...sent].reverse()]);
  });

  it('permission and reach: messages.manage creates within its reach and lists what it reaches', async () => {
    const a = await replicaLocation(t);
    const b = await replicaLocation(t);
    const atA = await replicaEmployee(t, { home: a });
    const atB = await replicaEmployee(t, { home: b });

    const noPermission = await t.call('POST', '/channels', { body: { kind: 'location_team', name: 'A', locationId: a }, as: staff(atA) });
    expect([noPermission.status, noPermission.body.code]).toEqual([403, 'forbidden']);
    const outside = await t.call('POST', '/channels', { body: { kind: 'location_team', name: 'B', locationId: b }, as: managerAt(a) });
    expect([outside.status, outside.body.code]).toEqual([403, 'out_of_reach']);
    const companyWide = await t.call('POST', '/channels', { body: { kind: 'group', name: 'All', memberIds: [atA] }, as: managerAt(a) });
    expect([companyWide.status, companyWide.body.code]).toEqual([403, 'out_of_reach']);
    const memberOutside = await t.call('POST', '/channels', { body: { kind: 'group', name: 'Mixed', locationId: a, memberIds: [atA, atB] }, as: managerAt(a) });
    expect([memberOutside.status, memberOutside.body.code]).toEqual([403, 'out_of_reach']);

    const teamA = await newChannel({ kind: 'location_team', locationId: a }, managerAt(a));
    const teamB = await newChannel({ kind: 'location_team', locationId: b });
    const everywhere = await newChannel({ kind: 'group', memberIds: [atB] });
    const listA = ids((await t.call('GET', '/channels?limit=200', { as: managerAt(a) })).body);
    expect(listA).toContain(teamA.id);
    expect(listA).not.toContain(teamB.id);
    expect(listA).not.toContain(everywhere.id);
    const byLocation = await t.call('GET', `/channels?locationId=${b}`, { as: integration(['communication:read']) });
    expect(ids(byLocation.body)).toEqual([teamB.id]);
    const all = ids((await t.call('GET', '/channels?limit=200', { as: person({ 'messages.manage': [{ type: 'everyone' }] }) })).body);
    expect(all).toEqual(expect.arrayContaining([teamA.id, teamB.id, everywhere.id]));
    // anyone else: only their own channels
    expect(ids((await t.call('GET', '/channels?limit=200', { as: staff(atB) })).body).sort()).toEqual([teamB.id, everywhere.id].sort());
    expect(ids((await t.call('GET', '/channels', { as: person({}) })).body)).toEqual([]);
  });
});

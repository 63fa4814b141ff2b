import { integration, outboxPayloads, person, startTestService, type TestService } from '@bop/test-support';
import { communicationService } from '../src';
import { paths, replicaEmployee, replicaLocation } from './fixtures';

let t: TestService;
beforeAll(async () => {
  t = await startTestService(communicationService);
});
afterAll(async () => {
  await t?.close();
});

const pos = integration(['reports:write'], { integrationId: 'int_pos', id: 'int_pos' });
const push = (body: unknown) => t.call('POST', '/display-metrics', { body, as: pos });
const giverAt = (...ids: string[]) => person({ 'recognition.give': [{ type: 'locations', ids }] }, { employeeId: 'emp_giver' });

describe('recognitions', () => {
  it('posts a shout-out to an active employee at their location; recognition.posted; newest first', async () => {
    const a = await replicaLocation(t);
    const b = await replicaLocation(t);
    const star = await replicaEmployee(t, { home: a, locations: [b], firstName: 'Maya' });
    const r = await t.call('POST', '/recognitions', { body: { employeeId: star, message: 'Saved the Friday rush on the grill.', badge: 'team_player' }, as: giverAt(a) });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ id: expect.stringMatching(/^rcg_/), employeeId: star, employeeName: 'Maya Cook', locationId: a, badge: 'team_player', givenBy: { type: 'user', id: 'usr_test' } });
    const [event] = await outboxPayloads(t, 'communication', { type: 'recognition.posted', aggregateId: r.body.id });
    expect(event).toMatchObject({ apiVersion: 'v1', locationId: a, actor: { type: 'user', id: 'usr_test' }, data: { object: { id: r.body.id, message: 'Saved the Friday rush on the grill.' } } });

    const atB = await t.call('POST', '/recognitions', { body: { employeeId: star, message: 'Great close.', locationId: b } });
    expect(atB.body.locationId).toBe(b);
    const list = await t.call('GET', `/recognitions?employeeId=${star}&limit=1`);
    expect([list.body.data.map((x: { id: string }) => x.id), list.body.hasMore]).toEqual([[atB.body.id], true]);
    const next = await t.call('GET', `/recognitions?employeeId=${star}&cursor=${list.body.nextCursor}`);
    expect(next.body.data.map((x: { id: string }) => x.id)).toEqual([r.body.id]);
    expect((await t.call('GET', `/recognitions?locationId=${b}`)).body.data.map((x: { id: string }) => x.id)).toEqual([atB.body.id]);
  });

  it('refuses with field paths: unknown or terminated employee, a location they do not work at, oneself; reach', async () => {
    const a = await replicaLocation(t);
    const other = await replicaLocation(t);
    const gone = await replicaEmployee(t, { home: a, status: 'terminated' });
    const star = await replicaEmployee(t, { home: a });
    const bad = await t.call('POST', '/recognitions', { body: { message: '', employeeId: star, badge: 7 } });
    expect([bad.status, paths(bad.body)]).toEqual([422, ['badge', 'message']]);
    expect(paths((await t.call('POST', '/recognitions', { body: { employeeId: 'emp_nope', message: 'Hi' } })).body)).toEqual(['employeeId']);
    expect((await t.call('POST', '/recognitions', { body: { employeeId: gone, message: 'Hi' } })).body.errors[0].message).toMatch(/terminated/);
    expect(paths((await t.call('POST', '/recognitions', { body: { employeeId: star, message: 'Hi', locationId: other } })).body)).toEqual(['locationId']);
    const self = await t.call('POST', '/recognitions', { body: { employeeId: star, message: 'Me!' }, as: person(undefined, { employeeId: star }) });
    expect([self.status, paths(self.body)]).toEqual([422, ['employeeId']]);
    const outOfReach = await t.call('POST', '/recognitions', { body: { employeeId: star, message: 'Hi' }, as: giverAt(other) });
    expect([outOfReach.status, outOfReach.body.code]).toEqual([403, 'out_of_reach']);
    const noPermission = await t.call('POST', '/recognitions', { body: { employeeId: star, message: 'Hi' }, as: person({}) });
    expect([noPermission.status, noPermission.body.code]).toEqual([403, 'forbidden']);
  });
});

describe('display metrics', () => {
  it('keeps the latest value of each named number per location; a push measured earlier keeps the newer value', async () => {
    const a = await replicaLocation(t);
    const b = await replicaLocation(t);
    const first = await push({ locationId: a, measuredAt: '2026-12-01T12:00:00Z', metrics: [{ name: 'sales_today', value: '1250.50', unit: 'USD', label: 'Sales today' }, { name: 'covers', value: '84' }] });
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual([
      { locationId: a, name: 'sales_today', value: '1250.50', unit: 'USD', label: 'Sales today', measuredAt: '2026-12-01T12:00:00.000Z', updatedAt: expect.any(String) },
      { locationId: a, name: 'covers', value: '84', unit: null, label: null, measuredAt: '2026-12-01T12:00:00.000Z', updatedAt: expect.any(String) },
    ]);
    await push({ locationId: b, metrics: [{ name: 'sales_today', value: '-3.25' }] });
    const newer = await push({ locationId: a, measuredAt: '2026-12-01T12:05:00Z', metrics: [{ name: 'sales_today', value: '1310.00', unit: 'USD', label: 'Sales today' }] });
    expect(newer.body.data[0]).toMatchObject({ value: '1310.00', measuredAt: '2026-12-01T12:05:00.000Z' });
    const late = await push({ locationId: a, measuredAt: '2026-12-01T12:01:00Z', metrics: [{ name: 'sales_today', value: '1260.00' }] });
    expect(late.body.data[0]).toMatchObject({ value: '1310.00', measuredAt: '2026-12-01T12:05:00.000Z' });
    // the same push again changes nothing
    await push({ locationId: a, measuredAt: '2026-12-01T12:05:00Z', metrics: [{ name: 'sales_today', value: '1310.00', unit: 'USD', label: 'Sales today' }] });

    // display_metric.updated (the project's type) for each metric whose latest value changed, the metric as the API returns it; the late and the repeated push record none
    const updates = (await outboxPayloads(t, 'communication', { type: 'display_metric.updated' })).filter((e) => e.locationId === a);
    expect(updates.map((e) => [e.data.object.name, e.data.object.value])).toEqual([['sales_today', '1250.50'], ['covers', '84'], ['sales_today', '1310.00']]);
    expect(updates[2]).toMatchObject({ actor: { type: 'integration', id: 'int_pos' }, data: { object: newer.body.data[0] } });

    const atA = await t.call('GET', `/display-metrics?locationId=${a}`);
    expect(atA.body.data.map((m: { name: string; value: string }) => [m.name, m.value])).toEqual([['sales_today', '1310.00'], ['covers', '84']]);
    expect((await t.call('GET', `/display-metrics?name=sales_today&locationId=${b}`)).body.data).toEqual([expect.objectContaining({ value: '-3.25' })]);
    // a person reads them too (people: anyone), within the locations asked for
    expect((await t.call('GET', `/display-metrics?locationId=${a}`, { as: person({}) })).body.data).toHaveLength(2);
  });

  it('bad input: numbers as decimal strings, names, an unknown or archived location, repeats', async () => {
    const a = await replicaLocation(t);
    const closed = await replicaLocation(t, { status: 'archived' });
    const r1 = await push({ locationId: a, metrics: [{ name: 'Sales Today', value: 12.5 }, { name: 'covers', value: '1e3' }] });
    expect([r1.status, paths(r1.body)]).toEqual([422, ['metrics[0].name', 'metrics[0].value', 'metrics[1].value']]);
    expect(paths((await push({ locationId: a, metrics: [{ name: 'covers', value: '1' }, { name: 'covers', value: '2' }] })).body)).toEqual(['metrics[1].name']);
    expect(r1.body.errors.find((e: { path: string }) => e.path === 'metrics[0].value').message).toMatch(/decimal strings/);
    expect(paths((await push({ locationId: 'loc_nope', metrics: [{ name: 'covers', value: '1' }] })).body)).toEqual(['locationId']);
    expect(paths((await push({ locationId: closed, metrics: [{ name: 'covers', value: '1' }] })).body)).toEqual(['locationId']);
    expect(paths((await push({ locationId: a, metrics: [] })).body)).toEqual(['metrics']);
  });
});

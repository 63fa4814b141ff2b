import { organizationService } from '../src';
import { outboxEvents, startTestService, type TestService } from '@bop/test-support';
import { newLocation, newOrgUnit } from './fixtures';

let t: TestService;
beforeAll(async () => {
  t = await startTestService(organizationService);
});
afterAll(async () => {
  await t?.close();
});

describe('org units', () => {
  it('builds a tree with paths and lists children by parent', async () => {
    const region = await newOrgUnit(t, 'North');
    const area = await newOrgUnit(t, 'North-East', region.id);
    expect(area.path).toEqual([region.id]);
    const children = await t.call('GET', `/org-units?parentId=${region.id}`);
    expect(children.body.data.map((u: { id: string }) => u.id)).toEqual([area.id]);
    const roots = await t.call('GET', '/org-units?parentId=root');
    expect(roots.body.data.map((u: { id: string }) => u.id)).toContain(region.id);
    expect(roots.body.data.map((u: { id: string }) => u.id)).not.toContain(area.id);
  });

  it('moves a unit and refuses cycles', async () => {
    const a = await newOrgUnit(t, 'A');
    const b = await newOrgUnit(t, 'B', a.id);
    const c = await newOrgUnit(t, 'C', b.id);
    const cycle = await t.call('PATCH', `/org-units/${a.id}`, { body: { parentId: c.id } });
    expect(cycle.status).toBe(422);
    expect(cycle.body.errors[0].path).toBe('parentId');
    const self = await t.call('PATCH', `/org-units/${a.id}`, { body: { parentId: a.id } });
    expect(self.status).toBe(422);
    const move = await t.call('PATCH', `/org-units/${c.id}`, { body: { parentId: a.id } });
    expect(move.status).toBe(200);
    expect(move.body).toMatchObject({ parentId: a.id, path: [a.id], version: 2 });
    const ev = (await outboxEvents(t, 'organization')).filter((e) => e.aggregate_id === c.id).map((e) => e.type);
    expect(ev).toEqual(['org_unit.created', 'org_unit.updated']);
  });

  it('refuses to archive a unit with active locations or children (409), then archives', async () => {
    const parent = await newOrgUnit(t, 'Busy');
    const child = await newOrgUnit(t, 'Busy child', parent.id);
    const loc = await newLocation(t, { orgUnitId: child.id });
    expect((await t.call('DELETE', `/org-units/${parent.id}`)).status).toBe(409);
    const busyChild = await t.call('DELETE', `/org-units/${child.id}`);
    expect(busyChild.status).toBe(409);
    expect(busyChild.body.code).toBe('conflict');
    const before = (await outboxEvents(t, 'organization')).filter((e) => e.type === 'org_unit.archived').length;
    expect(before).toBe(0);
    await t.call('DELETE', `/locations/${loc.id}`);
    expect((await t.call('DELETE', `/org-units/${child.id}`)).body.status).toBe('archived');
    expect((await t.call('DELETE', `/org-units/${parent.id}`)).body.status).toBe('archived');
    expect((await outboxEvents(t, 'organization')).filter((e) => e.type === 'org_unit.archived')).toHaveLength(2);
  });
});

import { organizationService } from '../src';
import { outboxEvents, person, startTestService, type TestService } from '@bop/test-support';
import { newLocation } from './fixtures';

let t: TestService;
beforeAll(async () => {
  t = await startTestService(organizationService);
});
afterAll(async () => {
  await t?.close();
});

describe('departments', () => {
  it('creates company-wide and location departments, filters, and applies reach', async () => {
    const mine = await newLocation(t);
    const theirs = await newLocation(t);
    const wide = await t.call('POST', '/departments', { body: { name: 'Kitchen', code: 'KIT' } });
    expect(wide.status).toBe(201);
    expect(wide.body.locationId).toBeNull();
    const local = await t.call('POST', '/departments', { body: { name: 'Bar', locationId: mine.id } });
    const far = await t.call('POST', '/departments', { body: { name: 'Bakery', locationId: theirs.id } });
    expect(local.status).toBe(201);
    const filtered = await t.call('GET', `/departments?locationId=${mine.id}`);
    expect(filtered.body.data.map((d: { id: string }) => d.id)).toEqual([local.body.id]);
    const manager = person({
      'organization.read': [{ type: 'locations', ids: [mine.id] }],
      'departments.manage': [{ type: 'locations', ids: [mine.id] }],
    });
    const seen = await t.call('GET', '/departments', { as: manager });
    expect(seen.body.data.map((d: { id: string }) => d.id).sort()).toEqual([wide.body.id, local.body.id].sort());
    const patchFar = await t.call('PATCH', `/departments/${far.body.id}`, { as: manager, body: { name: 'x' } });
    expect(patchFar.status).toBe(403);
    expect(patchFar.body.code).toBe('out_of_reach');
    const patchWide = await t.call('PATCH', `/departments/${wide.body.id}`, { as: manager, body: { name: 'x' } });
    expect(patchWide.body.code).toBe('out_of_reach');
    const createFar = await t.call('POST', '/departments', { as: manager, body: { name: 'x', locationId: theirs.id } });
    expect(createFar.body.code).toBe('out_of_reach');
    const ok = await t.call('PATCH', `/departments/${local.body.id}`, { as: manager, body: { name: 'Cocktail bar' } });
    expect(ok.body).toMatchObject({ name: 'Cocktail bar', version: 2 });
    const del = await t.call('DELETE', `/departments/${local.body.id}`, { as: manager });
    expect(del.body.status).toBe('archived');
    const types = (await outboxEvents(t, 'organization')).filter((e) => e.aggregate_id === local.body.id).map((e) => e.type);
    expect(types).toEqual(['department.created', 'department.updated', 'department.archived']);
  });

  it('refuses an unknown location with a field error', async () => {
    const res = await t.call('POST', '/departments', { body: { name: 'Ghost', locationId: 'loc_nope' } });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].path).toBe('locationId');
  });
});

import { integration, outboxPayloads, person, sql, startTestService, type TestService } from '@bop/test-support';
import { timeService } from '../src';
import { CALIFORNIA } from './rule-sets';

let t: TestService;
beforeAll(async () => {
  t = await startTestService(timeService, {}, { workers: false });
});
afterAll(async () => {
  await t?.close();
});

let n = 0;
async function replicaLocation(status = 'active'): Promise<string> {
  n += 1;
  const id = `loc_time${n}`;
  await sql(t, `insert into time.locations (id, external_id, timezone, business_day_cutoff, status, org_unit_id, updated_at) values ($1, null, 'America/Los_Angeles', '04:00', $2, null, now())`, [id, status]);
  return id;
}


describe('overtime rules', () => {
  it('answer the 40-hour default, then the company\'s, and a location\'s own over the company\'s', async () => {
    const la = await replicaLocation();
    const other = await replicaLocation();
    const initial = await t.call('GET', '/time/overtime-rules');
    expect(initial.body).toEqual({ locationId: null, inheritedFrom: 'default', daily: [], weekly: [{ after: '40', multiplier: '1.5' }], consecutiveDay: null, version: 0, updatedAt: null });
    const company = await t.call('PUT', '/time/overtime-rules', { body: { daily: [], weekly: [{ after: '40', multiplier: '1.5' }], consecutiveDay: null }, headers: { 'if-match': '"0"' } });
    expect(company.body).toMatchObject({ locationId: null, inheritedFrom: null, version: 1 });
    const own = await t.call('PUT', '/time/overtime-rules', { body: { locationId: la, ...CALIFORNIA } });
    expect(own.body).toMatchObject({ locationId: la, inheritedFrom: null, ...CALIFORNIA, version: 1 });
    expect((await t.call('GET', `/time/overtime-rules?locationId=${la}`)).body).toMatchObject({ inheritedFrom: null, daily: CALIFORNIA.daily });
    expect((await t.call('GET', `/time/overtime-rules?locationId=${other}`)).body).toMatchObject({ locationId: other, inheritedFrom: 'company', daily: [], version: 0 });
    const stale = await t.call('PUT', '/time/overtime-rules', { body: { locationId: la, ...CALIFORNIA }, headers: { 'if-match': '"7"' } });
    expect(stale.body.code).toBe('version_mismatch');
    // a change event per change (issue 41 item 3), data.object the rules as the API returns them; the same rules again record none
    const again = await t.call('PUT', '/time/overtime-rules', { body: { locationId: la, ...CALIFORNIA } });
    expect(again.body.version).toBe(2);
    const events = await outboxPayloads(t, 'time', { type: 'overtime_rules.updated', aggregateId: `overtime:${la}` });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ locationId: la, data: { object: own.body, previous: { inheritedFrom: 'company' } } });
  });

  it('refuses tiers that do not rise, multipliers out of range, unknown or archived locations', async () => {
    const bad = await t.call('PUT', '/time/overtime-rules', {
      body: { daily: [{ after: '12', multiplier: '2' }, { after: '8', multiplier: '1.5' }], weekly: [{ after: '40', multiplier: '0.5' }], consecutiveDay: { day: 9, tiers: [] } },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['consecutiveDay.day', 'daily[1].after', 'daily[1].multiplier', 'weekly[0].multiplier']);
    const archived = await replicaLocation('archived');
    const gone = await t.call('PUT', '/time/overtime-rules', { body: { locationId: archived, ...CALIFORNIA } });
    expect(gone.body.errors).toEqual([{ path: 'locationId', message: `Location ${archived} is archived; it takes no new rules.` }]);
    const floats = await t.call('PUT', '/time/overtime-rules', { body: { daily: [{ after: 8, multiplier: 1.5 }], weekly: [], consecutiveDay: null } });
    expect(floats.body.errors.map((e: { path: string }) => e.path)).toEqual(['daily[0].after', 'daily[0].multiplier']);
  });

  it('reads a location\'s rules within reach, the company\'s with any reach', async () => {
    const here = await replicaLocation();
    const there = await replicaLocation();
    const local = person({ 'time.read': [{ type: 'locations', ids: [here] }] });
    expect((await t.call('GET', `/time/overtime-rules?locationId=${here}`, { as: local })).status).toBe(200);
    expect((await t.call('GET', `/time/overtime-rules?locationId=${there}`, { as: local })).body.code).toBe('out_of_reach');
    expect((await t.call('GET', '/time/overtime-rules', { as: local })).status).toBe(200);
    expect((await t.call('GET', '/time/break-rules', { as: integration(['time:read']) })).status).toBe(200);
  });
});

describe('break rules', () => {
  it('replace the company\'s or a location\'s list as a whole', async () => {
    const here = await replicaLocation();
    expect((await t.call('GET', '/time/break-rules')).body).toMatchObject({ breaks: [], maxShiftHours: null, inheritedFrom: 'default' });
    const breaks = [
      { name: 'Rest break', paid: true, minutes: 10, dueAfterHours: '3.5' },
      { name: 'Meal break', paid: false, minutes: 30, dueAfterHours: '5' },
    ];
    const put = await t.call('PUT', '/time/break-rules', { body: { locationId: here, breaks, maxShiftHours: '12' } });
    expect(put.body).toMatchObject({ locationId: here, breaks, maxShiftHours: '12', version: 1 });
    const again = await t.call('PUT', '/time/break-rules', { body: { locationId: here, breaks: breaks.slice(1) } });
    expect(again.body).toMatchObject({ breaks: breaks.slice(1), maxShiftHours: null, version: 2 });
    const bad = await t.call('PUT', '/time/break-rules', { body: { breaks: [{ name: 'x', paid: 'yes', minutes: 0, dueAfterHours: '5' }] } });
    expect(bad.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['breaks[0].minutes', 'breaks[0].paid']);
  });
});

import { fixedClock } from '@bop/shared';
import { integration, outboxPayloads, person, sql, type TestService, startTestService } from '@bop/test-support';
import { operationsService } from '../src';
import { readingPartitions } from '../src/sensors/partitions-store';
import { maintainReadingPartitions } from '../src/sensors/workers';

// the service's clock, moved by the tests; its workers run only when a test runs a round
const START = '2026-03-03T00:00:00Z';
const clock = fixedClock(START);
let t: TestService;
beforeAll(async () => {
  t = await startTestService(operationsService, {}, { workers: false, clock });
});
afterAll(async () => {
  await t?.close();
});
beforeEach(() => clock.set(START));
const alarmCheck = () => t.svc.worker('sensor-alarm-check').runOnce();

const feed = integration(['operations:write', 'operations:read']);
let n = 0;
const next = () => `${Date.now().toString(36)}${(n += 1)}`;

async function replicaLocation(o: { status?: string } = {}): Promise<string> {
  const id = `loc_s${next()}`;
  await sql(t, `insert into operations.locations (id, external_id, timezone, business_day_cutoff, status, org_unit_id, updated_at) values ($1, null, 'UTC', '04:00', $2, null, now())`, [id, o.status ?? 'active']);
  return id;
}

async function newSensor(locationId: string, over: Record<string, unknown> = {}) {
  const r = await t.call('POST', '/sensors', { body: { name: `Walk-in ${next()}`, kind: 'temperature', unit: 'C', min: '0', max: '5', alarmDelayMinutes: 15, locationId, ...over } });
  expect(r.status).toBe(201);
  return r.body;
}

const send = (readings: unknown[], source = 'probe-hub') => t.call('POST', '/sensor-readings', { body: { source, readings }, as: feed });
const T0 = Date.parse('2026-03-02T10:00:00Z');
const at = (minute: number, base = T0) => new Date(base + minute * 60_000).toISOString();
const alarmEvents = async (sensorId: string) => (await outboxPayloads(t, 'operations', { type: 'sensor.out_of_range', aggregateId: sensorId })).map((e) => e.data.object);

describe('sensors', () => {
  it('are created, read, replaced by externalId, patched with If-Match and archived', async () => {
    const loc = await replicaLocation();
    const created = await t.call('POST', '/sensors', { body: { name: 'Humidity store', kind: 'humidity', max: '70', locationId: loc, externalId: `H-${next()}` } });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe(`/api/v1/sensors/${created.body.id}`);
    expect(created.body).toMatchObject({ id: expect.stringMatching(/^sen_/), kind: 'humidity', unit: '%', min: null, max: '70', alarmDelayMinutes: 15, status: 'active', version: 1, lastReading: null, alarm: { state: 'no_readings' } });
    expect((await t.call('GET', `/sensors/external/${created.body.externalId}`)).body.id).toBe(created.body.id);

    const ext = `T-${next()}`;
    const body = { name: 'Freezer', kind: 'temperature', unit: 'F', max: '0', alarmDelayMinutes: 30, locationId: loc, assetId: 'ast_unchecked' };
    const put = await t.call('PUT', `/sensors/external/${ext}`, { body });
    expect(put.status).toBe(201);
    // equipment is not configured in this process: the asset id is kept as sent
    expect(put.body).toMatchObject({ externalId: ext, unit: 'F', max: '0', assetId: 'ast_unchecked', version: 1 });
    const same = await t.call('PUT', `/sensors/external/${ext}`, { body });
    expect([same.status, same.body.version]).toEqual([200, 1]);
    const replaced = await t.call('PUT', `/sensors/external/${ext}`, { body: { ...body, max: '-10.50' } });
    expect([replaced.status, replaced.body.version, replaced.body.max]).toEqual([200, 2, '-10.5']);

    const stale = await t.call('PATCH', `/sensors/${put.body.id}`, { body: { name: 'Freezer 2' }, headers: { 'if-match': '"1"' } });
    expect([stale.status, stale.body.code]).toEqual([409, 'version_mismatch']);
    const patched = await t.call('PATCH', `/sensors/${put.body.id}`, { body: { name: 'Freezer 2', assetId: null }, headers: { 'if-match': '"2"' } });
    expect(patched.body).toMatchObject({ name: 'Freezer 2', assetId: null, version: 3 });
    expect(patched.headers.get('etag')).toBe('"3"');

    const taken = await t.call('PATCH', `/sensors/${put.body.id}`, { body: { externalId: created.body.externalId } });
    expect([taken.status, taken.body.errors]).toEqual([409, [{ path: 'externalId', message: `Already used by sensor ${created.body.id}.` }]]);

    const archived = await t.call('DELETE', `/sensors/${put.body.id}`);
    expect(archived.body).toMatchObject({ status: 'archived', archivedAt: expect.any(String), version: 4 });
    expect((await t.call('DELETE', `/sensors/${put.body.id}`)).body.version).toBe(4);
    // a sync does not revive it unless it says so
    expect((await t.call('PUT', `/sensors/external/${ext}`, { body: { ...body, max: '-12' } })).body.status).toBe('archived');
    const revived = await t.call('PUT', `/sensors/external/${ext}`, { body: { ...body, max: '-12', status: 'active' } });
    expect(revived.body).toMatchObject({ status: 'active', archivedAt: null });

    // a change event per change (the project's own types), data.object the sensor as the API returns it; unchanged sends record none
    const events = await outboxPayloads(t, 'operations', { aggregateId: put.body.id });
    expect(events.map((e) => [e.type, e.data.object.id, e.data.object.version])).toEqual([
      ['sensor.created', put.body.id, 1],
      ['sensor.updated', put.body.id, 2],
      ['sensor.updated', put.body.id, 3],
      ['sensor.archived', put.body.id, 4],
      ['sensor.updated', put.body.id, 5],
      ['sensor.updated', put.body.id, 6],
    ]);
    expect(events[0]).toMatchObject({ locationId: loc, data: { object: put.body } });
    expect(events[2].data).toMatchObject({ object: patched.body, previous: { name: 'Freezer', assetId: 'ast_unchecked' } });
    expect(events[3].data.object).toEqual(archived.body);
    expect(events[5].data.object).toEqual(revived.body);
  });

  it('refuses a bad sensor with field paths', async () => {
    const loc = await replicaLocation();
    const gone = await replicaLocation({ status: 'archived' });
    const bad = async (body: Record<string, unknown>) => {
      const r = await t.call('POST', '/sensors', { body: { name: 'X', kind: 'temperature', unit: 'C', min: '0', max: '5', locationId: loc, ...body } });
      expect(r.status).toBe(422);
      return r.body.errors.map((e: { path: string }) => e.path);
    };
    expect(await bad({ unit: 'K' })).toEqual(['unit']);
    expect(await bad({ min: '6' })).toEqual(['max']);
    expect(await bad({ min: null, max: null })).toEqual(['min']);
    expect(await bad({ max: 5 })).toEqual(['max']);
    expect(await bad({ kind: 'other', unit: undefined })).toEqual(['unit']);
    expect(await bad({ alarmDelayMinutes: -1 })).toEqual(['alarmDelayMinutes']);
    expect(await bad({ name: 'a\u0000b' })).toEqual(['name']);
    expect(await bad({ max: '1'.repeat(40) })).toEqual(['max']);
    expect(await bad({ locationId: 'loc_nowhere' })).toEqual(['locationId']);
    expect(await bad({ locationId: gone })).toEqual(['locationId']);
  });

  it('are listed and read within the reach of the person', async () => {
    const a = await replicaLocation();
    const b = await replicaLocation();
    const sa = await newSensor(a);
    const sb = await newSensor(b);
    const onlyA = person({ 'sensors.manage': [{ type: 'locations', ids: [a] }] });
    const listed = await t.call('GET', '/sensors?limit=200', { as: onlyA });
    expect(listed.body.data.map((s: { id: string }) => s.id)).toContain(sa.id);
    expect(listed.body.data.map((s: { locationId: string }) => s.locationId).every((l: string) => l === a)).toBe(true);
    expect((await t.call('GET', `/sensors/${sb.id}`, { as: onlyA })).body.code).toBe('out_of_reach');
    expect((await t.call('GET', `/sensors?locationId=${b}`, { as: onlyA })).body.code).toBe('out_of_reach');
    expect((await t.call('POST', '/sensors', { as: onlyA, body: { name: 'X', kind: 'humidity', max: '60', locationId: b } })).body.code).toBe('out_of_reach');
    expect((await t.call('PATCH', `/sensors/${sa.id}`, { as: onlyA, body: { locationId: b } })).body.code).toBe('out_of_reach');
    expect((await t.call('GET', `/sensors/sen_nothing`)).status).toBe(404);
  });
});

describe('POST /sensor-readings', () => {
  it('stores each reading once per sensor and time: created, unchanged, updated, duplicate; rejects bad ones on their own', async () => {
    const loc = await replicaLocation();
    const s = await newSensor(loc, { externalId: `P-${next()}` });
    const archived = await newSensor(loc);
    await t.call('DELETE', `/sensors/${archived.id}`);
    const first = await send([
      { sensorId: s.id, readAt: at(0), value: '3.5' },
      { sensorExternalId: s.externalId, readAt: at(1), value: '3.6', externalId: 'dev-1' },
      { sensorId: s.id, readAt: '2026-03-02T10:00:00.000Z', value: '3.9' },
      { sensorId: 'sen_nobody', readAt: at(2), value: '1' },
      { sensorExternalId: 'none', readAt: at(2), value: '1' },
      { sensorId: s.id, readAt: '2026-03-02T11:02:00+01:00', value: '1' },
      { sensorId: s.id, readAt: at(3), value: 1.5 },
      { sensorId: s.id, readAt: at(3), value: '1\u0000' },
      { sensorId: s.id, sensorExternalId: 'x', readAt: at(3), value: '1' },
      { sensorId: archived.id, readAt: at(3), value: '1' },
      { sensorId: s.id, readAt: '2099-01-01T00:00:00Z', value: '1' },
      { sensorId: s.id, readAt: at(4), value: '1'.repeat(30) },
    ]);
    expect(first.status).toBe(202);
    expect(first.body).toMatchObject({ received: 12, created: 2, duplicate: 1, rejected: 9 });
    const res = first.body.results;
    expect(res[0]).toMatchObject({ status: 'created', id: s.id, externalId: null });
    expect(res[1]).toMatchObject({ status: 'created', externalId: 'dev-1' });
    expect(res[2].status).toBe('duplicate');
    expect(res[3].errors).toEqual([{ path: 'sensorId', message: 'No sensor sen_nobody.' }]);
    expect(res[4].errors).toEqual([{ path: 'sensorExternalId', message: 'No sensor with externalId none.' }]);
    const paths = (i: number) => res[i].errors.map((e: { path: string }) => e.path);
    expect([paths(5), paths(6), paths(7), paths(8), paths(10), paths(11)]).toEqual([['readAt'], ['value'], ['value'], ['sensorId'], ['readAt'], ['value']]);
    expect(res[9].errors[0]).toMatchObject({ path: 'sensorId', message: expect.stringContaining('archived') });

    const again = await send([
      { sensorId: s.id, readAt: at(0), value: '3.50' },
      { sensorId: s.id, readAt: at(1), value: '4' },
    ]);
    expect(again.body.results.map((r: { status: string }) => r.status)).toEqual(['unchanged', 'updated']);
    const batches = await outboxPayloads(t, 'operations', { type: 'operations.batch.completed' });
    expect(batches.find((b) => b.data.object.batchId === again.body.batchId).data.object).toMatchObject({ source: 'probe-hub', endpoint: 'POST /sensor-readings', integrationId: 'int_test', received: 2, unchanged: 1, updated: 1 });

    expect((await t.call('POST', '/sensor-readings', { body: { source: 'x', readings: Array.from({ length: 1001 }, () => ({})) }, as: feed })).status).toBe(413);
    expect((await t.call('POST', '/sensor-readings', { body: { source: 'x', readings: [] }, as: feed })).status).toBe(422);
  });

  it('answers the readings of a sensor newest first, at most the limit, within from/to, judged against the range', async () => {
    const loc = await replicaLocation();
    const s = await newSensor(loc);
    await send(Array.from({ length: 20 }, (_, m) => ({ sensorId: s.id, readAt: at(m), value: m === 5 ? '7.25' : '2' })));
    const all = await t.call('GET', `/sensors/${s.id}/readings`);
    expect(all.body).toMatchObject({ sensorId: s.id, unit: 'C', min: '0', max: '5' });
    expect(all.body.data).toHaveLength(20);
    expect(all.body.data[0]).toMatchObject({ readAt: at(19), value: '2', inRange: true });
    expect(all.body.data[14]).toMatchObject({ readAt: at(5), value: '7.25', inRange: false });
    const some = await t.call('GET', `/sensors/${s.id}/readings?limit=3&from=${at(2)}&to=${at(10)}`);
    expect(some.body.data.map((r: { readAt: string }) => r.readAt)).toEqual([at(9), at(8), at(7)]);
    expect((await t.call('GET', `/sensors/${s.id}/readings?limit=1001`)).body.errors).toEqual([expect.objectContaining({ path: 'limit' })]);
    expect((await t.call('GET', `/sensors/${s.id}`)).body).toMatchObject({ lastReading: { readAt: at(19), value: '2' }, alarm: { state: 'in_range' } });
  });
});

describe('sensor.out_of_range', () => {
  it('is sent once after 15 minutes out of range (not at 14), and once more when the sensor is back in range', async () => {
    clock.set(at(14));
    const loc = await replicaLocation();
    const s = await newSensor(loc, { assetId: 'ast_fridge' });
    await send([{ sensorId: s.id, readAt: at(-1), value: '4' }]);
    await send(Array.from({ length: 15 }, (_, m) => ({ sensorId: s.id, readAt: at(m), value: '8.5' })));
    expect(await alarmEvents(s.id)).toEqual([]);
    // 14 minutes by the clock: the check raises nothing
    await alarmCheck();
    expect(await alarmEvents(s.id)).toEqual([]);
    expect((await t.call('GET', `/sensors/${s.id}`)).body.alarm).toEqual({ state: 'out_of_range', outOfRangeSince: at(0), alarmId: null });
    const listed = async (alarm: string) => (await t.call('GET', `/sensors?alarm=${alarm}&locationId=${loc}`)).body.data.map((x: { id: string }) => x.id);
    expect([await listed('out_of_range'), await listed('alarm'), await listed('in_range')]).toEqual([[s.id], [], []]);

    // a millisecond short of the 15th minute by the clock: the reading decides, not the clock check
    clock.set(new Date(Date.parse(at(15)) - 1));
    await send([{ sensorId: s.id, readAt: at(15), value: '9' }]);
    await send([{ sensorId: s.id, readAt: at(16), value: '9.5' }, { sensorId: s.id, readAt: at(17), value: '10' }]);
    const raised = await alarmEvents(s.id);
    expect(raised).toEqual([
      { id: expect.stringMatching(/^sal_/), sensorId: s.id, sensorName: s.name, locationId: loc, assetId: 'ast_fridge', state: 'out_of_range', value: '9', unit: 'C', min: '0', max: '5', outOfRangeSince: at(0), readAt: at(15) },
    ]);
    const envelope = (await outboxPayloads(t, 'operations', { type: 'sensor.out_of_range', aggregateId: s.id }))[0];
    expect(envelope).toMatchObject({ type: 'sensor.out_of_range', apiVersion: 'v1', actor: { type: 'integration', id: 'int_test' }, locationId: loc });
    expect((await t.call('GET', `/sensors/${s.id}`)).body.alarm).toEqual({ state: 'alarm', outOfRangeSince: at(0), alarmId: raised[0].id });
    expect([await listed('out_of_range'), await listed('alarm')]).toEqual([[], [s.id]]);

    clock.set(at(30));
    await send([{ sensorId: s.id, readAt: at(18), value: '4.9' }, { sensorId: s.id, readAt: at(19), value: '3' }]);
    await send([{ sensorId: s.id, readAt: at(20), value: '4' }]);
    const events = await alarmEvents(s.id);
    expect(events.map((e) => e.state)).toEqual(['out_of_range', 'back_in_range']);
    expect(events[1]).toMatchObject({ id: raised[0].id, value: '4.9', readAt: at(18), outOfRangeSince: at(0) });
    expect((await t.call('GET', `/sensors/${s.id}`)).body.alarm.state).toBe('in_range');
  });

  it('decides by reading time when batches arrive late and out of order', async () => {
    clock.set(at(20));
    const loc = await replicaLocation();
    // a run whose first readings arrive last: 10 minutes, then its first 10 minutes late → 20 minutes, raised once
    const s = await newSensor(loc);
    await send(Array.from({ length: 11 }, (_, m) => ({ sensorId: s.id, readAt: at(m + 10), value: '6' })));
    expect(await alarmEvents(s.id)).toEqual([]);
    await send(Array.from({ length: 10 }, (_, m) => ({ sensorId: s.id, readAt: at(9 - m), value: '6' })));
    expect((await alarmEvents(s.id)).map((e) => [e.state, e.outOfRangeSince, e.readAt])).toEqual([['out_of_range', at(0), at(15)]]);
    await send([{ sensorId: s.id, readAt: at(3), value: '6.5' }]);
    expect(await alarmEvents(s.id)).toHaveLength(1);

    // a whole excursion that arrives after the readings that ended it: raised and ended at once
    clock.set(at(30));
    const p = await newSensor(loc);
    await send(Array.from({ length: 10 }, (_, m) => ({ sensorId: p.id, readAt: at(m + 20), value: '1' })));
    await send(Array.from({ length: 20 }, (_, m) => ({ sensorId: p.id, readAt: at(m), value: '-3' })));
    expect((await alarmEvents(p.id)).map((e) => [e.state, e.readAt])).toEqual([
      ['out_of_range', at(15)],
      ['back_in_range', at(20)],
    ]);
    expect((await t.call('GET', `/sensors/${p.id}`)).body.alarm.state).toBe('in_range');
  });

  it('is raised once by two concurrent batches of one sensor', async () => {
    clock.set(at(60));
    const loc = await replicaLocation();
    const s = await newSensor(loc, { alarmDelayMinutes: 5 });
    const answers = await Promise.all([0, 1, 2, 3].map((k) => send(Array.from({ length: 10 }, (_, m) => ({ sensorId: s.id, readAt: at(k * 10 + m), value: '12' })))));
    expect(answers.every((a) => a.status === 202)).toBe(true);
    expect(await alarmEvents(s.id)).toHaveLength(1);
  });

  it('is raised by the clock for a sensor gone quiet out of range, at once with delay 0, and ended by a wider range', async () => {
    clock.set(at(0));
    const loc = await replicaLocation();
    const quiet = await newSensor(loc);
    await send([{ sensorId: quiet.id, readAt: at(0), value: '7' }]);
    clock.set(at(14));
    await alarmCheck();
    expect(await alarmEvents(quiet.id)).toEqual([]);
    clock.set(at(15));
    expect(await alarmCheck()).toBe(false);
    const [byClock] = await alarmEvents(quiet.id);
    expect(byClock).toMatchObject({ state: 'out_of_range', readAt: at(0), outOfRangeSince: at(0) });
    expect((await outboxPayloads(t, 'operations', { type: 'sensor.out_of_range', aggregateId: quiet.id }))[0].actor).toEqual({ type: 'system', id: null });

    const widened = await t.call('PATCH', `/sensors/${quiet.id}`, { body: { max: '8' } });
    expect(widened.body.alarm.state).toBe('in_range');
    expect((await alarmEvents(quiet.id)).map((e) => [e.state, e.max])).toEqual([
      ['out_of_range', '5'],
      ['back_in_range', '8'],
    ]);

    const instant = await newSensor(loc, { alarmDelayMinutes: 0 });
    await send([{ sensorId: instant.id, readAt: at(1), value: '-0.5' }]);
    expect((await alarmEvents(instant.id)).map((e) => e.state)).toEqual(['out_of_range']);
  });
});

describe('reading partitions', () => {
  it('are created by month ahead of the clock, take what the default partition held, and are dropped past retention', async () => {
    const maintain = (retentionDays: number) => maintainReadingPartitions(t.svc.runtime, { monthsAhead: 2, retentionDays });
    const partitions = async () => (await t.svc.runtime.read((w) => readingPartitions(w))).map((p) => p.name);
    clock.set('2031-05-20T00:00:00Z');
    const loc = await replicaLocation();
    const s = await newSensor(loc);
    await send([{ sensorId: s.id, readAt: '2031-05-19T23:00:00Z', value: '3' }]);
    expect((await sql(t, `select tableoid::regclass::text as p from operations.sensor_readings where sensor_id = $1`, [s.id]))[0].p).toBe('operations.sensor_readings_default');
    const created = await maintain(0);
    expect(created).toEqual({ created: ['sensor_readings_p203105', 'sensor_readings_p203106', 'sensor_readings_p203107'], dropped: [], deleted: 0 });
    expect((await sql(t, `select tableoid::regclass::text as p from operations.sensor_readings where sensor_id = $1`, [s.id]))[0].p).toBe('operations.sensor_readings_p203105');
    expect(await maintain(0)).toEqual({ created: [], dropped: [], deleted: 0 });
    // the worker's round (OPERATIONS_SENSOR_PARTITION_MONTHS_AHEAD 2, no retention) finds nothing more to do
    await t.svc.worker('sensor-reading-partitions').runOnce();
    expect((await partitions()).filter((p) => p >= 'sensor_readings_p203105')).toEqual(expect.arrayContaining(created.created));
    expect((await t.call('GET', `/sensors/${s.id}/readings`)).body.data).toHaveLength(1);

    clock.set('2031-07-15T00:00:00Z');
    const kept = await maintain(0);
    expect([kept.dropped, kept.deleted]).toEqual([[], 0]);
    const gone = await maintain(30);
    expect(gone.dropped).toContain('sensor_readings_p203105');
    expect(await partitions()).not.toContain('sensor_readings_p203105');
    expect((await t.call('GET', `/sensors/${s.id}/readings`)).body.data).toHaveLength(0);
    expect((await t.call('GET', `/sensors/${s.id}`)).body.lastReading).toMatchObject({ value: '3' });
  });
});

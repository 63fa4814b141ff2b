import { outboxPayloads, person, sql, startTestService, system, type TestService } from '@bop/test-support';
import { equipmentService } from '../src';
import { managerAt, newAsset, paths, readMeters, replicaLocation } from './fixtures';

let t: TestService;
beforeAll(async () => {
  t = await startTestService(equipmentService);
});
afterAll(async () => {
  await t?.close();
});

describe('assets', () => {
  it('creates, reads, lists with filters and answers the asset with its meters, moves and maintenance history', async () => {
    const loc = await replicaLocation(t);
    const created = await t.call('POST', '/assets', {
      body: { name: 'Walk-in cooler', category: 'Refrigeration', make: 'Kolpak', model: 'P7', serialNumber: 'SN-100', locationId: loc, warrantyEndDate: '2028-03-31', workOrderOnSensorAlarm: true, notes: 'Back of house' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ id: expect.stringMatching(/^ast_/), status: 'active', locationId: loc, warrantyEndDate: '2028-03-31', workOrderOnSensorAlarm: true, version: 1, meters: [], moves: [], maintenanceHistory: [] });
    expect(created.headers.get('etag')).toBe('"1"');
    const other = await newAsset(t, loc, { category: 'Fryers', serialNumber: null });

    const got = await t.call('GET', `/assets/${created.body.id}`);
    expect(got.body).toEqual(created.body);
    const cooling = await t.call('GET', `/assets?locationId=${loc}&category=Refrigeration`);
    expect(cooling.body.data.map((a: { id: string }) => a.id)).toEqual([created.body.id]);
    const all = await t.call('GET', `/assets?locationId=${loc}&status=active&limit=1`);
    expect(all.body).toMatchObject({ hasMore: true, data: [{ id: created.body.id }] });
    const page2 = await t.call('GET', `/assets?locationId=${loc}&status=active&limit=1&cursor=${all.body.nextCursor}`);
    expect(page2.body.data.map((a: { id: string }) => a.id)).toEqual([other]);
  });

  it('refuses bad input with field paths: missing and malformed fields, unknown or archived locations, NUL, deep nesting, huge values', async () => {
    const loc = await replicaLocation(t);
    const archived = await replicaLocation(t, { status: 'archived' });
    const missing = await t.call('POST', '/assets', { body: { category: 'x' } });
    expect([missing.status, paths(missing.body)]).toEqual([422, ['locationId', 'name']]);
    const malformed = await t.call('POST', '/assets', { body: { name: 'A', locationId: loc, warrantyEndDate: '2028-02-30', workOrderOnSensorAlarm: 'yes', extra: 1 } });
    expect(malformed.status).toBe(422);
    expect(paths(malformed.body)).toEqual(expect.arrayContaining(['warrantyEndDate', 'workOrderOnSensorAlarm']));
    const unknown = await t.call('POST', '/assets', { body: { name: 'A', locationId: 'loc_nowhere' } });
    expect([unknown.status, paths(unknown.body)]).toEqual([422, ['locationId']]);
    const gone = await t.call('POST', '/assets', { body: { name: 'A', locationId: archived } });
    expect([gone.status, paths(gone.body)]).toEqual([422, ['locationId']]);
    const nul = await t.call('POST', '/assets', { body: { name: 'Fry\u0000er', locationId: loc } });
    expect([nul.status, paths(nul.body)]).toEqual([422, ['name']]);
    let deep: unknown = 'x';
    for (let i = 0; i < 200; i++) deep = { deep };
    const nested = await t.call('POST', '/assets', { body: { name: 'A', locationId: loc, notes: deep } });
    expect([400, 422]).toContain(nested.status);
    const huge = await t.call('POST', '/assets', { body: { name: 'A'.repeat(100_000), locationId: loc } });
    expect([huge.status, paths(huge.body)]).toEqual([422, ['name']]);
  });

  it('a serial number is unique within its make and model (409 naming the field)', async () => {
    const loc = await replicaLocation(t);
    await newAsset(t, loc, { make: 'Hoshizaki', model: 'KM-515', serialNumber: 'X-1' });
    const dup = await t.call('POST', '/assets', { body: { name: 'Ice 2', make: 'hoshizaki', model: 'km-515', serialNumber: 'x-1', locationId: loc } });
    expect([dup.status, dup.body.code, paths(dup.body)]).toEqual([409, 'conflict', ['serialNumber']]);
    expect((await t.call('POST', '/assets', { body: { name: 'Ice 3', make: 'Hoshizaki', model: 'KM-660', serialNumber: 'X-1', locationId: loc } })).status).toBe(201);
  });

  it('moves an asset between locations with its history; If-Match; reach on both locations', async () => {
    const from = await replicaLocation(t);
    const to = await replicaLocation(t);
    const id = await newAsset(t, from);
    const stale = await t.call('PATCH', `/assets/${id}`, { body: { locationId: to }, headers: { 'if-match': '"7"' } });
    expect([stale.status, stale.body.code]).toEqual([409, 'version_mismatch']);
    const notThere = await t.call('PATCH', `/assets/${id}`, { body: { locationId: to }, as: managerAt(from) });
    expect([notThere.status, notThere.body.code]).toEqual([403, 'out_of_reach']);
    const moved = await t.call('PATCH', `/assets/${id}`, { body: { locationId: to, notes: 'moved for the summer' }, headers: { 'if-match': '"1"' }, as: managerAt(from, to) });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ locationId: to, notes: 'moved for the summer', version: 2, moves: [{ fromLocationId: from, toLocationId: to, movedBy: { type: 'user', id: 'usr_test' }, movedAt: expect.any(String) }] });
    // out of reach once it stands elsewhere
    const view = await t.call('GET', `/assets/${id}`, { as: managerAt(from) });
    expect([view.status, view.body.code]).toEqual([403, 'out_of_reach']);
    expect((await t.call('GET', `/assets?locationId=${to}`, { as: managerAt(from) })).status).toBe(403);
    expect((await t.call('GET', '/assets', { as: managerAt(from) })).body.data.map((a: { id: string }) => a.id)).not.toContain(id);
    // nothing changed: same version
    expect((await t.call('PATCH', `/assets/${id}`, { body: { notes: 'moved for the summer' } })).body.version).toBe(2);
    // a change event per change (the project's own types): data.object the asset as the API returns it, at its new location
    const events = await outboxPayloads(t, 'equipment', { aggregateId: id });
    expect(events.map((e) => [e.type, e.locationId, e.data.object.id])).toEqual([
      ['asset.created', from, id],
      ['asset.updated', to, id],
    ]);
    expect(events[1].data).toEqual({ object: moved.body, previous: { locationId: from, notes: null } });
  });

  it('archives (disposed) and keeps the history; an archived asset no longer changes', async () => {
    const loc = await replicaLocation(t);
    const id = await newAsset(t, loc);
    await readMeters(t, id, [{ meter: 'cycles', value: '10', readAt: '2026-01-01T00:00:00Z' }]);
    const archived = await t.call('DELETE', `/assets/${id}`);
    expect(archived.body).toMatchObject({ status: 'archived', archivedAt: expect.any(String), meters: [{ meter: 'cycles', value: '10' }] });
    expect((await t.call('DELETE', `/assets/${id}`)).body.version).toBe(archived.body.version);
    // archiving records asset.archived once (again: nothing)
    const events = await outboxPayloads(t, 'equipment', { aggregateId: id });
    expect(events.map((e) => e.type)).toEqual(['asset.created', 'asset.archived']);
    expect(events[1].data.object).toEqual(archived.body);
    const patch = await t.call('PATCH', `/assets/${id}`, { body: { name: 'x' } });
    expect([patch.status, patch.body.code]).toEqual([409, 'conflict']);
    expect((await readMeters(t, id, [{ meter: 'cycles', value: '11' }])).status).toBe(409);
    expect((await t.call('GET', `/assets?locationId=${loc}&status=archived`)).body.data.map((a: { id: string }) => a.id)).toEqual([id]);
    expect((await t.call('GET', '/assets/ast_missing')).status).toBe(404);
  });

  it('answers operations\' internal read of asset states (unknown ids absent)', async () => {
    const loc = await replicaLocation(t);
    const id = await newAsset(t, loc, { workOrderOnSensorAlarm: true });
    const r = await t.call('POST', '/internal/assets:states', { as: system, body: { ids: [id, 'ast_unknown'] } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ data: [{ id, name: 'Fryer 2', locationId: loc, status: 'active', workOrderOnSensorAlarm: true }] });
    expect((await t.call('POST', '/internal/assets:states', { as: system, body: { ids: [] } })).status).toBe(422);
    expect((await t.call('POST', '/internal/assets:states', { as: person(), body: { ids: [id] } })).status).toBe(403);
  });
});

describe('meter readings', () => {
  it('records running hours and cycles; a meter never goes backwards (422 naming the field and the last value)', async () => {
    const loc = await replicaLocation(t);
    const id = await newAsset(t, loc);
    const first = await readMeters(t, id, [
      { meter: 'running_hours', value: '100.5', readAt: '2026-03-01T08:00:00Z' },
      { meter: 'cycles', value: '2000', readAt: '2026-03-01T08:00:00Z' },
    ]);
    expect(first.status).toBe(201);
    expect(first.body.readings).toEqual([
      expect.objectContaining({ meter: 'running_hours', value: '100.5', readAt: '2026-03-01T08:00:00.000Z', reset: false, recordedBy: { type: 'user', id: 'usr_test' } }),
      expect.objectContaining({ meter: 'cycles', value: '2000' }),
    ]);
    const back = await readMeters(t, id, [{ meter: 'running_hours', value: '99', readAt: '2026-03-02T08:00:00Z' }]);
    expect([back.status, paths(back.body)]).toEqual([422, ['readings[0].value']]);
    expect(back.body.errors[0].message).toContain('100.5');
    // a backdated reading must fit between its neighbours
    await readMeters(t, id, [{ meter: 'running_hours', value: '150', readAt: '2026-03-03T08:00:00Z' }]);
    const between = await readMeters(t, id, [{ meter: 'running_hours', value: '160', readAt: '2026-03-02T08:00:00Z' }]);
    expect([between.status, paths(between.body)]).toEqual([422, ['readings[0].value']]);
    expect(between.body.errors[0].message).toContain('150');
    expect((await readMeters(t, id, [{ meter: 'running_hours', value: '120', readAt: '2026-03-02T08:00:00Z' }])).status).toBe(201);
    // the same reading again is kept once; another value at the same time is refused
    expect((await readMeters(t, id, [{ meter: 'running_hours', value: '120.0', readAt: '2026-03-02T08:00:00Z' }])).status).toBe(201);
    const clash = await readMeters(t, id, [{ meter: 'running_hours', value: '121', readAt: '2026-03-02T08:00:00Z' }]);
    expect([clash.status, paths(clash.body)]).toEqual([422, ['readings[0].readAt']]);
    expect(await sql(t, `select 1 from equipment.meter_readings where asset_id = $1 and meter = 'running_hours'`, [id])).toHaveLength(3);
    const asset = await t.call('GET', `/assets/${id}`);
    expect(asset.body.meters).toEqual([
      expect.objectContaining({ meter: 'cycles', value: '2000', readAt: '2026-03-01T08:00:00.000Z' }),
      expect.objectContaining({ meter: 'running_hours', value: '150', readAt: '2026-03-03T08:00:00.000Z' }),
    ]);
  });

  it('a reset (replaced meter) may go lower, only as the newest reading', async () => {
    const loc = await replicaLocation(t);
    const id = await newAsset(t, loc);
    await readMeters(t, id, [{ meter: 'running_hours', value: '5000', readAt: '2026-04-01T00:00:00Z' }]);
    const early = await readMeters(t, id, [{ meter: 'running_hours', value: '3', readAt: '2026-03-01T00:00:00Z', reset: true }]);
    expect([early.status, paths(early.body)]).toEqual([422, ['readings[0].reset']]);
    const reset = await readMeters(t, id, [{ meter: 'running_hours', value: '3', readAt: '2026-04-02T00:00:00Z', reset: true }]);
    expect(reset.status).toBe(201);
    expect(reset.body.readings[0]).toMatchObject({ value: '3', reset: true });
    // usage keeps counting across the reset
    const [row] = await sql(t, `select total::text from equipment.meter_readings where id = $1`, [reset.body.readings[0].id]);
    expect(row.total).toBe('5003.0000');
    expect(reset.body.meters).toEqual([expect.objectContaining({ meter: 'running_hours', value: '3' })]);
  });

  it('refuses numbers, negatives, too many decimals, unknown meters, future readings; needs the meter permission and reach', async () => {
    const loc = await replicaLocation(t);
    const elsewhere = await replicaLocation(t);
    const id = await newAsset(t, loc);
    const bad = await readMeters(t, id, [
      { meter: 'running_hours', value: 12.5 },
      { meter: 'running_hours', value: '-1' },
      { meter: 'cycles', value: '1.12345' },
      { meter: 'miles', value: '1' },
      { meter: 'cycles', value: '1'.repeat(40) },
    ]);
    expect([bad.status, paths(bad.body)]).toEqual([422, ['readings[0].value', 'readings[1].value', 'readings[2].value', 'readings[3].meter', 'readings[4].value']]);
    const future = await readMeters(t, id, [{ meter: 'cycles', value: '1', readAt: new Date(Date.now() + 86_400_000).toISOString() }]);
    expect([future.status, paths(future.body)]).toEqual([422, ['readings[0].readAt']]);
    expect((await readMeters(t, id, [])).status).toBe(422);
    const far = await readMeters(t, id, [{ meter: 'cycles', value: '1' }], managerAt(elsewhere));
    expect([far.status, far.body.code]).toEqual([403, 'out_of_reach']);
    expect((await readMeters(t, id, [{ meter: 'cycles', value: '1' }], person({ 'equipment.read': [{ type: 'everyone' }] }))).status).toBe(403);
    expect((await readMeters(t, 'ast_missing', [{ meter: 'cycles', value: '1' }])).status).toBe(404);
    // refused readings record nothing (the asset's own creation only)
    expect((await outboxPayloads(t, 'equipment', { aggregateId: id })).map((e) => e.type)).toEqual(['asset.created']);
  });
});

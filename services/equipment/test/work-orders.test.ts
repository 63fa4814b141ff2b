import { outboxPayloads, person, startTestService, type TestService } from '@bop/test-support';
import { equipmentService } from '../src';
import { managerAt, newAsset, paths, replicaEmployee, replicaLocation } from './fixtures';

let t: TestService;
beforeAll(async () => {
  t = await startTestService(equipmentService);
});
afterAll(async () => {
  await t?.close();
});

const ids = (body: { data: Array<{ id: string }> }) => body.data.map((x) => x.id);

describe('work orders', () => {
  it('open → in_progress → closed with resolution, cost and parts; every change in the history; events per the mapping', async () => {
    const loc = await replicaLocation(t);
    const asset = await newAsset(t, loc);
    const tech = await replicaEmployee(t, { home: loc });
    const created = await t.call('POST', '/work-orders', { body: { title: 'Fryer 2 does not heat', assetId: asset, priority: 'high', dueDate: '2026-06-05' } });
    expect(created.status).toBe(201);
    const id = created.body.id;
    expect(created.body).toMatchObject({ id: expect.stringMatching(/^wor_/), status: 'open', priority: 'high', assetId: asset, locationId: loc, source: 'manual', maintenancePlanId: null, parts: [], cost: null, createdBy: { type: 'user', id: 'usr_test' } });
    expect(created.body.history).toEqual([expect.objectContaining({ action: 'created', actor: { type: 'user', id: 'usr_test' }, changes: [] })]);

    const patched = await t.call('PATCH', `/work-orders/${id}`, { body: { assigneeEmployeeId: tech, vendor: 'Ace Repairs', notes: 'Call before 10' }, headers: { 'if-match': '"1"' } });
    expect(patched.body).toMatchObject({ status: 'open', assigneeEmployeeId: tech, vendor: 'Ace Repairs', version: 2 });
    expect(patched.body.history[1]).toMatchObject({
      action: 'updated',
      changes: expect.arrayContaining([
        { field: 'assigneeEmployeeId', from: null, to: tech },
        { field: 'vendor', from: null, to: 'Ace Repairs' },
        { field: 'notes', from: null, to: 'Call before 10' },
      ]),
    });
    const started = await t.call('POST', `/work-orders/${id}:start`);
    expect(started.body).toMatchObject({ status: 'in_progress', startedAt: expect.any(String) });
    expect((await t.call('POST', `/work-orders/${id}:start`)).body).toMatchObject({ code: 'conflict', detail: expect.stringContaining('in_progress') });
    const closed = await t.call('POST', `/work-orders/${id}:close`, {
      body: { resolution: 'Replaced the thermostat', parts: [{ name: 'Thermostat', quantity: '1', unitCost: '84.50' }, { name: 'Fuse', quantity: '2', unitCost: '1.25' }, { name: 'Grease', quantity: '0.5' }] },
    });
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({
      status: 'closed',
      resolution: 'Replaced the thermostat',
      cost: '87.00',
      partsCost: '87.00',
      parts: [
        { name: 'Thermostat', quantity: '1', unitCost: '84.5', lineCost: '84.50' },
        { name: 'Fuse', quantity: '2', unitCost: '1.25', lineCost: '2.50' },
        { name: 'Grease', quantity: '0.5', unitCost: null, lineCost: null },
      ],
      closedAt: expect.any(String),
    });
    expect(closed.body.history.map((h: { action: string }) => h.action)).toEqual(['created', 'updated', 'started', 'closed']);
    // closed is final
    for (const [method, path, body] of [['PATCH', `/work-orders/${id}`, { notes: 'x' }], ['POST', `/work-orders/${id}:close`, { resolution: 'again' }], ['POST', `/work-orders/${id}:cancel`, { reason: 'x' }], ['POST', `/work-orders/${id}:start`, undefined]] as const) {
      const r = await t.call(method, path, { body });
      expect([r.status, r.body.code, r.body.detail]).toEqual([409, 'conflict', expect.stringContaining('is closed')]);
    }
    const events = await outboxPayloads(t, 'equipment', { aggregateId: id });
    expect(events.map((e) => e.type)).toEqual(['work_order.created', 'work_order.updated', 'work_order.updated', 'work_order.closed']);
    expect(events[3]).toMatchObject({ apiVersion: 'v1', locationId: loc, actor: { type: 'user', id: 'usr_test' }, data: { object: { id, status: 'closed', cost: '87.00' }, previous: { status: 'in_progress' } } });
    // the asset's maintenance history shows it
    expect((await t.call('GET', `/assets/${asset}`)).body.maintenanceHistory).toEqual([expect.objectContaining({ workOrderId: id, resolution: 'Replaced the thermostat', cost: '87.00', maintenancePlanId: null })]);
  });

  it('cancels with a reason: work_order.closed with status cancelled; a location work order without an asset', async () => {
    const loc = await replicaLocation(t);
    const created = await t.call('POST', '/work-orders', { body: { title: 'Leaking tap in the washroom', locationId: loc } });
    expect(created.body).toMatchObject({ assetId: null, locationId: loc, priority: 'medium' });
    const noReason = await t.call('POST', `/work-orders/${created.body.id}:cancel`, { body: {} });
    expect([noReason.status, paths(noReason.body)]).toEqual([422, ['reason']]);
    const cancelled = await t.call('POST', `/work-orders/${created.body.id}:cancel`, { body: { reason: 'Reported twice' } });
    expect(cancelled.body).toMatchObject({ status: 'cancelled', cancelReason: 'Reported twice', closedAt: expect.any(String) });
    expect(cancelled.body.history[1]).toMatchObject({ action: 'cancelled', note: 'Reported twice' });
    const [event] = await outboxPayloads(t, 'equipment', { type: 'work_order.closed', aggregateId: created.body.id });
    expect(event.data.object.status).toBe('cancelled');
    const noResolution = await t.call('POST', `/work-orders/${created.body.id}:close`, { body: {} });
    expect([noResolution.status, paths(noResolution.body)]).toEqual([422, ['resolution']]);
  });

  it('refuses bad references and values with field paths', async () => {
    const loc = await replicaLocation(t);
    const other = await replicaLocation(t);
    const asset = await newAsset(t, loc);
    const gone = await replicaEmployee(t, { home: loc, status: 'terminated' });
    const nothing = await t.call('POST', '/work-orders', { body: { title: 'x' } });
    expect([nothing.status, paths(nothing.body)]).toEqual([422, ['locationId']]);
    const wrongPlace = await t.call('POST', '/work-orders', { body: { title: 'x', assetId: asset, locationId: other } });
    expect([wrongPlace.status, paths(wrongPlace.body)]).toEqual([422, ['locationId']]);
    const refs = await t.call('POST', '/work-orders', { body: { title: 'x', assetId: 'ast_nope' } });
    expect(paths(refs.body)).toEqual(['assetId']);
    const plan = await t.call('POST', '/work-orders', { body: { title: 'x', maintenancePlanId: 'mpl_nope' } });
    expect(paths(plan.body)).toEqual(['maintenancePlanId']);
    const who = await t.call('POST', '/work-orders', { body: { title: 'x', assetId: asset, assigneeEmployeeId: gone } });
    expect([who.status, paths(who.body)]).toEqual([422, ['assigneeEmployeeId']]);
    const nobody = await t.call('POST', '/work-orders', { body: { title: 'x', assetId: asset, assigneeEmployeeId: 'emp_nobody' } });
    expect(paths(nobody.body)).toEqual(['assigneeEmployeeId']);
    const values = await t.call('POST', '/work-orders', { body: { title: '', assetId: asset, priority: 'asap', dueDate: 'tomorrow' } });
    expect(paths(values.body)).toEqual(['dueDate', 'priority', 'title']);
    const w = (await t.call('POST', '/work-orders', { body: { title: 'x', assetId: asset } })).body;
    const money = await t.call('POST', `/work-orders/${w.id}:close`, { body: { resolution: 'ok', cost: 12.5, parts: [{ name: 'Belt', quantity: '0' }, { name: 'Oil', quantity: '1', unitCost: '-2' }] } });
    expect([money.status, paths(money.body)]).toEqual([422, ['cost', 'parts[0].quantity', 'parts[1].unitCost']]);
    const stale = await t.call('POST', `/work-orders/${w.id}:start`, { headers: { 'if-match': '"9"' } });
    expect([stale.status, stale.body.code]).toEqual([409, 'version_mismatch']);
    expect((await t.call('GET', '/work-orders/wor_nope')).status).toBe(404);
  });

  it('lists by status, location, asset and priority within reach; reach and permissions on writes', async () => {
    const a = await replicaLocation(t);
    const b = await replicaLocation(t);
    const assetA = await newAsset(t, a);
    const w1 = (await t.call('POST', '/work-orders', { body: { title: 'one', assetId: assetA, priority: 'urgent' } })).body.id;
    const w2 = (await t.call('POST', '/work-orders', { body: { title: 'two', locationId: a, priority: 'low' } })).body.id;
    const w3 = (await t.call('POST', '/work-orders', { body: { title: 'three', locationId: b } })).body.id;
    await t.call('POST', `/work-orders/${w2}:start`);
    expect(ids((await t.call('GET', `/work-orders?locationId=${a}`)).body)).toEqual([w1, w2]);
    expect(ids((await t.call('GET', `/work-orders?locationId=${a}&status=in_progress`)).body)).toEqual([w2]);
    expect(ids((await t.call('GET', `/work-orders?assetId=${assetA}`)).body)).toEqual([w1]);
    expect(ids((await t.call('GET', `/work-orders?locationId=${a}&priority=urgent`)).body)).toEqual([w1]);
    const mine = ids((await t.call('GET', '/work-orders?limit=200', { as: managerAt(b) })).body);
    expect(mine).toContain(w3);
    expect(mine).not.toContain(w1);
    expect((await t.call('GET', `/work-orders/${w1}`, { as: managerAt(b) })).body.code).toBe('out_of_reach');
    expect((await t.call('POST', '/work-orders', { body: { title: 'x', locationId: a }, as: managerAt(b) })).body.code).toBe('out_of_reach');
    expect((await t.call('POST', `/work-orders/${w1}:cancel`, { body: { reason: 'x' }, as: managerAt(b) })).body.code).toBe('out_of_reach');
    const reporter = person({ 'work_orders.create': [{ type: 'everyone' }] });
    expect((await t.call('POST', '/work-orders', { body: { title: 'x', locationId: a }, as: reporter })).status).toBe(201);
    expect((await t.call('POST', `/work-orders/${w1}:start`, { as: reporter })).status).toBe(403);
  });
});

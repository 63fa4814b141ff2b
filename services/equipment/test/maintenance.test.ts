import { fixedClock } from '@bop/shared';
import { outboxPayloads, startTestService, type TestService } from '@bop/test-support';
import { equipmentService } from '../src';
import { managerAt, newAsset, paths, readMeters, replicaLocation } from './fixtures';

let t: TestService;
const clock = fixedClock('2026-06-01T12:00:00Z');
beforeAll(async () => {
  t = await startTestService(equipmentService, {}, { workers: false, clock });
});
afterAll(async () => {
  await t?.close();
});

const at = (iso: string) => clock.set(iso);
const dueEvents = (planId: string) => outboxPayloads(t, 'equipment', { type: 'maintenance.due', aggregateId: planId });
const workOrdersOf = async (assetId: string) => (await t.call('GET', `/work-orders?assetId=${assetId}`)).body.data as Array<{ id: string; maintenancePlanId: string | null; status: string }>;
/** A round of the daily check */
const dailyCheck = () => t.svc.worker('maintenance-due-check').runOnce();

describe('maintenance plans by meter', () => {
  it('a reading reaching the threshold announces maintenance.due once and opens one work order; closing it resets from the current reading', async () => {
    at('2026-06-01T12:00:00Z');
    const loc = await replicaLocation(t);
    const asset = await newAsset(t, loc);
    await readMeters(t, asset, [{ meter: 'running_hours', value: '100', readAt: '2026-06-01T08:00:00Z' }]);
    const created = await t.call('POST', '/maintenance-plans', { body: { assetId: asset, name: 'Oil change', meter: 'running_hours', intervalUnits: '250', createsWorkOrder: true } });
    expect(created.status).toBe(201);
    const plan = created.body;
    expect(plan).toMatchObject({ id: expect.stringMatching(/^mpl_/), basis: 'meter', meter: 'running_hours', intervalUnits: '250', nextDueValue: '350', intervalDays: null, nextDueDate: null, active: true, locationId: loc });

    await readMeters(t, asset, [{ meter: 'running_hours', value: '349.9', readAt: '2026-06-01T09:00:00Z' }]);
    expect(await dueEvents(plan.id)).toEqual([]);
    expect((await t.call('GET', '/maintenance-due')).body.data.map((d: { planId: string }) => d.planId)).not.toContain(plan.id);

    const reached = await readMeters(t, asset, [{ meter: 'running_hours', value: '350', readAt: '2026-06-01T10:00:00Z' }]);
    expect(reached.status).toBe(201);
    const [due] = await dueEvents(plan.id);
    expect(due).toMatchObject({ actor: { type: 'user', id: 'usr_test' }, locationId: loc, data: { object: { planId: plan.id, assetId: asset, basis: 'meter', meter: 'running_hours', currentValue: '350', dueAtValue: '350', due: true, overdue: false } } });
    const orders = await workOrdersOf(asset);
    expect(orders).toEqual([expect.objectContaining({ maintenancePlanId: plan.id, status: 'open', source: 'maintenance_plan' })]);
    expect(due.data.object.openWorkOrderId).toBe(orders[0].id);
    expect(await outboxPayloads(t, 'equipment', { type: 'work_order.created', aggregateId: orders[0].id })).toHaveLength(1);

    // more readings: the same occurrence, nothing new
    await readMeters(t, asset, [{ meter: 'running_hours', value: '420', readAt: '2026-06-01T11:00:00Z' }]);
    expect(await dueEvents(plan.id)).toHaveLength(1);
    expect(await workOrdersOf(asset)).toHaveLength(1);
    const list = await t.call('GET', `/maintenance-due?locationId=${loc}`);
    expect(list.body.data).toEqual([
      expect.objectContaining({ planId: plan.id, planName: 'Oil change', assetName: 'Fryer 2', basis: 'meter', currentValue: '420', dueAtValue: '350', due: true, overdue: true, openWorkOrderId: orders[0].id, reason: 'running_hours 420 is past the threshold 350' }),
    ]);

    // done: the next threshold counts from the current reading
    const closed = await t.call('POST', `/work-orders/${orders[0].id}:close`, { body: { resolution: 'Oil and filter changed', cost: '45.00' } });
    expect(closed.status).toBe(200);
    const after = (await t.call('GET', `/maintenance-plans?assetId=${asset}`)).body.data[0];
    expect(after).toMatchObject({ nextDueValue: '670', lastDoneAt: '2026-06-01T12:00:00.000Z', version: 2 });
    expect((await t.call('GET', `/maintenance-due?locationId=${loc}`)).body.data).toEqual([]);
    expect((await t.call('GET', `/assets/${asset}`)).body.maintenanceHistory).toEqual([expect.objectContaining({ workOrderId: orders[0].id, maintenancePlanId: plan.id, maintenancePlanName: 'Oil change', cost: '45.00' })]);
    // the next occurrence is announced again
    await readMeters(t, asset, [{ meter: 'running_hours', value: '670', readAt: '2026-06-01T11:30:00Z' }]);
    expect(await dueEvents(plan.id)).toHaveLength(2);
    expect(await workOrdersOf(asset)).toHaveLength(2);
  });

  it('a new plan already past its threshold is due at once; usage before a meter reset still counts; lastServiceValue', async () => {
    at('2026-06-02T12:00:00Z');
    const loc = await replicaLocation(t);
    const asset = await newAsset(t, loc);
    await readMeters(t, asset, [{ meter: 'cycles', value: '900', readAt: '2026-06-02T08:00:00Z' }]);
    const overdue = await t.call('POST', '/maintenance-plans', { body: { assetId: asset, name: 'Gaskets', meter: 'cycles', intervalUnits: '500', lastServiceValue: '300' } });
    expect(overdue.body.nextDueValue).toBe('800');
    expect(await dueEvents(overdue.body.id)).toEqual([expect.objectContaining({ data: { object: expect.objectContaining({ overdue: true, currentValue: '900', dueAtValue: '800', openWorkOrderId: null }) } })]);
    expect(await workOrdersOf(asset)).toEqual([]);
    const later = await t.call('POST', '/maintenance-plans', { body: { assetId: asset, name: 'Motor check', meter: 'cycles', intervalUnits: '1000' } });
    expect(later.body.nextDueValue).toBe('1900');
    // the meter is replaced at 1500: 400 more cycles on the new one make the 1900 due
    await readMeters(t, asset, [{ meter: 'cycles', value: '1500', readAt: '2026-06-02T09:00:00Z' }]);
    await readMeters(t, asset, [{ meter: 'cycles', value: '0', readAt: '2026-06-02T09:30:00Z', reset: true }]);
    expect(await dueEvents(later.body.id)).toEqual([]);
    await readMeters(t, asset, [{ meter: 'cycles', value: '400', readAt: '2026-06-02T10:00:00Z' }]);
    const [e] = await dueEvents(later.body.id);
    expect(e.data.object).toMatchObject({ currentValue: '400', dueAtValue: '400', due: true, overdue: false });
    const beyond = await t.call('POST', '/maintenance-plans', { body: { assetId: asset, name: 'x', meter: 'cycles', intervalUnits: '5', lastServiceValue: '401' } });
    expect([beyond.status, paths(beyond.body)]).toEqual([422, ['lastServiceValue']]);
  });
});

describe('maintenance plans by date', () => {
  it('the daily check announces a date plan on its day at the asset\'s location, once (actor system), with its work order; closing resets from the close', async () => {
    at('2026-06-01T12:00:00Z');
    const loc = await replicaLocation(t, { timezone: 'America/New_York' });
    const asset = await newAsset(t, loc);
    const plan = (await t.call('POST', '/maintenance-plans', { body: { assetId: asset, name: 'Descale', intervalDays: 7, createsWorkOrder: true } })).body;
    expect(plan).toMatchObject({ basis: 'date', intervalDays: 7, nextDueDate: '2026-06-08', nextDueValue: null });
    expect((await t.call('GET', `/maintenance-due?locationId=${loc}`)).body.data).toEqual([]);
    const soon = await t.call('GET', `/maintenance-due?locationId=${loc}&withinDays=7`);
    expect(soon.body.data).toEqual([expect.objectContaining({ planId: plan.id, nextDueDate: '2026-06-08', daysOverdue: -7, due: false, overdue: false, reason: 'due on 2026-06-08, in 7 days' })]);

    at('2026-06-08T03:59:00Z'); // 23:59 on the 7th in New York
    await dailyCheck();
    expect(await dueEvents(plan.id)).toEqual([]);
    at('2026-06-08T04:00:00Z');
    await dailyCheck();
    const [due] = await dueEvents(plan.id);
    expect(due).toMatchObject({ actor: { type: 'system', id: null }, data: { object: { basis: 'date', nextDueDate: '2026-06-08', daysOverdue: 0, due: true, overdue: false } } });
    const [order] = await workOrdersOf(asset);
    expect(order).toMatchObject({ maintenancePlanId: plan.id, dueDate: '2026-06-08', createdBy: { type: 'system', id: null } });

    // the next days: the same occurrence, never again
    at('2026-06-09T12:00:00Z');
    await dailyCheck();
    at('2026-06-10T12:00:00Z');
    await dailyCheck();
    expect(await dueEvents(plan.id)).toHaveLength(1);
    expect(await workOrdersOf(asset)).toHaveLength(1);
    expect((await t.call('GET', `/maintenance-due?locationId=${loc}`)).body.data).toEqual([expect.objectContaining({ daysOverdue: 2, overdue: true, openWorkOrderId: order.id })]);

    await t.call('POST', `/work-orders/${order.id}:close`, { body: { resolution: 'Descaled' } });
    expect((await t.call('GET', `/maintenance-plans?assetId=${asset}`)).body.data[0]).toMatchObject({ nextDueDate: '2026-06-17', lastDoneAt: '2026-06-10T12:00:00.000Z' });
  });

  it('a new or changed schedule due now is announced by the request; stopping and restarting does not repeat an occurrence', async () => {
    at('2026-07-01T12:00:00Z');
    const loc = await replicaLocation(t);
    const asset = await newAsset(t, loc);
    const late = await t.call('POST', '/maintenance-plans', { body: { assetId: asset, name: 'Filter', intervalDays: 30, nextDueDate: '2026-06-28' } });
    expect(late.status).toBe(201);
    expect(await dueEvents(late.body.id)).toEqual([expect.objectContaining({ actor: { type: 'user', id: 'usr_test' }, data: { object: expect.objectContaining({ daysOverdue: 3, overdue: true }) } })]);
    const stopped = await t.call('PATCH', `/maintenance-plans/${late.body.id}`, { body: { active: false }, headers: { 'if-match': '"1"' } });
    expect(stopped.body).toMatchObject({ active: false, version: 2 });
    expect((await t.call('GET', `/maintenance-due?locationId=${loc}`)).body.data).toEqual([]);
    await t.call('PATCH', `/maintenance-plans/${late.body.id}`, { body: { active: true } });
    expect(await dueEvents(late.body.id)).toHaveLength(1);

    const later = (await t.call('POST', '/maintenance-plans', { body: { assetId: asset, name: 'Coils', intervalDays: 30, createsWorkOrder: true } })).body;
    expect(later.nextDueDate).toBe('2026-07-31');
    // a shorter interval keeps the anchor: 2026-07-01 + 10 days
    expect((await t.call('PATCH', `/maintenance-plans/${later.id}`, { body: { intervalDays: 10 } })).body.nextDueDate).toBe('2026-07-11');
    expect(await dueEvents(later.id)).toEqual([]);
    const moved = await t.call('PATCH', `/maintenance-plans/${later.id}`, { body: { nextDueDate: '2026-07-01' } });
    expect(moved.status).toBe(200);
    expect(await dueEvents(later.id)).toHaveLength(1);
    const orders = await workOrdersOf(asset);
    expect(orders).toEqual([expect.objectContaining({ maintenancePlanId: later.id })]);
    expect(await outboxPayloads(t, 'equipment', { type: 'work_order.created', aggregateId: orders[0].id })).toEqual([expect.objectContaining({ actor: { type: 'user', id: 'usr_test' } })]);
  });

  it('validates plans: one kind of interval, the asset, reach; the checklist form is accepted as sent without operations here', async () => {
    at('2026-07-01T12:00:00Z');
    const loc = await replicaLocation(t);
    const elsewhere = await replicaLocation(t);
    const asset = await newAsset(t, loc);
    const both = await t.call('POST', '/maintenance-plans', { body: { assetId: asset, name: 'x', intervalDays: 7, meter: 'cycles', intervalUnits: '10' } });
    expect([both.status, paths(both.body)]).toEqual([422, ['intervalDays']]);
    const neither = await t.call('POST', '/maintenance-plans', { body: { assetId: asset, name: 'x' } });
    expect(paths(neither.body)).toEqual(['intervalDays']);
    const half = await t.call('POST', '/maintenance-plans', { body: { assetId: asset, name: 'x', meter: 'cycles', intervalUnits: '0' } });
    expect(paths(half.body)).toEqual(['intervalUnits']);
    const floats = await t.call('POST', '/maintenance-plans', { body: { assetId: asset, name: 'x', intervalDays: 1.5 } });
    expect(paths(floats.body)).toEqual(['intervalDays']);
    const noAsset = await t.call('POST', '/maintenance-plans', { body: { assetId: 'ast_nope', name: 'x', intervalDays: 7 } });
    expect([noAsset.status, paths(noAsset.body)]).toEqual([422, ['assetId']]);
    expect((await t.call('POST', '/maintenance-plans', { body: { assetId: asset, name: 'x', intervalDays: 7 }, as: managerAt(elsewhere) })).body.code).toBe('out_of_reach');
    const withForm = await t.call('POST', '/maintenance-plans', { body: { assetId: asset, name: 'Monthly check', intervalDays: 30, checklistFormId: 'frm_anything' } });
    expect(withForm.body).toMatchObject({ checklistFormId: 'frm_anything', createsWorkOrder: false });
    const kind = await t.call('PATCH', `/maintenance-plans/${withForm.body.id}`, { body: { intervalUnits: '5' } });
    expect([kind.status, paths(kind.body)]).toEqual([422, ['intervalUnits']]);
    expect((await t.call('GET', `/maintenance-plans?assetId=${asset}`, { as: managerAt(elsewhere) })).body.data).toEqual([]);
    expect((await t.call('GET', `/maintenance-due?locationId=${loc}`, { as: managerAt(elsewhere) })).body.code).toBe('out_of_reach');
    expect((await t.call('PATCH', '/maintenance-plans/mpl_nope', { body: { active: false } })).status).toBe(404);
    // an archived asset's plans are not due
    const old = await newAsset(t, loc);
    const p = (await t.call('POST', '/maintenance-plans', { body: { assetId: old, name: 'x', intervalDays: 1, nextDueDate: '2026-07-01' } })).body;
    expect((await t.call('GET', `/maintenance-due?locationId=${loc}`)).body.data.map((d: { planId: string }) => d.planId)).toContain(p.id);
    await t.call('DELETE', `/assets/${old}`);
    expect((await t.call('GET', `/maintenance-due?locationId=${loc}`)).body.data.map((d: { planId: string }) => d.planId)).not.toContain(p.id);
  });
});

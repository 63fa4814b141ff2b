import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eventually, outboxPayloads, publishEvent, sql, startTestServices, type TestService, type TestServices } from '@bop/test-support';
import { equipmentService } from '../src';
import { newAsset, paths, replicaLocation } from './fixtures';

/**
 * Equipment beside operations: the sensor alarms it consumes (published on the real bus as operations'
 * relay would) and operations' internal read of forms, answered here by a local stand-in on its port.
 */
let stack: TestServices;
let t: TestService;
let forms: Server;
const formsAsked: unknown[] = [];

beforeAll(async () => {
  forms = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const body = JSON.parse(raw) as { ids: string[] };
      formsAsked.push({ path: req.url, token: Boolean(req.headers['x-internal-token']), body });
      const known = [
        { id: 'frm_active', name: 'Fryer checklist', kind: 'checklist', status: 'active', version: 3 },
        { id: 'frm_old', name: 'Old checklist', kind: 'checklist', status: 'archived', version: 1 },
      ];
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ data: known.filter((f) => body.ids.includes(f.id)) }));
    });
  });
  await new Promise<void>((r) => forms.listen(0, '127.0.0.1', () => r()));
  const port = (forms.address() as AddressInfo).port;
  stack = await startTestServices([equipmentService], { SERVICE_URL_OPERATIONS: `http://127.0.0.1:${port}`, CONSUMER_MAX_ATTEMPTS: '1' });
  t = stack.services.equipment;
}, 60_000);
afterAll(async () => {
  await stack?.close();
  if (forms?.listening) forms.close();
});

const alarm = (assetId: string | null, over: Record<string, unknown> = {}) => ({
  id: `exc_${Math.random().toString(36).slice(2)}`,
  sensorId: 'sen_walkin',
  sensorName: 'Walk-in probe',
  locationId: 'loc_x',
  assetId,
  state: 'out_of_range',
  value: '9.5',
  unit: 'C',
  min: '0',
  max: '5',
  outOfRangeSince: '2026-11-20T10:00:00Z',
  readAt: '2026-11-20T10:15:00Z',
  ...over,
});
const ordersOf = async (assetId: string) => (await t.call('GET', `/work-orders?assetId=${assetId}`)).body.data as Array<Record<string, any>>;

describe('sensor alarms on assets', () => {
  it('opens one work order per excursion when the asset says so; back in range is noted in its history', async () => {
    const loc = await replicaLocation(t);
    const watched = await newAsset(t, loc, { name: 'Walk-in', workOrderOnSensorAlarm: true });
    const ignored = await newAsset(t, loc, { name: 'Bar fridge' });
    const excursion = alarm(watched, { locationId: loc });
    const first = await publishEvent(stack, 'operations', 'sensor.out_of_range', excursion);
    await publishEvent(stack, 'operations', 'sensor.out_of_range', excursion); // the same alarm again (at-least-once)
    await publishEvent(stack, 'operations', 'sensor.out_of_range', alarm(ignored, { locationId: loc }));
    await publishEvent(stack, 'operations', 'sensor.out_of_range', alarm(null, { locationId: loc }));
    const [order] = await eventually(async () => {
      const o = await ordersOf(watched);
      return o.length > 0 ? o : undefined;
    });
    expect(order).toMatchObject({ source: 'sensor_alarm', priority: 'high', status: 'open', locationId: loc, createdBy: { type: 'system', id: null }, sensorAlarm: { id: excursion.id, sensorId: 'sen_walkin', value: '9.5', max: '5' } });
    expect(order.title).toContain('Walk-in probe');
    const [created] = await outboxPayloads(t, 'equipment', { type: 'work_order.created', aggregateId: order.id });
    expect(created).toMatchObject({ actor: { type: 'system', id: null }, locationId: loc });

    await publishEvent(stack, 'operations', 'sensor.out_of_range', { ...excursion, state: 'back_in_range', value: '4.0', readAt: '2026-11-20T10:40:00Z' });
    const history = await eventually(async () => {
      const h = (await t.call('GET', `/work-orders/${order.id}`)).body.history as Array<{ action: string; note: string | null }>;
      return h.length > 1 ? h : undefined;
    });
    expect(history[1]).toMatchObject({ action: 'sensor_back_in_range', note: expect.stringContaining('back in range') });
    // every event was applied (the second copy did nothing), none parked
    await eventually(async () => (await sql(stack, `select 1 from equipment.processed_events where consumer = 'equipment.sensor-alarms'`)).length >= 5);
    expect(await ordersOf(watched)).toHaveLength(1);
    expect(await ordersOf(ignored)).toEqual([]);
    expect(await sql(stack, `select 1 from equipment.dead_letters where event_id = $1`, [first.id])).toEqual([]);
  });

  it('parks a poison alarm in dead letters and goes on', async () => {
    const loc = await replicaLocation(t);
    const watched = await newAsset(t, loc, { name: 'Freezer', workOrderOnSensorAlarm: true });
    const poisons = [
      await publishEvent(stack, 'operations', 'sensor.out_of_range', { id: 'exc_bad', state: 'melting' }),
      await publishEvent(stack, 'operations', 'sensor.out_of_range', alarm(watched, { sensorName: 'Probe\u0000' })),
    ];
    await publishEvent(stack, 'operations', 'sensor.out_of_range', alarm(watched, { locationId: loc }));
    await eventually(async () => ((await ordersOf(watched)).length === 1 ? true : undefined));
    const parked = await eventually(async () => {
      const rows = await sql(stack, `select event_id from equipment.dead_letters where consumer = 'equipment.sensor-alarms'`);
      return rows.length >= 2 ? rows : undefined;
    });
    expect(parked.map((r: { event_id: string }) => r.event_id).sort()).toEqual(poisons.map((p) => p.id).sort());
  });
});

describe('checklist forms of maintenance plans', () => {
  it('checks the form with operations: unknown or archived refused with the field; active accepted', async () => {
    const loc = await replicaLocation(t);
    const asset = await newAsset(t, loc);
    const plan = (form: string) => t.call('POST', '/maintenance-plans', { body: { assetId: asset, name: 'Weekly', intervalDays: 7, checklistFormId: form } });
    const ok = await plan('frm_active');
    expect([ok.status, ok.body.checklistFormId]).toEqual([201, 'frm_active']);
    expect(formsAsked).toContainEqual({ path: '/internal/forms:states', token: true, body: { ids: ['frm_active'] } });
    for (const form of ['frm_old', 'frm_unknown']) {
      const r = await plan(form);
      expect([r.status, paths(r.body)]).toEqual([422, ['checklistFormId']]);
    }
    const patched = await t.call('PATCH', `/maintenance-plans/${ok.body.id}`, { body: { checklistFormId: 'frm_old' } });
    expect([patched.status, paths(patched.body)]).toEqual([422, ['checklistFormId']]);
  });

  it('answers 503 while operations cannot be reached', async () => {
    const loc = await replicaLocation(t);
    const asset = await newAsset(t, loc);
    await new Promise<void>((r) => forms.close(() => r()));
    const r = await t.call('POST', '/maintenance-plans', { body: { assetId: asset, name: 'Weekly', intervalDays: 7, checklistFormId: 'frm_active' } });
    expect([r.status, r.body.code]).toEqual([503, 'service_unavailable']);
  });
});

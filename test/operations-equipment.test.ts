/**
 * Operations and equipment together, through the gateway with every service running (all-in-one
 * runtime): a sensor's asset is checked with equipment as it stands now (read-your-writes: an asset
 * created a moment ago, an asset moved elsewhere), a sensor alarm on an asset set to open work orders
 * opens exactly one (operations' `sensor.out_of_range` → equipment), and a maintenance plan's
 * checklist form is checked with operations (a form just created is accepted, an archived one refused).
 */
import { eventually, http, startTestRuntime, type TestRuntime } from '@bop/test-support';

let t: TestRuntime;
beforeAll(async () => {
  t = await startTestRuntime({ STORAGE_S3_BUCKET: '', OPERATIONS_SENSOR_ALARM_CHECK_MS: '200' });
});
afterAll(async () => {
  await t?.close();
});

const api = (method: string, p: string, body?: unknown, headers = t.owner) => http(t.rt.url, method, `/api/v1${p}`, { body, headers });

async function location(name: string): Promise<string> {
  const r = await api('POST', '/locations', { name, timezone: 'America/New_York' });
  expect(r.status).toBe(201);
  return r.body.id;
}

it('checks a sensor\'s asset with equipment and opens one work order when the asset\'s sensor alarms', async () => {
  const kitchen = await location('Harbour kitchen');
  const other = await location('Harbour bar');
  const cooler = await api('POST', '/assets', { name: 'Walk-in cooler', category: 'Refrigeration', locationId: kitchen, workOrderOnSensorAlarm: true });
  expect(cooler.status).toBe(201);

  // the asset stands at another location than the sensor: refused with the field
  const elsewhere = await api('POST', '/sensors', { name: 'Bar probe', kind: 'temperature', unit: 'C', min: '0', max: '5', locationId: other, assetId: cooler.body.id });
  expect(elsewhere.status).toBe(422);
  expect(elsewhere.body.errors.map((e: { path: string }) => e.path)).toContain('assetId');

  const sensor = await api('POST', '/sensors', { name: 'Cooler probe', kind: 'temperature', unit: 'C', min: '0', max: '5', alarmDelayMinutes: 15, locationId: kitchen, assetId: cooler.body.id, externalId: 'PROBE-1' });
  expect(sensor.status).toBe(201);

  const reg = await api('POST', '/integrations', { manifest: { name: 'Probe hub', version: '1.0.0', description: 'sensor gateway', scopes: ['operations:write', 'operations:read'], webhooks: [] } });
  expect(reg.status).toBe(201);
  const hub = { authorization: `Bearer ${reg.body.apiKey}` };

  // 16 minutes out of range, one reading a minute, ending a minute ago; sent twice (a gateway's retry)
  const start = Date.now() - 17 * 60_000;
  const readings = Array.from({ length: 17 }, (_, i) => ({ sensorExternalId: 'PROBE-1', readAt: new Date(start + i * 60_000).toISOString().replace(/\.\d+Z$/, '.000Z'), value: '9.5' }));
  for (let send = 0; send < 2; send++) {
    const r = await api('POST', '/sensor-readings', { source: 'probe-hub', readings }, hub);
    expect(r.status).toBe(202);
    expect(r.body.rejected).toBe(0);
  }

  const orders = await eventually(async () => {
    const r = await api('GET', `/work-orders?assetId=${cooler.body.id}`);
    return r.body.data.length > 0 ? r.body.data : undefined;
  });
  expect(orders).toHaveLength(1);
  expect(orders[0]).toMatchObject({ assetId: cooler.body.id, locationId: kitchen, status: 'open' });
  // still one after a later alarm was handled: the alarm was raised once (a second cooler's alarm is the
  // barrier: equipment reads operations' events in order, so once it opened that order it has seen
  // everything the first sensor's readings caused; no waiting for something not to happen)
  const second = await api('POST', '/assets', { name: 'Reach-in cooler', category: 'Refrigeration', locationId: kitchen, workOrderOnSensorAlarm: true });
  expect((await api('POST', '/sensors', { name: 'Reach-in probe', kind: 'temperature', unit: 'C', min: '0', max: '5', alarmDelayMinutes: 15, locationId: kitchen, assetId: second.body.id, externalId: 'PROBE-2' })).status).toBe(201);
  expect((await api('POST', '/sensor-readings', { source: 'probe-hub', readings: readings.map((r) => ({ ...r, sensorExternalId: 'PROBE-2' })) }, hub)).status).toBe(202);
  await eventually(async () => ((await api('GET', `/work-orders?assetId=${second.body.id}`)).body.data.length > 0 ? true : undefined));
  expect((await api('GET', `/work-orders?assetId=${cooler.body.id}`)).body.data).toHaveLength(1);

  // the asset moves to the bar: the sensor can no longer watch it from the kitchen
  expect((await api('PATCH', `/assets/${cooler.body.id}`, { locationId: other })).status).toBe(200);
  const again = await api('POST', '/sensors', { name: 'Second probe', kind: 'temperature', unit: 'C', max: '5', locationId: kitchen, assetId: cooler.body.id });
  expect(again.status).toBe(422);
});

it('checks a maintenance plan\'s checklist form with operations', async () => {
  const kitchen = await location('Quay kitchen');
  const fryer = await api('POST', '/assets', { name: 'Fryer', category: 'Cooking', locationId: kitchen });
  expect(fryer.status).toBe(201);
  const form = await api('POST', '/forms', { name: 'Fryer service', kind: 'checklist', sections: [{ id: 's', title: 'Service', questions: [{ id: 'oil', type: 'yes_no', text: 'Oil changed?' }] }] });
  expect(form.status).toBe(201);

  const plan = await api('POST', '/maintenance-plans', { assetId: fryer.body.id, name: 'Monthly service', intervalDays: 30, checklistFormId: form.body.id });
  expect(plan.status).toBe(201);
  expect(plan.body.checklistFormId).toBe(form.body.id);

  expect((await api('DELETE', `/forms/${form.body.id}`)).status).toBe(200);
  const refused = await api('POST', '/maintenance-plans', { assetId: fryer.body.id, name: 'Weekly check', intervalDays: 7, checklistFormId: form.body.id });
  expect(refused.status).toBe(422);
  expect(refused.body.errors.map((e: { path: string }) => e.path)).toEqual(['checklistFormId']);
});

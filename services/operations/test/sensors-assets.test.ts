import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql, startTestServices, type TestService, type TestServices } from '@bop/test-support';
import { operationsService } from '../src';

/**
 * The asset a sensor watches, checked with equipment's internal read `POST /internal/assets:states`
 * (answered here by a local stand-in on equipment's port, as equipment's own tests stand in for
 * operations): it must exist, be active and stand at the sensor's location; equipment down → 503.
 */
let stack: TestServices;
let t: TestService;
let equipment: Server;
const asked: Array<{ path: string | undefined; token: boolean; body: unknown }> = [];
const LOC = 'loc_assets1';

beforeAll(async () => {
  equipment = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const body = JSON.parse(raw) as { ids: string[] };
      asked.push({ path: req.url, token: Boolean(req.headers['x-internal-token']), body });
      const known = [
        { id: 'ast_fridge', name: 'Walk-in', locationId: LOC, status: 'active', workOrderOnSensorAlarm: true },
        { id: 'ast_old', name: 'Old freezer', locationId: LOC, status: 'archived', workOrderOnSensorAlarm: false },
        { id: 'ast_elsewhere', name: 'Bar fridge', locationId: 'loc_other', status: 'active', workOrderOnSensorAlarm: false },
      ];
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ data: known.filter((a) => body.ids.includes(a.id)) }));
    });
  });
  await new Promise<void>((r) => equipment.listen(0, '127.0.0.1', () => r()));
  stack = await startTestServices([operationsService], { SERVICE_URL_EQUIPMENT: `http://127.0.0.1:${(equipment.address() as AddressInfo).port}` });
  t = stack.services.operations;
  await sql(stack, `insert into operations.locations (id, external_id, timezone, business_day_cutoff, status, org_unit_id, updated_at) values ($1, null, 'UTC', '04:00', 'active', null, now())`, [LOC]);
}, 60_000);
afterAll(async () => {
  await stack?.close();
  if (equipment?.listening) equipment.close();
});

const create = (assetId: string) => t.call('POST', '/sensors', { body: { name: 'Probe', kind: 'temperature', unit: 'C', min: '0', max: '5', locationId: LOC, assetId } });

describe('a sensor watching an asset', () => {
  it('needs an active asset at its location', async () => {
    const ok = await create('ast_fridge');
    expect([ok.status, ok.body.assetId]).toEqual([201, 'ast_fridge']);
    expect(asked[0]).toEqual({ path: '/internal/assets:states', token: true, body: { ids: ['ast_fridge'] } });
    const refused = async (assetId: string) => {
      const r = await create(assetId);
      expect(r.status).toBe(422);
      return r.body.errors;
    };
    expect(await refused('ast_none')).toEqual([{ path: 'assetId', message: 'No asset ast_none.' }]);
    expect(await refused('ast_old')).toEqual([{ path: 'assetId', message: 'Asset ast_old is archived; a sensor cannot watch it.' }]);
    expect(await refused('ast_elsewhere')).toEqual([{ path: 'assetId', message: `Asset ast_elsewhere stands at location loc_other, not at the sensor's location ${LOC}.` }]);
    // an unchanged asset is not asked again
    const before = asked.length;
    expect((await t.call('PATCH', `/sensors/${ok.body.id}`, { body: { name: 'Walk-in probe' } })).status).toBe(200);
    expect(asked.length).toBe(before);
  });

  it('answers 503 while equipment cannot be asked', async () => {
    await new Promise<void>((r) => equipment.close(() => r()));
    const r = await create('ast_fridge');
    expect([r.status, r.body.code]).toEqual([503, 'service_unavailable']);
  });
});

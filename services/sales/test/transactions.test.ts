import { Client } from 'pg';
import { organizationService } from '@svc/organization';
import { salesService, resolveLocations, locationFor, normalizeTransaction, transactionColumns } from '../src';
import { eventually, integration, person, startTestServices, type TestService, type TestServices } from '@bop/test-support';
import { newTransactionBody, parseTransaction } from './fixtures';

let stack: TestServices;
let org: TestService;
let sales: TestService;
let db: Client;
let locA: { id: string };
let locB: { id: string };

async function replicaRow(id: string) {
  const r = await db.query('select * from sales.locations where id = $1', [id]);
  return r.rows[0] as { id: string; external_id: string | null; timezone: string; business_day_cutoff: string; status: string } | undefined;
}

let seq = 0;
/** Inserts a stored transaction the way the batch upsert will (columns from transactionColumns). */
async function insertTransaction(source: string, location: { id: string; timezone: string; businessDayCutoff: string }, over: Record<string, unknown> = {}, updatedAt = new Date()) {
  seq += 1;
  const body = newTransactionBody({ externalId: `E-${seq}`, ...over });
  const n = normalizeTransaction(parseTransaction(body), location);
  const cols = { id: `stx_${String(seq).padStart(26, '0')}`, ...transactionColumns(source, body.externalId as string, n), version: 1, created_at: updatedAt, updated_at: updatedAt };
  const keys = Object.keys(cols);
  await db.query(`insert into sales.transactions (${keys.map((k) => `"${k}"`).join(',')}) values (${keys.map((_, i) => `$${i + 1}`).join(',')})`, Object.values(cols));
  return cols.id;
}

beforeAll(async () => {
  stack = await startTestServices([organizationService, salesService]);
  org = stack.services.organization;
  sales = stack.services.sales;
  db = new Client({ connectionString: stack.db.url });
  await db.connect();
  const a = await org.call('POST', '/locations', { body: { name: 'Downtown', timezone: 'America/New_York', businessDayCutoff: '04:00', externalId: 'POS-1' } });
  const b = await org.call('POST', '/locations', { body: { name: 'Berlin', timezone: 'Europe/Berlin', businessDayCutoff: '05:00' } });
  expect([a.status, b.status]).toEqual([201, 201]);
  locA = a.body;
  locB = b.body;
  await eventually(async () => (await replicaRow(locB.id)) !== undefined);
});
afterAll(async () => {
  await db?.end();
  await stack?.close();
});

describe('location replica (consumer of organization events)', () => {
  it('keeps time zone, cut-off, externalId and status of created, updated and archived locations', async () => {
    expect(await replicaRow(locA.id)).toMatchObject({ external_id: 'POS-1', timezone: 'America/New_York', business_day_cutoff: '04:00', status: 'active' });
    const created = await org.call('POST', '/locations', { body: { name: 'Temp', timezone: 'Europe/Berlin', externalId: 'POS-9' } });
    await eventually(async () => (await replicaRow(created.body.id)) !== undefined);
    const patched = await org.call('PATCH', `/locations/${created.body.id}`, { body: { businessDayCutoff: '03:00', timezone: 'Europe/Paris' } });
    expect(patched.status).toBe(200);
    await eventually(async () => (await replicaRow(created.body.id))?.business_day_cutoff === '03:00');
    expect(await replicaRow(created.body.id)).toMatchObject({ timezone: 'Europe/Paris' });
    expect((await org.call('DELETE', `/locations/${created.body.id}`)).status).toBe(200);
    await eventually(async () => (await replicaRow(created.body.id))?.status === 'archived');
  });

  it('resolveLocations loads ids and externalIds of a batch in one go', async () => {
    const inputs = [{ locationId: locB.id }, { locationExternalId: 'POS-1' }, { locationId: 'loc_nope' }, { locationExternalId: 'NOPE' }];
    const map = await sales.svc.runtime.read((w) => resolveLocations(w, inputs));
    expect(locationFor(map, inputs[0])).toMatchObject({ location: { id: locB.id, timezone: 'Europe/Berlin', businessDayCutoff: '05:00' }, warnings: [] });
    expect(locationFor(map, inputs[1])).toMatchObject({ location: { id: locA.id } });
    expect(locationFor(map, inputs[2])).toEqual({ error: { path: 'locationId', message: expect.any(String) } });
    expect(locationFor(map, inputs[3])).toEqual({ error: { path: 'locationExternalId', message: expect.any(String) } });
    expect(await sales.svc.runtime.read((w) => resolveLocations(w, []))).toEqual({ byId: new Map(), byExternalId: new Map() });
  });
});

describe('GET /sales/transactions', () => {
  const A = () => ({ id: locA.id, timezone: 'America/New_York', businessDayCutoff: '04:00' });
  const B = () => ({ id: locB.id, timezone: 'Europe/Berlin', businessDayCutoff: '05:00' });
  let ids: string[];
  beforeAll(async () => {
    ids = [
      await insertTransaction('pos-a', A(), { occurredAt: '2026-11-20T06:30:00Z' }, new Date('2026-11-20T07:00:00Z')), // business day 11-19
      await insertTransaction('pos-a', A(), { occurredAt: '2026-11-20T15:00:00Z' }, new Date('2026-11-20T16:00:00Z')),
      await insertTransaction('pos-a', A(), { occurredAt: '2026-11-21T15:00:00Z' }, new Date('2026-11-21T16:00:00Z')),
      await insertTransaction('pos-b', B(), { occurredAt: '2026-11-21T10:00:00Z' }, new Date('2026-11-21T11:00:00Z')),
      await insertTransaction('pos-b', B(), { occurredAt: '2026-11-22T10:00:00Z' }, new Date('2026-11-22T11:00:00Z')),
    ];
  });

  it('pages with opaque cursors in id order and renders the stored record', async () => {
    const first = await sales.call('GET', '/sales/transactions?limit=2');
    expect(first.status).toBe(200);
    expect(first.body.data.map((t: { id: string }) => t.id)).toEqual(ids.slice(0, 2));
    expect(first.body.hasMore).toBe(true);
    expect(first.body.data[0]).toMatchObject({
      source: 'pos-a', locationId: locA.id, occurredAt: '2026-11-20T06:30:00.000Z', businessDay: '2026-11-19', type: 'sale', status: 'completed',
      subtotal: '12.00', tax: '1.20', total: '13.20', currency: 'USD', refundOf: null, version: 1,
      lines: [expect.objectContaining({ quantity: '2', unitPrice: '4.50', lineTotal: '9.00', itemId: null }), expect.anything()],
      tenders: [{ type: 'cash', amount: '20.00', change: '6.80', platform: null }],
    });
    const second = await sales.call('GET', `/sales/transactions?limit=2&cursor=${first.body.nextCursor}`);
    const third = await sales.call('GET', `/sales/transactions?limit=2&cursor=${second.body.nextCursor}`);
    expect([...second.body.data, ...third.body.data].map((t: { id: string }) => t.id)).toEqual(ids.slice(2));
    expect(third.body).toMatchObject({ hasMore: false, nextCursor: null });
  });

  it('filters by source, updatedSince, location and business-day range', async () => {
    const list = async (q: string) => (await sales.call('GET', `/sales/transactions?${q}`)).body.data.map((t: { id: string }) => t.id);
    expect(await list('source=pos-b')).toEqual(ids.slice(3));
    expect(await list(`updatedSince=${encodeURIComponent('2026-11-21T11:00:00Z')}`)).toEqual(ids.slice(2));
    expect(await list(`locationId=${locA.id}`)).toEqual(ids.slice(0, 3));
    expect(await list('businessDayFrom=2026-11-20&businessDayTo=2026-11-21')).toEqual(ids.slice(1, 4));
    expect(await list(`locationId=${locA.id}&businessDayTo=2026-11-19`)).toEqual([ids[0]]);
  });

  it('answers 400 for bad query parameters and cursors', async () => {
    expect((await sales.call('GET', '/sales/transactions?businessDayFrom=21.11.2026')).body).toMatchObject({ code: 'bad_request', errors: [{ path: 'businessDayFrom' }] });
    expect((await sales.call('GET', '/sales/transactions?cursor=zzz')).status).toBe(400);
    expect((await sales.call('GET', '/sales/transactions?limit=500')).status).toBe(400);
  });

  it('keeps a location-bound person to reachable locations; integrations see all', async () => {
    const bound = person({ 'sales.read': [{ type: 'locations', ids: [locB.id] }] });
    const res = await sales.call('GET', '/sales/transactions', { as: bound });
    expect(res.body.data.map((t: { id: string }) => t.id)).toEqual(ids.slice(3));
    const out = await sales.call('GET', `/sales/transactions?locationId=${locA.id}`, { as: bound });
    expect(out.status).toBe(403);
    expect(out.body.code).toBe('out_of_reach');
    expect((await sales.call('GET', '/sales/transactions', { as: integration(['sales:read']) })).body.data).toHaveLength(5);
  });

  it('shows an unknown org unit nothing (org-unit reach: see reach.test.ts) and refuses people without the permission', async () => {
    const unit = await sales.call('GET', '/sales/transactions', { as: person({ 'sales.read': [{ type: 'org_units', ids: ['ou_x'] }] }) });
    expect(unit.status).toBe(200);
    expect(unit.body.data).toEqual([]);
    const none = await sales.call('GET', '/sales/transactions', { as: person({}) });
    expect(none.status).toBe(403);
    expect(none.body.code).toBe('forbidden');
  });
});

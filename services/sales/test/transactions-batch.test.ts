/**
 * POST /sales/transactions:batch with a real organization service feeding sales' location replica:
 * per-record results, business day from the location, events in the outbox, limits.
 */
import { organizationService } from '@svc/organization';
import { salesService } from '../src';
import { nycSale } from './fixtures';
import { RECORDED_CHUNK, transactionEvents } from '../src/transactions/recorded-events';
import { integration, NYC_1, replicatedLocation, serviceSql, startTestServices, type ServiceSql, type TestServices } from '@bop/test-support';

let stack: TestServices;
const pos = integration(['sales:write', 'sales:read']);
let locationId: string;

// 01:30 in New York: before the 04:00 cut-off → business day 2026-11-20
const sale = (externalId: string, over: Record<string, unknown> = {}) => nycSale(externalId, { occurredAt: '2026-11-21T06:30:00Z', ...over });

const batch = (transactions: unknown[], source = 'pos-nyc') => stack.services.sales.call('POST', '/sales/transactions:batch', { as: pos, body: { source, transactions } });
const sql: ServiceSql = (q, p) => serviceSql(stack.services.sales)(q, p);

beforeAll(async () => {
  stack = await startTestServices([organizationService, salesService], { API_MAX_BATCH_SIZE: '50' });
  locationId = await replicatedLocation(stack, NYC_1, ['sales']);
});
afterAll(async () => {
  await stack?.close();
});

describe('POST /sales/transactions:batch', () => {
  it('answers 202 with a result per record: created, updated, unchanged, duplicate, rejected', async () => {
    const first = await batch([sale('T1'), sale('T2')]);
    expect(first.status).toBe(202);
    expect(first.body.results[0].errors).toBeUndefined();
    expect(first.body).toMatchObject({ received: 2, created: 2, updated: 0, rejected: 0 });
    const r = await batch([
      sale('T1'), // same content → unchanged
      sale('T2', { registerId: 'R9' }), // changed → updated
      sale('T3'),
      sale('T3', { registerId: 'R2' }), // again in the same batch → duplicate
      sale('T4', { tenders: [{ type: 'card', amount: '19.00' }] }), // tenders do not add up → rejected
      sale('T5', { locationExternalId: 'NOWHERE' }),
      { externalId: 'T6', subtotal: 18.25 },
    ]);
    expect(r.status).toBe(202);
    expect(r.body).toMatchObject({ received: 7, created: 1, updated: 1, unchanged: 1, duplicate: 1, rejected: 3 });
    expect(r.body.results.map((x: { status: string }) => x.status)).toEqual(['unchanged', 'updated', 'created', 'duplicate', 'rejected', 'rejected', 'rejected']);
    expect(r.body.results[0].id).toBe(first.body.results[0].id);
    expect(r.body.results[4].errors).toEqual([{ path: 'tenders', message: expect.stringMatching(/19/) }]);
    expect(r.body.results[5].errors).toEqual([{ path: 'locationExternalId', message: expect.any(String) }]);
    expect(r.body.results[6].errors.map((e: { path: string }) => e.path)).toEqual(expect.arrayContaining(['subtotal', 'occurredAt', 'currency']));
    expect(await sql(`select external_id from sales.transactions where external_id in ('T4','T5','T6')`)).toEqual([]);
  });

  it('stores the business day from the location’s time zone and cut-off, and lists it', async () => {
    await batch([sale('BD-1'), sale('BD-2', { occurredAt: '2026-11-21T09:30:00Z' })]);
    const rows = await sql(`select external_id, to_char(business_day, 'YYYY-MM-DD') as day from sales.transactions where external_id like 'BD-%' order by external_id`);
    expect(rows).toEqual([
      { external_id: 'BD-1', day: '2026-11-20' },
      { external_id: 'BD-2', day: '2026-11-21' },
    ]);
    const list = await stack.services.sales.call('GET', `/sales/transactions?source=pos-nyc&businessDayFrom=2026-11-21&businessDayTo=2026-11-21`, { as: pos });
    expect(list.body.data.map((t: { externalId: string }) => t.externalId)).toContain('BD-2');
    expect(list.body.data.map((t: { externalId: string }) => t.externalId)).not.toContain('BD-1');
  });

  it('records sales.transactions.recorded (per location, in chunks) with every line and tender, and the batch result for integrations', async () => {
    const r = await batch([sale('EV-1'), sale('EV-2')]);
    const rows: Array<{ type: string; aggregate_id: string; payload: any }> = await sql(
      `select type, aggregate_id, payload from sales.outbox where payload->'data'->'object'->'transactions'->0->>'externalId' = 'EV-1' or payload->'data'->'object'->>'batchId' = ?`,
      [r.body.batchId],
    );
    const recorded = rows.find((x) => x.type === 'sales.transactions.recorded')!;
    expect(recorded.aggregate_id).toBe(locationId); // the bus key: one location's sales stay in order
    expect(recorded.payload).toMatchObject({ apiVersion: 'v1', actor: { type: 'integration', id: 'int_test' }, locationId, data: { object: { source: 'pos-nyc', locationId, reason: 'ingested' } } });
    const [first, second] = recorded.payload.data.object.transactions;
    expect(first).toMatchObject({ id: r.body.results[0].id, externalId: 'EV-1', businessDay: '2026-11-20', total: '19.71', version: 1 });
    expect(second).toMatchObject({ id: r.body.results[1].id, externalId: 'EV-2' });
    expect(first.lines).toHaveLength(2);
    expect(first.tenders).toEqual([{ type: 'cash', amount: '20.00', change: '0.29' }]);
    // compact: source and location are the event's, null fields are left out (absent = null)
    expect(first).not.toHaveProperty('source');
    expect(first).not.toHaveProperty('locationId');
    expect(first.lines[0]).not.toHaveProperty('itemBarcode');
    expect(first.lines[0]).not.toHaveProperty('itemId');
    const done = rows.find((x) => x.type === 'sales.batch.completed')!.payload;
    expect(done.data.object).toMatchObject({ batchId: r.body.batchId, integrationId: 'int_test', source: 'pos-nyc', endpoint: 'POST /sales/transactions:batch', received: 2, created: 2 });
    // an update carries the new version
    const again = await batch([sale('EV-1', { registerId: 'R7' })]);
    expect(again.body.updated).toBe(1);
    const [v2] = await sql(`select payload from sales.outbox where type = 'sales.transactions.recorded' and payload->'data'->'object'->'transactions'->0->>'registerId' = 'R7'`);
    expect(v2.payload.data.object.transactions[0]).toMatchObject({ externalId: 'EV-1', version: 2 });
  });

  it('refuses a batch over API_MAX_BATCH_SIZE whole, storing nothing', async () => {
    const big = Array.from({ length: 51 }, (_, i) => sale(`BIG-${i}`));
    const r = await batch(big);
    expect(r.status).toBe(413);
    expect(r.body.code).toBe('payload_too_large');
    expect(await sql(`select 1 from sales.transactions where external_id like 'BIG-%'`)).toEqual([]);
  });

  it('stores each record once when two clients send the same batch at the same time', async () => {
    const same = Array.from({ length: 40 }, (_, i) => sale(`CON-${i}`));
    const [a, b] = await Promise.all([batch(same), batch(same)]);
    expect(a.status).toBe(202);
    expect(b.status).toBe(202);
    expect(a.body.created + b.body.created).toBe(40);
    expect(a.body.unchanged + b.body.unchanged).toBe(40);
    expect(Number((await sql(`select count(*) n from sales.transactions where external_id like 'CON-%'`))[0].n)).toBe(40);
  });

  it('answers 422 with paths for a malformed batch (no source)', async () => {
    const r = await stack.services.sales.call('POST', '/sales/transactions:batch', { as: pos, body: { transactions: [sale('X')] } });
    expect(r.status).toBe(422);
    expect(r.body.errors.map((e: { path: string }) => e.path)).toContain('source');
  });
});

describe('transactionEvents', () => {
  it('groups written transactions per location (the bus key) in chunks, in order, each with its version', () => {
    const row = (locationId: string) => ({ location_id: locationId, lines: [], tenders: [], channel: null, register_id: null, employee_external_id: null, refund_of: null }) as any;
    const written = [
      ...Array.from({ length: RECORDED_CHUNK + 50 }, (_, i) => ({ id: `stx_a${i}`, externalId: `A-${i}`, row: row('loc_a'), version: 1 })),
      { id: 'stx_b0', externalId: 'B-0', row: row('loc_b'), version: 3 },
    ];
    const events = transactionEvents('pos', written, 'ingested');
    expect(events.map((e) => [e.aggregateId, (e.object as any).transactions.length])).toEqual([
      ['loc_a', RECORDED_CHUNK],
      ['loc_a', 50],
      ['loc_b', 1],
    ]);
    expect((events[1].object as any).transactions[0]).toMatchObject({ externalId: `A-${RECORDED_CHUNK}`, version: 1 });
    expect(events[2]).toMatchObject({ type: 'sales.transactions.recorded', locationId: 'loc_b', object: { source: 'pos', reason: 'ingested', transactions: [{ id: 'stx_b0', version: 3 }] } });
  });
});

/**
 * Sales summaries with a real organization service feeding sales' location replica: POST
 * /sales-summaries (ingested), rule 9 both ways, summaries built from transactions in the
 * background, the list and get endpoints with reach.
 */
import { organizationService } from '@svc/organization';
import { salesService } from '../src';
import { nycDaySummary, nycSale } from './fixtures';
import { businessDaysOfPeriod } from '../src/summaries/summary-rules';
import { FILL_CONTRIBUTIONS, FILL_GROUPS } from '../src/migrations/Migration20261128130000';
import { integration, person, serviceSql, standardLocations, startTestServices, type ServiceSql, type TestServices } from '@bop/test-support';

let stack: TestServices;
const pos = integration(['sales:write', 'sales:read']);
let nyc: string;
let ber: string;

const sql: ServiceSql = (q, p) => serviceSql(stack.services.sales)(q, p);
const sendSummaries = (summaries: unknown[], source = 'pos-sum') => stack.services.sales.call('POST', '/sales-summaries', { as: pos, body: { source, summaries } });
const sendTransactions = (transactions: unknown[], source: string) => stack.services.sales.call('POST', '/sales/transactions:batch', { as: pos, body: { source, transactions } });
const get = (path: string, as = pos) => stack.services.sales.call('GET', path, { as });

/** A day summary of NYC's business day 2026-11-20. */
const daySummary = (externalId: string, over: Record<string, unknown> = {}) => nycDaySummary(externalId, '2026-11-20', over);

/** An hour summary at a location; `hour` is the UTC hour on 2026-11-20. */
function hourSummary(externalId: string, hour: number, over: Record<string, unknown> = {}) {
  const at = (h: number) => new Date(Date.UTC(2026, 10, 20, h)).toISOString();
  return { externalId, locationExternalId: 'BER-1', periodStart: at(hour), periodEnd: at(hour + 1), grossSales: '100.00', netSales: '100.00', tax: '19.00', transactions: 7, ...over };
}

/** A sale as a POS sends it (10:00 in New York on 2026-11-20 → business day 2026-11-20). */
const sale = (externalId: string, over: Record<string, unknown> = {}) => nycSale(externalId, { channel: 'in_store', ...over });

const deliverySale = (externalId: string, over: Record<string, unknown> = {}) =>
  sale(externalId, {
    channel: 'delivery',
    lines: [{ itemSku: 'BOWL', name: 'Bowl', quantity: '1', unitPrice: '12.10', discount: '0.60', tax: '0.92' }],
    tenders: [{ type: 'card', amount: '12.42' }],
    subtotal: '11.50',
    tax: '0.92',
    total: '12.42',
    ...over,
  });

const counterSale = (externalId: string, over: Record<string, unknown> = {}) => {
  const { channel: _none, ...rest } = sale(externalId, {
    lines: [{ itemSku: 'COOKIE', name: 'Cookie', quantity: '3', unitPrice: '0.99' }],
    tenders: [{ type: 'card', amount: '2.97' }],
    subtotal: '2.97',
    tax: '0',
    total: '2.97',
    ...over,
  });
  return rest;
};

interface Summary {
  id: string;
  origin: string;
  externalId: string;
  businessDay: string | null;
  netSales: string;
  version: number;
  byChannel: Array<{ channel: string; netSales: string; transactions: number }>;
  [k: string]: unknown;
}

/** Runs the day-summary rebuild (the worker's rounds, started without its loop) until no mark is left. */
async function rebuildMarkedDays(): Promise<void> {
  while ((await stack.services.sales.svc.worker('summary-rebuild').runOnce()) === true);
}

/** The built summary of a (location, source, business day) after the rebuild ran; it shows `netSales`. */
async function builtOnce(source: string, locationId: string, businessDay: string, netSales: string): Promise<Summary> {
  await rebuildMarkedDays();
  const r = await get(`/sales-summaries?origin=built&source=${source}&locationId=${locationId}&limit=200`);
  const s = (r.body.data as Summary[]).find((x) => x.businessDay === businessDay);
  expect(s?.netSales).toBe(netSales);
  return s!;
}

beforeAll(async () => {
  // no worker loop: the tests run the summary rebuild's rounds themselves
  stack = await startTestServices([organizationService, salesService], { API_MAX_BATCH_SIZE: '50' }, { workers: false });
  ({ 'NYC-1': nyc, 'BER-1': ber } = await standardLocations(stack, ['sales']));
});
afterAll(async () => {
  await stack?.close();
});

describe('POST /sales-summaries', () => {
  it('answers 202 with a result per record: created, updated, unchanged, duplicate, rejected', async () => {
    const first = await sendSummaries([daySummary('2026-11-20'), hourSummary('H-09', 9)]);
    expect(first.status).toBe(202);
    expect(first.body).toMatchObject({ received: 2, created: 2, updated: 0, unchanged: 0, duplicate: 0, rejected: 0 });
    expect(first.body.results[0]).toEqual({ index: 0, externalId: '2026-11-20', status: 'created', id: expect.stringMatching(/^ssm_/) });

    const r = await sendSummaries([
      daySummary('2026-11-20'), // same content → unchanged
      hourSummary('H-09', 9, { guests: 4 }), // changed → updated
      hourSummary('H-10', 10),
      hourSummary('H-10', 10, { tax: '18.00' }), // again in the batch → duplicate
      hourSummary('H-11', 11, { netSales: '90.00' }), // netSales ≠ grossSales − discounts
      hourSummary('H-12', 12, { byChannel: [{ channel: 'in_store', netSales: '60.00', transactions: 7 }] }), // channels do not add up
      hourSummary('H-13', 13, { periodEnd: '2026-11-20T12:00:00Z' }),
      hourSummary('H-14', 14, { locationExternalId: 'NOWHERE' }),
      { externalId: 'H-15', locationId: ber, periodStart: '2026-11-20T15:00:00+01:00', grossSales: 10, transactions: -1 },
      hourSummary('built:x', 16),
    ]);
    expect(r.status).toBe(202);
    expect(r.body).toMatchObject({ received: 10, created: 1, updated: 1, unchanged: 1, duplicate: 1, rejected: 6 });
    expect(r.body.results.map((x: { status: string }) => x.status)).toEqual(['unchanged', 'updated', 'created', 'duplicate', 'rejected', 'rejected', 'rejected', 'rejected', 'rejected', 'rejected']);
    expect(r.body.results[0].id).toBe(first.body.results[0].id);
    expect(r.body.results[1].id).toBe(first.body.results[1].id);
    expect(r.body.results[4].errors).toEqual([{ path: 'netSales', message: 'netSales is 90.00 but grossSales − discounts is 100.00.' }]);
    expect(r.body.results[5].errors).toEqual([{ path: 'byChannel', message: expect.stringContaining('60.00') }]);
    expect(r.body.results[6].errors).toEqual([{ path: 'periodEnd', message: 'periodEnd must be after periodStart.' }]);
    expect(r.body.results[7].errors).toEqual([{ path: 'locationExternalId', message: expect.any(String) }]);
    expect(r.body.results[8].errors.map((e: { path: string }) => e.path)).toEqual(expect.arrayContaining(['periodStart', 'periodEnd', 'grossSales', 'netSales', 'tax', 'transactions']));
    expect(r.body.results[9].errors).toEqual([{ path: 'externalId', message: expect.stringContaining('reserved') }]);
    expect(await sql(`select external_id from sales.summaries where external_id in ('H-11','H-12','H-13','H-14','H-15','built:x')`)).toEqual([]);
    const h10 = await sql(`select tax from sales.summaries where external_id = 'H-10'`);
    expect(h10).toEqual([{ tax: '19.000000' }]);
  });

  it('stores the summary as sent, with its channel breakdown, and shows it by id', async () => {
    const r = await sendSummaries([daySummary('SHOW-1', { periodStart: '2026-11-18T09:00:00Z', periodEnd: '2026-11-19T09:00:00Z', grossSales: '1250.4', tax: '96' })]);
    const got = await get(`/sales-summaries/${r.body.results[0].id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual({
      id: r.body.results[0].id,
      source: 'pos-sum',
      origin: 'ingested',
      externalId: 'SHOW-1',
      locationId: nyc,
      businessDay: null,
      periodStart: '2026-11-18T09:00:00.000Z',
      periodEnd: '2026-11-19T09:00:00.000Z',
      currency: 'USD',
      grossSales: '1250.40',
      discounts: '50.40',
      netSales: '1200.00',
      tax: '96.00',
      transactions: 80,
      guests: 95,
      byChannel: [
        { channel: 'in_store', netSales: '900.00', transactions: 60 },
        { channel: 'delivery', netSales: '300.00', transactions: 20 },
      ],
      version: 1,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    // no currency: figures are kept to at least 2 decimals, currency null, guests optional
    const bare = await sendSummaries([hourSummary('BARE-1', 20, { grossSales: '7.5', netSales: '7.5', tax: '0.6' })]);
    const b = await get(`/sales-summaries/${bare.body.results[0].id}`);
    expect(b.body).toMatchObject({ currency: null, grossSales: '7.50', discounts: '0.00', netSales: '7.50', tax: '0.60', guests: null, byChannel: [] });
  });

  it('records sales.summary.updated with the summary (and what changed), and the batch event', async () => {
    const first = await sendSummaries([hourSummary('EV-1', 0)], 'pos-ev');
    const second = await sendSummaries([hourSummary('EV-1', 0, { tax: '18.50' })], 'pos-ev');
    const id = first.body.results[0].id;
    const events: Array<{ payload: any }> = await sql(`select payload from sales.outbox where type = 'sales.summary.updated' and aggregate_id = ? order by seq`, [id]);
    expect(events).toHaveLength(2);
    expect(events[0].payload).toMatchObject({
      type: 'sales.summary.updated',
      apiVersion: 'v1',
      actor: { type: 'integration', id: 'int_test' },
      locationId: ber,
      data: { object: { id, origin: 'ingested', externalId: 'EV-1', source: 'pos-ev', tax: '19.00', version: 1, periodStart: '2026-11-20T00:00:00.000Z' } },
    });
    expect(events[0].payload.data.previous).toBeUndefined();
    expect(events[1].payload.data.object).toMatchObject({ tax: '18.50', version: 2 });
    expect((await get(`/sales-summaries/${id}`)).body).toEqual(events[1].payload.data.object);
    const done: Array<{ payload: any }> = await sql(`select payload from sales.outbox where type = 'sales.batch.completed' and payload->'data'->'object'->>'batchId' = ?`, [second.body.batchId]);
    expect(done[0].payload.data.object).toMatchObject({ source: 'pos-ev', endpoint: 'POST /sales-summaries', received: 1, updated: 1 });
  });

  it('refuses a period that overlaps another summary of the same location and source (sales would count twice)', async () => {
    await sendSummaries([hourSummary('OV-10', 10, { periodStart: '2026-11-22T10:00:00Z', periodEnd: '2026-11-22T11:00:00Z' })], 'pos-ov');
    const r = await sendSummaries(
      [
        hourSummary('OV-DAY', 0, { periodStart: '2026-11-22T04:00:00Z', periodEnd: '2026-11-23T04:00:00Z' }), // overlaps the stored hour
        hourSummary('OV-11', 0, { periodStart: '2026-11-22T11:00:00Z', periodEnd: '2026-11-22T12:00:00Z' }), // touches it: fine
        hourSummary('OV-1130', 0, { periodStart: '2026-11-22T11:30:00Z', periodEnd: '2026-11-22T12:30:00Z' }), // overlaps the record before
        hourSummary('OV-NYC', 0, { locationExternalId: 'NYC-1', periodStart: '2026-11-22T10:00:00Z', periodEnd: '2026-11-22T11:00:00Z' }), // another location
      ],
      'pos-ov',
    );
    expect(r.body.results.map((x: { status: string }) => x.status)).toEqual(['rejected', 'created', 'rejected', 'created']);
    expect(r.body.results[0].errors).toEqual([{ path: 'periodStart', message: expect.stringContaining('OV-10') }]);
    expect(r.body.results[2].errors).toEqual([{ path: 'periodStart', message: expect.stringContaining('OV-11') }]);
    // moving both stored hours in one batch is judged on their new periods
    const moved = await sendSummaries(
      [
        hourSummary('OV-10', 0, { periodStart: '2026-11-22T11:00:00Z', periodEnd: '2026-11-22T12:00:00Z' }),
        hourSummary('OV-11', 0, { periodStart: '2026-11-22T12:00:00Z', periodEnd: '2026-11-22T13:00:00Z' }),
      ],
      'pos-ov',
    );
    expect(moved.body.results.map((x: { status: string }) => x.status)).toEqual(['updated', 'updated']);
  });

  it('refuses a batch over API_MAX_BATCH_SIZE whole, and a malformed body with 422', async () => {
    const big = await sendSummaries(Array.from({ length: 51 }, (_, i) => hourSummary(`BIG-${i}`, i % 24)), 'pos-big');
    expect(big.status).toBe(413);
    expect(big.body).toMatchObject({ code: 'payload_too_large', errors: [{ path: 'summaries' }] });
    expect(await sql(`select 1 from sales.summaries where source = 'pos-big'`)).toEqual([]);
    const bad = await stack.services.sales.call('POST', '/sales-summaries', { as: pos, body: { summaries: [] } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { path: string }) => e.path)).toEqual(expect.arrayContaining(['source', 'summaries']));
  });
});

describe('ingestion rule 9: transactions or summaries per location and source', () => {
  it('rejects transactions where the location and source already sent summaries, and the reverse', async () => {
    expect((await sendSummaries([daySummary('R9-S1')], 'r9-sum')).body.created).toBe(1);
    const tx = await sendTransactions([sale('R9-T1')], 'r9-sum');
    expect(tx.body.results[0]).toMatchObject({ status: 'rejected', errors: [{ path: 'source', message: expect.stringContaining('ingestion rule 9') }] });

    expect((await sendTransactions([sale('R9-T2')], 'r9-tx')).body.created).toBe(1);
    const sum = await sendSummaries([daySummary('R9-S2')], 'r9-tx');
    expect(sum.body.results[0]).toMatchObject({ status: 'rejected', errors: [{ path: 'source', message: expect.stringContaining('ingestion rule 9') }] });

    // another source at the same location, or the same source at another location, is fine
    expect((await sendTransactions([sale('R9-T3')], 'r9-other')).body.created).toBe(1);
    expect((await sendTransactions([sale('R9-T4', { locationExternalId: 'BER-1' })], 'r9-sum')).body.created).toBe(1);
    expect((await sendSummaries([hourSummary('R9-S3', 9)], 'r9-tx')).body.created).toBe(1);
    const modes = await sql(`select location_id, source, mode from sales.source_modes where source like 'r9-%'`);
    expect(modes).toHaveLength(5);
    expect(modes).toEqual(
      expect.arrayContaining([
        { location_id: nyc, source: 'r9-sum', mode: 'summaries' },
        { location_id: ber, source: 'r9-sum', mode: 'transactions' },
        { location_id: nyc, source: 'r9-tx', mode: 'transactions' },
        { location_id: ber, source: 'r9-tx', mode: 'summaries' },
        { location_id: nyc, source: 'r9-other', mode: 'transactions' },
      ]),
    );
  });

  it('judges each record of a batch on its own pair', async () => {
    await sendTransactions([sale('R9-MIX-T')], 'r9-mix');
    const r = await sendSummaries([daySummary('R9-MIX-NYC'), hourSummary('R9-MIX-BER', 9)], 'r9-mix');
    expect(r.body.results.map((x: { status: string }) => x.status)).toEqual(['rejected', 'created']);
  });

  it('lets only one kind through when transactions and summaries of a new pair arrive at the same time', async () => {
    for (let i = 0; i < 5; i++) {
      const source = `r9-race-${i}`;
      const [s, t] = await Promise.all([sendSummaries([daySummary(`RACE-S-${i}`)], source), sendTransactions([sale(`RACE-T-${i}`)], source)]);
      expect([s.status, t.status]).toEqual([202, 202]);
      expect(s.body.created + t.body.created).toBe(1);
      expect(s.body.rejected + t.body.rejected).toBe(1);
      const loser = s.body.rejected ? s.body.results[0] : t.body.results[0];
      expect(loser.errors).toEqual([{ path: 'source', message: expect.stringContaining('ingestion rule 9') }]);
    }
  });
});

describe('summaries built from transactions', () => {
  it('builds the business day’s summary in the background: figures to the cent, channels, period from the location', async () => {
    const r = await sendTransactions([sale('B-A'), deliverySale('B-B'), counterSale('B-C')], 'pos-built');
    expect(r.body.created).toBe(3);
    const s = await builtOnce('pos-built', nyc, '2026-11-20', '32.72');
    expect(s).toEqual({
      id: expect.stringMatching(/^ssm_/),
      source: 'pos-built',
      origin: 'built',
      externalId: 'day:2026-11-20',
      locationId: nyc,
      businessDay: '2026-11-20',
      periodStart: '2026-11-20T09:00:00.000Z',
      periodEnd: '2026-11-21T09:00:00.000Z',
      currency: 'USD',
      grossSales: '34.32',
      discounts: '1.60',
      netSales: '32.72',
      tax: '2.38',
      transactions: 3,
      guests: null,
      byChannel: [
        { channel: 'delivery', netSales: '11.50', transactions: 1 },
        { channel: 'in_store', netSales: '18.25', transactions: 1 },
        { channel: 'unspecified', netSales: '2.97', transactions: 1 },
      ],
      version: 1,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect((await get(`/sales-summaries/${s.id}`)).body).toEqual(s);
  });

  it('rebuilds after a refund (subtracts), a void (excluded) and a sale moved to another day (both days)', async () => {
    await sendTransactions([sale('M-A'), deliverySale('M-B'), counterSale('M-C')], 'pos-move');
    const v1 = await builtOnce('pos-move', nyc, '2026-11-20', '32.72');

    const refund = sale('M-R', {
      type: 'refund',
      refundOf: 'M-A',
      occurredAt: '2026-11-20T16:00:00Z',
      lines: [{ itemSku: 'SODA', name: 'Soda', quantity: '-1', unitPrice: '2.25', tax: '-0.18' }],
      tenders: [{ type: 'cash', amount: '-2.43' }],
      subtotal: '-2.25',
      tax: '-0.18',
      total: '-2.43',
    });
    expect((await sendTransactions([refund], 'pos-move')).body.created).toBe(1);
    const v2 = await builtOnce('pos-move', nyc, '2026-11-20', '30.47');
    expect(v2).toMatchObject({ id: v1.id, version: 2, grossSales: '32.07', discounts: '1.60', tax: '2.20', transactions: 3 });
    expect(v2.byChannel).toContainEqual({ channel: 'in_store', netSales: '16.00', transactions: 1 });

    expect((await sendTransactions([counterSale('M-C', { status: 'voided' })], 'pos-move')).body.updated).toBe(1);
    const v3 = await builtOnce('pos-move', nyc, '2026-11-20', '27.50');
    expect(v3).toMatchObject({ id: v1.id, version: 3, grossSales: '29.10', tax: '2.20', transactions: 2 });
    expect(v3.byChannel.map((c) => c.channel)).toEqual(['delivery', 'in_store']);

    // 10:00 in New York on 11-21: the sale moves to the next business day; both days are rebuilt
    expect((await sendTransactions([deliverySale('M-B', { occurredAt: '2026-11-21T15:00:00Z' })], 'pos-move')).body.updated).toBe(1);
    const day20 = await builtOnce('pos-move', nyc, '2026-11-20', '16.00');
    expect(day20).toMatchObject({ id: v1.id, grossSales: '17.00', discounts: '1.00', tax: '1.28', transactions: 1, byChannel: [{ channel: 'in_store', netSales: '16.00', transactions: 1 }] });
    const day21 = await builtOnce('pos-move', nyc, '2026-11-21', '11.50');
    expect(day21).toMatchObject({ grossSales: '12.10', discounts: '0.60', tax: '0.92', transactions: 1, periodStart: '2026-11-21T09:00:00.000Z', periodEnd: '2026-11-22T09:00:00.000Z' });
    expect(day21.id).not.toBe(v1.id);
  });

  it('keeps a zero summary for a day whose transactions are all voided', async () => {
    await sendTransactions([sale('Z-A', { occurredAt: '2026-11-23T15:00:00Z' })], 'pos-zero');
    const before = await builtOnce('pos-zero', nyc, '2026-11-23', '18.25');
    await sendTransactions([sale('Z-A', { occurredAt: '2026-11-23T15:00:00Z', status: 'voided' })], 'pos-zero');
    const zero = await builtOnce('pos-zero', nyc, '2026-11-23', '0.00');
    expect(zero).toMatchObject({ id: before.id, grossSales: '0.00', discounts: '0.00', tax: '0.00', transactions: 0, byChannel: [], version: 2 });
  });

  it('records sales.summary.updated for a built summary (actor system, what changed), and not for a rebuild that changes nothing', async () => {
    await sendTransactions([sale('E-A', { occurredAt: '2026-11-24T15:00:00Z' })], 'pos-bev');
    const s1 = await builtOnce('pos-bev', nyc, '2026-11-24', '18.25');
    await sendTransactions([sale('E-B', { occurredAt: '2026-11-24T16:00:00Z' })], 'pos-bev');
    const s2 = await builtOnce('pos-bev', nyc, '2026-11-24', '36.50');
    // a change that moves no figure (another register) marks the day; its rebuild changes nothing
    await sendTransactions([sale('E-B', { occurredAt: '2026-11-24T16:00:00Z', registerId: 'R2' })], 'pos-bev');
    await rebuildMarkedDays();
    expect(await sql(`select 1 from sales.summary_rebuilds where source = 'pos-bev'`)).toEqual([]);
    const events: Array<{ payload: any }> = await sql(`select payload from sales.outbox where type = 'sales.summary.updated' and aggregate_id = ? order by seq`, [s1.id]);
    expect(events).toHaveLength(2);
    expect(events[0].payload).toMatchObject({ actor: { type: 'system', id: null }, locationId: nyc, data: { object: { ...s1, createdAt: expect.any(String), updatedAt: expect.any(String) } } });
    expect(events[1].payload.data.object).toMatchObject({ netSales: '36.50', version: 2 });
    expect(events[1].payload.data.previous).toMatchObject({ netSales: '18.25', grossSales: '19.25', transactions: 1 });
    expect((await get(`/sales-summaries/${s2.id}`)).body.version).toBe(2);
  });

  it('ends with exact figures when many batches mark the same day at once', async () => {
    await Promise.all(Array.from({ length: 8 }, (_, i) => sendTransactions([sale(`C-${i}`, { occurredAt: '2026-11-25T15:00:00Z' })], 'pos-many')));
    const s = await builtOnce('pos-many', nyc, '2026-11-25', '146.00');
    expect(s).toMatchObject({ transactions: 8, grossSales: '154.00', discounts: '8.00', tax: '11.68' });
    expect(await sql(`select count(*)::int as n from sales.summaries where source = 'pos-many'`)).toEqual([{ n: 1 }]);
  });

  it('keeps each day group\'s running sums equal to a recount of its transactions through sales, refunds, voids and moves, so a rebuild reads the groups only', async () => {
    await sendTransactions([sale('G-A'), deliverySale('G-B'), counterSale('G-C'), sale('G-D', { channel: undefined })], 'pos-sums');
    await sendTransactions(
      [
        sale('G-R', { type: 'refund', refundOf: 'G-A', occurredAt: '2026-11-20T16:00:00Z', lines: [{ itemSku: 'SODA', name: 'Soda', quantity: '-1', unitPrice: '2.25', tax: '-0.18' }], tenders: [{ type: 'cash', amount: '-2.43' }], subtotal: '-2.25', tax: '-0.18', total: '-2.43' }),
        counterSale('G-C', { status: 'voided' }),
        deliverySale('G-B', { occurredAt: '2026-11-21T15:00:00Z' }),
      ],
      'pos-sums',
    );
    await sendTransactions([counterSale('G-C', { status: 'voided' })], 'pos-sums'); // unchanged: nothing added twice
    const day20 = await builtOnce('pos-sums', nyc, '2026-11-20', '34.25');
    expect(day20).toMatchObject({ transactions: 2, grossSales: '36.25', discounts: '2.00', tax: '2.74' });
    await builtOnce('pos-sums', nyc, '2026-11-21', '11.50');
    const recount = await sql(
      `select t.location_id, to_char(t.business_day, 'YYYY-MM-DD') as day, coalesce(t.channel, '') as channel,
         sum(case when t.status <> 'completed' then 0 else (select coalesce(sum((l->>'quantity')::numeric * (l->>'unitPrice')::numeric), t.subtotal) from jsonb_array_elements(t.lines) l) end)::numeric(18,4)::text as gross,
         sum(case when t.status <> 'completed' then 0 else t.tax end)::numeric(18,4)::text as tax,
         sum(case when t.status = 'completed' and t.type = 'sale' then 1 else 0 end)::int as sales, count(*)::int as members
       from sales.transactions t where t.source = 'pos-sums' group by 1, 2, 3 order by 1, 2, 3`,
    );
    const sums = await sql(
      `select location_id, to_char(business_day, 'YYYY-MM-DD') as day, channel, gross::numeric(18,4)::text as gross, tax::numeric(18,4)::text as tax, sales, members
       from sales.summary_groups where source = 'pos-sums' and members > 0 order by 1, 2, 3`,
    );
    expect(sums).toEqual(recount);
    expect(recount.length).toBe(3);
    expect(await sql(`select count(*)::int as n from sales.summary_group_deltas where source = 'pos-sums'`)).toEqual([{ n: 0 }]);

    // the migration fills the same sums from the stored transactions (a database upgraded with sales in it)
    const kept = await sql(`select location_id, source, business_day, currency, channel, gross::numeric(18,4)::text as gross, discounts::numeric(18,4)::text as discounts, tax::numeric(18,4)::text as tax, sales, completed, members from sales.summary_groups where members > 0 order by 1, 2, 3, 4, 5`);
    await sql(`delete from sales.summary_groups`);
    await sql(`delete from sales.summary_contributions`);
    await sql(`delete from sales.summary_group_deltas`);
    await sql(FILL_CONTRIBUTIONS);
    await sql(FILL_GROUPS);
    expect(await sql(`select location_id, source, business_day, currency, channel, gross::numeric(18,4)::text as gross, discounts::numeric(18,4)::text as discounts, tax::numeric(18,4)::text as tax, sales, completed, members from sales.summary_groups where members > 0 order by 1, 2, 3, 4, 5`)).toEqual(kept);
  });
});

describe('GET /sales-summaries', () => {
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    const r = await sendSummaries(
      [
        hourSummary('L-1', 9, { periodStart: '2026-12-01T09:00:00Z', periodEnd: '2026-12-01T10:00:00Z' }),
        hourSummary('L-2', 9, { periodStart: '2026-12-02T09:00:00Z', periodEnd: '2026-12-02T10:00:00Z' }),
        hourSummary('L-3', 9, { periodStart: '2026-12-03T09:00:00Z', periodEnd: '2026-12-03T10:00:00Z', locationExternalId: 'NYC-1' }),
      ],
      'pos-list',
    );
    r.body.results.forEach((x: { externalId: string; id: string }) => (ids[x.externalId] = x.id));
  });
  const list = async (q: string, as = pos) => {
    const r = await get(`/sales-summaries?${q}`, as);
    expect(r.status).toBe(200);
    return (r.body.data as Summary[]).map((s) => s.externalId);
  };

  it('filters by source, location, origin and a periodStart range (from inclusive, to exclusive)', async () => {
    expect(await list('source=pos-list')).toEqual(['L-1', 'L-2', 'L-3']);
    expect(await list(`source=pos-list&locationId=${ber}`)).toEqual(['L-1', 'L-2']);
    expect(await list(`source=pos-list&from=2026-12-02T09:00:00Z`)).toEqual(['L-2', 'L-3']);
    expect(await list(`source=pos-list&from=2026-12-01T00:00:00Z&to=2026-12-02T09:00:00Z`)).toEqual(['L-1']);
    expect(await list('source=pos-list&origin=built')).toEqual([]);
    expect((await list('origin=built')).every((x) => x.startsWith('day:'))).toBe(true);
  });

  it('pages with opaque cursors', async () => {
    const first = await get('/sales-summaries?source=pos-list&limit=2');
    expect(first.body).toMatchObject({ hasMore: true, nextCursor: expect.any(String) });
    const second = await get(`/sales-summaries?source=pos-list&limit=2&cursor=${first.body.nextCursor}`);
    expect(second.body).toMatchObject({ hasMore: false, nextCursor: null });
    expect([...first.body.data, ...second.body.data].map((s: Summary) => s.id)).toEqual([ids['L-1'], ids['L-2'], ids['L-3']]);
  });

  it('answers 400 for bad parameters', async () => {
    expect((await get('/sales-summaries?from=yesterday')).body).toMatchObject({ code: 'bad_request', errors: [{ path: 'from' }] });
    expect((await get('/sales-summaries?from=2026-12-02T00:00:00Z&to=2026-12-01T00:00:00Z')).body).toMatchObject({ code: 'bad_request', errors: [{ path: 'to' }] });
    expect((await get('/sales-summaries?origin=guessed')).status).toBe(400);
    expect((await get('/sales-summaries?cursor=zzz')).status).toBe(400);
  });

  it('keeps a person with location reach to reachable locations (403 out_of_reach beyond), 404 for no such summary', async () => {
    const bound = person({ 'sales.read': [{ type: 'locations', ids: [ber] }] });
    expect(await list('source=pos-list', bound)).toEqual(['L-1', 'L-2']);
    const out = await get(`/sales-summaries?locationId=${nyc}`, bound);
    expect(out.status).toBe(403);
    expect(out.body.code).toBe('out_of_reach');
    expect((await get(`/sales-summaries/${ids['L-1']}`, bound)).status).toBe(200);
    const hidden = await get(`/sales-summaries/${ids['L-3']}`, bound);
    expect(hidden.status).toBe(403);
    expect(hidden.body.code).toBe('out_of_reach');
    const missing = await get('/sales-summaries/ssm_nope');
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('not_found');
    const none = await get('/sales-summaries', person({}));
    expect(none.status).toBe(403);
    expect(none.body.code).toBe('forbidden');
  });
});

describe('businessDaysOfPeriod (the days a summary touches, for locked days: spec ingestion rules 7 and 8)', () => {
  const ny = (start: string, end: string) => businessDaysOfPeriod(start, end, 'America/New_York', '04:00');

  it('gives one day for a day summary from cut-off to cut-off, and for an hour inside a day', () => {
    expect(ny('2026-11-20T09:00:00Z', '2026-11-21T09:00:00Z')).toEqual(['2026-11-20']);
    expect(ny('2026-11-20T15:00:00Z', '2026-11-20T16:00:00Z')).toEqual(['2026-11-20']);
    // 00:00 to 01:00 local belongs to the day before (before the cut-off)
    expect(ny('2026-11-21T05:00:00Z', '2026-11-21T06:00:00Z')).toEqual(['2026-11-20']);
  });

  it('gives both days for a period across the cut-off, and three for 25 hours starting just before it', () => {
    expect(ny('2026-11-21T08:30:00Z', '2026-11-21T09:30:00Z')).toEqual(['2026-11-20', '2026-11-21']);
    expect(ny('2026-11-21T08:59:00Z', '2026-11-22T09:59:00Z')).toEqual(['2026-11-20', '2026-11-21', '2026-11-22']);
    // an end exactly at the next cut-off stays on the day (periods end exclusive)
    expect(ny('2026-11-21T08:00:00Z', '2026-11-21T09:00:00Z')).toEqual(['2026-11-20']);
  });

  it('follows the zone across a clock change (25-hour business day when clocks fall back)', () => {
    // New York falls back on 2026-11-01: the business day of 10-31 runs 08:00Z to 09:00Z next day
    expect(ny('2026-10-31T08:00:00Z', '2026-11-01T09:00:00Z')).toEqual(['2026-10-31']);
    expect(businessDaysOfPeriod('2026-11-20T04:00:00Z', '2026-11-21T04:00:00Z', 'Europe/Berlin', '05:00')).toEqual(['2026-11-20']);
  });
});

/**
 * Food cost on a small generated chain: items, a recipe, purchase orders received at purchasing, sales
 * through sales' API (depleted by inventory), waste and a count — every figure reaching insights over
 * the real bus. The food cost KPIs are compared with values derived by hand, then reconciled to the
 * cent with inventory's ledger (`GET /stock-movements`) and levels (`GET /stock-levels`) and
 * purchasing's orders (`GET /purchase-orders/{id}`); the food reports through `GET /reports/{key}` (adding up
 * to `GET /kpis`) and a CSV export; an alert rule on actual food cost % firing once per crossing from
 * inventory's postings; a rebuild giving the same figures and reports; the recommendations engine
 * (run by the test, on a fixed clock) with its reasoning, deduplication and resolution; access to
 * `GET /recommendations`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Decimal from 'decimal.js';
import { organizationService } from '@svc/organization';
import { identityService } from '@svc/identity';
import { salesService } from '@svc/sales';
import { inventoryService } from '@svc/inventory';
import { purchasingService } from '@svc/purchasing';
import { filesService } from '@svc/files';
import { fixedClock } from '@bop/shared';
import { eventually, integration, outboxPayloads, person, quietIdentity, serviceSql, standardLocations, startTestServices, testKeys, type TestService, type TestServices } from '@bop/test-support';
import { insightsService, rebuildReadModels } from '../src';

const clock = fixedClock('2026-11-15T12:00:00Z');
let stack: TestServices;
let insights: TestService;
let inventory: TestService;
let purchasing: TestService;
let sales: TestService;
let nyc: string;
let ber: string;
const items: Record<string, string> = {};
let supplier: string;
const orders: Record<string, string> = {};
const pos = integration(['sales:write', 'sales:read']);
let filesDir: string;

async function ok(r: Promise<{ status: number; body: any }>, status: number, what: string) {
  const x = await r;
  if (x.status !== status) throw new Error(`${what}: ${x.status} ${JSON.stringify(x.body)}`);
  return x.body;
}

const item = async (name: string, sku: string) => (await ok(inventory.call('POST', '/items', { body: { name, sku, baseUnit: 'each' } }), 201, 'item')).id as string;

/** A purchase order of `lines` (packs of one) expected on `expected`, approved and sent. */
async function sentOrder(lines: Array<{ itemId: string; quantity: string; unitPrice: string }>, expected: string | null = null): Promise<string> {
  const o = await ok(purchasing.call('POST', '/purchase-orders', { body: { supplierId: supplier, locationId: nyc, expectedDeliveryDate: expected, lines } }), 201, 'order');
  await ok(purchasing.call('POST', `/purchase-orders/${o.id}:approve`, { body: {} }), 200, 'approve');
  await ok(purchasing.call('POST', `/purchase-orders/${o.id}:send`, { body: {} }), 200, 'send');
  return o.id;
}

const receive = (id: string, receivedAt: string, lines: Array<{ itemId: string; quantity: string; unitPrice?: string }>) =>
  ok(purchasing.call('POST', `/purchase-orders/${id}:receive`, { body: { receivedAt, lines } }), 200, 'receive');

function burgers(externalId: string, occurredAt: string, quantity: number) {
  const amount = (quantity * 10).toFixed(2);
  return { externalId, locationExternalId: 'NYC-1', occurredAt, lines: [{ itemSku: 'BURGER', quantity: String(quantity), unitPrice: '10.00' }], tenders: [{ type: 'card', amount }], subtotal: amount, tax: '0.00', total: amount, currency: 'USD' };
}

beforeAll(async () => {
  filesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bop-insights-food-files-'));
  stack = await startTestServices([organizationService, identityService, salesService, inventoryService, purchasingService, insightsService, filesService], {
    ...quietIdentity,
    FILES_DIR: filesDir,
    STORAGE_S3_BUCKET: '',
    INSIGHTS_USAGE_DAYS: '2',
    INSIGHTS_REORDER_LEAD_DAYS: '6',
    INSIGHTS_PRICE_RISE_PERCENT: '5',
    INSIGHTS_VARIANCE_ITEMS: '1',
  }, { workers: false, clock });
  ({ insights, inventory, purchasing, sales } = stack.services);
  const locations = await standardLocations(stack, ['sales', 'inventory', 'purchasing', 'insights']);
  nyc = locations['NYC-1'];
  ber = locations['BER-1'];

  // a burger takes a patty and a bun
  items.patty = await item('Patty', 'PATTY');
  items.bun = await item('Bun', 'BUN');
  items.burger = await item('Burger', 'BURGER');
  await ok(inventory.call('PUT', `/usage-recipes/${items.burger}`, { body: { components: [{ itemId: items.patty, quantity: '1' }, { itemId: items.bun, quantity: '1' }] } }), 201, 'recipe');
  await eventually(async () => (await serviceSql(sales)(`select 1 from sales.items where id = ?`, [items.burger])).length === 1);
  supplier = (await ok(purchasing.call('POST', '/suppliers', { body: { name: 'Meat & Bread Co' } }), 201, 'supplier')).id;
  await ok(
    purchasing.call('PUT', `/suppliers/${supplier}/catalog`, { body: { lines: [{ supplierItemCode: 'P-1', itemId: items.patty, packSize: '1', price: '2.00' }, { supplierItemCode: 'B-1', itemId: items.bun, packSize: '1', price: '0.50' }] } }),
    200,
    'catalog',
  );

  // 2026-11-16 at NYC (UTC−5, cut-off 04:00): 20 patties at 2.00 and 20 buns at 0.50 arrive; 5 burgers sold (50.00); 2 buns spoiled
  clock.set('2026-11-16T13:00:00Z');
  orders.first = await sentOrder([{ itemId: items.patty, quantity: '20', unitPrice: '2.00' }, { itemId: items.bun, quantity: '20', unitPrice: '0.50' }]);
  clock.set('2026-11-16T14:01:00Z');
  await receive(orders.first, '2026-11-16T14:00:00Z', [{ itemId: items.patty, quantity: '20' }, { itemId: items.bun, quantity: '20' }]);
  await eventually(async () => (await serviceSql(inventory)(`select 1 from inventory.stock_levels where item_id = ? and on_hand = 20`, [items.bun])).length === 1);
  clock.set('2026-11-16T17:01:00Z');
  await ok(sales.call('POST', '/sales/transactions:batch', { as: pos, body: { source: 'pos-food', transactions: [burgers('b-1', '2026-11-16T17:00:00Z', 5)] } }), 202, 'sales');
  await eventually(async () => (await serviceSql(inventory)(`select 1 from inventory.stock_levels where item_id = ? and on_hand = 15`, [items.bun])).length === 1);
  clock.set('2026-11-16T18:01:00Z');
  await ok(inventory.call('POST', '/inventory/waste', { body: { locationId: nyc, reason: 'spoiled', occurredAt: '2026-11-16T18:00:00Z', lines: [{ itemId: items.bun, quantity: '2' }] } }), 201, 'waste');

  // 2026-11-17: 14 patties counted against 15 on the books; 10 patties arrive at 2.40 (20 % more); 2 burgers sold (20.00)
  clock.set('2026-11-17T15:01:00Z');
  const count = await ok(inventory.call('POST', '/stock-counts', { body: { locationId: nyc, countedAt: '2026-11-17T15:00:00Z', lines: [{ itemId: items.patty, quantity: '14' }] } }), 201, 'count');
  await ok(inventory.call('POST', `/stock-counts/${count.id}:post`, { body: {} }), 200, 'post count');
  clock.set('2026-11-17T15:30:00Z');
  orders.second = await sentOrder([{ itemId: items.patty, quantity: '10', unitPrice: '2.40' }]);
  clock.set('2026-11-17T16:01:00Z');
  await receive(orders.second, '2026-11-17T16:00:00Z', [{ itemId: items.patty, quantity: '10' }]);
  await eventually(async () => (await serviceSql(inventory)(`select 1 from inventory.stock_levels where item_id = ? and on_hand = 24`, [items.patty])).length === 1);
  clock.set('2026-11-17T18:01:00Z');
  await ok(sales.call('POST', '/sales/transactions:batch', { as: pos, body: { source: 'pos-food', transactions: [burgers('b-2', '2026-11-17T18:00:00Z', 2)] } }), 202, 'sales');
  // an order of 40 buns on its way, expected on the 25th
  orders.third = await sentOrder([{ itemId: items.bun, quantity: '40', unitPrice: '0.50' }], '2026-11-25');
  clock.set('2026-11-18T17:00:00Z');
}, 120_000);

afterAll(async () => {
  await stack?.close();
  if (filesDir) fs.rmSync(filesDir, { recursive: true, force: true });
});

const kpis = (query: string, as = person()) => insights.call('GET', `/kpis?${query}`, { as });
/** `GET /reports/{key}` (one page) */
const report = (key: string, query: string, as = person()) => insights.call('GET', `/reports/${key}?${query}`, { as });
/** Every row of a report, page by page. */
async function allRows(key: string, query: string): Promise<any[]> {
  const rows: any[] = [];
  let cursor: string | null = null;
  do {
    const r = await report(key, `${query}&limit=200${cursor ? `&cursor=${cursor}` : ''}`);
    expect(r.status).toBe(200);
    rows.push(...r.body.data);
    cursor = r.body.nextCursor;
  } while (cursor);
  return rows;
}
const TWO_DAYS = 'from=2026-11-16&to=2026-11-17';

// by hand (average cost after each arrival; a sale takes quantity × the average then, rounded to six decimals):
// the 16th: theoretical 5 patties × 2.00 + 5 buns × 0.50 = 12.50; actual 12.50 + waste 2 × 0.50 = 13.50; net sales 50.00
// the 17th: count −1 patty × 2.00 = 2.00; 10 at 2.40 make the patty's average (14 × 2.00 + 24.00) ÷ 24 = 2.166667;
//   theoretical 2 × 2.166667 + 2 × 0.50 = 5.333334; actual 5.333334 + 2.00 = 7.333334; net sales 20.00
/** The KPIs once insights holds every flow sent. */
const settled = () =>
  eventually(async () => {
    const r = await kpis(`${TWO_DAYS}&locationId=${nyc}`);
    return r.status === 200 && r.body.figures.netSales === '70.00' && r.body.figures.theoreticalFoodCost === '17.83' && r.body.figures.actualFoodCost === '20.83' ? r : undefined;
  }, 20_000);

it('answers theoretical and actual food cost and prime cost, each as derived by hand', async () => {
  const r = await settled();
  expect(r.body.figures).toMatchObject({
    netSales: '70.00',
    theoreticalFoodCost: '17.83', // 12.50 + 5.333334 = 17.833334
    theoreticalFoodCostPercent: '25.48', // 17.833334 ÷ 70 × 100 = 25.4762
    actualFoodCost: '20.83', // 13.50 + 7.333334 = 20.833334
    actualFoodCostPercent: '29.76', // 20.833334 ÷ 70 × 100 = 29.7619
    laborCost: '0.00',
    primeCost: '20.83',
    primeCostPercent: '29.76',
    wasteValue: '1.00',
  });
  const day = await kpis(`from=2026-11-17&to=2026-11-17&locationId=${nyc}`);
  expect(day.body.figures).toMatchObject({ netSales: '20.00', theoreticalFoodCost: '5.33', theoreticalFoodCostPercent: '26.67', actualFoodCost: '7.33', actualFoodCostPercent: '36.67' });
  // Berlin sold nothing: a zero divisor is null, never a made-up figure
  const berlin = await kpis(`${TWO_DAYS}&locationId=${ber}`);
  expect(berlin.body.figures).toMatchObject({ theoreticalFoodCost: '0.00', theoreticalFoodCostPercent: null, actualFoodCostPercent: null, primeCostPercent: null });
  expect(r.body.unavailable.map((u: { kpi: string }) => u.kpi)).toEqual(['guests']);
  // the reports by day count the same flows by day: labor vs sales over days with stock used answers its rows
  const report = await insights.call('GET', `/reports/labor-vs-sales?${TWO_DAYS}&locationId=${nyc}`, { as: person() });
  expect(report.status).toBe(200);
  expect(report.body.data.map((x: { businessDay: string; netSales: string }) => [x.businessDay, x.netSales])).toEqual([
    ['2026-11-16', '50.00'],
    ['2026-11-17', '20.00'],
  ]);
});

/** Every ledger line of NYC over the two days, from inventory's own API. */
async function ledger(): Promise<any[]> {
  const out: any[] = [];
  let cursor: string | undefined;
  do {
    const r = await inventory.call('GET', `/stock-movements?locationId=${nyc}&limit=200${cursor ? `&cursor=${cursor}` : ''}`);
    expect(r.status).toBe(200);
    out.push(...r.body.data);
    cursor = r.body.nextCursor ?? undefined;
  } while (cursor);
  return out.filter((m) => m.businessDay >= '2026-11-16' && m.businessDay <= '2026-11-17');
}

it("reconciles food cost to the cent with inventory's ledger, and usage with opening stock + receipts − closing stock", async () => {
  const r = await settled();
  const lines = await ledger();
  const sum = (pred: (m: any) => boolean) => lines.filter(pred).reduce((t, m) => t.minus(m.value ?? 0), new Decimal(0));
  const theoretical = sum((m) => ['sale', 'refund', 'void_reversal'].includes(m.type));
  const actual = sum((m) => ['sale', 'refund', 'void_reversal', 'waste', 'count_variance'].includes(m.type) || (m.type === 'adjustment' && m.reason !== 'opening_balance'));
  expect(theoretical.toFixed(2)).toBe(r.body.figures.theoreticalFoodCost);
  expect(actual.toFixed(2)).toBe(r.body.figures.actualFoodCost);

  // per item: opening stock (nothing before the 16th) + receipts − closing stock (GET /stock-levels) = actual usage of the report
  const usage = await allRows('usage-actual-vs-theoretical', `${TWO_DAYS}&locationId=${nyc}`);
  const levels = (await inventory.call('GET', `/stock-levels?locationId=${nyc}`)).body.data;
  for (const id of [items.patty, items.bun]) {
    const row = usage.find((x) => x.itemId === id)!;
    const level = levels.find((l: any) => l.itemId === id);
    const received = lines.filter((m) => m.itemId === id && m.type === 'receipt');
    const q = received.reduce((t, m) => t.plus(m.quantity), new Decimal(0)).minus(level.onHand);
    const v = received.reduce((t, m) => t.plus(m.value), new Decimal(0)).minus(level.value);
    expect(row.actualQuantity).toBe(q.toFixed());
    expect(row.actualCost).toBe(v.toFixed(2));
  }
});

describe('the food reports (GET /reports/{key})', () => {
  const NYC_TWO_DAYS = () => `${TWO_DAYS}&locationId=${nyc}`;

  it('are listed with their parameters and columns', async () => {
    const r = await insights.call('GET', '/reports');
    expect(r.status).toBe(200);
    const byKey = new Map(r.body.data.map((x: any) => [x.key, x]));
    for (const key of ['usage-actual-vs-theoretical', 'inventory-valuation', 'purchase-price-variance']) {
      const def: any = byKey.get(key);
      expect(def.parameters.map((p: any) => p.name)).toEqual(['from', 'to', 'locationId', 'orgUnitId']);
    }
    expect((byKey.get('usage-actual-vs-theoretical') as any).columns.find((c: any) => c.name === 'actualCost')).toMatchObject({ type: 'money', unit: 'money' });
    expect((byKey.get('purchase-price-variance') as any).columns.find((c: any) => c.name === 'lastUnitCost')).toMatchObject({ type: 'decimal', unit: 'money' });
  });

  it('answers actual against theoretical usage by item as derived by hand, adding up to the food cost of GET /kpis', async () => {
    const k = await settled();
    const r = await report('usage-actual-vs-theoretical', NYC_TWO_DAYS());
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ key: 'usage-actual-vs-theoretical', locationIds: [nyc], hasMore: false, nextCursor: null });
    const usage = r.body.data;
    // patties: 5 + 2 sold (5 × 2.00 + 2 × 2.166667 = 14.333334), 1 missing at the count (2.00)
    expect(usage.find((x: any) => x.itemId === items.patty)).toEqual({
      locationId: nyc, itemId: items.patty, itemName: 'Patty', baseUnit: 'each',
      theoreticalQuantity: '7', theoreticalCost: '14.33', actualQuantity: '8', actualCost: '16.33', varianceQuantity: '1', varianceCost: '2.00', variancePercent: '13.95',
      wasteCost: '0.00', countVarianceCost: '2.00', adjustmentCost: '0.00',
    });
    // buns: 7 sold at 0.50, 2 spoiled
    expect(usage.find((x: any) => x.itemId === items.bun)).toMatchObject({ theoreticalQuantity: '7', theoreticalCost: '3.50', actualQuantity: '9', actualCost: '4.50', varianceCost: '1.00', variancePercent: '28.57', wasteCost: '1.00' });
    // the rows add up to GET /kpis for the same scope (each row rounded once: 14.33 + 3.50, 16.33 + 4.50)
    expect(usage.reduce((t: Decimal, x: any) => t.plus(x.theoreticalCost), new Decimal(0)).toFixed(2)).toBe(k.body.figures.theoreticalFoodCost);
    expect(usage.reduce((t: Decimal, x: any) => t.plus(x.actualCost), new Decimal(0)).toFixed(2)).toBe(k.body.figures.actualFoodCost);
    // one day: the 17th is what GET /kpis answers for the 17th
    const day = await report('usage-actual-vs-theoretical', `from=2026-11-17&to=2026-11-17&locationId=${nyc}`);
    const dayKpis = await kpis(`from=2026-11-17&to=2026-11-17&locationId=${nyc}`);
    expect(day.body.data.reduce((t: Decimal, x: any) => t.plus(x.actualCost), new Decimal(0)).toFixed(2)).toBe(dayKpis.body.figures.actualFoodCost);

    // one row a page: the registry's cursor walks on, in (location, item) order, each row once
    const first = await report('usage-actual-vs-theoretical', `${NYC_TWO_DAYS()}&limit=1`);
    expect(first.body).toMatchObject({ hasMore: true });
    const second = await report('usage-actual-vs-theoretical', `${NYC_TWO_DAYS()}&limit=1&cursor=${first.body.nextCursor}`);
    expect([...first.body.data, ...second.body.data].map((x: any) => x.itemId)).toEqual(usage.slice(0, 2).map((x: any) => x.itemId));
    // Berlin used nothing
    expect((await report('usage-actual-vs-theoretical', `${TWO_DAYS}&locationId=${ber}`)).body.data).toEqual([]);
  });

  it('answers the inventory valuation at the start and the end of the range', async () => {
    await settled();
    // the close of the 17th is what inventory reports now; the start of the 16th had nothing
    const valuation = await allRows('inventory-valuation', NYC_TWO_DAYS());
    const levels = (await inventory.call('GET', `/stock-levels?locationId=${nyc}`)).body.data;
    for (const id of [items.patty, items.bun]) {
      const level = levels.find((l: any) => l.itemId === id);
      expect(valuation.find((x) => x.itemId === id)).toMatchObject({ openingQuantity: '0', openingValue: '0.00', closingQuantity: level.onHand, closingValue: new Decimal(level.value).toFixed(2) });
    }
    // as of the 16th's close: 15 patties at 2.00, 13 buns at 0.50
    const asOf16 = await allRows('inventory-valuation', `from=2026-11-16&to=2026-11-16&locationId=${nyc}`);
    expect(asOf16.find((x) => x.itemId === items.patty)).toMatchObject({ itemName: 'Patty', baseUnit: 'each', closingQuantity: '15', closingValue: '30.00', averageCost: '2.000000' });
    expect(asOf16.find((x) => x.itemId === items.bun)).toMatchObject({ closingQuantity: '13', closingValue: '6.50', averageCost: '0.500000' });
    // the 17th opens where the 16th closed
    const day17 = await allRows('inventory-valuation', `from=2026-11-17&to=2026-11-17&locationId=${nyc}`);
    expect(day17.find((x) => x.itemId === items.patty)).toMatchObject({ openingQuantity: '15', openingValue: '30.00' });
  });

  it('answers the purchase price variance by supplier and item, reconciled with purchasing', async () => {
    await settled();
    // patties at 2.00 then 2.40, against the first price of the period: 30 for 64.00, 4.00 more than at 2.00
    const prices = await allRows('purchase-price-variance', NYC_TWO_DAYS());
    expect(prices.find((x) => x.itemId === items.patty)).toEqual({
      supplierId: supplier, itemId: items.patty, itemName: 'Patty', receipts: 2, quantity: '30', spend: '64.00', baselineUnitCost: '2.000000', averageUnitCost: '2.133333', minUnitCost: '2.000000', maxUnitCost: '2.400000', lastUnitCost: '2.400000', changePercent: '20.00', varianceValue: '4.00',
    });
    expect(prices.find((x) => x.itemId === items.bun)).toMatchObject({ receipts: 1, quantity: '20', spend: '10.00', changePercent: '0.00', varianceValue: '0.00' });
    // the 17th alone: its baseline is the price paid before it
    const day17 = await allRows('purchase-price-variance', `from=2026-11-17&to=2026-11-17&locationId=${nyc}`);
    expect(day17).toEqual([expect.objectContaining({ itemId: items.patty, receipts: 1, baselineUnitCost: '2.000000', varianceValue: '4.00' })]);
    // reconciled with purchasing's own orders: the price paid per base unit of each receipt line
    const paid = [];
    for (const id of [orders.first, orders.second]) {
      const o = await purchasing.call('GET', `/purchase-orders/${id}`);
      for (const receipt of o.body.receipts) for (const l of receipt.lines) if (l.itemId === items.patty) paid.push(new Decimal(l.unitCost));
    }
    expect(paid.map((p) => p.toFixed(6))).toEqual(['2.000000', '2.400000']);
  });

  it('keeps to the reach of the caller and refuses bad parameters with the field named', async () => {
    const berOnly = person({ 'reports.read': [{ type: 'locations', ids: [ber] }] });
    const outside = await report('purchase-price-variance', NYC_TWO_DAYS(), berOnly);
    expect(outside.status).toBe(403);
    expect(outside.body.code).toBe('out_of_reach');
    // without a location: only Berlin's, where nothing was bought
    const own = await report('purchase-price-variance', TWO_DAYS, berOnly);
    expect(own.body).toMatchObject({ locationIds: [ber], data: [] });
    const bad = await report('inventory-valuation', `from=2026-11-16&locationId=${nyc}`);
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: any) => e.path)).toEqual(['to']);
    expect((await report('usage-actual-vs-theoretical', TWO_DAYS, person({ 'recommendations.read': [{ type: 'everyone' }] }))).status).toBe(403);
  });

  it('exports a food report to CSV, the file equal to the report', async () => {
    await settled();
    const exporter = person(undefined, { id: 'usr_food_exporter', userId: 'usr_food_exporter' });
    const queued = await insights.call('POST', '/report-exports', { as: exporter, body: { report: 'usage-actual-vs-theoretical', format: 'csv', parameters: { from: '2026-11-16', to: '2026-11-17', locationId: nyc } } });
    expect(queued.status).toBe(202);
    expect(await insights.svc.worker('report-exports').runOnce()).toBe(true);
    const done = await insights.call('GET', `/report-exports/${queued.body.id}`, { as: exporter });
    expect(done.body).toMatchObject({ status: 'completed', rows: 2, fileName: 'usage-actual-vs-theoretical_2026-11-16_2026-11-17.csv' });
    const files = stack.services.files;
    const file = await fetch(`${files.svc.url}/attachments/${done.body.attachmentId}/content`, { headers: { 'x-internal-token': await (await testKeys()).signer.sign(exporter) } });
    expect(file.status).toBe(200);
    // no value of this report holds a comma, a quote or a line break: a line is its cells joined by commas
    const [header, ...lines] = (await file.text()).trim().split(/\r?\n/).map((l) => l.split(','));
    const run = await report('usage-actual-vs-theoretical', NYC_TWO_DAYS());
    const columns = run.body.columns.map((c: any) => c.name);
    expect(header).toEqual(columns);
    expect(lines).toEqual(run.body.data.map((r: any) => columns.map((c: string) => (r[c] === null ? '' : String(r[c])))));
  });
});

it('counts a posting delivered twice once', async () => {
  const r = await settled();
  const [posted] = (await outboxPayloads(stack, 'inventory', { type: 'inventory.movements.posted' })).filter((e) => e.locationId === nyc && e.data.object.sums.some((x: any) => x.type === 'waste'));
  const publish = (e: any) => stack.bus.publish([{ topic: 'inventory', key: nyc, eventId: e.id, type: e.type, payload: e }]);
  await publish(posted);
  await publish(posted);
  // a barrier: a later posting on the same key (a receipt of another item, which uses nothing)
  const barrier = { ...posted, id: 'evt_food_barrier', data: { object: { locationId: nyc, sums: [{ itemId: 'itm_barrier', businessDay: '2026-11-16', type: 'receipt', reason: null, quantity: '1', value: '1', unvalued: 0 }] } } };
  await publish(barrier);
  await eventually(async () => (await serviceSql(insights)(`select 1 from insights.stock_flows where item_id = 'itm_barrier'`)).length === 1);
  const again = await kpis(`${TWO_DAYS}&locationId=${nyc}`);
  expect(again.body.figures).toMatchObject({ actualFoodCost: r.body.figures.actualFoodCost, wasteValue: '1.00' });
});

describe('recommendations', () => {
  const list = (query = '', as = person()) => insights.call('GET', `/recommendations${query}`, { as });

  it('recommends reorders, a price rise and the largest usage variance, each with its reasoning and figures, once', async () => {
    await settled();
    clock.set('2026-11-18T17:00:00Z');
    await insights.svc.worker('recommendations').runOnce();
    const r = await list(`?locationId=${nyc}`);
    expect(r.status).toBe(200);
    const by = (kind: string, itemId: string) => r.body.data.find((x: any) => x.kind === kind && x.itemId === itemId);
    // today is the 18th; usage of the 16th and 17th: patties 8 (4 a day), buns 9 (4.5 a day)
    // buns: 11 on hand, the order of the 25th is 7 days away: 31.5 needed, 20.5 short
    expect(by('reorder', items.bun)).toMatchObject({
      status: 'open',
      locationId: nyc,
      figures: { onHand: '11', dailyUsage: '4.5', daysOfStock: '2.44', nextDeliveryDate: '2026-11-25', purchaseOrderId: orders.third, daysUntilDelivery: '7', shortfall: '20.5', leadTimeDays: null },
    });
    expect(by('reorder', items.bun).reasoning).toContain('expected on 2026-11-25');
    // patties: 22 on hand, no order brings any: 6 days' lead time at 4 a day is 24
    expect(by('reorder', items.patty)).toMatchObject({ figures: { onHand: '22', dailyUsage: '4', nextDeliveryDate: null, leadTimeDays: '6', daysUntilDelivery: '6', shortfall: '2' } });
    expect(by('supplier_price_rise', items.patty)).toMatchObject({ supplierId: supplier, figures: { previousUnitCost: '2', lastUnitCost: '2.4', risePercent: '20.00', thresholdPercent: '5' } });
    expect(by('supplier_price_rise', items.patty).reasoning).toContain('up 20.00%');
    // one item a location: patties departed most (2.00 against buns' 1.00)
    expect(r.body.data.filter((x: any) => x.kind === 'usage_variance')).toEqual([expect.objectContaining({ itemId: items.patty, figures: expect.objectContaining({ theoreticalCost: '14.33', actualCost: '16.33', varianceCost: '2.00' }) })]);
    expect(r.body.data).toHaveLength(4);

    // run again: the same situations are not recommended twice
    await insights.svc.worker('recommendations').runOnce();
    expect((await list(`?locationId=${nyc}`)).body.data.map((x: any) => x.id).sort()).toEqual(r.body.data.map((x: any) => x.id).sort());
    const created = (await outboxPayloads(stack, 'insights', { type: 'recommendation.created' })).filter((e) => e.locationId === nyc);
    expect(created).toHaveLength(4);
    expect(created.map((e) => e.data.object.id).sort()).toEqual(r.body.data.map((x: any) => x.id).sort());

    // the buns' order is cancelled: the same recommendation stays open, now reasoned on the lead time (6 days: 27 needed)
    await ok(purchasing.call('POST', `/purchase-orders/${orders.third}:cancel`, { body: {} }), 200, 'cancel');
    await eventually(async () => (await serviceSql(insights)(`select 1 from insights.purchase_orders where id = ? and status = 'cancelled'`, [orders.third])).length === 1);
    await insights.svc.worker('recommendations').runOnce();
    const buns = (await list(`?locationId=${nyc}&kind=reorder`)).body.data.find((x: any) => x.itemId === items.bun);
    expect(buns).toMatchObject({ id: by('reorder', items.bun).id, figures: { nextDeliveryDate: null, leadTimeDays: '6', daysUntilDelivery: '6', shortfall: '16' } });
    expect(buns.reasoning).toContain('no open purchase order brings it');
    expect((await outboxPayloads(stack, 'insights', { type: 'recommendation.created' })).filter((e) => e.locationId === nyc)).toHaveLength(4);
  });

  it('resolves what no longer holds and pages with a cursor', async () => {
    // a week on: no usage in the window, so no reorder and no variance; the price rise still holds
    clock.set('2026-11-25T17:00:00Z');
    await insights.svc.worker('recommendations').runOnce();
    const open = await list(`?locationId=${nyc}`);
    expect(open.body.data.map((x: any) => x.kind)).toEqual(['supplier_price_rise']);
    const resolved = await list(`?locationId=${nyc}&status=resolved&limit=2`);
    expect(resolved.body.data).toHaveLength(2);
    expect(resolved.body.data[0]).toMatchObject({ status: 'resolved', resolvedAt: '2026-11-25T17:00:00.000Z' });
    const rest = await list(`?locationId=${nyc}&status=resolved&limit=2&cursor=${resolved.body.nextCursor}`);
    expect(rest.body).toMatchObject({ hasMore: false });
    expect(rest.body.data).toHaveLength(1);
    expect((await list(`?kind=reorder&status=resolved`)).body.data).toHaveLength(2);
    clock.set('2026-11-18T17:00:00Z');
  });

  it('answers within reach, refuses a location outside it, a person without recommendations.read and a bad query', async () => {
    const berOnly = person({ 'recommendations.read': [{ type: 'locations', ids: [ber] }] });
    expect((await list('?status=resolved', berOnly)).body.data).toEqual([]);
    const outside = await list(`?locationId=${nyc}`, berOnly);
    expect(outside.status).toBe(403);
    expect(outside.body.code).toBe('out_of_reach');
    const refused = await list('', person({ 'reports.read': [{ type: 'everyone' }] }));
    expect(refused.status).toBe(403);
    expect((await list('', integration(['reports:read']))).status).toBe(200);
    const bad = await list('?kind=guess');
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].path).toBe('kind');
  });
});

describe('an alert rule on a food cost KPI', () => {
  const evaluate = () => insights.svc.worker('alert-evaluation').runOnce();
  const alertsOf = async (ruleId: string) => (await insights.call('GET', `/alerts?ruleId=${ruleId}&limit=100`)).body.data as any[];
  /** The 19th's figures at NYC once insights holds them. */
  const day19 = (netSales: string, actualFoodCost: string) =>
    eventually(async () => {
      const r = await kpis(`from=2026-11-19&to=2026-11-19&locationId=${nyc}`);
      return r.status === 200 && r.body.figures.netSales === netSales && r.body.figures.actualFoodCost === actualFoodCost ? r : undefined;
    }, 20_000);
  const sell = async (externalId: string, at: string, quantity: number) => {
    clock.set(at);
    await ok(sales.call('POST', '/sales/transactions:batch', { as: pos, body: { source: 'pos-food', transactions: [burgers(externalId, at, quantity)] } }), 202, 'sales');
  };
  const spoil = async (at: string, quantity: string) => {
    clock.set(at);
    await ok(inventory.call('POST', '/inventory/waste', { body: { locationId: nyc, reason: 'spoiled', occurredAt: at, lines: [{ itemId: items.bun, quantity }] } }), 201, 'waste');
  };

  it("fires once per crossing of actual food cost %, moved by inventory's postings, and re-arms", async () => {
    // Thursday the 19th at NYC; a patty costs 2.166667 on average, a bun 0.50: a burger uses 2.666667
    clock.set('2026-11-19T16:00:00Z');
    const created = await insights.call('POST', '/alert-rules', {
      body: { name: 'Food cost above 30 % today', kpi: 'actualFoodCostPercent', scope: { locationIds: [nyc] }, comparison: { operator: 'above', threshold: '30' }, window: { kind: 'today' } },
    });
    expect(created.status).toBe(201);
    const ruleId = created.body.id;
    // nothing sold yet: no percent, nothing fires
    expect(await alertsOf(ruleId)).toEqual([]);

    // one burger (10.00): 26.67 %
    await sell('b-19-1', '2026-11-19T17:00:00Z', 1);
    await day19('10.00', '2.67');
    await evaluate();
    expect(await alertsOf(ruleId)).toEqual([]);

    // 2 buns spoiled (1.00): 3.666667 ÷ 10 = 36.67 % — only inventory's posting moved it
    await spoil('2026-11-19T17:10:00Z', '2');
    await day19('10.00', '3.67');
    await evaluate();
    const fired = await alertsOf(ruleId);
    expect(fired).toEqual([expect.objectContaining({ kpi: 'actualFoodCostPercent', locationId: nyc, value: '36.67', kpiValue: '36.67', threshold: '30', from: '2026-11-19', to: '2026-11-19' })]);

    // one more bun (0.50): 41.67 %, still above: nothing more
    await spoil('2026-11-19T17:20:00Z', '1');
    await day19('10.00', '4.17');
    await evaluate();
    expect(await alertsOf(ruleId)).toHaveLength(1);

    // 4 burgers (40.00): 14.833335 ÷ 50 = 29.67 %, below: re-armed, nothing fires
    await sell('b-19-2', '2026-11-19T17:30:00Z', 4);
    await day19('50.00', '14.83');
    await evaluate();
    expect(await alertsOf(ruleId)).toHaveLength(1);
    expect((await insights.call('GET', `/alert-rules/${ruleId}`)).body.firing).toEqual([]);

    // 2 more buns spoiled: 15.833335 ÷ 50 = 31.67 %, above again: fires a second time
    await spoil('2026-11-19T17:40:00Z', '2');
    await day19('50.00', '15.83');
    await evaluate();
    expect((await alertsOf(ruleId)).map((a) => a.value)).toEqual(['36.67', '31.67']);
    const triggered = (await outboxPayloads(stack, 'insights', { type: 'alert.triggered' })).filter((e) => e.aggregateId === ruleId || e.data.object.ruleId === ruleId);
    expect(triggered).toHaveLength(2);
  });
});

describe('a rebuild from the bus', () => {
  it('gives the same food cost figures and food reports as the live read models', async () => {
    clock.set('2026-11-20T17:00:00Z');
    const query = `from=2026-11-16&to=2026-11-19&locationId=${nyc}`;
    const before = await kpis(`${query}&compare=previous_period`);
    expect(before.body.figures.actualFoodCost).not.toBe('0.00');
    expect(before.body.figures.theoreticalFoodCost).not.toBe('0.00');
    const keys = ['usage-actual-vs-theoretical', 'inventory-valuation', 'purchase-price-variance', 'sales-by-item', 'sales-by-day'];
    const reports = new Map<string, any[]>();
    for (const key of keys) reports.set(key, await allRows(key, query));
    expect(reports.get('purchase-price-variance')!.length).toBeGreaterThan(0);
    expect(reports.get('sales-by-item')!.length).toBeGreaterThan(0);

    const result = await rebuildReadModels(insights.svc.runtime, {});
    expect(result.skipped).toEqual([]);
    for (const [table, rows] of Object.entries(result.rows)) expect([table, rows.after]).toEqual([table, rows.before]);
    expect((await kpis(`${query}&compare=previous_period`)).body).toEqual(before.body);
    for (const key of keys) expect([key, await allRows(key, query)]).toEqual([key, reports.get(key)]);
  });
});

/**
 * Food cost on a small generated chain: items, a recipe, purchase orders received at purchasing, sales
 * through sales' API (depleted by inventory), waste and a count — every figure reaching insights over
 * the real bus. The food cost KPIs are compared with values derived by hand, then reconciled to the
 * cent with inventory's ledger (`GET /stock-movements`) and levels (`GET /stock-levels`) and
 * purchasing's orders (`GET /purchase-orders/{id}`); the report functions; the recommendations engine
 * (run by the test, on a fixed clock) with its reasoning, deduplication and resolution; access to
 * `GET /recommendations`.
 */
import Decimal from 'decimal.js';
import { organizationService } from '@svc/organization';
import { identityService } from '@svc/identity';
import { salesService } from '@svc/sales';
import { inventoryService } from '@svc/inventory';
import { purchasingService } from '@svc/purchasing';
import { fixedClock, openWork, type Work } from '@bop/shared';
import { eventually, integration, outboxPayloads, person, quietIdentity, serviceSql, standardLocations, startTestServices, type TestService, type TestServices } from '@bop/test-support';
import { insightsService } from '../src';
import { usageVarianceReport, inventoryValuationReport } from '../src/stock/report-store';
import { purchasePriceVarianceReport } from '../src/purchases/report-store';

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
  stack = await startTestServices([organizationService, identityService, salesService, inventoryService, purchasingService, insightsService], {
    ...quietIdentity,
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
});

const kpis = (query: string, as = person()) => insights.call('GET', `/kpis?${query}`, { as });
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
  const report = await run((w) => usageVarianceReport(w, { locationIds: [nyc], from: '2026-11-16', to: '2026-11-17' }));
  const levels = (await inventory.call('GET', `/stock-levels?locationId=${nyc}`)).body.data;
  for (const id of [items.patty, items.bun]) {
    const row = report.data.find((x) => x.itemId === id)!;
    const level = levels.find((l: any) => l.itemId === id);
    const received = lines.filter((m) => m.itemId === id && m.type === 'receipt');
    const q = received.reduce((t, m) => t.plus(m.quantity), new Decimal(0)).minus(level.onHand);
    const v = received.reduce((t, m) => t.plus(m.value), new Decimal(0)).minus(level.value);
    expect(row.actualQuantity).toBe(q.toFixed());
    expect(row.actualCost).toBe(v.toFixed(2));
  }
});

/** A report function in a read unit of insights (no events, the test's clock). */
async function run<T>(fn: (w: Work) => Promise<T>): Promise<T> {
  const em = insights.svc.runtime.orm.em.fork();
  return fn(openWork({ schema: 'insights', clock, log: insights.svc.runtime.log, services: {} } as unknown as Parameters<typeof openWork>[0], em as never, false).work);
}

it('reports actual against theoretical usage by item, the inventory valuation and the purchase price variance', async () => {
  await settled();
  const params = { locationIds: [nyc], from: '2026-11-16', to: '2026-11-17' };
  const usage = await run((w) => usageVarianceReport(w, params));
  expect(usage.data.find((x) => x.itemId === items.patty)).toMatchObject({
    itemName: 'Patty', theoreticalQuantity: '7', theoreticalCost: '14.33', actualQuantity: '8', actualCost: '16.33', varianceQuantity: '1', varianceCost: '2.00', variancePercent: '13.95', countVarianceCost: '2.00', wasteCost: '0.00',
  });
  expect(usage.data.find((x) => x.itemId === items.bun)).toMatchObject({ theoreticalQuantity: '7', theoreticalCost: '3.50', actualQuantity: '9', actualCost: '4.50', varianceCost: '1.00', wasteCost: '1.00' });
  // one row a page: the cursor walks on, in (location, item) order
  const first = await run((w) => usageVarianceReport(w, { ...params, limit: 1 }));
  expect(first.hasMore).toBe(true);
  const second = await run((w) => usageVarianceReport(w, { ...params, limit: 1, cursor: first.nextCursor! }));
  expect([...first.data, ...second.data].map((x) => x.itemId)).toEqual(usage.data.slice(0, 2).map((x) => x.itemId));

  // valuation: the close of the 17th is what inventory reports now; the start of the 16th had nothing
  const valuation = await run((w) => inventoryValuationReport(w, params));
  const levels = (await inventory.call('GET', `/stock-levels?locationId=${nyc}`)).body.data;
  for (const id of [items.patty, items.bun]) {
    const level = levels.find((l: any) => l.itemId === id);
    expect(valuation.data.find((x) => x.itemId === id)).toMatchObject({ openingQuantity: '0', openingValue: '0.00', closingQuantity: level.onHand, closingValue: new Decimal(level.value).toFixed(2) });
  }
  // as of the 16th's close: 15 patties at 2.00, 13 buns at 0.50
  const asOf16 = await run((w) => inventoryValuationReport(w, { ...params, to: '2026-11-16' }));
  expect(asOf16.data.find((x) => x.itemId === items.patty)).toMatchObject({ closingQuantity: '15', closingValue: '30.00', averageCost: '2.000000' });
  expect(asOf16.data.find((x) => x.itemId === items.bun)).toMatchObject({ closingQuantity: '13', closingValue: '6.50' });

  // price variance: patties at 2.00 then 2.40, against the first price of the period
  const prices = await run((w) => purchasePriceVarianceReport(w, params));
  expect(prices.data.find((x) => x.itemId === items.patty)).toMatchObject({
    supplierId: supplier, receipts: 2, quantity: '30', spend: '64.00', baselineUnitCost: '2.000000', averageUnitCost: '2.133333', minUnitCost: '2.000000', maxUnitCost: '2.400000', lastUnitCost: '2.400000', changePercent: '20.00', varianceValue: '4.00',
  });
  // the 17th alone: its baseline is the price paid before it
  const day17 = await run((w) => purchasePriceVarianceReport(w, { ...params, from: '2026-11-17' }));
  expect(day17.data).toEqual([expect.objectContaining({ itemId: items.patty, receipts: 1, baselineUnitCost: '2.000000', varianceValue: '4.00' })]);
  // reconciled with purchasing's own orders: the price paid per base unit of each receipt line
  const paid = [];
  for (const id of [orders.first, orders.second]) {
    const o = await purchasing.call('GET', `/purchase-orders/${id}`);
    for (const receipt of o.body.receipts) for (const l of receipt.lines) if (l.itemId === items.patty) paid.push(new Decimal(l.unitCost));
  }
  expect(paid.map((p) => p.toFixed(6))).toEqual(['2.000000', '2.400000']);
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

/**
 * `GET /kpis` on a small generated chain: sales sent through sales' API and punches through time's, the
 * read models fed over the real bus, every KPI compared with a value derived by hand below, then
 * reconciled to the cent with what sales' and time's own APIs show; reach, permission and scope; an
 * event delivered twice counted once.
 */
import Decimal from 'decimal.js';
import { eventually, integration, person, serviceSql, untilReplicated, type HttpResult } from '@bop/test-support';
import { rebuildReadModels, type RebuildProgress } from '../src';
import { closeCashDay, employee, recalculate, recordWaste, sale, scheduleShift, sendPunches, sendSales, shift, startInsightsStack, type InsightsStack } from './fixtures';

let s: InsightsStack;
let nyc: string;
let ber: string;
const people: Record<string, string> = {};

beforeAll(async () => {
  s = await startInsightsStack();
  nyc = s.locations['NYC-1'];
  ber = s.locations['BER-1'];
  // A: 20.00 an hour; B: 18.50, and 22.00 at the bar; C (Berlin): 15.00
  people.a = await employee(s, nyc, [{ amount: '20.00' }]);
  people.b = await employee(s, nyc, [{ amount: '18.50' }, { amount: '22.00', position: 'Bar' }]);
  people.c = await employee(s, ber, [{ amount: '15.00' }]);

  await sendSales(s, [
    // NYC, business day 2026-11-16 (New York is UTC−5): 1,000.00 and 2,505.50 in the 17:00Z interval, 495.50, a refund of 200.00
    sale('NYC-1', '2026-11-16T17:00:00Z', '1000.00'),
    sale('NYC-1', '2026-11-16T17:10:00Z', '2505.50'),
    sale('NYC-1', '2026-11-16T23:30:00Z', '495.50'),
    sale('NYC-1', '2026-11-16T23:45:00Z', '-200.00'),
    // a sale later voided (below): counts nothing
    sale('NYC-1', '2026-11-16T18:00:00Z', '999.00', { externalId: 'later-voided' }),
    // 2026-11-17: 3,000.00, and 800.00 at 02:30 local on the 18th (before the 04:00 cut-off: still the 17th)
    sale('NYC-1', '2026-11-17T16:00:00Z', '3000.00'),
    sale('NYC-1', '2026-11-18T07:30:00Z', '800.00'),
    // the previous period (2026-11-09..15): 500.00
    sale('NYC-1', '2026-11-10T17:00:00Z', '500.00'),
    // Berlin, 2026-11-16: 2,000.00
    sale('BER-1', '2026-11-16T12:00:00Z', '2000.00'),
  ]);
  await sendSales(s, [sale('NYC-1', '2026-11-16T18:00:00Z', '999.00', { externalId: 'later-voided', status: 'voided' })]);

  const punches = [
    // A: Monday to Friday 08:00–17:00 local, 9 h a day: 45 h in the week, the last 5 at 1.5 (overtime after 40 h a week)
    ...['16', '17', '18', '19', '20'].flatMap((d) => shift(people.a, nyc, `2026-11-${d}T13:00:00Z`, `2026-11-${d}T22:00:00Z`)),
    // B: 5 h at the bar on the 16th, 4 h on the 17th
    ...shift(people.b, nyc, '2026-11-16T15:00:00Z', '2026-11-16T20:00:00Z', 'Bar'),
    ...shift(people.b, nyc, '2026-11-17T14:00:00Z', '2026-11-17T18:00:00Z'),
    // C: 6 h in Berlin on the 16th
    ...shift(people.c, ber, '2026-11-16T08:00:00Z', '2026-11-16T14:00:00Z'),
  ];
  await sendPunches(s, punches);
  await recalculate(s);

  // the schedule of the 16th at NYC: A 9 h less a 30-minute unpaid break, B 5 h at the bar, an open
  // Cook shift of 4 h (hours, no one's rate); published. A draft on the 17th is not scheduled yet.
  await scheduleShift(s, { locationId: nyc, position: 'Cook', employeeId: people.a, start: '2026-11-16T13:00:00Z', end: '2026-11-16T22:00:00Z', breakMinutes: 30 });
  await scheduleShift(s, { locationId: nyc, position: 'Bar', employeeId: people.b, start: '2026-11-16T15:00:00Z', end: '2026-11-16T20:00:00Z' });
  await scheduleShift(s, { locationId: nyc, position: 'Cook', start: '2026-11-16T16:00:00Z', end: '2026-11-16T20:00:00Z' });
  await scheduleShift(s, { locationId: nyc, position: 'Cook', employeeId: people.a, start: '2026-11-17T13:00:00Z', end: '2026-11-17T21:00:00Z' });
  // waste: 4 × 2.50 at NYC on the 16th, 3 × 1.25 in Berlin on the 17th
  await recordWaste(s, nyc, '2.50', '4', '2026-11-16T18:00:00Z');
  await recordWaste(s, ber, '1.25', '3', '2026-11-17T10:00:00Z');
  // cash: NYC's drawer 5.00 short on the 16th (195.00 counted against a 200.00 float, no cash sales), the day closed
  await closeCashDay(s, nyc, '2026-11-16', '2026-11-16T23:50:00Z', '200.00', '195.00');
  const published = await s.scheduling.call('POST', '/schedules:publish', { body: { locationId: nyc, from: '2026-11-16', to: '2026-11-16' } });
  if (published.status !== 200 || published.body.published !== 3) throw new Error(`publish: ${published.status} ${JSON.stringify(published.body)}`);
}, 120_000);

afterAll(async () => {
  await s?.stack.close();
});

const kpis = (query: string, as = person()) => s.insights.call('GET', `/kpis?${query}`, { as });

/** The KPIs once the read models hold everything sent (they follow the bus within seconds). */
async function settled(query: string, netSales: string, laborCost: string): Promise<HttpResult> {
  return eventually(async () => {
    const r = await kpis(query);
    return r.status === 200 && r.body.figures.netSales === netSales && r.body.figures.laborCost === laborCost && r.body.figures.scheduledCost === '280.00' && r.body.figures.wasteValue === '13.75' && r.body.figures.actualFoodCost === '13.75' && r.body.figures.overShort === '-5.00' ? r : undefined;
  }, 20_000);
}

// by hand: NYC 11-16: 1000 + 2505.50 + 495.50 − 200 = 3801.00 (3 sales); 11-17: 3000 + 800 = 3800.00 (2); Berlin 2000.00 (1)
// labor: A 40 × 20 + 5 × 20 × 1.5 = 950.00 for 45 h; B 5 × 22 + 4 × 18.50 = 184.00 for 9 h; C 6 × 15 = 90.00 for 6 h
// scheduled (NYC, the 16th): A 8.5 h × 20 = 170.00, B 5 h × 22 = 110.00, the open shift 4 h: 17.50 h, 280.00
const WEEK = 'from=2026-11-16&to=2026-11-22';

it('answers every KPI of a week over all locations, each as derived by hand', async () => {
  const r = await settled(WEEK, '9601.00', '1224.00');
  expect(r.body).toMatchObject({ from: '2026-11-16', to: '2026-11-22', locationIds: [nyc, ber].sort(), comparison: null });
  expect(r.body.figures).toEqual({
    netSales: '9601.00',
    transactions: 6,
    averageCheck: '1600.17', // 9601 ÷ 6 = 1600.1666…
    laborHours: '60.00',
    laborCost: '1224.00',
    laborPercent: '12.75', // 1224 ÷ 9601 × 100 = 12.7486…
    salesPerLaborHour: '160.02', // 9601 ÷ 60 = 160.0166…
    scheduledHours: '17.50',
    scheduledCost: '280.00',
    scheduledLaborPercent: '2.92', // 280 ÷ 9601 × 100 = 2.9163…
    wasteValue: '13.75', // 4 × 2.50 + 3 × 1.25
    overShort: '-5.00',
    // no sale depletes an item here: the food used is the waste (the opening balances are stock that arrived, not used)
    theoreticalFoodCost: '0.00',
    theoreticalFoodCostPercent: '0.00',
    actualFoodCost: '13.75',
    actualFoodCostPercent: '0.14', // 13.75 ÷ 9601 × 100 = 0.1432…
    primeCost: '1237.75', // 13.75 + 1224.00
    primeCostPercent: '12.89', // 1237.75 ÷ 9601 × 100 = 12.8919…
  });
  const byLocation = Object.fromEntries(r.body.byLocation.map((l: { locationId: string; figures: unknown }) => [l.locationId, l.figures]));
  expect(byLocation[nyc]).toEqual({
    netSales: '7601.00', transactions: 5, averageCheck: '1520.20', laborHours: '54.00', laborCost: '1134.00', laborPercent: '14.92', salesPerLaborHour: '140.76',
    scheduledHours: '17.50', scheduledCost: '280.00', scheduledLaborPercent: '3.68', wasteValue: '10.00', overShort: '-5.00', // 280 ÷ 7601 × 100 = 3.6837…
    theoreticalFoodCost: '0.00', theoreticalFoodCostPercent: '0.00', actualFoodCost: '10.00', actualFoodCostPercent: '0.13', primeCost: '1144.00', primeCostPercent: '15.05', // 1144 ÷ 7601 × 100 = 15.0506…
  });
  expect(byLocation[ber]).toEqual({
    netSales: '2000.00', transactions: 1, averageCheck: '2000.00', laborHours: '6.00', laborCost: '90.00', laborPercent: '4.50', salesPerLaborHour: '333.33',
    scheduledHours: '0.00', scheduledCost: '0.00', scheduledLaborPercent: '0.00', wasteValue: '3.75', overShort: '0.00',
    theoreticalFoodCost: '0.00', theoreticalFoodCostPercent: '0.00', actualFoodCost: '3.75', actualFoodCostPercent: '0.19', primeCost: '93.75', primeCostPercent: '4.69', // 93.75 ÷ 2000 × 100 = 4.6875
  });
  // what insights does not model is named, never estimated
  expect(r.body.unavailable.map((u: { kpi: string }) => u.kpi)).toEqual(['guests']);
  expect(Object.keys(r.body.figures)).not.toContain('guests');
});

it('answers one day, a set of locations, and the comparison periods', async () => {
  await settled(WEEK, '9601.00', '1224.00');
  const day = await kpis(`from=2026-11-16&to=2026-11-16&locationId=${nyc}`);
  expect(day.status).toBe(200);
  // the 16th at NYC: A 9 h (200 × 0.9 = 180.00), B 5 h at the bar (110.00)
  expect(day.body.figures).toMatchObject({ netSales: '3801.00', transactions: 3, laborHours: '14.00', laborCost: '290.00', laborPercent: '7.63', salesPerLaborHour: '271.50' });
  // scheduled: 17.50 h, 280.00 (7.37 % of 3801.00); the next day's draft counts nothing
  expect(day.body.figures).toMatchObject({ scheduledHours: '17.50', scheduledCost: '280.00', scheduledLaborPercent: '7.37' });
  expect((await kpis(`from=2026-11-17&to=2026-11-17&locationId=${nyc}`)).body.figures).toMatchObject({ scheduledHours: '0.00', scheduledCost: '0.00' });
  expect(day.body.locationIds).toEqual([nyc]);

  const previous = await kpis(`${WEEK}&locationId=${nyc},${ber}&compare=previous_period`);
  expect(previous.status).toBe(200);
  expect(previous.body.comparison).toMatchObject({ compare: 'previous_period', from: '2026-11-09', to: '2026-11-15' });
  expect(previous.body.comparison.figures).toMatchObject({ netSales: '500.00', transactions: 1, laborHours: '0.00', laborCost: '0.00', laborPercent: '0.00', salesPerLaborHour: null });

  const lastYear = await kpis(`${WEEK}&compare=same_period_last_year`);
  expect(lastYear.body.comparison).toMatchObject({ compare: 'same_period_last_year', from: '2025-11-16', to: '2025-11-22' });
  expect(lastYear.body.comparison.figures).toMatchObject({ netSales: '0.00', transactions: 0, averageCheck: null, laborPercent: null });
});

it('reconciles net sales, labor cost, waste value and over/short to the cent with each source\'s own API', async () => {
  const r = await settled(WEEK, '9601.00', '1224.00');
  // net sales: the completed transactions' subtotals of the week's business days, as sales lists them
  let net = new Decimal(0);
  for (const loc of [nyc, ber]) {
    const list = await s.sales.call('GET', `/sales/transactions?locationId=${loc}&businessDayFrom=2026-11-16&businessDayTo=2026-11-22&limit=200`);
    expect(list.status).toBe(200);
    for (const t of list.body.data) if (t.status === 'completed') net = net.plus(t.subtotal);
  }
  expect(net.toFixed(2)).toBe(r.body.figures.netSales);

  // labor cost: every timesheet approved, the pay period locked, its payroll export's estimated gross
  const sheets = await s.time.call('GET', '/time/timesheets?limit=200');
  expect(sheets.body.data).toHaveLength(3);
  for (const t of sheets.body.data) expect((await s.time.call('POST', `/time/timesheets/${t.id}:approve`)).status).toBe(200);
  const periodId = sheets.body.data[0].payPeriodId;
  expect((await s.time.call('POST', `/time/pay-periods/${periodId}:lock`)).status).toBe(200);
  const exported = await s.time.call('GET', `/time/pay-periods/${periodId}/export`);
  expect(exported.status).toBe(200);
  const gross = exported.body.employees.reduce((n: Decimal, e: { totals: { estimatedGross: string } }) => n.plus(e.totals.estimatedGross), new Decimal(0));
  expect(gross.toFixed(2)).toBe(r.body.figures.laborCost);

  // waste value: the records inventory lists for those locations
  let waste = new Decimal(0);
  for (const loc of [nyc, ber]) {
    const list = await s.inventory.call('GET', `/inventory/waste?locationId=${loc}&limit=200`);
    expect(list.status).toBe(200);
    for (const w of list.body.data) waste = waste.plus(w.totalValue);
  }
  expect(waste.toFixed(2)).toBe(r.body.figures.wasteValue);

  // over/short: the business days cash lists for those locations
  let overShort = new Decimal(0);
  for (const loc of [nyc, ber]) {
    const days = await s.cash.call('GET', `/cash/business-days?locationId=${loc}&from=2026-11-16&to=2026-11-22`);
    expect(days.status).toBe(200);
    for (const d of days.body.data) overShort = overShort.plus(d.figures.overShort);
  }
  expect(overShort.toFixed(2)).toBe(r.body.figures.overShort);
  const hours = exported.body.employees.reduce((n: Decimal, e: { totals: { regularHours: string; overtimeHours: string } }) => n.plus(e.totals.regularHours).plus(e.totals.overtimeHours), new Decimal(0));
  expect(hours.toFixed(2)).toBe(r.body.figures.laborHours);
});

it('keeps a sale\'s 15-minute interval in its business day', async () => {
  await settled(WEEK, '9601.00', '1224.00');
  const rows = await serviceSql(s.insights)(`select to_char(business_day, 'YYYY-MM-DD') as day, interval_start, net_sales::text, transactions from insights.sales_intervals where location_id = ? order by interval_start`, [nyc]);
  const at = (iso: string) => rows.find((x: any) => new Date(x.interval_start).toISOString() === iso);
  expect(at('2026-11-16T17:00:00.000Z')).toMatchObject({ day: '2026-11-16', transactions: 2 });
  expect(new Decimal(at('2026-11-16T17:00:00.000Z').net_sales).toFixed(2)).toBe('3505.50');
  expect(at('2026-11-18T07:30:00.000Z')).toMatchObject({ day: '2026-11-17', transactions: 1 });
  // the voided sale's interval holds nothing
  expect(new Decimal(at('2026-11-16T18:00:00.000Z').net_sales).toFixed(2)).toBe('0.00');
});

it('keeps labor per 15-minute interval: hours on the clock at each location', async () => {
  await settled(WEEK, '9601.00', '1224.00');
  const rows = await serviceSql(s.insights)(
    `select interval_start, sum(hours)::text as hours, count(*)::int as n from insights.labor_intervals where location_id = ? and business_day = '2026-11-16' group by interval_start order by interval_start`,
    [nyc],
  );
  // A 13:00–22:00Z and B 15:00–20:00Z: 36 intervals, 14 h in all, two people from 15:00 to 20:00
  expect(rows).toHaveLength(36);
  expect(rows.reduce((n: Decimal, r: any) => n.plus(r.hours), new Decimal(0)).toFixed(2)).toBe('14.00');
  const at = (iso: string) => rows.find((x: any) => new Date(x.interval_start).toISOString() === iso);
  expect(new Decimal(at('2026-11-16T13:00:00.000Z').hours).toFixed(2)).toBe('0.25');
  expect(new Decimal(at('2026-11-16T15:00:00.000Z').hours).toFixed(2)).toBe('0.50');
});

it('counts a sales event delivered twice, or a transaction\'s version sent again, once', async () => {
  await settled(WEEK, '9601.00', '1224.00');
  const transaction = { id: 'stx_dup1', externalId: 'dup-1', version: 1, occurredAt: '2026-11-21T17:00:00Z', businessDay: '2026-11-21', type: 'sale', status: 'completed', lines: [], tenders: [], subtotal: '42.00', tax: '0.00', total: '42.00', currency: 'USD' };
  const event = { id: 'evt_dup_1', type: 'sales.transactions.recorded', createdAt: new Date().toISOString(), apiVersion: 'v1', actor: { type: 'system', id: null }, locationId: ber, data: { object: { source: 'pos', locationId: ber, reason: 'ingested', transactions: [transaction] } } };
  const publish = (e: typeof event) => s.stack.bus.publish([{ topic: 'sales', key: ber, eventId: e.id, type: e.type, payload: e }]);
  await publish(event);
  await publish(event);
  // another event carrying the same version of the transaction
  await publish({ ...event, id: 'evt_dup_2' });
  // a barrier: a later event on the same key, applied after the three above
  await publish({ ...event, id: 'evt_dup_3', data: { object: { ...event.data.object, transactions: [{ ...transaction, id: 'stx_dup2', externalId: 'dup-2', subtotal: '8.00', total: '8.00' }] } } });
  const r = await settled(WEEK, '9651.00', '1224.00');
  expect(r.body.figures.transactions).toBe(8);
});

describe('reach, permission and scope', () => {
  it('counts only the locations a person\'s reach covers, and refuses one outside it', async () => {
    const nycOnly = person({ 'reports.read': [{ type: 'locations', ids: [nyc] }] });
    const mine = await kpis(WEEK, nycOnly);
    expect(mine.status).toBe(200);
    expect(mine.body.locationIds).toEqual([nyc]);
    expect(mine.body.figures.netSales).toBe('7601.00');
    const outside = await kpis(`${WEEK}&locationId=${ber}`, nycOnly);
    expect(outside.status).toBe(403);
    expect(outside.body.code).toBe('out_of_reach');
  });

  // a key's scope and the feature switch are the gateway's: test/access.test.ts walks this row through it
  it('refuses a person without reports.read, and answers a key with reports:read everything', async () => {
    const refused = await kpis(WEEK, person({ 'sales.read': [{ type: 'everyone' }] }));
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('forbidden');
    const key = await kpis(WEEK, integration(['reports:read']));
    expect(key.status).toBe(200);
    expect(key.body.locationIds).toEqual([nyc, ber].sort());
  });

  it('refuses a bad range with the field named', async () => {
    const backwards = await kpis('from=2026-11-22&to=2026-11-16');
    expect(backwards.status).toBe(400);
    expect(backwards.body.errors.map((e: { path: string }) => e.path)).toContain('to');
    const both = await kpis(`${WEEK}&locationId=${nyc}&orgUnitId=ou_x`);
    expect(both.status).toBe(400);
    expect(both.body.errors.map((e: { path: string }) => e.path)).toContain('orgUnitId');
    const unknown = await kpis(`${WEEK}&locationId=loc_nope`);
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors.map((e: { path: string }) => e.path)).toContain('locationId');
    expect((await kpis('from=2026-11-16')).status).toBe(400);
    expect((await kpis(`${WEEK}&compare=plan`)).status).toBe(400);
  });
});

describe('an org unit', () => {
  it('counts the locations of the unit and the units below it, and reaches by org unit', async () => {
    const org = s.stack.services.organization;
    const region = await org.call('POST', '/org-units', { body: { name: 'North', kind: 'region' } });
    const district = await org.call('POST', '/org-units', { body: { name: 'North-1', kind: 'district', parentId: region.body.id } });
    expect([region.status, district.status]).toEqual([201, 201]);
    const ldn = await org.call('POST', '/locations', { body: { name: 'London', timezone: 'Europe/London', businessDayCutoff: '04:00', externalId: 'LDN-1', orgUnitId: district.body.id } });
    expect(ldn.status).toBe(201);
    await untilReplicated(s.stack, 'sales', [ldn.body.id]);
    await untilReplicated(s.stack, 'insights', [ldn.body.id]);
    await eventually(async () => (await serviceSql(s.insights)(`select 1 from insights.org_units where id = ?`, [district.body.id])).length === 1);
    // after the week the other tests count
    await sendSales(s, [sale('LDN-1', '2026-11-25T12:00:00Z', '50.00')]);

    const week = 'from=2026-11-23&to=2026-11-29';
    const byUnit = await eventually(async () => {
      const r = await kpis(`${week}&orgUnitId=${region.body.id}`);
      return r.status === 200 && r.body.figures.netSales === '50.00' ? r : undefined;
    });
    expect(byUnit.body.locationIds).toEqual([ldn.body.id]);

    const districtReach = person({ 'reports.read': [{ type: 'org_units', ids: [district.body.id] }] });
    const mine = await kpis(week, districtReach);
    expect(mine.status).toBe(200);
    expect(mine.body.locationIds).toEqual([ldn.body.id]);
    expect((await kpis(`${week}&orgUnitId=${region.body.id}`, districtReach)).status).toBe(200);
    const outside = await kpis(`${week}&locationId=${nyc}`, districtReach);
    expect(outside.status).toBe(403);
    expect(outside.body.code).toBe('out_of_reach');
    // a unit with a location the reach does not cover
    const nycUnit = await org.call('POST', '/org-units', { body: { name: 'East' } });
    expect((await org.call('PATCH', `/locations/${nyc}`, { body: { orgUnitId: nycUnit.body.id } })).status).toBe(200);
    await eventually(async () => (await serviceSql(s.insights)(`select 1 from insights.locations where id = ? and org_unit_id = ?`, [nyc, nycUnit.body.id])).length === 1);
    const refused = await kpis(`${week}&orgUnitId=${nycUnit.body.id}`, districtReach);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('out_of_reach');
  });
});

describe('a report export whose file cannot be stored', () => {
  // this chain has no files service: the export runs its report, then cannot store it
  it('fails with why, and stays failed', async () => {
    await settled(WEEK, '9651.00', '1224.00');
    const queued = await s.insights.call('POST', '/report-exports', { body: { report: 'sales-by-day', format: 'csv', parameters: { from: '2026-11-16', to: '2026-11-22' } } });
    expect(queued.status).toBe(202);
    expect(await s.insights.svc.worker('report-exports').runOnce()).toBe(true);
    const failed = await s.insights.call('GET', `/report-exports/${queued.body.id}`);
    expect(failed.body).toMatchObject({ status: 'failed', attachmentId: null, downloadUrl: null, error: expect.stringContaining('files service') });
    expect(await s.insights.svc.worker('report-exports').runOnce()).toBe(false);
  });
});

describe('a rebuild from the bus', () => {
  it('gives the same figures (food cost too) and reports as the live read models, printing its progress', async () => {
    await settled(WEEK, '9651.00', '1224.00');
    const query = 'from=2026-11-01&to=2026-11-30&compare=previous_period';
    const before = await kpis(query);
    const byDay = await kpis('from=2026-11-16&to=2026-11-16');
    expect(before.status).toBe(200);
    expect(before.body.figures.netSales).not.toBe('0.00');
    // food cost from inventory's postings (the waste and the opening balances), and reports over the rebuilt read models
    expect(before.body.figures).toMatchObject({ actualFoodCost: '13.75', actualFoodCostPercent: expect.any(String), primeCost: expect.any(String) });
    const reportKeys = ['sales-by-item', 'sales-by-channel', 'usage-actual-vs-theoretical', 'inventory-valuation', 'labor-vs-sales'];
    const reportsBefore = new Map<string, unknown>();
    for (const key of reportKeys) {
      const r = await s.insights.call('GET', `/reports/${key}?from=2026-11-01&to=2026-11-30&limit=200`);
      expect([key, r.status]).toEqual([key, 200]);
      reportsBefore.set(key, r.body);
    }
    expect((reportsBefore.get('usage-actual-vs-theoretical') as { data: unknown[] }).data).toHaveLength(2);
    const progress: RebuildProgress[] = [];
    const result = await rebuildReadModels(s.insights.svc.runtime, { onProgress: (p) => progress.push(p), progressEveryMs: 50 });
    expect(result.applied).toBeGreaterThan(0);
    expect(result.skipped).toEqual([]);
    expect(progress.at(-1)).toMatchObject({ applied: result.applied });
    // every read model holds what it held before
    for (const [table, rows] of Object.entries(result.rows)) expect([table, rows.after]).toEqual([table, rows.before]);
    expect((await kpis(query)).body).toEqual(before.body);
    expect((await kpis('from=2026-11-16&to=2026-11-16')).body).toEqual(byDay.body);
    for (const key of reportKeys) expect([key, (await s.insights.call('GET', `/reports/${key}?from=2026-11-01&to=2026-11-30&limit=200`)).body]).toEqual([key, reportsBefore.get(key)]);
    const [rebuild] = await serviceSql(s.insights)(`select status, events from insights.rebuilds where id = ?`, [result.id]);
    expect(rebuild).toEqual({ status: 'done', events: result.applied });
    // its replay's consumer group is forgotten: it lags behind nothing later
    expect(await serviceSql(s.insights)(`select 1 from bus.positions where group_id like 'insights.rebuild%'`)).toEqual([]);
  });
});

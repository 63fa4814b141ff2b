/**
 * Forecasts in insights: scheduling's fits (`scheduling.forecast.fitted`) and adjustments
 * (`forecast.updated`) published on the real bus as scheduling's relay publishes them, applied by
 * insights' consumer; sales sent through sales' API. The day's forecast is the last fit made before
 * the business day started (kept frozen after), `GET /kpis?compare=forecast`, an alert rule against
 * the forecast firing once per crossing, the forecast-accuracy report and a staffing recommendation,
 * each checked against figures worked out by hand. Workers run when the test says (a fixed clock).
 */
import { organizationService } from '@svc/organization';
import { salesService } from '@svc/sales';
import { eventually, FakeClock, integration, publishEvent, standardLocations, startTestServices, type TestService, type TestServices } from '@bop/test-support';
import { insightsService } from '../src';
import { sale, unique } from './fixtures';

const clock = new FakeClock();
let stack: TestServices;
let insights: TestService;
let nyc: string;
let ber: string;
const pos = integration(['sales:write', 'sales:read']);

beforeAll(async () => {
  // Tuesday 1 December 2026, 10:00 in New York (business day 2026-12-01, started 09:00Z at the 04:00 cut-off)
  clock.advanceTo('2026-12-01T15:00:00Z');
  stack = await startTestServices([organizationService, salesService, insightsService], { INSIGHTS_TARGET_SPLH: '50' }, { workers: false, clock });
  insights = stack.services.insights;
  const locations = await standardLocations(stack, ['sales', 'insights']);
  nyc = locations['NYC-1'];
  ber = locations['BER-1'];
}, 120_000);

afterAll(async () => {
  await stack?.close();
});

async function sendSales(transactions: unknown[]): Promise<void> {
  const r = await stack.services.sales.call('POST', '/sales/transactions:batch', { as: pos, body: { source: 'pos-forecasts', transactions } });
  if (r.status !== 202 || r.body.rejected > 0) throw new Error(`sales batch: ${r.status} ${JSON.stringify(r.body)}`);
}

/** A day of a fit at NYC (local midnight is 05:00Z): the total spread evenly over the local hours 11:00–20:00. */
const day = (date: string, total: string) => {
  const each = (Number(total) / 10).toFixed(2);
  return { date, start: `${date}T05:00:00.000Z`, total, hours: Array.from({ length: 24 }, (_, h) => (h >= 11 && h <= 20 ? each : '0.00')) };
};
const fit = (driver: string, fittedAt: string, days: ReturnType<typeof day>[]) =>
  publishEvent(stack, 'scheduling', 'scheduling.forecast.fitted', { id: `${nyc}-${driver}-${fittedAt}`, locationId: nyc, driver, fittedAt, timezone: 'America/New_York', trainedThrough: '2026-11-27', method: 'seasonal', from: days[0].date, to: days.at(-1)!.date, days }, { locationId: nyc });
const adjust = (date: string, percent: number, version: number, updatedAt: string) =>
  publishEvent(stack, 'scheduling', 'forecast.updated', { id: `fad_${date}`, locationId: nyc, driver: null, date, percent, reason: 'event nearby', version, createdAt: updatedAt, updatedAt }, { locationId: nyc });

const compare = (from: string, to: string, locations = nyc) => insights.call('GET', `/kpis?from=${from}&to=${to}&locationId=${locations}&compare=forecast`);
const forecastIs = (from: string, to: string, netSales: string | null) => eventually(async () => ((await compare(from, to)).body.comparison?.figures.netSales === netSales ? true : undefined), 20_000);

describe('the read model of forecasts', () => {
  it("keeps each day's last fit made before the day started: a later fit does not change a day under way, an older one delivered late changes nothing", async () => {
    // fitted Saturday 28th: the 29th to the 2nd
    await fit('net_sales', '2026-11-28T12:00:00.000Z', [day('2026-11-29', '800.00'), day('2026-11-30', '1000.00'), day('2026-12-01', '1200.00'), day('2026-12-02', '1500.00')]);
    await forecastIs('2026-11-29', '2026-12-02', '4500.00');
    // fitted Monday 30th at 07:00 in New York: the 30th had started (04:00), so it keeps 1000.00
    await fit('net_sales', '2026-11-30T12:00:00.000Z', [day('2026-11-30', '900.00'), day('2026-12-01', '1100.00'), day('2026-12-02', '1400.00')]);
    await forecastIs('2026-11-29', '2026-12-02', '4300.00'); // 800 + 1000 + 1100 + 1400
    // an older fit delivered late (or again) changes nothing
    await fit('net_sales', '2026-11-27T12:00:00.000Z', [day('2026-11-30', '5.00'), day('2026-12-01', '5.00'), day('2026-12-02', '5.00')]);
    // the adjustment of the 2nd, made before it starts, counts (+10 %); the one of the 30th, made after, does not
    await adjust('2026-11-30', 50, 1, '2026-12-01T14:00:00.000Z');
    await adjust('2026-12-02', 10, 1, '2026-12-01T14:00:00.000Z');
    await forecastIs('2026-11-29', '2026-12-02', '4440.00'); // 800 + 1000 + 1100 + 1540
    expect((await compare('2026-11-30', '2026-11-30')).body.comparison.figures.netSales).toBe('1000.00');
  });

  it('GET /kpis?compare=forecast: the same days as forecast — net sales, transactions, average check; the other figures, and a range a location has no forecast for, null', async () => {
    await fit('transactions', '2026-11-28T12:00:00.000Z', [day('2026-11-29', '40.00'), day('2026-11-30', '50.00'), day('2026-12-01', '55.50'), day('2026-12-02', '60.00')]);
    await eventually(async () => ((await compare('2026-11-29', '2026-12-02')).body.comparison?.figures.transactions !== null ? true : undefined), 20_000);
    const r = await compare('2026-11-29', '2026-12-02');
    expect(r.status).toBe(200);
    // 40 + 50 + 55.5 + 60 × 1.1 = 211.5 transactions; 4440.00 ÷ 211.5 = 20.9929… → 20.99
    expect(r.body.comparison).toMatchObject({ compare: 'forecast', from: '2026-11-29', to: '2026-12-02', figures: { netSales: '4440.00', transactions: 211.5, averageCheck: '20.99', laborCost: null, laborPercent: null, scheduledHours: null, wasteValue: null } });
    // a day without a forecast in the range (the 28th): null, never a partial sum
    expect((await compare('2026-11-28', '2026-12-02')).body.comparison.figures).toMatchObject({ netSales: null, transactions: null, averageCheck: null });
    // Berlin has none
    expect((await compare('2026-11-29', '2026-12-02', `${nyc},${ber}`)).body.comparison.figures.netSales).toBeNull();
    const bad = await insights.call('GET', `/kpis?from=2026-11-29&to=2026-12-02&compare=plan`);
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { path: string }) => e.path)).toEqual(['compare']);
  });
});

describe('forecast accuracy', () => {
  it('per location and complete day with a forecast: forecast, actual, error, absolute % error; a total row with the WAPE', async () => {
    await sendSales([sale('NYC-1', '2026-11-29T18:00:00Z', '700.00'), sale('NYC-1', '2026-11-30T18:00:00Z', '1100.00')]);
    await eventually(async () => ((await insights.call('GET', `/kpis?from=2026-11-29&to=2026-11-30&locationId=${nyc}`)).body.figures.netSales === '1800.00' ? true : undefined), 20_000);
    const r = await insights.call('GET', `/reports/forecast-accuracy?from=2026-11-29&to=2026-12-02&locationId=${nyc}`);
    expect(r.status).toBe(200);
    // today (the 1st) and the 2nd are not complete: not counted
    expect(r.body.data).toEqual([
      { businessDay: '2026-11-29', locationId: nyc, hour: null, forecast: '800.00', actual: '700.00', error: '-100.00', absoluteError: '100.00', absolutePercentError: '14.29', fittedAt: '2026-11-28T12:00:00.000Z' },
      { businessDay: '2026-11-30', locationId: nyc, hour: null, forecast: '1000.00', actual: '1100.00', error: '100.00', absoluteError: '100.00', absolutePercentError: '9.09', fittedAt: '2026-11-28T12:00:00.000Z' },
      // WAPE: (100 + 100) ÷ 1800 × 100 = 11.11
      { businessDay: null, locationId: null, hour: null, forecast: '1800.00', actual: '1800.00', error: '0.00', absoluteError: '200.00', absolutePercentError: '11.11', fittedAt: null },
    ]);
    // by hour: the forecast's 80.00 and 100.00 an hour from 11:00 to 20:00; the sales at 13:00 (18:00Z) local
    const byHour = await insights.call('GET', `/reports/forecast-accuracy?from=2026-11-29&to=2026-11-30&locationId=${nyc}&by=hour&limit=200`);
    expect(byHour.status).toBe(200);
    expect(byHour.body.data).toHaveLength(21);
    expect(byHour.body.data[0]).toEqual({ businessDay: '2026-11-29', locationId: nyc, hour: '11:00', forecast: '80.00', actual: '0.00', error: '-80.00', absoluteError: '80.00', absolutePercentError: null, fittedAt: '2026-11-28T12:00:00.000Z' });
    expect(byHour.body.data[2]).toMatchObject({ businessDay: '2026-11-29', hour: '13:00', forecast: '80.00', actual: '700.00', error: '620.00', absolutePercentError: '88.57' });
    // WAPE by hour: the day's 9 × 80 + 620 and 9 × 100 + 1000 ÷ 1800 = 3240 ÷ 1800 × 100 = 180.00
    expect(byHour.body.data[20]).toMatchObject({ businessDay: null, hour: null, forecast: '1800.00', actual: '1800.00', absoluteError: '3240.00', absolutePercentError: '180.00' });
    expect((await insights.call('GET', `/reports/forecast-accuracy?from=2026-11-29&to=2026-11-30&by=week`)).body.errors.map((e: { path: string }) => e.path)).toEqual(['by']);
    const list = await insights.call('GET', '/reports');
    expect(list.body.data.map((x: { key: string }) => x.key)).toContain('forecast-accuracy');
    // a page at a time
    const first = await insights.call('GET', `/reports/forecast-accuracy?from=2026-11-29&to=2026-12-02&locationId=${nyc}&limit=2`);
    expect(first.body.data).toHaveLength(2);
    const rest = await insights.call('GET', `/reports/forecast-accuracy?from=2026-11-29&to=2026-12-02&locationId=${nyc}&limit=2&cursor=${first.body.nextCursor}`);
    expect(rest.body.data).toEqual([expect.objectContaining({ businessDay: null, absolutePercentError: '11.11' })]);
  });
});

describe('an alert rule against the forecast', () => {
  it('fires when net sales fall more than 10 % below the forecast of the window, once per crossing, and re-arms', async () => {
    const evaluate = () => insights.svc.worker('alert-evaluation').runOnce();
    const alertsOf = async (ruleId: string) => (await insights.call('GET', `/alerts?ruleId=${ruleId}&limit=100`)).body.data as Array<Record<string, unknown>>;
    const netSalesToday = (v: string) => eventually(async () => ((await insights.call('GET', `/kpis?from=2026-12-01&to=2026-12-01&locationId=${nyc}`)).body.figures.netSales === v ? true : undefined), 20_000);
    const a = await insights.call('POST', '/alert-rules', { body: { name: unique('below forecast'), kpi: 'netSales', scope: { locationIds: [nyc] }, comparison: { operator: 'below', threshold: '-10', against: 'forecast' }, window: { kind: 'today' } } });
    expect(a.status).toBe(201);
    expect(a.body.comparison).toEqual({ operator: 'below', threshold: '-10', against: 'forecast' });
    // nothing sold yet today against 1100.00: −100 %, fires at creation
    expect(await alertsOf(a.body.id)).toEqual([expect.objectContaining({ against: 'forecast', value: '-100.00', kpiValue: '0.00', baseValue: '1100.00', from: '2026-12-01', to: '2026-12-01' })]);
    await sendSales([sale('NYC-1', '2026-12-01T15:00:00Z', '500.00')]);
    await netSalesToday('500.00');
    await evaluate();
    expect(await alertsOf(a.body.id)).toHaveLength(1); // still below: no second alert
    await sendSales([sale('NYC-1', '2026-12-01T15:05:00Z', '600.00')]);
    await netSalesToday('1100.00');
    await evaluate();
    expect((await insights.call('GET', `/alert-rules/${a.body.id}`)).body.firing).toEqual([]); // re-armed
    await sendSales([sale('NYC-1', '2026-12-01T15:10:00Z', '-200.00')]);
    await netSalesToday('900.00');
    await evaluate();
    // (900 − 1100) ÷ 1100 × 100 = −18.18
    expect((await alertsOf(a.body.id)).map((x) => x.value)).toEqual(['-100.00', '-18.18']);
    // over the whole scope with Berlin, which has no forecast: no base, never holds
    const whole = await insights.call('POST', '/alert-rules', { body: { name: unique('scope vs forecast'), kpi: 'netSales', scope: { locationIds: [nyc, ber], evaluate: 'whole_scope' }, comparison: { operator: 'below', threshold: '-10', against: 'forecast' }, window: { kind: 'today' } } });
    expect(whole.status).toBe(201);
    expect(await alertsOf(whole.body.id)).toEqual([]);
    // a KPI without a forecast cannot be compared against it: refused, at creation and by a change, nothing stored
    const labor = await insights.call('POST', '/alert-rules', { body: { name: unique('labor vs forecast'), kpi: 'laborHours', scope: { locationIds: [nyc] }, comparison: { operator: 'below', threshold: '1000', against: 'forecast' }, window: { kind: 'today' } } });
    expect(labor.status).toBe(422);
    expect(labor.body.errors.map((e: { path: string }) => e.path)).toEqual(['comparison.against']);
    const changed = await insights.call('PATCH', `/alert-rules/${a.body.id}`, { body: { kpi: 'laborCost' }, headers: { 'If-Match': '"1"' } });
    expect(changed.status).toBe(422);
    expect((await insights.call('GET', `/alert-rules/${a.body.id}`)).body).toMatchObject({ kpi: 'netSales', version: 1 });
  });
});

describe('staffing against the forecast', () => {
  const shift = (id: string, version: number, from: string, to: string, paidHours: string, status = 'published') =>
    publishEvent(stack, 'scheduling', 'shift.changed', { id, version, locationId: nyc, employeeId: null, position: 'Cook', localStart: `2026-12-02T${from}:00-05:00`, localEnd: `2026-12-02T${to}:00-05:00`, paidHours, status }, { locationId: nyc });
  const run = () => insights.svc.worker('recommendations').runOnce();
  const staffing = async (status = 'open') => (await insights.call('GET', `/recommendations?locationId=${nyc}&kind=staffing&status=${status}`)).body.data as Array<Record<string, any>>;
  const scheduled = (hours: string) => eventually(async () => ((await insights.call('GET', `/kpis?from=2026-12-02&to=2026-12-02&locationId=${nyc}`)).body.figures.scheduledHours === hours ? true : undefined), 20_000);

  it('recommends a day whose shifts fall short of the hours the forecast needs, hour by hour, once; resolved when the shifts cover it', async () => {
    // the 2nd: 1540.00 forecast (1400 + 10 %), 154.00 an hour from 11:00 to 20:00 → 3.08 hours an hour at 50 SPLH, 30.80 in all
    await shift('shf_fc_1', 1, '11:00', '19:00', '8');
    await scheduled('8.00');
    await run();
    const [rec, ...more] = await staffing();
    expect(more).toHaveLength(0);
    // scheduled 1 hour an hour 11:00–18:00: short 2.08 × 8 + 3.08 × 2 (19:00, 20:00) = 22.80 hours
    expect(rec).toMatchObject({
      kind: 'staffing',
      locationId: nyc,
      itemId: null,
      supplierId: null,
      figures: {
        date: '2026-12-02',
        forecastNetSales: '1540.00',
        targetSalesPerLaborHour: '50',
        neededHours: '30.80',
        scheduledHours: '8.00',
        underStaffedHours: '22.80',
        overStaffedHours: '0.00',
        underStaffedAt: '11:00,12:00,13:00,14:00,15:00,16:00,17:00,18:00,19:00,20:00',
        overStaffedAt: null,
        tolerancePercent: '10',
      },
    });
    expect(rec.reasoning).toContain('under-staffed by 22.80 hours');
    // today has a forecast but no shift: not scheduled yet, nothing recommended for it
    await run();
    expect(await staffing()).toEqual([expect.objectContaining({ id: rec.id })]);
    // two more shifts 11:00–21:00: 3 hours an hour to 18:00, 2 after; short 0.08 × 8 + 1.08 × 2 = 2.80 ≤ 3.08 (10 %)
    await shift('shf_fc_2', 1, '11:00', '21:00', '10');
    await shift('shf_fc_3', 1, '11:00', '21:00', '10');
    await scheduled('28.00');
    await run();
    expect(await staffing()).toEqual([]);
    expect(await staffing('resolved')).toEqual([expect.objectContaining({ id: rec.id, status: 'resolved', resolvedAt: expect.any(String) })]);
  });
});

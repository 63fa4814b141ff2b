import { fixedClock, useClock } from '@bop/shared';
import { eventually, integration, outboxPayloads, person, publishEvent, sql, startTestServices, type TestService, type TestServices } from '@bop/test-support';
import { schedulingService } from '../src';
import { replicaLocation } from './fixtures';

let stack: TestServices;
let t: TestService;
beforeAll(async () => {
  stack = await startTestServices([schedulingService]);
  t = stack.services.scheduling;
}, 60_000);
afterAll(async () => {
  useClock({ now: () => new Date() });
  await stack?.close();
});
afterEach(() => useClock({ now: () => new Date() }));

const feed = integration(['scheduling:write']);
const send = (source: string, drivers: unknown[]) => t.call('POST', '/demand-drivers', { as: feed, body: { source, drivers } });

/** `weeks` of covers every 15 minutes from 11:00 to 22:00 local (UTC here): 4 a slot on weekdays, 8 on Saturdays. */
function coversHistory(loc: string, firstDay: string, weeks: number) {
  const out: Array<Record<string, unknown>> = [];
  const start = Date.parse(`${firstDay}T00:00:00Z`);
  for (let d = 0; d < weeks * 7; d++) {
    const day = new Date(start + d * 86_400_000);
    for (let slot = 44; slot < 88; slot++) {
      const at = new Date(day.getTime() + slot * 900_000).toISOString();
      out.push({ externalId: `cov-${at}`, locationId: loc, driver: 'covers', intervalStart: at, value: day.getUTCDay() === 6 ? 8 : 4 });
    }
  }
  return out;
}

describe('demand drivers and forecasts', () => {
  it('stores each valid record, rejects the others on their own, answers re-sends', async () => {
    useClock(fixedClock('2026-12-01T12:00:00Z'));
    const loc = await replicaLocation(t);
    const r = await send('res-1', [
      { externalId: 'a', locationId: loc, driver: 'covers', intervalStart: '2026-11-30T18:00:00Z', value: 12 },
      { externalId: 'b', locationId: loc, driver: 'covers', intervalStart: '2026-11-30T18:05:00Z', value: 12 },
      { externalId: 'c', locationId: loc, driver: 'Covers!', intervalStart: '2026-11-30T18:15:00Z', value: '1.5' },
      { externalId: 'd', locationId: 'loc_nope', driver: 'covers', intervalStart: '2026-11-30T18:15:00Z', value: 1 },
      { externalId: 'e', locationId: loc, driver: 'covers', intervalStart: '2026-12-02T18:00:00Z', value: 1 },
      { externalId: 'f', locationId: loc, driver: 'covers', intervalStart: '2026-11-30T18:30:00Z', value: -1 },
      { externalId: 'g', locationId: loc, driver: 'items_sold', intervalStart: '2026-11-30T18:30:00Z', value: '7.25' },
    ]);
    expect(r.status).toBe(202);
    expect(r.body).toMatchObject({ received: 7, created: 2, rejected: 5 });
    const paths = r.body.results.filter((x: { status: string }) => x.status === 'rejected').map((x: { errors: Array<{ path: string }> }) => x.errors[0].path);
    expect(paths).toEqual(['intervalStart', 'driver', 'locationId', 'intervalStart', 'value']);
    const again = await send('res-1', [
      { externalId: 'a', locationId: loc, driver: 'covers', intervalStart: '2026-11-30T18:00:00Z', value: '12.0' },
      { externalId: 'g', locationId: loc, driver: 'items_sold', intervalStart: '2026-11-30T18:30:00Z', value: 8 },
    ]);
    expect(again.body.results.map((x: { status: string }) => x.status)).toEqual(['unchanged', 'updated']);
    const nul = await send('res-1', [{ externalId: 'x\u0000', locationId: loc, driver: 'covers', intervalStart: '2026-11-30T18:00:00Z', value: 1 }]);
    expect(nul.body.rejected).toBe(1);
  });

  it('reads back what a feed stored (GET /demand-drivers): filters, pages, reach and bad filters', async () => {
    useClock(fixedClock('2026-12-01T12:00:00Z'));
    const loc = await replicaLocation(t);
    const other = await replicaLocation(t);
    const at = (h: number, m = 0) => `2026-11-30T${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}:00Z`;
    const sent = await send('res-read', [
      { externalId: 'r1', locationId: loc, driver: 'covers', intervalStart: at(18), value: '12.50' },
      { externalId: 'r2', locationId: loc, driver: 'covers', intervalStart: at(18, 15), value: 7 },
      { externalId: 'r3', locationId: loc, driver: 'items_sold', intervalStart: at(18), value: '3' },
      { externalId: 'r4', locationId: other, driver: 'covers', intervalStart: at(19), value: 1 },
    ]);
    expect(sent.body.created).toBe(4);
    const reader = integration(['scheduling:read']);
    const all = await t.call('GET', `/demand-drivers?source=res-read&locationId=${loc}`, { as: reader });
    expect(all.status).toBe(200);
    expect(all.body.data).toEqual([
      expect.objectContaining({ source: 'res-read', externalId: 'r1', locationId: loc, driver: 'covers', intervalStart: '2026-11-30T18:00:00.000Z', value: '12.5', version: 1 }),
      expect.objectContaining({ externalId: 'r2', value: '7' }),
      expect.objectContaining({ externalId: 'r3', driver: 'items_sold' }),
    ]);
    const covers = await t.call('GET', `/demand-drivers?source=res-read&driver=covers&from=${at(18, 15)}&to=${at(20)}`, { as: reader });
    expect(covers.body.data.map((d: { externalId: string }) => d.externalId)).toEqual(['r2', 'r4']);
    // pages of one, in the order first stored
    const first = await t.call('GET', '/demand-drivers?source=res-read&limit=1', { as: reader });
    expect(first.body).toMatchObject({ hasMore: true, data: [{ externalId: 'r1' }] });
    const second = await t.call('GET', `/demand-drivers?source=res-read&limit=1&cursor=${first.body.nextCursor}`, { as: reader });
    expect(second.body.data.map((d: { externalId: string }) => d.externalId)).toEqual(['r2']);
    // a re-send with other content is a new version of the same record
    await send('res-read', [{ externalId: 'r2', locationId: loc, driver: 'covers', intervalStart: at(18, 15), value: 9 }]);
    expect((await t.call('GET', `/demand-drivers?source=res-read&driver=covers&locationId=${loc}`, { as: reader })).body.data[1]).toMatchObject({ externalId: 'r2', value: '9', version: 2 });
    // a person reaching one location sees its values only, and is refused another's
    const manager = person({ 'forecasts.read': [{ type: 'locations', ids: [other] }] });
    expect((await t.call('GET', '/demand-drivers?source=res-read', { as: manager })).body.data.map((d: { externalId: string }) => d.externalId)).toEqual(['r4']);
    const refused = await t.call('GET', `/demand-drivers?locationId=${loc}`, { as: manager });
    expect([refused.status, refused.body.code]).toEqual([403, 'out_of_reach']);
    const bad = await t.call('GET', `/demand-drivers?from=${at(19)}&to=${at(18)}&driver=Covers!`, { as: reader });
    expect([bad.status, bad.body.code]).toEqual([400, 'bad_request']);
    expect(bad.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['driver', 'to']);
  });

  it('forecasts from 10 weeks of a feed: the weekly pattern, buckets, special days and adjustments; a new location from a similar one; 422 without history', async () => {
    useClock(fixedClock('2026-12-07T06:00:00Z'));
    const loc = await replicaLocation(t);
    const rows = coversHistory(loc, '2026-09-28', 10);
    for (let i = 0; i < rows.length; i += 1000) expect((await send('res-2', rows.slice(i, i + 1000))).body.rejected).toBe(0);
    const f = await t.call('GET', `/forecasts?locationId=${loc}&driver=covers&from=2026-12-07&to=2026-12-13&bucket=1d`);
    expect(f.status).toBe(200);
    expect(f.body).toMatchObject({ locationId: loc, driver: 'covers', timezone: 'UTC', bucket: '1d', historySource: 'feed', weeksOfHistory: 10 });
    const totals = f.body.days.map((d: { total: string }) => Number(d.total));
    // 44 slots × 4 on weekdays = 176, × 8 on Saturday = 352
    for (const [i, total] of totals.entries()) expect(Math.abs(total - (i === 5 ? 352 : 176))).toBeLessThan(i === 5 ? 18 : 9);
    expect(f.body.buckets).toHaveLength(7);
    const hourly = await t.call('GET', `/forecasts?locationId=${loc}&driver=covers&from=2026-12-07&to=2026-12-07&bucket=1h`);
    expect(hourly.body.buckets).toHaveLength(24);
    expect(Number(hourly.body.buckets[3].value)).toBe(0);
    expect(Math.abs(Number(hourly.body.buckets[12].value) - 16)).toBeLessThan(1.5);

    // a closed special day, and +50 % on Tuesday
    expect((await t.call('PUT', '/special-days/2026-12-09', { body: { kind: 'closed', name: 'Staff party' } })).status).toBe(201);
    const adj = await t.call('POST', '/forecasts/adjustments', { body: { locationId: loc, driver: 'covers', date: '2026-12-08', percent: 50, reason: 'Concert nearby' } });
    expect(adj.body).toMatchObject({ locationId: loc, driver: 'covers', date: '2026-12-08', percent: 50, version: 1 });
    expect((await outboxPayloads(t, 'scheduling', { type: 'forecast.updated', aggregateId: loc })).length).toBe(1);
    const g = await t.call('GET', `/forecasts?locationId=${loc}&driver=covers&from=2026-12-07&to=2026-12-09&bucket=1d`);
    const [mon, tue, wed] = g.body.days;
    expect(Number(tue.total)).toBeCloseTo(Number(mon.total) * 1.5, -1);
    expect(tue.adjustmentPercent).toBe(50);
    expect([Number(wed.total), wed.special]).toEqual([0, { kind: 'closed', name: 'Staff party', percent: -100, source: 'closed' }]);
    await t.call('DELETE', '/special-days/2026-12-09');
    expect((await t.call('GET', '/special-days')).body.data).toEqual([]);

    // 5 weeks (from the 13th Monday of the feed on): forecast from the location with 10 weeks, scaled
    const thin = await replicaLocation(t);
    const thinRows = coversHistory(thin, '2026-11-02', 5).map((r) => ({ ...r, externalId: `thin-${String(r.externalId)}`, value: Number(r.value) / 2 }));
    for (let i = 0; i < thinRows.length; i += 1000) expect((await send('res-3', thinRows.slice(i, i + 1000))).body.rejected).toBe(0);
    const cold = await t.call('GET', `/forecasts?locationId=${thin}&driver=covers&from=2026-12-07&to=2026-12-13&bucket=1d`);
    expect(cold.status).toBe(200);
    expect(cold.body).toMatchObject({ method: 'similar_locations', weeksOfHistory: 5, daysOfHistory: 35, confidence: { level: 'medium', expectedErrorPercent: 35.9 } });
    expect(cold.body.similarLocations).toContainEqual({ locationId: loc, weight: expect.any(Number), scale: 0.5 });
    cold.body.days.forEach((d: { total: string }, i: number) => expect(Math.abs(Number(d.total) - (i === 5 ? 176 : 88))).toBeLessThan(i === 5 ? 9 : 5));
    expect(f.body).toMatchObject({ method: 'full', confidence: { level: 'high' }, similarLocations: null });
    // no history at all: 422 saying what is missing and what to do
    const empty = await replicaLocation(t);
    const refused = await t.call('GET', `/forecasts?locationId=${empty}&driver=covers&from=2026-12-07&to=2026-12-13`);
    expect([refused.status, refused.body.code, refused.body.errors[0].path]).toEqual([422, 'validation_error', 'locationId']);
    expect(refused.body.errors[0].message).toMatch(/has no covers before 2026-12-07: a forecast needs at least one day of it\. Send the location's sales \(or its covers with POST \/demand-drivers\)/);
    expect((await t.call('GET', `/forecasts?locationId=${thin}&driver=covers&from=2026-12-13&to=2026-12-07`)).body.errors[0].path).toBe('to');
    const elsewhere = person({ 'forecasts.read': [{ type: 'locations', ids: [thin] }] });
    expect((await t.call('GET', `/forecasts?locationId=${loc}&driver=covers&from=2026-12-07&to=2026-12-07`, { as: elsewhere })).body.code).toBe('out_of_reach');
    expect((await t.call('PUT', '/special-days/2026-12-24', { as: person({ 'forecasts.manage': [{ type: 'locations', ids: [thin] }] }), body: { kind: 'lift' } })).body.code).toBe('out_of_reach');
  });

  it("records a location's special days besides the company's: the location's overrides there, reach by location", async () => {
    useClock(fixedClock('2026-12-07T06:00:00Z'));
    const [a, b] = [await replicaLocation(t), await replicaLocation(t)];
    for (const loc of [a, b]) {
      const rows = coversHistory(loc, '2026-09-28', 10).map((r) => ({ ...r, externalId: `${loc}-${String(r.externalId)}` }));
      for (let i = 0; i < rows.length; i += 1000) expect((await send('res-4', rows.slice(i, i + 1000))).body.rejected).toBe(0);
    }
    const company = await t.call('PUT', '/special-days/2026-12-10', { body: { kind: 'lift', name: 'Late opening', expectedPercent: 20 } });
    expect([company.status, company.body.locationId]).toEqual([201, null]);
    const remodel = await t.call('PUT', `/special-days/2026-12-10?locationId=${a}`, { body: { kind: 'closed', name: 'Remodel' } });
    expect([remodel.status, remodel.body]).toEqual([201, expect.objectContaining({ date: '2026-12-10', locationId: a, kind: 'closed', name: 'Remodel', version: 1 })]);
    const again = await t.call('PUT', `/special-days/2026-12-10?locationId=${a}`, { body: { kind: 'dip', name: 'Remodel', expectedPercent: -60 } });
    expect([again.status, again.body.version, again.body.kind]).toEqual([200, 2, 'dip']);
    const day = async (loc: string) => (await t.call('GET', `/forecasts?locationId=${loc}&driver=covers&from=2026-12-10&to=2026-12-10&bucket=1d`)).body.days[0];
    expect((await day(a)).special).toEqual({ kind: 'dip', name: 'Remodel', percent: -60, source: 'given' });
    expect((await day(b)).special).toEqual({ kind: 'lift', name: 'Late opening', percent: 20, source: 'given' });

    // lists: all (company first on a date), or those that hold at one location
    const all = (await t.call('GET', '/special-days?from=2026-12-10&to=2026-12-10')).body.data;
    expect(all.map((d: { locationId: string | null }) => d.locationId)).toEqual([null, a]);
    expect(all[1]).toMatchObject({ kind: 'dip', expectedPercent: -60 });
    expect((await t.call('GET', `/special-days?locationId=${b}&from=2026-12-10&to=2026-12-10`)).body.data.map((d: { locationId: string | null }) => d.locationId)).toEqual([null]);

    // a manager of b: sets b's days and sees them with the company's, never a's, nor the company's days
    const manager = person({ 'forecasts.manage': [{ type: 'locations', ids: [b] }], 'forecasts.read': [{ type: 'locations', ids: [b] }] });
    expect((await t.call('PUT', `/special-days/2026-12-11?locationId=${b}`, { as: manager, body: { kind: 'lift', name: 'Promotion' } })).status).toBe(201);
    expect((await t.call('PUT', `/special-days/2026-12-11?locationId=${a}`, { as: manager, body: { kind: 'lift' } })).body.code).toBe('out_of_reach');
    expect((await t.call('PUT', '/special-days/2026-12-11', { as: manager, body: { kind: 'lift' } })).body.code).toBe('out_of_reach');
    expect((await t.call('DELETE', `/special-days/2026-12-10?locationId=${a}`, { as: manager })).body.code).toBe('out_of_reach');
    const seen = (await t.call('GET', '/special-days?from=2026-12-10&to=2026-12-11', { as: manager })).body.data;
    expect(seen.map((d: { date: string; locationId: string | null }) => [d.date, d.locationId])).toEqual([['2026-12-10', null], ['2026-12-11', b]]);
    expect((await t.call('PUT', '/special-days/2026-12-11?locationId=loc_nope', { body: { kind: 'lift' } })).body.errors[0].path).toBe('locationId');

    // removing a's entry lets the company's hold there again; the company's stays
    expect((await t.call('DELETE', `/special-days/2026-12-10?locationId=${a}`)).status).toBe(204);
    expect((await day(a)).special).toMatchObject({ name: 'Late opening' });
    await t.call('DELETE', '/special-days/2026-12-10');
    await t.call('DELETE', `/special-days/2026-12-11?locationId=${b}`);
    expect((await t.call('GET', '/special-days')).body.data).toEqual([]);
  });

  it('builds net sales and transactions per 15 minutes from sales, taking back a voided sale', async () => {
    const loc = await replicaLocation(t);
    const tx = (id: string, version: number, occurredAt: string, subtotal: string, status = 'completed', type = 'sale') => ({ id, externalId: id, version, occurredAt, businessDay: occurredAt.slice(0, 10), status, type, subtotal, total: subtotal, lines: [], tenders: [] });
    await publishEvent(stack, 'sales', 'sales.transactions.recorded', { id: loc, source: 'pos', locationId: loc, transactions: [tx('stx_1', 1, '2026-11-30T12:01:00Z', '10.50'), tx('stx_2', 1, '2026-11-30T12:14:59Z', '4.50'), tx('stx_3', 1, '2026-11-30T12:15:00Z', '-2.00', 'completed', 'refund')] });
    const interval = async (at: string) => (await sql(t, `select net_sales::text as net, transactions from scheduling.sales_intervals where location_id = $1 and interval_start = $2`, [loc, at]))[0];
    await eventually(async () => (await interval('2026-11-30T12:00:00Z')) ?? undefined);
    expect(await interval('2026-11-30T12:00:00Z')).toEqual({ net: '15.0000', transactions: 2 });
    expect(await interval('2026-11-30T12:15:00Z')).toEqual({ net: '-2.0000', transactions: 0 });
    // version 2 voids stx_1; a late copy of version 1 changes nothing
    await publishEvent(stack, 'sales', 'sales.transactions.recorded', { id: loc, source: 'pos', locationId: loc, transactions: [tx('stx_1', 2, '2026-11-30T12:01:00Z', '10.50', 'voided')] });
    await eventually(async () => ((await interval('2026-11-30T12:00:00Z')).transactions === 1 ? true : undefined));
    await publishEvent(stack, 'sales', 'sales.transactions.recorded', { id: loc, source: 'pos', locationId: loc, transactions: [tx('stx_1', 1, '2026-11-30T12:01:00Z', '10.50')] });
    await publishEvent(stack, 'sales', 'sales.transactions.recorded', { id: loc, source: 'pos', locationId: loc, transactions: [tx('stx_4', 1, '2026-11-30T12:20:00Z', '1.00')] });
    await eventually(async () => ((await interval('2026-11-30T12:15:00Z')).transactions === 1 ? true : undefined));
    expect(await interval('2026-11-30T12:00:00Z')).toEqual({ net: '4.5000', transactions: 1 });
  });
});

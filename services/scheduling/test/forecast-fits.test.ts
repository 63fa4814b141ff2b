import { fixedClock, startService, type RunningService } from '@bop/shared';
import { http, integration, outboxPayloads, person, sql, startTestService, testKeys, type TestService } from '@bop/test-support';
import { forecastDemand, schedulingService, type DemandAdjustment } from '../src';
import { fitDueIn, storedCoverage, type StoredForecast } from '../src/forecasts/fitted';
import { replicaLocation } from './fixtures';

const clock = fixedClock('2026-12-04T12:00:00Z');
const QUIET_MS = 2_000;
let t: TestService;
beforeAll(async () => {
  t = await startTestService(schedulingService, { SCHEDULING_FORECAST_FIT_QUIET_MS: String(QUIET_MS), SCHEDULING_FORECAST_FIT_MAX_WAIT_MS: '60000' }, { workers: false, clock });
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const feed = integration(['scheduling:write']);
const send = (source: string, drivers: unknown[]) => t.call('POST', '/demand-drivers', { as: feed, body: { source, drivers } });
const fitRound = () => t.svc.worker('forecast-fit').runOnce();
const fitRow = async (loc: string) =>
  (await sql<{ generation: number; fitted_generation: number; fitted_at: Date | null; trained_through: string | null }>(t, `select generation, fitted_generation, fitted_at, to_char(trained_through, 'YYYY-MM-DD') as trained_through from scheduling.forecast_fits where location_id = $1 and driver = 'covers'`, [loc]))[0];

/** `weeks` of covers every 15 minutes from 11:00 to 22:00 UTC: 4 a slot on weekdays, 8 on Saturdays. */
function coversHistory(loc: string, firstDay: string, weeks: number) {
  const out: Array<{ externalId: string; locationId: string; driver: string; intervalStart: string; value: number }> = [];
  const start = Date.parse(`${firstDay}T00:00:00Z`);
  for (let d = 0; d < weeks * 7; d++) {
    const day = new Date(start + d * 86_400_000);
    for (let slot = 44; slot < 88; slot++) {
      const at = new Date(day.getTime() + slot * 900_000).toISOString();
      out.push({ externalId: `cov-${loc}-${at}`, locationId: loc, driver: 'covers', intervalStart: at, value: day.getUTCDay() === 6 ? 8 + (d % 3) : 4 + (d % 2) });
    }
  }
  return out;
}

async function sendHistory(loc: string) {
  const rows = coversHistory(loc, '2026-09-25', 10);
  for (let i = 0; i < rows.length; i += 1000) expect((await send('fits', rows.slice(i, i + 1000))).body.created).toBe(Math.min(1000, rows.length - i));
  return rows;
}

/** What the model itself answers for these days (the numbers a stored fit must serve), in the route's rounding. */
function modelDays(rows: Array<{ intervalStart: string; value: number }>, from: string, to: string, adjustments: DemandAdjustment[] = []) {
  const r = forecastDemand({ history: rows.map((p) => ({ start: p.intervalStart, value: p.value })), zone: 'UTC', from, to, asOf: clock.now().toISOString(), adjustments });
  const round = (v: number) => (Math.round(v * 100) / 100).toFixed(2);
  return { days: r.days.map((d) => [d.date, round(d.total)]), intervals: r.points.map((p) => [p.start, round(p.value)]) };
}
const served = (body: { days: Array<{ date: string; total: string }>; buckets: Array<{ start: string; value: string }> }) => ({
  days: body.days.map((d) => [d.date, d.total]),
  intervals: body.buckets.map((b) => [b.start, b.value]),
});
const week = (loc: string, bucket = '15m') => t.call('GET', `/forecasts?locationId=${loc}&driver=covers&from=2026-12-07&to=2026-12-13&bucket=${bucket}`);

describe('forecasts fitted in the background', () => {
  it('a burst of driver writes gives one fit once quiet; the stored fit is served, equal to the model, with fittedAt and weeks', async () => {
    clock.set('2026-12-04T12:00:00Z');
    const loc = await replicaLocation(t);
    const rows = await sendHistory(loc);
    expect(await fitRow(loc)).toMatchObject({ generation: 4, fitted_generation: 0, fitted_at: null });

    const before = await week(loc);
    expect(before.body).toMatchObject({ fit: 'on_demand', stale: false, staleSince: null, fittedAt: '2026-12-04T12:00:00.000Z', weeksOfHistory: 10 });

    // inside the quiet spell after the last batch: nothing is fitted yet
    await fitRound();
    expect((await fitRow(loc)).fitted_at).toBeNull();
    clock.advance(QUIET_MS);
    await fitRound();
    expect(await fitRow(loc)).toMatchObject({ generation: 4, fitted_generation: 4, fitted_at: new Date('2026-12-04T12:00:02Z'), trained_through: '2026-12-03' });
    // one fit for the four batches: another round fits nothing
    clock.advance(60_000);
    await fitRound();
    expect((await fitRow(loc)).fitted_at).toEqual(new Date('2026-12-04T12:00:02Z'));

    const f = await week(loc);
    expect(f.status).toBe(200);
    expect(f.body).toMatchObject({ fit: 'stored', stale: false, staleSince: null, fittedAt: '2026-12-04T12:00:02.000Z', weeksOfHistory: 10, trainedThrough: '2026-12-03', historySource: 'feed' });
    expect(f.body.buckets).toHaveLength(7 * 96);
    expect(served(f.body)).toEqual(modelDays(rows, '2026-12-07', '2026-12-13'));
    expect(f.body.buckets).toEqual(before.body.buckets);
    expect(f.body.days).toEqual(before.body.days);
    const day = await t.call('GET', `/forecasts?locationId=${loc}&driver=covers&from=2026-12-12&to=2026-12-12&bucket=1h`);
    expect(day.body).toMatchObject({ fit: 'stored', stale: false });
    expect(day.body.buckets).toHaveLength(24);
    expect(Number(day.body.days[0].total)).toBeGreaterThan(300);
    // a past start is a backtest: fitted for the request, on the history before it
    expect((await t.call('GET', `/forecasts?locationId=${loc}&driver=covers&from=2026-11-30&to=2026-12-06&bucket=1d`)).body).toMatchObject({ fit: 'on_demand', trainedThrough: '2026-11-29' });
  });

  it('each stored fit announces scheduling.forecast.fitted to insights: per day the hour sums of the model (two decimals) and their total, 63 days', async () => {
    clock.set('2026-12-04T12:00:00Z');
    const loc = await replicaLocation(t);
    const rows = await sendHistory(loc);
    clock.advance(QUIET_MS);
    await fitRound();
    const [fitted, ...more] = await outboxPayloads(t, 'scheduling', { type: 'scheduling.forecast.fitted', aggregateId: loc });
    expect(more).toHaveLength(0);
    const o = fitted.data.object;
    expect(o).toMatchObject({ locationId: loc, driver: 'covers', fittedAt: '2026-12-04T12:00:02.000Z', timezone: 'UTC', trainedThrough: '2026-12-03', from: '2026-12-04', to: '2027-02-04' });
    expect(o.days).toHaveLength(63);
    const model = forecastDemand({ history: rows.map((p) => ({ start: p.intervalStart, value: p.value })), zone: 'UTC', from: '2026-12-04', to: '2027-02-04', asOf: clock.now().toISOString() });
    const sat = o.days.find((d: { date: string }) => d.date === '2026-12-12');
    expect(sat.start).toBe('2026-12-12T00:00:00.000Z');
    expect(sat.hours).toHaveLength(24);
    const points = model.points.filter((p) => p.start.startsWith('2026-12-12'));
    const hour = (h: number) => (Math.round(points.slice(h * 4, h * 4 + 4).reduce((x, p) => x + p.value, 0) * 100) / 100).toFixed(2);
    expect(sat.hours).toEqual(Array.from({ length: 24 }, (_, h) => hour(h)));
    expect(Math.round(Number(sat.total) * 100)).toBe(sat.hours.reduce((x: number, h: string) => x + Math.round(Number(h) * 100), 0));
    // compact: 63 days of 24 hours
    expect(JSON.stringify(o).length).toBeLessThan(24_000);
    // a fit that finds nothing new announces nothing more
    clock.advance(60_000);
    await fitRound();
    expect(await outboxPayloads(t, 'scheduling', { type: 'scheduling.forecast.fitted', aggregateId: loc })).toHaveLength(1);
  });
  it('a driver write after the fit is not hidden: the stored fit is served marked stale until the worker fits again', async () => {
    clock.set('2026-12-04T12:00:00Z');
    const loc = await replicaLocation(t);
    const rows = await sendHistory(loc);
    clock.advance(QUIET_MS);
    await fitRound();
    clock.set('2026-12-04T13:00:00Z');
    // today's intervals (sales as they happen) are no training data before the day ends: the fit stays current
    expect((await send('fits', [{ externalId: `today-${loc}`, locationId: loc, driver: 'covers', intervalStart: '2026-12-04T12:00:00Z', value: 6 }])).body.created).toBe(1);
    expect((await fitRow(loc)).generation).toBe(4);
    expect((await week(loc)).body).toMatchObject({ fit: 'stored', stale: false });
    const late = { externalId: `late-${loc}`, locationId: loc, driver: 'covers', intervalStart: '2026-12-03T10:00:00Z', value: 40 };
    expect((await send('fits', [late])).body.created).toBe(1);
    expect((await week(loc)).body).toMatchObject({ fit: 'stored', stale: true, staleSince: '2026-12-04T13:00:00.000Z', fittedAt: '2026-12-04T12:00:02.000Z' });
    // a re-send of the same value changes nothing and asks for no fit
    expect((await send('fits', [late])).body.unchanged).toBe(1);
    expect((await fitRow(loc)).generation).toBe(5);

    await fitRound();
    expect((await week(loc)).body).toMatchObject({ stale: true });
    clock.advance(QUIET_MS);
    await fitRound();
    const f = await week(loc);
    expect(f.body).toMatchObject({ fit: 'stored', stale: false, staleSince: null, fittedAt: '2026-12-04T13:00:02.000Z' });
    expect(served(f.body)).toEqual(modelDays([...rows, late], '2026-12-07', '2026-12-13'));
  });

  it('an adjustment shows at once on the stored fit (applied when read, as the model applies it: no fit needed)', async () => {
    clock.set('2026-12-04T12:00:00Z');
    const loc = await replicaLocation(t);
    const rows = await sendHistory(loc);
    clock.advance(QUIET_MS);
    await fitRound();
    const adj = await t.call('POST', '/forecasts/adjustments', { body: { locationId: loc, driver: 'covers', date: '2026-12-08', percent: 50, reason: 'Concert nearby' } });
    expect(adj.status).toBe(200);
    await t.call('POST', '/forecasts/adjustments', { body: { locationId: loc, date: '2026-12-08', percent: -10 } });
    const f = await week(loc);
    expect(f.body).toMatchObject({ fit: 'stored', stale: false });
    expect(f.body.days[1]).toMatchObject({ date: '2026-12-08', adjustmentPercent: expect.closeTo(35, 9) });
    expect(served(f.body)).toEqual(
      modelDays(rows, '2026-12-07', '2026-12-13', [
        { date: '2026-12-08', percent: 50 },
        { date: '2026-12-08', percent: -10 },
      ]),
    );
    expect((await fitRow(loc)).fitted_generation).toBe(4);
  });

  it('a special-day change is fitted for the request until the worker has fitted it in', async () => {
    clock.set('2026-12-04T12:00:00Z');
    const loc = await replicaLocation(t);
    await sendHistory(loc);
    clock.advance(QUIET_MS);
    await fitRound();
    expect((await t.call('PUT', '/special-days/2026-12-09', { body: { kind: 'closed', name: 'Staff party' } })).status).toBe(201);
    const now = await week(loc, '1d');
    expect(now.body).toMatchObject({ fit: 'on_demand', stale: false });
    expect(now.body.days[2]).toMatchObject({ date: '2026-12-09', total: '0.00', special: { kind: 'closed', source: 'closed' } });
    clock.advance(QUIET_MS);
    await fitRound();
    const stored = await week(loc, '1d');
    expect(stored.body).toMatchObject({ fit: 'stored', stale: false });
    expect(stored.body.days).toEqual(now.body.days);
    expect((await t.call('DELETE', '/special-days/2026-12-09')).status).toBe(204);
    // a change event per change (issue 41 item 3), data.object the special day (on deletion, as it was)
    const dayEvents = (await outboxPayloads(t, 'scheduling', { aggregateId: 'company:2026-12-09' })).slice(-2);
    expect(dayEvents.map((e) => [e.type, e.locationId, e.data.object.kind])).toEqual([
      ['special_day.created', null, 'closed'],
      ['special_day.deleted', null, 'closed'],
    ]);
    expect((await week(loc, '1d')).body.fit).toBe('on_demand');
    clock.advance(QUIET_MS);
    await fitRound();
    expect((await week(loc, '1d')).body).toMatchObject({ fit: 'stored', days: expect.arrayContaining([expect.objectContaining({ date: '2026-12-09', special: null })]) });
  });

  it("a location's own special day makes only its fit unservable until refitted; the other locations' fits are still served", async () => {
    clock.set('2026-12-04T12:00:00Z');
    const [a, b] = [await replicaLocation(t), await replicaLocation(t)];
    await sendHistory(a);
    await sendHistory(b);
    clock.advance(QUIET_MS);
    await fitRound();
    expect((await t.call('PUT', `/special-days/2026-12-10?locationId=${a}`, { body: { kind: 'closed', name: 'Remodel' } })).status).toBe(201);
    const atA = await week(a, '1d');
    expect(atA.body).toMatchObject({ fit: 'on_demand' });
    expect(atA.body.days[3]).toMatchObject({ date: '2026-12-10', total: '0.00', special: { kind: 'closed', name: 'Remodel' } });
    const atB = await week(b, '1d');
    expect(atB.body).toMatchObject({ fit: 'stored', stale: false });
    expect(atB.body.days[3]).toMatchObject({ date: '2026-12-10', special: null });
    clock.advance(QUIET_MS);
    await fitRound();
    const storedA = await week(a, '1d');
    expect(storedA.body).toMatchObject({ fit: 'stored', stale: false });
    expect(storedA.body.days).toEqual(atA.body.days);
    expect((await t.call('DELETE', `/special-days/2026-12-10?locationId=${a}`)).status).toBe(204);
  });

  it('a new location (3 weeks) is fitted and stored like any other: the stored answer keeps its method, confidence and days of history', async () => {
    clock.set('2026-12-04T12:00:00Z');
    const loc = await replicaLocation(t);
    const rows = coversHistory(loc, '2026-11-13', 3);
    for (let i = 0; i < rows.length; i += 1000) expect((await send('fits', rows.slice(i, i + 1000))).status).toBe(202);
    const onDemand = await week(loc);
    expect(onDemand.status).toBe(200);
    expect(onDemand.body).toMatchObject({ fit: 'on_demand', daysOfHistory: 21 });
    expect(onDemand.body.method).not.toBe('full');
    expect(onDemand.body.confidence.level).not.toBe('high');
    clock.advance(QUIET_MS);
    await fitRound();
    const stored = await week(loc);
    expect(stored.body).toMatchObject({ fit: 'stored', stale: false, method: onDemand.body.method, confidence: onDemand.body.confidence, daysOfHistory: 21, similarLocations: onDemand.body.similarLocations });
    expect(served(stored.body)).toEqual(served(onDemand.body));
  });

  it('a series whose fit keeps throwing is logged once per failure and retried with backoff; the others are fitted in the same round', async () => {
    clock.set('2026-12-04T12:00:00Z');
    const bad = await replicaLocation(t);
    const good = await replicaLocation(t);
    await sendHistory(bad);
    const goodRows = await sendHistory(good);
    // a replica row no fit can work with (an unexpected error, not too little history); its changes are the oldest, so it comes first
    await sql(t, `update scheduling.locations set timezone = 'Mars/Olympus' where id = $1`, [bad]);
    const failures = async () =>
      (await sql<{ failures: number; failed_at: Date | null; retry_at: Date | null }>(t, `select failures, failed_at, retry_at from scheduling.forecast_fits where location_id = $1 and driver = 'covers'`, [bad]))[0];
    const warn = jest.spyOn(t.svc.runtime.log, 'warn');
    const warnedFor = () => warn.mock.calls.filter(([o]) => (o as { locationId?: string }).locationId === bad);
    try {
      clock.advance(QUIET_MS);
      await fitRound();
      expect(await failures()).toEqual({ failures: 1, failed_at: new Date('2026-12-04T12:00:02Z'), retry_at: new Date('2026-12-04T12:00:07Z') });
      expect(warnedFor()).toHaveLength(1);
      expect(warnedFor()[0][0]).toMatchObject({ locationId: bad, driver: 'covers', failures: 1, retryAt: '2026-12-04T12:00:07.000Z' });
      // the other series was fitted in the same round, and is served
      expect(await fitRow(good)).toMatchObject({ generation: 4, fitted_generation: 4, fitted_at: new Date('2026-12-04T12:00:02Z') });
      const f = await week(good);
      expect(f.body).toMatchObject({ fit: 'stored', stale: false });
      expect(served(f.body)).toEqual(modelDays(goodRows, '2026-12-07', '2026-12-13'));

      // inside its backoff it is not tried again
      clock.advance(1_000);
      await fitRound();
      expect((await failures()).failures).toBe(1);
      expect(warnedFor()).toHaveLength(1);
      // then it is, and the wait doubles
      clock.advance(4_000);
      await fitRound();
      expect(await failures()).toEqual({ failures: 2, failed_at: new Date('2026-12-04T12:00:07Z'), retry_at: new Date('2026-12-04T12:00:17Z') });
      expect(warnedFor()).toHaveLength(2);

      // mended: the retry fits it and clears the failures
      await sql(t, `update scheduling.locations set timezone = 'UTC' where id = $1`, [bad]);
      clock.advance(10_000);
      await fitRound();
      expect(await failures()).toEqual({ failures: 0, failed_at: null, retry_at: null });
      expect(await fitRow(bad)).toMatchObject({ generation: 4, fitted_generation: 4, fitted_at: new Date('2026-12-04T12:00:17Z'), trained_through: '2026-12-03' });
      expect(warnedFor()).toHaveLength(2);
    } finally {
      warn.mockRestore();
    }
  });

  it('net sales and transactions built from sales are read as the model is given them (fitted and stored, equal to the model)', async () => {
    clock.set('2026-12-04T12:00:00Z');
    const loc = await replicaLocation(t);
    const rows = coversHistory(loc, '2026-09-25', 10).map((r, i) => ({ ...r, netSales: (r.value * 12.25 + (i % 4) * 0.0125).toFixed(4), transactions: r.value + (i % 3) }));
    for (let i = 0; i < rows.length; i += 1000) {
      const part = rows.slice(i, i + 1000);
      await sql(t, `insert into scheduling.sales_intervals (location_id, interval_start, net_sales, transactions) select $1, unnest($2::timestamptz[]), unnest($3::numeric[]), unnest($4::int[])`, [
        loc,
        part.map((r) => r.intervalStart),
        part.map((r) => r.netSales),
        part.map((r) => r.transactions),
      ]);
    }
    for (const driver of ['net_sales', 'transactions']) {
      await sql(t, `insert into scheduling.forecast_fits (location_id, driver, generation, fitted_generation, edit_generation, changed_at) values ($1, $2, 1, 0, 0, now())`, [loc, driver]);
    }
    await fitRound();
    for (const [driver, value] of [['net_sales', (r: (typeof rows)[number]) => Number(r.netSales)], ['transactions', (r: (typeof rows)[number]) => r.transactions]] as const) {
      const f = await t.call('GET', `/forecasts?locationId=${loc}&driver=${driver}&from=2026-12-07&to=2026-12-13&bucket=15m`);
      expect(f.body).toMatchObject({ fit: 'stored', historySource: 'sales', weeksOfHistory: 10 });
      expect(served(f.body)).toEqual(modelDays(rows.map((r) => ({ intervalStart: r.intervalStart, value: value(r) })), '2026-12-07', '2026-12-13'));
    }
  });

  it('a restart keeps the stored fits; a new local day makes them due again', async () => {
    clock.set('2026-12-04T12:00:00Z');
    const loc = await replicaLocation(t);
    await sendHistory(loc);
    clock.advance(QUIET_MS);
    await fitRound();
    const before = await week(loc);

    // the same database, another process of the service
    const { keys, signer } = await testKeys();
    await t.svc.close();
    let again: RunningService | null = null;
    try {
      again = await startService(schedulingService, { databaseUrl: t.db.url, internalPublicKeyPem: keys.publicKeyPem, port: 0, host: '127.0.0.1', clock, workers: false, env: { LOG_LEVEL: 'silent' } });
      const call = async (path: string) => http(again!.url, 'GET', path, { headers: { 'x-internal-token': await signer.sign(person()) } });
      const after = await call(`/forecasts?locationId=${loc}&driver=covers&from=2026-12-07&to=2026-12-13&bucket=15m`);
      expect(after.body).toMatchObject({ fit: 'stored', stale: false, fittedAt: '2026-12-04T12:00:02.000Z' });
      expect(after.body.buckets).toEqual(before.body.buckets);

      // the next day: the fit is a day behind (served, marked stale) and due
      clock.set('2026-12-05T09:00:00Z');
      expect((await call(`/forecasts?locationId=${loc}&driver=covers&from=2026-12-07&to=2026-12-13&bucket=1d`)).body).toMatchObject({ fit: 'stored', stale: true, trainedThrough: '2026-12-03' });
      await again.worker('forecast-fit').runOnce();
      expect((await call(`/forecasts?locationId=${loc}&driver=covers&from=2026-12-07&to=2026-12-13&bucket=1d`)).body).toMatchObject({ fit: 'stored', stale: false, trainedThrough: '2026-12-04', fittedAt: '2026-12-05T09:00:00.000Z' });
    } finally {
      await again?.close();
    }
  });
});

describe('when a fit is due and a stored one answers (rules)', () => {
  const timing = { quietMs: 2_000, maxWaitMs: 60_000 };
  const at = (iso: string) => new Date(iso);
  it('waits for a quiet spell, but not longer than the longest wait while changes keep coming; again each new local day', () => {
    const stale = { generation: 3, fittedGeneration: 1, staleSince: at('2026-12-04T12:00:00Z'), changedAt: at('2026-12-04T12:00:59Z'), fittedOn: '2026-12-04' };
    expect(fitDueIn(stale, at('2026-12-04T12:00:59.500Z'), '2026-12-04', timing)).toBe(500);
    expect(fitDueIn(stale, at('2026-12-04T12:01:00Z'), '2026-12-04', timing)).toBe(0);
    expect(fitDueIn(stale, at('2026-12-04T12:01:01Z'), '2026-12-04', timing)).toBe(0);
    const current = { ...stale, fittedGeneration: 3, staleSince: null };
    expect(fitDueIn(current, at('2026-12-04T23:00:00Z'), '2026-12-04', timing)).toBeNull();
    expect(fitDueIn(current, at('2026-12-05T00:10:00Z'), '2026-12-05', timing)).toBe(0);
    expect(fitDueIn({ ...current, fittedOn: null }, at('2026-12-05T00:10:00Z'), '2026-12-05', timing)).toBeNull();
  });
  it('a stored fit answers the days it holds when trained through the day the request would be', () => {
    const stored = { from: '2026-12-04', to: '2027-02-04', trainedThrough: '2026-12-03' } as StoredForecast;
    expect(storedCoverage(stored, { from: '2026-12-07', to: '2026-12-13' }, '2026-12-04')).toBe('current');
    expect(storedCoverage(stored, { from: '2026-12-07', to: '2026-12-13' }, '2026-12-06')).toBe('behind');
    expect(storedCoverage(stored, { from: '2027-02-01', to: '2027-02-07' }, '2026-12-04')).toBeNull();
    expect(storedCoverage(stored, { from: '2026-12-03', to: '2026-12-04' }, '2026-12-04')).toBeNull();
  });
});

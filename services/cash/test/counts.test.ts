/**
 * Cash counts and over/short thresholds (counts/): drawer counts against a float and the drawer's cash
 * from real ingested sales, skims lowering the drawer's expectation, safe counts carrying the last safe
 * count, skims, drawer drops and deposits, thresholds (amount or percent, location row or company
 * default, "passes" meaning strictly above), denominations, closed days, reach and the events.
 */
import Decimal from 'decimal.js';
import { outboxPayloads, person, untilReplicated } from '@bop/test-support';
import { passes } from '../src/counts/thresholds';
import { ingestSales, pos, saleTransaction, startCashStack, unique, type CashStack } from './fixtures';

let s: CashStack;
let nyc: string;
let ber: string;

beforeAll(async () => {
  s = await startCashStack();
  nyc = s.locations['NYC-1'];
  ber = s.locations['BER-1'];
});
afterAll(async () => {
  await s?.stack.close();
});

const count = (body: Record<string, unknown>, as = pos) => s.cash.call('POST', '/cash/counts', { as, body });
const get = (path: string, as = pos) => s.cash.call('GET', path, { as });
const putThresholds = (thresholds: unknown[], opts: { as?: any; ifMatch?: string } = {}) =>
  s.cash.call('PUT', '/cash/over-short-thresholds', { as: opts.as ?? pos, body: { thresholds }, headers: opts.ifMatch ? { 'if-match': opts.ifMatch } : {} });
const eventsOf = async (type: string, id: string) => (await outboxPayloads(s.stack, 'cash', { type: type })).filter((e: any) => e.data.object.id === id);
const deposit = (locationId: string, amount: string, depositedAt: string) =>
  s.sql(
    `insert into cash.deposits (id, location_id, business_days, amount, deposited_at, recorded_by, created_at, updated_at)
     values (?, ?, '[]'::jsonb, ?, ?, '{"type":"system","id":null}'::jsonb, now(), now())`,
    [unique('dep'), locationId, amount, depositedAt],
  );

describe('drawer counts', () => {
  it('expects the float plus the drawer cash of the day (change given back, cash refunds out, card not counted); over/short = counted − expected', async () => {
    await ingestSales(s, [
      saleTransaction({ total: '18.50', tenders: [{ type: 'cash', amount: '20.00', change: '1.50' }], registerId: 'D1', occurredAt: '2026-11-10T15:00:00Z' }),
      saleTransaction({ total: '30.00', tenders: [{ type: 'card', amount: '10.00' }, { type: 'cash', amount: '20.00' }], registerId: 'D1', occurredAt: '2026-11-10T16:00:00Z' }),
      saleTransaction({ total: '-5.00', tenders: [{ type: 'cash', amount: '-5.00' }], registerId: 'D1', occurredAt: '2026-11-10T17:00:00Z' }),
      saleTransaction({ total: '25.00', tenders: [{ type: 'card', amount: '25.00' }], registerId: 'D1', occurredAt: '2026-11-10T18:00:00Z' }),
      // another drawer's cash is not this drawer's
      saleTransaction({ total: '9.00', tenders: [{ type: 'cash', amount: '9.00' }], registerId: 'D9', occurredAt: '2026-11-10T18:00:00Z' }),
    ]);
    // 01:00 in New York on the 11th is still the 10th's business day (cut-off 04:00)
    const r = await count({ locationId: nyc, type: 'drawer', drawerId: 'D1', countedAt: '2026-11-11T06:00:00Z', openingFloat: '100', amount: '131.00', note: 'end of day' });
    expect(r.status).toBe(201);
    expect(r.headers.get('location')).toBe(`/api/v1/cash/counts/${r.body.id}`);
    expect(r.body).toMatchObject({
      locationId: nyc,
      businessDay: '2026-11-10',
      type: 'drawer',
      drawerId: 'D1',
      countedAt: '2026-11-11T06:00:00.000Z',
      amount: '131.00',
      denominations: [],
      openingFloat: '100.00',
      expected: '133.50',
      overShort: '-2.50',
      threshold: null,
      exceeded: false,
      note: 'end of day',
      countedBy: { type: 'integration', id: 'int_test' },
    });
    expect(r.body.id).toMatch(/^ccn_/);
    expect(r.body.explanation).toBe('opening float 100.00 + cash tenders of drawer D1 on 2026-11-10, net of change, 33.50 − 0 skims before this count 0.00 = 133.50');

    const got = await get(`/cash/counts/${r.body.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(r.body);
    const [event] = await eventsOf('cash.count_completed', r.body.id);
    expect(event).toMatchObject({ type: 'cash.count_completed', locationId: nyc, actor: { type: 'integration', id: 'int_test' }, data: { object: got.body } });
    expect(await eventsOf('cash.over_short_exceeded', r.body.id)).toEqual([]);
  });

  it('without a float expects the drawer cash alone; an over is positive', async () => {
    const r = await count({ locationId: nyc, type: 'drawer', drawerId: 'D9', businessDay: '2026-11-10', countedAt: '2026-11-11T06:30:00Z', amount: '10.00' });
    expect(r.body).toMatchObject({ openingFloat: '0.00', expected: '9.00', overShort: '1.00' });
  });
});

describe('skims', () => {
  it('have no over/short of their own and lower the expectation of their drawer and day from then on', async () => {
    await ingestSales(s, [saleTransaction({ total: '200.00', tenders: [{ type: 'cash', amount: '200.00' }], registerId: 'D2', occurredAt: '2026-11-11T15:00:00Z' })]);
    const skim1 = await count({ locationId: nyc, type: 'skim', drawerId: 'D2', countedAt: '2026-11-11T16:00:00Z', amount: '50.00' });
    expect(skim1.status).toBe(201);
    expect(skim1.body).toMatchObject({ type: 'skim', businessDay: '2026-11-11', amount: '50.00', openingFloat: null, expected: null, overShort: null, threshold: null, exceeded: false, explanation: null });
    expect(await eventsOf('cash.count_completed', skim1.body.id)).toHaveLength(1);
    await count({ locationId: nyc, type: 'skim', drawerId: 'D2', countedAt: '2026-11-11T18:00:00Z', amount: '30.00' });
    // other drawers' and other days' skims do not count
    await count({ locationId: nyc, type: 'skim', drawerId: 'D3', countedAt: '2026-11-11T16:00:00Z', amount: '7.00' });
    await count({ locationId: nyc, type: 'skim', drawerId: 'D2', countedAt: '2026-11-12T16:00:00Z', amount: '11.00' });

    // a count between the two skims sees the first only
    const mid = await count({ locationId: nyc, type: 'drawer', drawerId: 'D2', countedAt: '2026-11-11T17:00:00Z', amount: '150.00' });
    expect(mid.body).toMatchObject({ expected: '150.00', overShort: '0.00' });
    expect(mid.body.explanation).toContain('− 1 skim before this count 50.00 = 150.00');
    const end = await count({ locationId: nyc, type: 'drawer', drawerId: 'D2', countedAt: '2026-11-11T20:00:00Z', openingFloat: '50.00', amount: '169.00' });
    expect(end.body).toMatchObject({ expected: '170.00', overShort: '-1.00' });
    expect(end.body.explanation).toBe('opening float 50.00 + cash tenders of drawer D2 on 2026-11-11, net of change, 200.00 − 2 skims before this count 80.00 = 170.00');
  });
});

describe('safe counts', () => {
  it('expect the last safe count + skims + drawer drops (counted − float) − deposits since, up to the count', async () => {
    await deposit(ber, '1000.00', '2026-11-05T07:00:00Z'); // before the first safe count: its business
    const first = await count({ locationId: ber, type: 'safe', countedAt: '2026-11-05T08:00:00Z', amount: '500.00' });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ businessDay: '2026-11-05', drawerId: null, openingFloat: null, expected: '-1000.00', overShort: '1500.00' });
    expect(first.body.explanation).toBe('no safe count before 0.00 + 0 skims so far 0.00 + 0 drawer counts so far, counted less opening float, 0.00 − 1 deposit so far 1000.00 = -1000.00');

    await count({ locationId: ber, type: 'skim', drawerId: 'B1', countedAt: '2026-11-05T10:00:00Z', amount: '40.00' });
    await count({ locationId: ber, type: 'skim', drawerId: 'B2', countedAt: '2026-11-05T11:00:00Z', amount: '60.00' });
    await count({ locationId: ber, type: 'drawer', drawerId: 'B1', countedAt: '2026-11-05T20:00:00Z', openingFloat: '100.00', amount: '350.00' });
    await count({ locationId: ber, type: 'drawer', drawerId: 'B2', countedAt: '2026-11-05T20:05:00Z', amount: '25.50' });
    await deposit(ber, '300.00', '2026-11-05T21:00:00Z');
    // after the count: not in it
    await count({ locationId: ber, type: 'skim', drawerId: 'B1', countedAt: '2026-11-06T09:00:00Z', amount: '15.00' });
    await deposit(ber, '200.00', '2026-11-06T12:00:00Z');
    // another location's: not in it
    await deposit(nyc, '77.00', '2026-11-05T21:00:00Z');

    const second = await count({ locationId: ber, type: 'safe', countedAt: '2026-11-06T08:00:00Z', amount: '570.00' });
    // 500 + (40 + 60) + (250 + 25.50) − 300 = 575.50
    expect(second.body).toMatchObject({ businessDay: '2026-11-06', expected: '575.50', overShort: '-5.50' });
    expect(second.body.explanation).toBe(
      `last safe count ${first.body.id} at 2026-11-05T08:00:00.000Z 500.00 + 2 skims since 100.00 + 2 drawer counts since, counted less opening float, 275.50 − 1 deposit since 300.00 = 575.50`,
    );

    // the next one starts from the second: the later skim in, the later deposit out
    const third = await count({ locationId: ber, type: 'safe', countedAt: '2026-11-06T13:00:00Z', amount: '385.00' });
    expect(third.body).toMatchObject({ expected: '385.00', overShort: '0.00' });
  });
});

describe('denominations', () => {
  it('sum to the amount (value × quantity each), and may come with the same amount', async () => {
    const denominations = [
      { value: '20.00', quantity: 5 },
      { value: '1', quantity: 3 },
      { value: '0.25', quantity: 4 },
    ];
    const r = await count({ locationId: nyc, type: 'drawer', drawerId: 'DN', countedAt: '2026-11-13T20:00:00Z', denominations });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      amount: '104.00',
      expected: '0.00',
      overShort: '104.00',
      denominations: [
        { value: '20.00', quantity: 5, amount: '100.00' },
        { value: '1.00', quantity: 3, amount: '3.00' },
        { value: '0.25', quantity: 4, amount: '1.00' },
      ],
    });
    const both = await count({ locationId: nyc, type: 'skim', drawerId: 'DN', countedAt: '2026-11-13T20:00:00Z', denominations, amount: '104' });
    expect(both.status).toBe(201);
    expect(both.body.amount).toBe('104.00');
  });

  it('refuse an amount other than their sum, and a value sent twice', async () => {
    const mismatch = await count({ locationId: nyc, type: 'skim', drawerId: 'DN', countedAt: '2026-11-13T20:00:00Z', amount: '105.00', denominations: [{ value: '20.00', quantity: 5 }, { value: '0.05', quantity: 3 }] });
    expect(mismatch.status).toBe(422);
    expect(mismatch.body.errors).toEqual([{ path: 'amount', message: 'The amount 105.00 is not the sum of the denominations, 100.15.' }]);
    const twice = await count({ locationId: nyc, type: 'skim', drawerId: 'DN', countedAt: '2026-11-13T20:00:00Z', denominations: [{ value: '20.00', quantity: 5 }, { value: '20', quantity: 1 }] });
    expect(twice.status).toBe(422);
    expect(twice.body.errors).toEqual([{ path: 'denominations[1].value', message: expect.stringContaining('denominations[0]') }]);
  });
});

describe('refusals', () => {
  it('answers bad input with field paths', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ locationId: nyc, type: 'drawer', amount: '1.00' }, 'drawerId'],
      [{ locationId: nyc, type: 'safe', drawerId: 'D1', amount: '1.00' }, 'drawerId'],
      [{ locationId: nyc, type: 'skim', drawerId: 'D1', amount: '1.00', openingFloat: '10.00' }, 'openingFloat'],
      [{ locationId: nyc, type: 'safe' }, 'amount'],
      [{ locationId: nyc, type: 'safe', amount: 12.5 }, 'amount'],
      [{ locationId: nyc, type: 'safe', amount: '-1.00' }, 'amount'],
      [{ locationId: nyc, type: 'till', amount: '1.00' }, 'type'],
      [{ locationId: nyc, type: 'safe', amount: '1.00', businessDay: '2026-13-01' }, 'businessDay'],
      [{ locationId: nyc, type: 'safe', amount: '1.00', denominations: [{ value: '1.00', quantity: -1 }] }, 'denominations[0].quantity'],
      [{ locationId: 'loc_nope', type: 'safe', amount: '1.00' }, 'locationId'],
      [{ locationId: nyc, type: 'safe', amount: '1.00', countedAt: new Date(Date.now() + 10 * 60_000).toISOString() }, 'countedAt'],
      // a business day that has not begun
      [{ locationId: nyc, type: 'safe', amount: '1.00', businessDay: '2099-01-01' }, 'businessDay'],
    ];
    for (const [body, path] of cases) {
      const r = await count(body);
      expect({ path, status: r.status, code: r.body.code }).toEqual({ path, status: 422, code: 'validation_error' });
      expect(r.body.errors.map((e: { path: string }) => e.path)).toContain(path);
    }
    // a little clock skew is fine
    const skew = await count({ locationId: nyc, type: 'safe', amount: '1.00', countedAt: new Date(Date.now() + 60_000).toISOString(), businessDay: '2026-11-01' });
    expect(skew.status).toBe(201);
  });

  it('an archived location takes no new counts', async () => {
    const loc = await s.organization.call('POST', '/locations', { body: { name: 'Closed shop', timezone: 'America/New_York', businessDayCutoff: '04:00', externalId: unique('OLD') } });
    expect((await s.organization.call('DELETE', `/locations/${loc.body.id}`)).status).toBe(200);
    await untilReplicated(s.stack, 'cash', [loc.body.id], { status: 'archived' });
    const r = await count({ locationId: loc.body.id, type: 'safe', amount: '1.00' });
    expect(r.status).toBe(422);
    expect(r.body.errors).toEqual([{ path: 'locationId', message: expect.stringContaining('archived') }]);
  });

  it('a person records counts and reads them only within reach', async () => {
    const berOnly = person({ 'cash.count': [{ type: 'locations', ids: [ber] }], 'cash.read': [{ type: 'locations', ids: [ber] }] });
    const refused = await count({ locationId: nyc, type: 'safe', amount: '1.00', businessDay: '2026-11-01' }, berOnly);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('out_of_reach');
    const mine = await count({ locationId: ber, type: 'safe', amount: '1.00', countedAt: '2026-11-19T10:00:00Z' }, berOnly);
    expect(mine.status).toBe(201);
    expect(mine.body.countedBy).toEqual({ type: 'user', id: 'usr_test' });
    const nycCount = (await get(`/cash/counts?locationId=${nyc}&limit=1`)).body.data[0];
    expect((await get(`/cash/counts/${nycCount.id}`, berOnly)).body.code).toBe('out_of_reach');
    expect((await get(`/cash/counts/${mine.body.id}`, berOnly)).status).toBe(200);
    expect((await get('/cash/counts/ccn_nope')).status).toBe(404);
    const noPermission = await count({ locationId: ber, type: 'safe', amount: '1.00' }, person({ 'cash.read': [{ type: 'everyone' }] }));
    expect(noPermission.status).toBe(403);
  });
});

describe('closed business days', () => {
  it('refuses a count of a closed day (409 period_locked); other days still take counts', async () => {
    const open = await count({ locationId: nyc, type: 'skim', drawerId: 'L1', countedAt: '2026-11-14T15:00:00Z', amount: '5.00' });
    expect(open.status).toBe(201);
    const [day] = await s.sql(`select status from cash.business_days where location_id = ? and business_day = '2026-11-14'`, [nyc]);
    expect(day.status).toBe('open');
    await s.sql(`update cash.business_days set status = 'closed', figures = '{}'::jsonb, closed_at = now() where location_id = ? and business_day = '2026-11-14'`, [nyc]);

    const byTime = await count({ locationId: nyc, type: 'drawer', drawerId: 'L1', countedAt: '2026-11-14T22:00:00Z', amount: '5.00' });
    expect(byTime.status).toBe(409);
    expect(byTime.body).toMatchObject({ code: 'period_locked', errors: [{ path: 'businessDay', message: 'Business day 2026-11-14 is closed.' }] });
    const byDay = await count({ locationId: nyc, type: 'safe', businessDay: '2026-11-14', amount: '5.00' });
    expect(byDay.status).toBe(409);
    expect((await s.sql(`select count(*)::int as n from cash.counts where location_id = ? and business_day = '2026-11-14'`, [nyc]))[0].n).toBe(1);
    // the same time at Berlin is another location's day
    expect((await count({ locationId: ber, type: 'skim', drawerId: 'L1', countedAt: '2026-11-14T22:00:00Z', amount: '5.00' })).status).toBe(201);
  });

  it('opens the day of a first count', async () => {
    const r = await count({ locationId: nyc, type: 'safe', businessDay: '2026-10-01', countedAt: '2026-10-01T15:00:00Z', amount: '5.00' });
    expect(r.status).toBe(201);
    expect(await s.sql(`select status from cash.business_days where location_id = ? and business_day = '2026-10-01'`, [nyc])).toEqual([{ status: 'open' }]);
  });
});

describe('over/short thresholds', () => {
  it('replaces the whole set: each location and type once, known locations, reach Everyone, If-Match, the same set changes nothing', async () => {
    const before = await get('/cash/over-short-thresholds');
    expect(before.body).toEqual({ thresholds: [], version: 0, updatedAt: null });

    const dup = await putThresholds([
      { locationId: nyc, countType: 'drawer', amount: '5.00' },
      { locationId: nyc, countType: 'drawer', percent: '2' },
    ]);
    expect(dup.status).toBe(422);
    expect(dup.body.errors).toEqual([{ path: 'thresholds[1]', message: expect.stringContaining('thresholds[0]') }]);
    const unknown = await putThresholds([{ locationId: 'loc_nope', countType: 'safe', amount: '5.00' }]);
    expect(unknown.body.errors).toEqual([{ path: 'thresholds[0].locationId', message: expect.stringContaining('loc_nope') }]);
    const both = await putThresholds([{ locationId: null, countType: 'safe', amount: '5.00', percent: '1' }]);
    expect(both.body.errors.map((e: { path: string }) => e.path)).toEqual(['thresholds[0].percent']);
    const neither = await putThresholds([{ locationId: null, countType: 'safe' }]);
    expect(neither.body.errors.map((e: { path: string }) => e.path)).toEqual(['thresholds[0].amount']);
    const tooMuch = await putThresholds([{ locationId: null, countType: 'safe', percent: '100.5' }]);
    expect(tooMuch.body.errors.map((e: { path: string }) => e.path)).toEqual(['thresholds[0].percent']);

    const limited = person({ 'cash.manage': [{ type: 'locations', ids: [nyc, ber] }] });
    const notEveryone = await putThresholds([{ locationId: nyc, countType: 'drawer', amount: '5.00' }], { as: limited });
    expect(notEveryone.status).toBe(403);
    expect(notEveryone.body.code).toBe('out_of_reach');

    const set = [
      { locationId: nyc, countType: 'drawer', amount: '5' },
      { locationId: null, countType: 'drawer', amount: '10.00' },
      { locationId: ber, countType: 'safe', percent: '2.50' },
      { locationId: null, countType: 'business_day', percent: '1', amount: null },
    ];
    const put = await putThresholds(set);
    expect(put.status).toBe(200);
    expect(put.headers.get('etag')).toBe('"1"');
    expect(put.body).toEqual({
      thresholds: [
        { locationId: null, countType: 'business_day', amount: null, percent: '1' },
        { locationId: null, countType: 'drawer', amount: '10.00', percent: null },
        { locationId: ber, countType: 'safe', amount: null, percent: '2.5' },
        { locationId: nyc, countType: 'drawer', amount: '5.00', percent: null },
      ].sort((a, b) => (a.locationId ?? '').localeCompare(b.locationId ?? '') || a.countType.localeCompare(b.countType)),
      version: 1,
      updatedAt: expect.any(String),
    });

    // the same set (another order, other spellings) changes nothing
    const again = await putThresholds([set[2], set[0], { ...set[1], amount: '10' }, set[3]], { ifMatch: '"1"' });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(put.body);

    const stale = await putThresholds([], { ifMatch: '"0"' });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('version_mismatch');
    expect((await get('/cash/over-short-thresholds')).body).toEqual(put.body);

    // reads: one location's rows plus the defaults; a person sees the rows of the locations they reach
    const ofNyc = await get(`/cash/over-short-thresholds?locationId=${nyc}`);
    expect(ofNyc.body.thresholds.map((t: any) => [t.locationId, t.countType])).toEqual(expect.arrayContaining([[null, 'business_day'], [null, 'drawer'], [nyc, 'drawer']]));
    expect(ofNyc.body.thresholds).toHaveLength(3);
    const berReader = person({ 'cash.read': [{ type: 'locations', ids: [ber] }] });
    const seen = await get('/cash/over-short-thresholds', berReader);
    expect(seen.body.thresholds.map((t: any) => t.locationId)).toEqual(expect.arrayContaining([null, null, ber]));
    expect(seen.body.thresholds).toHaveLength(3);
    expect((await get(`/cash/over-short-thresholds?locationId=${nyc}`, berReader)).body.code).toBe('out_of_reach');

    // an empty set clears them
    const cleared = await putThresholds([], { ifMatch: '"1"' });
    expect(cleared.body).toMatchObject({ thresholds: [], version: 2 });
  });

  it('passes only strictly above the amount or the percentage of the expected amount', () => {
    const d = (v: string) => new Decimal(v);
    expect(passes(d('5.00'), d('100'), { amount: '5.00', percent: null })).toBe(false);
    expect(passes(d('5.01'), d('100'), { amount: '5.00', percent: null })).toBe(true);
    expect(passes(d('-5.01'), d('100'), { amount: '5.00', percent: null })).toBe(true);
    expect(passes(d('2.84'), d('113.50'), { amount: null, percent: '2.5' })).toBe(true); // 2.8375
    expect(passes(d('2.83'), d('113.50'), { amount: null, percent: '2.5' })).toBe(false);
    expect(passes(d('-2.50'), d('-100'), { amount: null, percent: '2.5' })).toBe(false);
    expect(passes(d('0.01'), d('0'), { amount: null, percent: '2.5' })).toBe(true);
    expect(passes(d('1000'), d('0'), null)).toBe(false);
  });

  it('applies the location row, else the company default: at the limit not exceeded, a cent above → cash.over_short_exceeded', async () => {
    const put = await putThresholds([
      { locationId: null, countType: 'drawer', amount: '5.00' },
      { locationId: ber, countType: 'drawer', percent: '2.5' },
      { locationId: nyc, countType: 'safe', amount: '1.00' },
    ]);
    expect(put.status).toBe(200);
    const drawer = (locationId: string, amount: string, drawerId = unique('T')) =>
      count({ locationId, type: 'drawer', drawerId, countedAt: '2026-11-15T20:00:00Z', openingFloat: '200.00', amount });

    // NYC: no row of its own → the company default, 5.00
    const atLimit = await drawer(nyc, '205.00');
    expect(atLimit.body).toMatchObject({ expected: '200.00', overShort: '5.00', threshold: { amount: '5.00', percent: null }, exceeded: false });
    expect(await eventsOf('cash.over_short_exceeded', atLimit.body.id)).toEqual([]);
    const above = await drawer(nyc, '194.99');
    expect(above.body).toMatchObject({ overShort: '-5.01', exceeded: true });
    const got = await get(`/cash/counts/${above.body.id}`);
    const [exceeded] = await eventsOf('cash.over_short_exceeded', above.body.id);
    expect(exceeded).toMatchObject({ type: 'cash.over_short_exceeded', locationId: nyc, data: { object: got.body } });
    expect(await eventsOf('cash.count_completed', above.body.id)).toHaveLength(1);

    // Berlin: its own row, 2.5 % of 200.00 = 5.00
    const berAt = await drawer(ber, '195.00');
    expect(berAt.body).toMatchObject({ overShort: '-5.00', threshold: { amount: null, percent: '2.5' }, exceeded: false });
    const berAbove = await drawer(ber, '205.01');
    expect(berAbove.body).toMatchObject({ overShort: '5.01', exceeded: true });

    // safe counts: NYC's own safe row; Berlin has none (no default for safes)
    const safe = await count({ locationId: nyc, type: 'safe', countedAt: new Date().toISOString(), amount: '0.00' });
    expect(safe.body.threshold).toEqual({ amount: '1.00', percent: null });
    expect(safe.body.exceeded).toBe(new Decimal(safe.body.overShort).abs().greaterThan(1));
    const berSafe = await count({ locationId: ber, type: 'safe', countedAt: '2026-11-20T10:00:00Z', amount: '0.00' });
    expect(berSafe.body).toMatchObject({ threshold: null, exceeded: false });
    // a skim has none
    const skim = await count({ locationId: nyc, type: 'skim', drawerId: 'T', countedAt: '2026-11-15T20:00:00Z', amount: '999.00' });
    expect(skim.body).toMatchObject({ threshold: null, exceeded: false });
  });
});

describe('listing counts', () => {
  it('filters by location, type, drawer, business days and exceeded, within reach, in pages', async () => {
    const ids = (r: { body: { data: Array<{ id: string }> } }) => r.body.data.map((c) => c.id);
    const all = await get('/cash/counts?limit=100');
    expect(all.status).toBe(200);
    const rows: any[] = all.body.data;
    expect(rows.length).toBeGreaterThan(20);
    expect(rows.map((c) => c.id)).toEqual([...rows.map((c) => c.id)].sort());

    expect(ids(await get(`/cash/counts?locationId=${ber}&limit=100`))).toEqual(rows.filter((c) => c.locationId === ber).map((c) => c.id));
    expect(ids(await get('/cash/counts?type=skim&limit=100'))).toEqual(rows.filter((c) => c.type === 'skim').map((c) => c.id));
    expect(ids(await get('/cash/counts?drawerId=D2&limit=100'))).toEqual(rows.filter((c) => c.drawerId === 'D2').map((c) => c.id));
    expect(ids(await get('/cash/counts?from=2026-11-10&to=2026-11-11&limit=100'))).toEqual(rows.filter((c) => c.businessDay >= '2026-11-10' && c.businessDay <= '2026-11-11').map((c) => c.id));
    const exceeded = ids(await get('/cash/counts?exceeded=true&limit=100'));
    expect(exceeded).toEqual(rows.filter((c) => c.exceeded).map((c) => c.id));
    expect(exceeded.length).toBeGreaterThanOrEqual(2);
    expect(ids(await get('/cash/counts?exceeded=false&limit=100'))).toEqual(rows.filter((c) => !c.exceeded).map((c) => c.id));
    expect((await get('/cash/counts?type=till')).status).toBe(400);

    const first = await get('/cash/counts?limit=2');
    expect(first.body).toMatchObject({ hasMore: true, nextCursor: expect.any(String) });
    const second = await get(`/cash/counts?limit=2&cursor=${first.body.nextCursor}`);
    expect([...ids(first), ...ids(second)]).toEqual(rows.slice(0, 4).map((c) => c.id));

    const berReader = person({ 'cash.read': [{ type: 'locations', ids: [ber] }] });
    const seen = await get('/cash/counts?limit=100', berReader);
    expect(ids(seen)).toEqual(rows.filter((c) => c.locationId === ber).map((c) => c.id));
    expect((await get(`/cash/counts?locationId=${nyc}`, berReader)).body.code).toBe('out_of_reach');
  });
});

describe('counts at the same time', () => {
  it('are all recorded (none lost, none refused), and a later drawer count sees every skim', async () => {
    await putThresholds([]);
    const at = (minute: number) => `2026-11-16T20:0${minute}:00Z`;
    const results = await Promise.all([
      ...[1, 2, 3, 4, 5].map((m) => count({ locationId: nyc, type: 'skim', drawerId: 'C1', countedAt: at(m), amount: '10.00' })),
      count({ locationId: nyc, type: 'drawer', drawerId: 'C2', countedAt: at(6), amount: '10.00' }),
      count({ locationId: nyc, type: 'drawer', drawerId: 'C3', countedAt: at(6), amount: '10.00' }),
      count({ locationId: ber, type: 'drawer', drawerId: 'C1', countedAt: at(6), amount: '10.00' }),
    ]);
    expect(results.map((r) => r.status)).toEqual(Array(8).fill(201));
    const drawer = await count({ locationId: nyc, type: 'drawer', drawerId: 'C1', countedAt: at(7), openingFloat: '100.00', amount: '50.00' });
    expect(drawer.body).toMatchObject({ businessDay: '2026-11-16', expected: '50.00', overShort: '0.00' });
    expect((await s.sql(`select count(*)::int as n from cash.counts where business_day = '2026-11-16' and drawer_id like 'C%'`))[0].n).toBe(9);
    expect(await s.sql(`select status from cash.business_days where location_id = ? and business_day = '2026-11-16'`, [nyc])).toEqual([{ status: 'open' }]);
  });
});

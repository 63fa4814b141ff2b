/**
 * Settlements (settlements/): processor and platform payouts matched against the expected tenders of
 * the days they cover (from real sales ingested through the sales service, or tender totals);
 * `cash.settlement_mismatch` when they differ; re-matched when sales or tender totals arrive later —
 * except while a covered day is closed; listed with filters and reach.
 */
import { eventually, outboxPayloads, person } from '@bop/test-support';
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

const send = (settlements: unknown[], source = 'stripe-payouts') => s.cash.call('POST', '/cash/settlements', { as: pos, body: { source, settlements } });
const payout = (o: Record<string, unknown> = {}) => ({
  externalId: unique('po'),
  locationExternalId: 'NYC-1',
  kind: 'card',
  processor: 'stripe',
  gross: '100.00',
  fees: '2.50',
  net: '97.50',
  paidOn: '2026-11-25',
  businessDays: ['2026-11-02'],
  ...o,
});
const tenders = (list: unknown[]) => s.cash.call('POST', '/cash/tenders', { as: pos, body: { source: 'pos-tenders', tenders: list } });
const list = async (q: Record<string, string> = {}, as = pos) => s.cash.call('GET', `/cash/settlements?${new URLSearchParams(q)}`, { as });
const get = async (id: string) => (await list({ limit: '200' })).body.data.find((x: { id: string }) => x.id === id);
const mismatches = async (id: string) => (await outboxPayloads(s.stack, 'cash', { type: 'cash.settlement_mismatch' })).filter((e) => e.data.object.id === id);
const sale = (day: string, type: 'card' | 'digital_wallet' | 'cash' | 'gift_card', amount: string, time = '15:00:00') =>
  saleTransaction({ total: amount, tenders: [{ type, amount }], registerId: 'R1', occurredAt: `${day}T${time}Z` });
const platformSale = (day: string, platform: string, amount: string) =>
  saleTransaction({ total: amount, tenders: [{ type: 'platform', amount, platform }], registerId: 'R2', occurredAt: `${day}T16:00:00Z` });
const closeDay = (locationId: string, day: string) =>
  s.sql(
    `insert into cash.business_days (location_id, business_day, status, figures, closed_at, created_at, updated_at) values (?, ?::date, 'closed', '{}'::jsonb, now(), now(), now())
     on conflict (location_id, business_day) do update set status = 'closed', figures = '{}'::jsonb, closed_at = now()`,
    [locationId, day],
  );

describe('POST /cash/settlements', () => {
  it('flags a partial payout (short of the day’s tenders) as mismatched with a negative difference; re-sent in full it matches', async () => {
    const day = '2026-11-04';
    await ingestSales(s, [sale(day, 'card', '50.00'), sale(day, 'digital_wallet', '20.00', '16:00:00')]);
    const part = await send([payout({ businessDays: [day], gross: '60.00', fees: '1.20', net: '58.80' })]);
    const id = part.body.results[0].id;
    expect(await get(id)).toMatchObject({ expectedGross: '70.00', difference: '-10.00', matchStatus: 'mismatched' });
    expect(await mismatches(id)).toHaveLength(1);
    // the processor sends the full payout again under the same externalId: it now matches
    const full = await send([payout({ externalId: part.body.results[0].externalId, businessDays: [day], gross: '70.00', fees: '1.40', net: '68.60' })]);
    expect(full.body.results[0]).toMatchObject({ status: 'updated', id });
    expect(await get(id)).toMatchObject({ expectedGross: '70.00', difference: '0.00', matchStatus: 'matched' });
    expect(await mismatches(id)).toHaveLength(1);
  });

  it('matches a card payout to the card and digital-wallet tenders of its day', async () => {
    const day = '2026-11-02';
    await ingestSales(s, [sale(day, 'card', '40.00'), sale(day, 'digital_wallet', '10.00', '15:05:00'), sale(day, 'cash', '20.00', '15:10:00'), sale(day, 'gift_card', '5.00', '15:15:00')]);
    const p = payout({ businessDays: [day], gross: '50.00', fees: '1.50', net: '48.50', reference: 'po_123' });
    const r = await send([p]);
    expect(r.status).toBe(202);
    expect(r.body).toMatchObject({ received: 1, created: 1, rejected: 0, results: [{ status: 'created', id: expect.stringMatching(/^stl_/) }] });
    const id = r.body.results[0].id;
    expect(await get(id)).toEqual({
      id,
      source: 'stripe-payouts',
      externalId: p.externalId,
      locationId: nyc,
      kind: 'card',
      processor: 'stripe',
      platform: null,
      tenderTypes: ['card', 'digital_wallet'],
      gross: '50.00',
      fees: '1.50',
      net: '48.50',
      paidOn: '2026-11-25',
      businessDays: [day],
      reference: 'po_123',
      expectedGross: '50.00',
      difference: '0.00',
      matchStatus: 'matched',
      matchedAt: expect.any(String),
      lateReview: null,
      version: 1,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(await mismatches(id)).toEqual([]);
    // the tender types it names instead
    const withGift = await send([payout({ businessDays: [day], tenderTypes: ['gift_card', 'card'], gross: '45.00', fees: '0.00', net: '45.00' })]);
    expect(await get(withGift.body.results[0].id)).toMatchObject({ tenderTypes: ['card', 'gift_card'], expectedGross: '45.00', matchStatus: 'matched' });
  });

  it('flags a payout that differs from its tenders as mismatched, with cash.settlement_mismatch', async () => {
    const day = '2026-11-03';
    await ingestSales(s, [sale(day, 'card', '30.00')]);
    const r = await send([payout({ businessDays: [day], gross: '35.00', fees: '1.00', net: '34.00' })]);
    const id = r.body.results[0].id;
    const listed = await get(id);
    expect(listed).toMatchObject({ expectedGross: '30.00', difference: '5.00', matchStatus: 'mismatched' });
    const events = await mismatches(id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'cash.settlement_mismatch', locationId: nyc, actor: { type: 'integration', id: 'int_test' }, data: { object: listed } });
    // a payout without any tenders behind it: expected 0.00
    const none = await send([payout({ businessDays: ['2026-09-01'], gross: '10.00', fees: '0.00', net: '10.00' })]);
    expect(await get(none.body.results[0].id)).toMatchObject({ expectedGross: '0.00', difference: '10.00', matchStatus: 'mismatched' });
  });

  it('judges each record on its own: net must be gross − fees, and the kind rules', async () => {
    const r = await send([
      payout({ gross: '100.00', fees: '2.50', net: '97.49' }),
      payout({ kind: 'platform', tenderTypes: ['card'] }),
      payout({ kind: 'card', platform: 'ubereats' }),
      payout({ businessDays: ['2026-11-02', '2026-11-02'] }),
      payout({ gross: 100 }),
      payout({ fees: '-1.00', net: '101.00' }),
      payout({ locationExternalId: 'NOPE' }),
      payout({ locationId: nyc }),
      payout({ businessDays: [] }),
      payout({ kind: 'cash' }),
      payout({ tenderTypes: ['platform'] }),
      payout({ businessDays: ['2026-11-02', '2099-01-01'] }),
    ]);
    expect(r.body).toMatchObject({ received: 12, rejected: 12, created: 0 });
    expect(r.body.results.map((x: { errors: Array<{ path: string }> }) => x.errors.map((e) => e.path))).toEqual([
      ['net'],
      ['tenderTypes'],
      ['platform'],
      ['businessDays[1]'],
      ['gross'],
      ['fees'],
      ['locationExternalId'],
      ['locationId'],
      ['businessDays'],
      ['kind'],
      ['tenderTypes[0]'],
      ['businessDays[1]'],
    ]);
    expect(r.body.results[0].errors[0].message).toBe('Must equal gross − fees (100.00 − 2.50 = 97.50).');
    expect(r.body.results[4].errors[0].message).toBe('send decimals as strings');
  });

  it('matches a platform payout to that platform’s tenders only (names compared case-insensitively)', async () => {
    const day = '2026-11-04';
    await ingestSales(s, [platformSale(day, 'ubereats', '12.00'), platformSale(day, 'doordash', '30.00'), sale(day, 'card', '10.00')]);
    const r = await send([
      payout({ kind: 'platform', processor: 'UberEats', businessDays: [day], gross: '12.00', fees: '3.60', net: '8.40' }),
      payout({ kind: 'platform', processor: 'marqeta', platform: 'DoorDash', businessDays: [day], gross: '30.00', fees: '0.00', net: '30.00' }),
    ]);
    expect(r.body.created).toBe(2);
    expect(await get(r.body.results[0].id)).toMatchObject({ platform: 'UberEats', tenderTypes: ['platform'], expectedGross: '12.00', matchStatus: 'matched' });
    expect(await get(r.body.results[1].id)).toMatchObject({ processor: 'marqeta', platform: 'DoorDash', expectedGross: '30.00', matchStatus: 'matched' });
  });

  it('matches a card payout covering two days against both', async () => {
    await ingestSales(s, [sale('2026-11-05', 'card', '10.00'), sale('2026-11-06', 'card', '15.00')]);
    const r = await send([payout({ businessDays: ['2026-11-06', '2026-11-05'], gross: '25.00', fees: '0.75', net: '24.25' })]);
    expect(await get(r.body.results[0].id)).toMatchObject({ businessDays: ['2026-11-05', '2026-11-06'], expectedGross: '25.00', difference: '0.00', matchStatus: 'matched' });
  });

  it('answers unchanged, updated (re-matched) and duplicate', async () => {
    const day = '2026-11-07';
    await ingestSales(s, [sale(day, 'card', '20.00')]);
    const p = payout({ businessDays: [day], gross: '20.00', fees: '0.00', net: '20.00' });
    const id = (await send([p])).body.results[0].id;
    expect((await send([{ ...p, gross: '20', net: '20.0', fees: '0' }])).body).toMatchObject({ unchanged: 1, results: [{ status: 'unchanged', id }] });
    const changed = await send([{ ...p, gross: '21.00', net: '21.00' }, { ...p, gross: '22.00', net: '22.00' }]);
    expect(changed.body).toMatchObject({ updated: 1, duplicate: 1, results: [{ status: 'updated', id }, { status: 'duplicate' }] });
    expect(await get(id)).toMatchObject({ gross: '21.00', expectedGross: '20.00', difference: '1.00', matchStatus: 'mismatched', version: 2 });
    expect(await mismatches(id)).toHaveLength(1);
  });

  it('stores a payout covering a closed day flagged for review, with a warning, matched as usual', async () => {
    const day = '2026-11-08';
    await ingestSales(s, [sale(day, 'card', '18.00')]);
    await closeDay(nyc, day);
    const late = payout({ businessDays: [day, '2026-11-09'], gross: '18.00', fees: '0.00', net: '18.00' });
    const r = await send([late]);
    expect(r.body.results[0]).toMatchObject({ status: 'created', warnings: [{ path: 'businessDays', message: expect.stringContaining(`Business day ${day} is closed in cash`) }] });
    expect(await get(r.body.results[0].id)).toMatchObject({ lateReview: { status: 'pending', flaggedAt: expect.any(String) }, expectedGross: '18.00', matchStatus: 'matched' });
    // an open day's payout carries no flag; re-sent away from the closed day, it is flagged again (the closed day's figures named it)
    const open = payout({ businessDays: ['2026-11-09'], gross: '0.00', fees: '0.00', net: '0.00' });
    const o = await send([open]);
    expect(o.body.results[0].warnings).toBeUndefined();
    expect(await get(o.body.results[0].id)).toMatchObject({ lateReview: null, matchStatus: 'matched' });
    const resent = await send([{ ...late, businessDays: ['2026-11-09'] }]);
    expect(resent.body.results[0]).toMatchObject({ status: 'updated', id: r.body.results[0].id, warnings: [{ path: 'businessDays', message: expect.stringContaining(day) }] });
  });
});

describe('re-matching', () => {
  it('re-matches a stored payout when a later tender total changes its day, raising the event', async () => {
    const day = '2026-11-10';
    await ingestSales(s, [sale(day, 'card', '20.00')]);
    const id = (await send([payout({ businessDays: [day], gross: '20.00', fees: '0.60', net: '19.40' })])).body.results[0].id;
    expect(await get(id)).toMatchObject({ matchStatus: 'matched', version: 1 });
    const total = { externalId: unique('tt'), locationId: nyc, businessDay: day, drawerId: 'R1', tenderType: 'card', amount: '18.00' };
    expect((await tenders([total])).body.created).toBe(1);
    const after = await get(id);
    expect(after).toMatchObject({ expectedGross: '18.00', difference: '2.00', matchStatus: 'mismatched', version: 2 });
    const events = await mismatches(id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ locationId: nyc, actor: { type: 'integration' }, data: { object: after } });
    // corrected: matched again, no event
    await tenders([{ ...total, amount: '20.00' }]);
    expect(await get(id)).toMatchObject({ expectedGross: '20.00', difference: '0.00', matchStatus: 'matched', version: 3 });
    expect(await mismatches(id)).toHaveLength(1);
    // a total of another tender type leaves it as it is
    await tenders([{ ...total, externalId: unique('tt'), tenderType: 'cash', amount: '99.00' }]);
    expect(await get(id)).toMatchObject({ version: 3 });
  });

  it('re-matches a stored payout when a later sale arrives, raising the event when it turns (or stays) mismatched with another difference', async () => {
    const day = '2026-11-11';
    await ingestSales(s, [sale(day, 'card', '20.00')]);
    const id = (await send([payout({ businessDays: [day], gross: '30.00', fees: '0.00', net: '30.00' })])).body.results[0].id;
    expect(await get(id)).toMatchObject({ difference: '10.00', matchStatus: 'mismatched' });
    expect(await mismatches(id)).toHaveLength(1);
    await ingestSales(s, [sale(day, 'card', '10.00', '16:00:00')]);
    await eventually(async () => (await get(id)).matchStatus === 'matched');
    expect(await get(id)).toMatchObject({ expectedGross: '30.00', difference: '0.00', version: 2 });
    expect(await mismatches(id)).toHaveLength(1);
    await ingestSales(s, [sale(day, 'card', '5.00', '17:00:00')]);
    await eventually(async () => (await get(id)).matchStatus === 'mismatched');
    const events = await mismatches(id);
    expect(events).toHaveLength(2);
    expect(events[1]).toMatchObject({ actor: { type: 'system' }, data: { object: { difference: '-5.00', expectedGross: '35.00', version: 3 } } });
    // still mismatched, by another amount: raised again
    await ingestSales(s, [sale(day, 'card', '2.00', '18:00:00')]);
    await eventually(async () => (await get(id)).difference === '-7.00');
    expect((await mismatches(id)).map((e) => e.data.object.difference)).toEqual(['10.00', '-5.00', '-7.00']);
  });

  it('re-matches the payouts of the day a re-sent tender total leaves', async () => {
    const total = { externalId: unique('tt'), locationId: nyc, businessDay: '2026-11-16', tenderType: 'card', amount: '15.00' };
    await tenders([total]);
    const id = (await send([payout({ businessDays: ['2026-11-16'], gross: '15.00', fees: '0.00', net: '15.00' })])).body.results[0].id;
    expect(await get(id)).toMatchObject({ matchStatus: 'matched' });
    expect((await tenders([{ ...total, businessDay: '2026-11-17' }])).body.updated).toBe(1);
    expect(await get(id)).toMatchObject({ expectedGross: '0.00', difference: '15.00', matchStatus: 'mismatched', version: 2 });
    expect(await mismatches(id)).toHaveLength(1);
  });

  it('leaves a payout alone while one of its days is closed', async () => {
    await ingestSales(s, [sale('2026-11-13', 'card', '10.00'), sale('2026-11-14', 'card', '10.00')]);
    const id = (await send([payout({ businessDays: ['2026-11-13', '2026-11-14'], gross: '20.00', fees: '0.00', net: '20.00' })])).body.results[0].id;
    await closeDay(nyc, '2026-11-14');
    await tenders([{ externalId: unique('tt'), locationId: nyc, businessDay: '2026-11-13', tenderType: 'card', amount: '12.00' }]);
    await ingestSales(s, [sale('2026-11-13', 'card', '3.00', '18:00:00')]);
    expect(await get(id)).toMatchObject({ expectedGross: '20.00', matchStatus: 'matched', version: 1 });
    expect(await mismatches(id)).toEqual([]);
    // reopened (the reopen calls the re-match): the payout catches up
    await s.sql(`update cash.business_days set status = 'open', figures = null where location_id = ? and business_day = '2026-11-14'`, [nyc]);
    await tenders([{ externalId: unique('tt'), locationId: nyc, businessDay: '2026-11-14', tenderType: 'digital_wallet', amount: '1.00' }]);
    expect(await get(id)).toMatchObject({ expectedGross: '23.00', difference: '-3.00', matchStatus: 'mismatched', version: 2 });
    expect(await mismatches(id)).toHaveLength(1);
  });
});

describe('GET /cash/settlements', () => {
  it('filters by location, payout date and match status, within the caller’s reach, in pages', async () => {
    const source = unique('feed');
    const r = await send(
      [
        payout({ locationExternalId: 'BER-1', paidOn: '2026-12-01', businessDays: ['2026-08-01'], gross: '0.00', fees: '0.00', net: '0.00' }),
        payout({ locationExternalId: 'BER-1', paidOn: '2026-12-05', businessDays: ['2026-08-02'] }),
        payout({ paidOn: '2026-12-03', businessDays: ['2026-08-03'] }),
      ],
      source,
    );
    const [berMatched, berMismatched, nycOne] = r.body.results.map((x: { id: string }) => x.id);
    const ids = (res: { body: { data: Array<{ id: string }> } }) => res.body.data.map((x) => x.id).filter((id) => [berMatched, berMismatched, nycOne].includes(id));
    expect(ids(await list({ locationId: ber }))).toEqual([berMatched, berMismatched]);
    expect(ids(await list({ locationId: ber, from: '2026-12-02' }))).toEqual([berMismatched]);
    expect(ids(await list({ locationId: ber, matchStatus: 'matched' }))).toEqual([berMatched]);
    expect(ids(await list({ from: '2026-12-01', matchStatus: 'mismatched' }))).toEqual([berMismatched, nycOne]);
    expect((await list({ locationId: ber })).body.data.every((x: { locationId: string }) => x.locationId === ber)).toBe(true);

    // a person reaching Berlin only sees Berlin's, and is refused New York's
    const berliner = person({ 'cash.read': [{ type: 'locations', ids: [ber] }] });
    const seen = await list({ limit: '200' }, berliner);
    expect(seen.status).toBe(200);
    expect(seen.body.data.length).toBeGreaterThan(0);
    expect(seen.body.data.every((x: { locationId: string }) => x.locationId === ber)).toBe(true);
    const refused = await list({ locationId: nyc }, berliner);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('out_of_reach');

    // pages of one, in id order, without gaps
    const first = await list({ locationId: ber, from: '2026-12-01', limit: '1' });
    expect(first.body).toMatchObject({ hasMore: true, data: [{ id: berMatched }] });
    const second = await list({ locationId: ber, from: '2026-12-01', limit: '1', cursor: first.body.nextCursor });
    expect(second.body).toMatchObject({ hasMore: false, nextCursor: null, data: [{ id: berMismatched }] });
    expect((await list({ cursor: 'nonsense' })).status).toBe(400);
  });
});

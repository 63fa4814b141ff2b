/**
 * Tender totals (tenders/): `POST /cash/tenders` validated per record, stored on (source, externalId),
 * the business day given or assigned from `closedAt` by the location's cut-off, a closed day's totals
 * flagged for review — and, once sent, they are the expected amounts of their day and tender type
 * instead of what sales brought.
 */
import { outboxPayloads, untilReplicated } from '@bop/test-support';
import { expectedAmounts } from '../src/expected/store';
import { ingestSales, pos, saleTransaction, startCashStack, unique, type CashStack } from './fixtures';

let s: CashStack;
let nyc: string;
let ber: string;

beforeAll(async () => {
  s = await startCashStack({ API_MAX_BATCH_SIZE: '20' });
  nyc = s.locations['NYC-1'];
  ber = s.locations['BER-1'];
});
afterAll(async () => {
  await s?.stack.close();
});

const send = (tenders: unknown[], source = 'pos-tenders') => s.cash.call('POST', '/cash/tenders', { as: pos, body: { source, tenders } });
const tender = (o: Record<string, unknown> = {}) => ({ externalId: unique('tt'), locationExternalId: 'NYC-1', businessDay: '2026-11-02', tenderType: 'cash', amount: '10.00', ...o });
const expected = async (locationId: string, day: string) => (await s.cash.svc.runtime.read((w) => expectedAmounts(w, locationId, [day]))).get(day);
const stored = async (id: string) => (await s.sql(`select *, to_char(business_day, 'YYYY-MM-DD') as day from cash.tender_totals where id = ?`, [id]))[0];
/** Closes a day the way the close does, as far as the lock is concerned (the close endpoint is another area's). */
const closeDay = (locationId: string, day: string) =>
  s.sql(
    `insert into cash.business_days (location_id, business_day, status, figures, closed_at, created_at, updated_at) values (?, ?::date, 'closed', '{}'::jsonb, now(), now(), now())
     on conflict (location_id, business_day) do update set status = 'closed', figures = '{}'::jsonb, closed_at = now()`,
    [locationId, day],
  );

describe('POST /cash/tenders', () => {
  it('stores totals that replace the sales-derived amounts of their day and tender type (and only those)', async () => {
    const day = '2026-11-03';
    await ingestSales(s, [
      saleTransaction({ total: '30.00', tenders: [{ type: 'card', amount: '30.00' }], registerId: 'R1', occurredAt: `${day}T15:00:00Z` }),
      saleTransaction({ total: '20.00', tenders: [{ type: 'cash', amount: '20.00' }], registerId: 'R1', occurredAt: `${day}T15:10:00Z` }),
      saleTransaction({ total: '12.00', tenders: [{ type: 'platform', amount: '12.00', platform: 'ubereats' }], registerId: 'R2', occurredAt: `${day}T15:20:00Z` }),
      // the next day's card sales stay as they are
      saleTransaction({ total: '9.00', tenders: [{ type: 'card', amount: '9.00' }], registerId: 'R1', occurredAt: '2026-11-04T15:00:00Z' }),
    ]);
    const r = await send([
      tender({ businessDay: day, drawerId: 'R1', tenderType: 'card', amount: '25.00', transactionCount: 3, shiftId: 'S1' }),
      tender({ businessDay: day, drawerId: 'R2', tenderType: 'card', amount: '4.50' }),
    ]);
    expect(r.status).toBe(202);
    expect(r.body).toMatchObject({ received: 2, created: 2, updated: 0, unchanged: 0, duplicate: 0, rejected: 0 });
    expect(r.body.results[0]).toMatchObject({ index: 0, status: 'created', id: expect.stringMatching(/^ctt_/) });
    expect(r.body.results[0].warnings).toBeUndefined();
    expect(await stored(r.body.results[0].id)).toMatchObject({
      source: 'pos-tenders',
      location_id: nyc,
      day,
      drawer_id: 'R1',
      shift_id: 'S1',
      tender_type: 'card',
      platform: null,
      amount: '25.00',
      transaction_count: 3,
      late_review: null,
      version: 1,
    });
    expect(await expected(nyc, day)).toEqual([
      { drawerId: 'R1', tenderType: 'card', platform: null, amount: '25.00', source: 'tender_totals' },
      { drawerId: 'R1', tenderType: 'cash', platform: null, amount: '20.00', source: 'sales' },
      { drawerId: 'R2', tenderType: 'card', platform: null, amount: '4.50', source: 'tender_totals' },
      { drawerId: 'R2', tenderType: 'platform', platform: 'ubereats', amount: '12.00', source: 'sales' },
    ]);
    expect(await expected(nyc, '2026-11-04')).toEqual([{ drawerId: 'R1', tenderType: 'card', platform: null, amount: '9.00', source: 'sales' }]);
    // a platform total replaces that platform's sales only
    await send([tender({ businessDay: day, drawerId: 'R2', tenderType: 'platform', platform: 'doordash', amount: '7.00' })]);
    expect((await expected(nyc, day))?.filter((a) => a.tenderType === 'platform')).toEqual([
      { drawerId: 'R2', tenderType: 'platform', platform: 'doordash', amount: '7.00', source: 'tender_totals' },
      { drawerId: 'R2', tenderType: 'platform', platform: 'ubereats', amount: '12.00', source: 'sales' },
    ]);
  });

  it('opens the business day of a total', async () => {
    const r = await send([tender({ locationExternalId: 'BER-1', businessDay: '2026-10-30' })]);
    expect(r.body.created).toBe(1);
    expect(await s.sql(`select status from cash.business_days where location_id = ? and business_day = '2026-10-30'`, [ber])).toEqual([{ status: 'open' }]);
  });

  it('judges each record on its own, with field paths', async () => {
    const r = await send([
      tender({ locationExternalId: undefined, locationId: 'loc_nope' }),
      tender({ locationExternalId: 'NOPE-9' }),
      tender({ locationExternalId: undefined }),
      tender({ locationId: nyc }),
      tender({ closedAt: '2026-11-02T15:00:00Z' }),
      tender({ businessDay: undefined }),
      tender({ tenderType: 'platform' }),
      tender({ tenderType: 'card', platform: 'ubereats' }),
      tender({ amount: '12.345' }),
      tender({ amount: 12.5 }),
      tender({ tenderType: 'cheque' }),
      tender({ externalId: undefined }),
      tender({ businessDay: '2026-13-01' }),
      tender({ transactionCount: -1 }),
      tender({ surprise: true }),
      tender({ businessDay: '2099-01-01' }),
      tender({ businessDay: undefined, closedAt: '2099-01-01T12:00:00Z' }),
      tender({ amount: '-4.00', tenderType: 'cash' }),
    ]);
    expect(r.status).toBe(202);
    expect(r.body).toMatchObject({ received: 18, created: 1, rejected: 17 });
    const paths = r.body.results.map((x: { errors?: Array<{ path: string }> }) => x.errors?.map((e) => e.path));
    expect(paths).toEqual([
      ['locationId'],
      ['locationExternalId'],
      ['locationId'],
      ['locationId'],
      ['businessDay'],
      ['businessDay'],
      ['platform'],
      ['platform'],
      ['amount'],
      ['amount'],
      ['tenderType'],
      ['externalId'],
      ['businessDay'],
      ['transactionCount'],
      ['surprise'],
      ['businessDay'],
      ['closedAt'],
      undefined,
    ]);
    expect(r.body.results[0].errors[0].message).toBe('No location loc_nope.');
    expect(r.body.results[9].errors[0].message).toBe('send decimals as strings');
    expect(r.body.results[15].errors[0].message).toContain('has not begun');
    expect(r.body.results[17]).toMatchObject({ status: 'created' });
    // the batch event names the refused records
    const batch = (await outboxPayloads(s.stack, 'cash', { type: 'cash.batch.completed' })).find((e) => e.data.object.batchId === r.body.batchId);
    expect(batch.data.object).toMatchObject({ source: 'pos-tenders', endpoint: 'POST /cash/tenders', received: 18, created: 1, rejected: 17 });
    expect(batch.data.object.rejectedRecords).toHaveLength(17);
  });

  it('refuses a batch over API_MAX_BATCH_SIZE (413) and a body without records (422)', async () => {
    const big = await send(Array.from({ length: 21 }, () => tender()));
    expect(big.status).toBe(413);
    expect(big.body).toMatchObject({ code: 'payload_too_large', errors: [{ path: 'tenders' }] });
    const none = await send([]);
    expect(none.status).toBe(422);
    expect(none.body.errors).toEqual([expect.objectContaining({ path: 'tenders' })]);
  });

  it('answers unchanged, updated and duplicate', async () => {
    const t = tender({ businessDay: '2026-11-06', tenderType: 'card', amount: '10' });
    const first = await send([t]);
    const id = first.body.results[0].id;
    // the same content (10 is 10.00) is unchanged
    const again = await send([{ ...t, amount: '10.00' }]);
    expect(again.body).toMatchObject({ unchanged: 1, results: [{ status: 'unchanged', id }] });
    const changed = await send([{ ...t, amount: '11.00' }]);
    expect(changed.body).toMatchObject({ updated: 1, results: [{ status: 'updated', id }] });
    expect(await stored(id)).toMatchObject({ amount: '11.00', version: 2 });
    // the same externalId twice in a batch: the first counts, the later one is a duplicate
    const twice = await send([{ ...t, amount: '12.00' }, { ...t, amount: '13.00' }]);
    expect(twice.body).toMatchObject({ updated: 1, duplicate: 1, results: [{ status: 'updated', id }, { status: 'duplicate' }] });
    expect(await stored(id)).toMatchObject({ amount: '12.00', version: 3 });
    // another source is another record
    const other = await send([t], 'back-office');
    expect(other.body.results[0]).toMatchObject({ status: 'created' });
    expect(other.body.results[0].id).not.toBe(id);
  });

  it('assigns the business day from closedAt by the location’s time zone and cut-off', async () => {
    const r = await send([
      // 03:30 in New York (cut-off 04:00): still the 11th
      tender({ businessDay: undefined, closedAt: '2026-11-12T08:30:00Z' }),
      // 04:30 in New York: the 12th
      tender({ businessDay: undefined, closedAt: '2026-11-12T09:30:00Z' }),
      // 04:30 in Berlin (cut-off 05:00), sent with an offset: the 11th
      tender({ businessDay: undefined, locationExternalId: 'BER-1', closedAt: '2026-11-12T04:30:00+01:00' }),
    ]);
    expect(r.body.created).toBe(3);
    expect((await Promise.all(r.body.results.map((x: { id: string }) => stored(x.id)))).map((row) => row.day)).toEqual(['2026-11-11', '2026-11-12', '2026-11-11']);
  });

  it('stores a total for a closed day flagged for review, with a warning (also when re-sent to another day)', async () => {
    await closeDay(nyc, '2026-10-20');
    const late = tender({ businessDay: '2026-10-20', amount: '5.00' });
    const r = await send([late, tender({ businessDay: '2026-10-21' })]);
    expect(r.body).toMatchObject({ created: 2 });
    expect(r.body.results[0].warnings).toEqual([{ path: 'businessDay', message: expect.stringContaining('Business day 2026-10-20 is closed in cash') }]);
    expect(r.body.results[1].warnings).toBeUndefined();
    expect((await stored(r.body.results[0].id)).late_review).toEqual({ status: 'pending', flaggedAt: expect.any(String) });
    expect((await stored(r.body.results[1].id)).late_review).toBeNull();
    // the day stays closed
    expect(await s.sql(`select status from cash.business_days where location_id = ? and business_day = '2026-10-20'`, [nyc])).toEqual([{ status: 'closed' }]);
    // moved to an open day: the closed day it leaves changes, so it is flagged again
    const moved = await send([{ ...late, businessDay: '2026-10-22' }]);
    expect(moved.body.results[0]).toMatchObject({ status: 'updated', warnings: [{ path: 'businessDay', message: expect.stringContaining('2026-10-20') }] });
    // unchanged: no warning
    const same = await send([{ ...late, businessDay: '2026-10-22' }]);
    expect(same.body.results[0]).toEqual({ index: 0, externalId: late.externalId, status: 'unchanged', id: r.body.results[0].id });
  });

  it('accepts a total for an archived location with a warning', async () => {
    const loc = await s.organization.call('POST', '/locations', { body: { name: 'Old', timezone: 'America/New_York', businessDayCutoff: '04:00', externalId: 'OLD-1' } });
    await untilReplicated(s.stack, 'cash', [loc.body.id]);
    expect((await s.organization.call('DELETE', `/locations/${loc.body.id}`)).status).toBeLessThan(300);
    await untilReplicated(s.stack, 'cash', [loc.body.id], { status: 'archived' });
    const r = await send([tender({ locationExternalId: 'OLD-1' })]);
    expect(r.body.results[0]).toMatchObject({ status: 'created', warnings: [{ path: 'locationExternalId', message: `Location ${loc.body.id} is archived.` }] });
  });
});

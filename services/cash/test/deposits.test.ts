/**
 * Deposits and the bank (deposits/): a deposit is recorded for open business days of a location in
 * reach, and matched with the bank's credits whichever arrives second — by reference first, else by
 * the one credit of exactly its amount within DEPOSIT_MATCH_WINDOW_DAYS; never guessed.
 * Each test uses its own dates and amounts, so pairs of one test never meet another's.
 */
import { businessDayOf } from '@bop/shared';
import { outboxPayloads, person } from '@bop/test-support';
import { pairOfCredit, pairOfDeposit, type CreditFacts, type DepositFacts } from '../src/deposits/matching';
import { pos, startCashStack, unique, type CashStack } from './fixtures';

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

const deposit = (body: Record<string, unknown>, as = person()) => s.cash.call('POST', '/cash/deposits', { as, body: { locationId: nyc, ...body } });
const bank = (transactions: unknown[], source = 'bank-main') => s.cash.call('POST', '/cash/bank-transactions', { as: pos, body: { source, transactions } });
const credit = (o: { bookedOn: string; amount: string; reference?: string; description?: string; locationId?: string; externalId?: string }) => ({ externalId: unique('btx'), ...o });
const getDeposit = async (id: string) => (await s.cash.call('GET', `/cash/deposits/${id}`)).body;
const bankList = async (query: string, as = person()) => s.cash.call('GET', `/cash/bank-transactions?limit=200&${query}`, { as });
const eventsOf = async (type: string, depositId: string) => (await outboxPayloads(s.stack, 'cash', { type: type })).filter((e: any) => e.data.object.id === depositId);

describe('POST /cash/deposits', () => {
  it('records the deposit (201), answers it as GET does and tells cash.deposit_recorded with its location', async () => {
    const r = await deposit({ amount: '250.5', depositedAt: '2026-01-05T20:00:00Z', reference: 'BAG-0105', bankAccount: 'Main', note: 'evening drop' });
    expect(r.status).toBe(201);
    expect(r.headers.get('location')).toBe(`/api/v1/cash/deposits/${r.body.id}`);
    expect(r.body).toEqual({
      id: expect.stringMatching(/^dps_/),
      locationId: nyc,
      businessDays: ['2026-01-05'],
      amount: '250.50',
      depositedAt: '2026-01-05T20:00:00.000Z',
      reference: 'BAG-0105',
      bankAccount: 'Main',
      note: 'evening drop',
      matchStatus: 'unmatched',
      bankTransactionId: null,
      bankAmount: null,
      difference: null,
      matchedBy: null,
      matchedAt: null,
      recordedBy: { type: 'user', id: 'usr_test' },
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(await getDeposit(r.body.id)).toEqual(r.body);
    const [event] = await eventsOf('cash.deposit_recorded', r.body.id);
    expect(event).toMatchObject({ type: 'cash.deposit_recorded', locationId: nyc, actor: { type: 'user', id: 'usr_test' }, data: { object: r.body } });
    expect(await eventsOf('cash.deposit_mismatch', r.body.id)).toEqual([]);
    // the day it carries is open in cash from now on
    expect(await s.sql(`select status from cash.business_days where location_id = ? and business_day = '2026-01-05'`, [nyc])).toEqual([{ status: 'open' }]);
  });

  it('defaults: business days = the business day of depositedAt at the location (cut-off), depositedAt = now; days listed are kept sorted', async () => {
    // 02:30 in New York on the 7th is still the 6th's business day (cut-off 04:00)
    const late = await deposit({ amount: '10.00', depositedAt: '2026-01-07T07:30:00Z' });
    expect(late.body.businessDays).toEqual(['2026-01-06']);
    const before = Date.now();
    const now = await deposit({ amount: '11.00' });
    expect(now.status).toBe(201);
    expect(Date.parse(now.body.depositedAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(now.body.businessDays).toEqual([businessDayOf(now.body.depositedAt, 'America/New_York', '04:00')]);
    expect(now.body).toMatchObject({ reference: null, bankAccount: null, note: null });
    const several = await deposit({ amount: '12.00', depositedAt: '2026-01-09T20:00:00Z', businessDays: ['2026-01-09', '2026-01-07', '2026-01-08'] });
    expect(several.body.businessDays).toEqual(['2026-01-07', '2026-01-08', '2026-01-09']);
  });

  it('refuses bad input with field paths: location, business days, depositedAt, amount', async () => {
    const unknown = await deposit({ locationId: 'loc_nope', amount: '1.00' });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors).toEqual([{ path: 'locationId', message: expect.stringContaining('loc_nope') }]);

    const twice = await deposit({ amount: '1.00', depositedAt: '2026-01-12T20:00:00Z', businessDays: ['2026-01-11', '2026-01-12', '2026-01-11'] });
    expect(twice.status).toBe(422);
    expect(twice.body.errors).toEqual([{ path: 'businessDays[2]', message: expect.stringContaining('twice') }]);

    const tomorrow = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    const future = await deposit({ amount: '1.00', businessDays: [tomorrow] });
    expect(future.status).toBe(422);
    expect(future.body.errors).toEqual([{ path: 'businessDays[0]', message: expect.stringContaining('has not begun') }]);

    const ahead = await deposit({ amount: '1.00', depositedAt: new Date(Date.now() + 3_600_000).toISOString() });
    expect(ahead.status).toBe(422);
    expect(ahead.body.errors).toEqual([{ path: 'depositedAt', message: expect.stringContaining('future') }]);
    // a clock a little ahead is fine
    expect((await deposit({ amount: '1.00', depositedAt: new Date(Date.now() + 60_000).toISOString() })).status).toBe(201);

    const amount = await deposit({ amount: 12.5 });
    expect(amount.status).toBe(422);
    expect(amount.body.errors).toEqual([expect.objectContaining({ path: 'amount' })]);
    const days = await deposit({ amount: '1.00', businessDays: [] });
    expect(days.status).toBe(422);
    expect(days.body.errors).toEqual([expect.objectContaining({ path: 'businessDays' })]);
  });

  it('refuses a location out of reach (403) and a deposit for a closed business day (409 period_locked), storing nothing', async () => {
    const berOnly = person({ 'cash.deposits': [{ type: 'locations', ids: [ber] }] });
    const out = await deposit({ amount: '5.00', depositedAt: '2026-01-15T20:00:00Z' }, berOnly);
    expect(out.status).toBe(403);
    expect(out.body.code).toBe('out_of_reach');
    expect((await deposit({ locationId: ber, amount: '5.00', depositedAt: '2026-01-15T20:00:00Z' }, berOnly)).status).toBe(201);

    await s.sql(
      `insert into cash.business_days (location_id, business_day, status, figures, closed_at, created_at, updated_at) values (?, '2026-01-20', 'closed', '{}'::jsonb, now(), now(), now())
       on conflict (location_id, business_day) do update set status = 'closed', figures = '{}'::jsonb`,
      [nyc],
    );
    const before = (await s.sql(`select count(*)::int as n from cash.deposits`))[0].n;
    const locked = await deposit({ amount: '7.00', depositedAt: '2026-01-20T20:00:00Z', businessDays: ['2026-01-19', '2026-01-20'] });
    expect(locked.status).toBe(409);
    expect(locked.body).toMatchObject({ code: 'period_locked', errors: [{ path: 'businessDays', message: expect.stringContaining('2026-01-20') }] });
    // the default day is refused the same way
    expect((await deposit({ amount: '7.00', depositedAt: '2026-01-20T20:00:00Z' })).body.code).toBe('period_locked');
    expect((await s.sql(`select count(*)::int as n from cash.deposits`))[0].n).toBe(before);
    // the other location's day of the same date is its own
    expect((await deposit({ locationId: ber, amount: '7.00', depositedAt: '2026-01-20T12:00:00Z' })).status).toBe(201);
  });
});

describe('matching: the bank first, then the deposit', () => {
  it('by reference: a credit whose description contains the reference (any case) within the window', async () => {
    const b = await bank([credit({ bookedOn: '2026-02-03', amount: '500.00', description: 'CASH DEPOSIT BAG 7781 NYC' })]);
    expect(b.status).toBe(202);
    const btxId = b.body.results[0].id;
    const r = await deposit({ amount: '500.00', depositedAt: '2026-02-02T21:00:00Z', reference: 'bag 7781' });
    expect(r.body).toMatchObject({ matchStatus: 'matched', bankTransactionId: btxId, bankAmount: '500.00', difference: '0.00', matchedBy: 'reference', matchedAt: expect.any(String) });
    const [recorded] = await eventsOf('cash.deposit_recorded', r.body.id);
    expect(recorded.data.object).toEqual(r.body);
    expect(await eventsOf('cash.deposit_mismatch', r.body.id)).toEqual([]);
    const listed = (await bankList('from=2026-02-03')).body.data.find((t: any) => t.id === btxId);
    expect(listed).toMatchObject({ matched: true, depositId: r.body.id, amount: '500.00', bookedOn: '2026-02-03', source: 'bank-main', version: 1 });
  });

  it('by amount: the one unmatched credit of exactly the amount in the window', async () => {
    const b = await bank([credit({ bookedOn: '2026-02-10', amount: '321.45' }), credit({ bookedOn: '2026-02-10', amount: '321.46' })]);
    const r = await deposit({ amount: '321.45', depositedAt: '2026-02-09T20:00:00Z' });
    expect(r.body).toMatchObject({ matchStatus: 'matched', bankTransactionId: b.body.results[0].id, matchedBy: 'amount', difference: '0.00' });
  });

  it('a reference match with another amount is mismatched: cash.deposit_mismatch with the difference', async () => {
    const b = await bank([credit({ bookedOn: '2026-02-17', amount: '480.00', reference: 'SLIP-9' })]);
    const r = await deposit({ amount: '500.00', depositedAt: '2026-02-16T20:00:00Z', reference: 'slip-9' });
    expect(r.body).toMatchObject({ matchStatus: 'mismatched', bankTransactionId: b.body.results[0].id, bankAmount: '480.00', difference: '-20.00', matchedBy: 'reference' });
    const [mismatch] = await eventsOf('cash.deposit_mismatch', r.body.id);
    expect(mismatch).toMatchObject({ type: 'cash.deposit_mismatch', locationId: nyc, data: { object: r.body } });
    expect(await eventsOf('cash.deposit_recorded', r.body.id)).toHaveLength(1);
  });

  it('two credits of the amount: left unmatched for a person, never guessed', async () => {
    const b = await bank([credit({ bookedOn: '2026-02-24', amount: '77.70' }), credit({ bookedOn: '2026-02-25', amount: '77.70' })]);
    const r = await deposit({ amount: '77.70', depositedAt: '2026-02-23T20:00:00Z' });
    expect(r.body).toMatchObject({ matchStatus: 'unmatched', bankTransactionId: null });
    const listed = (await bankList('from=2026-02-24&matched=false')).body.data.map((t: any) => t.id);
    expect(listed).toEqual(expect.arrayContaining(b.body.results.map((x: any) => x.id)));
  });

  it('outside the window (before the deposit day, or more than DEPOSIT_MATCH_WINDOW_DAYS after): unmatched', async () => {
    await bank([credit({ bookedOn: '2026-03-01', amount: '66.60', reference: 'BAG-301' }), credit({ bookedOn: '2026-03-08', amount: '66.60', reference: 'BAG-301' })]);
    const r = await deposit({ amount: '66.60', depositedAt: '2026-03-02T20:00:00Z', reference: 'BAG-301' });
    expect(r.body.matchStatus).toBe('unmatched');
    // the last day of the window still takes it
    const [last] = (await bank([credit({ bookedOn: '2026-03-07', amount: '66.60' })])).body.results;
    expect(await getDeposit(r.body.id)).toMatchObject({ matchStatus: 'matched', bankTransactionId: last.id, matchedBy: 'amount' });
  });

  it('debits never match, whichever comes first', async () => {
    await bank([credit({ bookedOn: '2026-05-05', amount: '-45.00', reference: 'BAG-505' })]);
    const r = await deposit({ amount: '45.00', depositedAt: '2026-05-04T20:00:00Z', reference: 'BAG-505' });
    expect(r.body.matchStatus).toBe('unmatched');
    await bank([credit({ bookedOn: '2026-05-06', amount: '-45.00', reference: 'BAG-505' })]);
    expect((await getDeposit(r.body.id)).matchStatus).toBe('unmatched');
  });
});

describe('matching: the deposit first, then the bank batch', () => {
  let refDeposit: any;
  let refCredit: { externalId: string; bookedOn: string; amount: string; description: string };

  it('a batch pairs its credits with waiting deposits: by reference (mismatched: event), by amount; a debit stays apart', async () => {
    refDeposit = (await deposit({ amount: '900.00', depositedAt: '2026-04-01T20:00:00Z', reference: 'BAG-100' })).body;
    const amountDeposit = (await deposit({ amount: '123.40', depositedAt: '2026-04-01T20:00:00Z' })).body;
    expect([refDeposit.matchStatus, amountDeposit.matchStatus]).toEqual(['unmatched', 'unmatched']);
    refCredit = { externalId: unique('btx'), bookedOn: '2026-04-02', amount: '890.00', description: 'Cash deposit bag-100' };
    const b = await bank([refCredit, credit({ bookedOn: '2026-04-03', amount: '123.40' }), credit({ bookedOn: '2026-04-03', amount: '-123.40' })]);
    expect(b.status).toBe(202);
    expect(b.body).toMatchObject({ received: 3, created: 3, rejected: 0 });
    const [refResult, amountResult, debitResult] = b.body.results;
    expect(await getDeposit(refDeposit.id)).toMatchObject({ matchStatus: 'mismatched', bankTransactionId: refResult.id, bankAmount: '890.00', difference: '-10.00', matchedBy: 'reference' });
    expect(await getDeposit(amountDeposit.id)).toMatchObject({ matchStatus: 'matched', bankTransactionId: amountResult.id, matchedBy: 'amount' });
    const [mismatch] = await eventsOf('cash.deposit_mismatch', refDeposit.id);
    expect(mismatch).toMatchObject({ locationId: nyc, actor: { type: 'integration', id: 'int_test' }, data: { object: await getDeposit(refDeposit.id) } });
    expect(await eventsOf('cash.deposit_mismatch', amountDeposit.id)).toEqual([]);
    const debit = (await bankList('from=2026-04-03')).body.data.find((t: any) => t.id === debitResult.id);
    expect(debit).toMatchObject({ matched: false, depositId: null, amount: '-123.40' });
  });

  it('a re-sent transaction: unchanged changes nothing; a new amount re-judges its deposit (matched ↔ mismatched, event on a new difference)', async () => {
    const updatedAt = (await getDeposit(refDeposit.id)).updatedAt;
    const same = await bank([refCredit]);
    expect(same.body).toMatchObject({ unchanged: 1, results: [{ status: 'unchanged' }] });
    expect((await getDeposit(refDeposit.id)).updatedAt).toBe(updatedAt);
    expect(await eventsOf('cash.deposit_mismatch', refDeposit.id)).toHaveLength(1);

    const fixed = await bank([{ ...refCredit, amount: '900.00' }]);
    expect(fixed.body.results[0].status).toBe('updated');
    expect(await getDeposit(refDeposit.id)).toMatchObject({ matchStatus: 'matched', bankAmount: '900.00', difference: '0.00', matchedBy: 'reference' });
    expect(await eventsOf('cash.deposit_mismatch', refDeposit.id)).toHaveLength(1);

    await bank([{ ...refCredit, amount: '905.00' }]);
    const again = await getDeposit(refDeposit.id);
    expect(again).toMatchObject({ matchStatus: 'mismatched', bankAmount: '905.00', difference: '5.00' });
    const events = await eventsOf('cash.deposit_mismatch', refDeposit.id);
    expect(events).toHaveLength(2);
    expect(events[1].data.object).toEqual(again);

    // a re-send changing only the description keeps the pair and the status, with no event
    await bank([{ ...refCredit, amount: '905.00', description: 'Cash deposit bag-100 (corrected)' }]);
    expect(await getDeposit(refDeposit.id)).toMatchObject({ matchStatus: 'mismatched', bankAmount: '905.00' });
    expect(await eventsOf('cash.deposit_mismatch', refDeposit.id)).toHaveLength(2);
  });

  it('a credit between two waiting deposits of its amount is left for a person; a changed re-send of an unmatched credit is tried again', async () => {
    const a = (await deposit({ amount: '55.55', depositedAt: '2026-04-10T20:00:00Z' })).body;
    const b = (await deposit({ amount: '55.55', depositedAt: '2026-04-11T20:00:00Z' })).body;
    const c = credit({ bookedOn: '2026-04-12', amount: '55.55' });
    await bank([c]);
    expect([(await getDeposit(a.id)).matchStatus, (await getDeposit(b.id)).matchStatus]).toEqual(['unmatched', 'unmatched']);
    // the bank adds the slip number: now it names one of them
    await s.sql(`update cash.deposits set reference = 'SLIP-4411' where id = ?`, [b.id]);
    await bank([{ ...c, reference: 'slip-4411' }]);
    expect(await getDeposit(b.id)).toMatchObject({ matchStatus: 'matched', matchedBy: 'reference' });
    expect((await getDeposit(a.id)).matchStatus).toBe('unmatched');
  });

  it('validates each record on its own: unknown location, a number for an amount, a repeated externalId', async () => {
    const ok = credit({ bookedOn: '2026-04-20', amount: '1.50', locationId: nyc });
    const r = await bank([ok, credit({ bookedOn: '2026-04-20', amount: '1.60', locationId: 'loc_nope' }), { ...credit({ bookedOn: '2026-04-20', amount: '1' }), amount: 1.7 }, ok]);
    expect(r.status).toBe(202);
    expect(r.body).toMatchObject({ received: 4, created: 1, rejected: 2, duplicate: 1 });
    expect(r.body.results[1]).toMatchObject({ status: 'rejected', errors: [{ path: 'locationId', message: expect.stringContaining('loc_nope') }] });
    expect(r.body.results[2]).toMatchObject({ status: 'rejected', errors: [expect.objectContaining({ path: 'amount' })] });
    const bad = await s.cash.call('POST', '/cash/bank-transactions', { as: pos, body: { source: 'bank-main', transactions: [] } });
    expect(bad.status).toBe(422);
  });
});

describe('concurrency', () => {
  it('two deposits racing for one bank transaction: only one takes it', async () => {
    const [btx] = (await bank([credit({ bookedOn: '2026-06-02', amount: '612.34' })])).body.results;
    const [a, b] = await Promise.all([deposit({ amount: '612.34', depositedAt: '2026-06-01T20:00:00Z' }), deposit({ amount: '612.34', depositedAt: '2026-06-01T20:00:00Z' })]);
    expect([a.status, b.status]).toEqual([201, 201]);
    const statuses = [a.body.matchStatus, b.body.matchStatus].sort();
    expect(statuses).toEqual(['matched', 'unmatched']);
    expect((await s.sql(`select count(*)::int as n from cash.deposits where bank_transaction_id = ?`, [btx.id]))[0].n).toBe(1);
  });

  it('two bank batches racing for one deposit: only one credit takes it', async () => {
    const d = (await deposit({ amount: '733.00', depositedAt: '2026-06-10T20:00:00Z' })).body;
    const [x, y] = await Promise.all([bank([credit({ bookedOn: '2026-06-11', amount: '733.00' })], 'feed-a'), bank([credit({ bookedOn: '2026-06-11', amount: '733.00' })], 'feed-b')]);
    expect([x.status, y.status]).toEqual([202, 202]);
    const after = await getDeposit(d.id);
    expect(after.matchStatus).toBe('matched');
    expect([x.body.results[0].id, y.body.results[0].id]).toContain(after.bankTransactionId);
  });
});

describe('reading', () => {
  let berDeposit: any;
  let nycDeposit: any;
  let ids: string[];

  beforeAll(async () => {
    berDeposit = (await deposit({ locationId: ber, amount: '310.00', depositedAt: '2026-07-01T18:00:00Z', reference: 'BER-BAG-1' })).body;
    nycDeposit = (await deposit({ amount: '420.00', depositedAt: '2026-07-01T20:00:00Z' })).body;
    const b = await bank([
      credit({ bookedOn: '2026-07-02', amount: '310.00', reference: 'ber-bag-1' }),
      credit({ bookedOn: '2026-07-03', amount: '1.11', locationId: ber }),
      credit({ bookedOn: '2026-07-03', amount: '2.22', locationId: nyc }),
      credit({ bookedOn: '2026-07-03', amount: '3.33' }),
    ]);
    ids = b.body.results.map((r: any) => r.id);
  });

  it('deposits: lists and gets only within reach (403 out_of_reach otherwise)', async () => {
    const berReader = person({ 'cash.read': [{ type: 'locations', ids: [ber] }] });
    const listed = await s.cash.call('GET', '/cash/deposits?limit=200', { as: berReader });
    expect(listed.status).toBe(200);
    expect(listed.body.data.length).toBeGreaterThan(0);
    expect(listed.body.data.every((d: any) => d.locationId === ber)).toBe(true);
    expect(listed.body.data.map((d: any) => d.id)).toContain(berDeposit.id);
    expect((await s.cash.call('GET', `/cash/deposits/${berDeposit.id}`, { as: berReader })).body).toMatchObject({ id: berDeposit.id, matchStatus: 'matched', bankTransactionId: ids[0] });
    const out = await s.cash.call('GET', `/cash/deposits/${nycDeposit.id}`, { as: berReader });
    expect(out.status).toBe(403);
    expect(out.body.code).toBe('out_of_reach');
    expect((await s.cash.call('GET', `/cash/deposits?locationId=${nyc}`, { as: berReader })).status).toBe(403);
    expect((await s.cash.call('GET', '/cash/deposits/dps_nope')).status).toBe(404);
    expect((await s.cash.call('GET', '/cash/deposits', { as: person({ 'cash.count': [{ type: 'everyone' }] }) })).status).toBe(403);
  });

  it('deposits: filters locationId, matchStatus, from, updatedSince; pages by cursor', async () => {
    const get = async (q: string) => (await s.cash.call('GET', `/cash/deposits?${q}`)).body;
    const july = await get(`from=2026-07-01&limit=200`);
    expect(july.data.map((d: any) => d.id)).toEqual(expect.arrayContaining([berDeposit.id, nycDeposit.id]));
    expect(july.data.every((d: any) => d.depositedAt >= '2026-07-01')).toBe(true);
    const nycUnmatched = await get(`from=2026-07-01&locationId=${nyc}&matchStatus=unmatched&limit=200`);
    expect(nycUnmatched.data.map((d: any) => d.id)).toContain(nycDeposit.id);
    expect(nycUnmatched.data.every((d: any) => d.locationId === nyc && d.matchStatus === 'unmatched')).toBe(true);
    const since = await get(`updatedSince=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`);
    expect(since.data).toEqual([]);
    const first = await get(`from=2026-07-01&limit=1`);
    expect(first).toMatchObject({ hasMore: true, nextCursor: expect.any(String) });
    const second = await get(`from=2026-07-01&limit=1&cursor=${first.nextCursor}`);
    expect(second.data[0].id > first.data[0].id).toBe(true);
  });

  it('bank transactions: a person sees those of locations in reach and those matched to deposits in reach; keys see all', async () => {
    const berReader = person({ 'cash.read': [{ type: 'locations', ids: [ber] }] });
    const seen = (await bankList('from=2026-07-01', berReader)).body.data.map((t: any) => t.id);
    expect(seen).toEqual(expect.arrayContaining([ids[0], ids[1]]));
    expect(seen).not.toContain(ids[2]);
    expect(seen).not.toContain(ids[3]);
    const all = (await bankList('from=2026-07-01', pos as any)).body.data.map((t: any) => t.id);
    expect(all).toEqual(expect.arrayContaining(ids));
    const matched = (await bankList('from=2026-07-01&matched=true')).body.data;
    expect(matched.map((t: any) => t.id)).toContain(ids[0]);
    expect(matched.every((t: any) => t.matched)).toBe(true);
    const from = (await bankList('from=2026-07-03')).body.data;
    expect(from.every((t: any) => t.bookedOn >= '2026-07-03')).toBe(true);
  });
});

describe('pairing rules (pure)', () => {
  const d = (id: string, amount: string, depositedOn: string, reference: string | null = null): DepositFacts => ({ id, amount, depositedOn, reference });
  const c = (id: string, amount: string, bookedOn: string, reference: string | null = null): CreditFacts => ({ id, amount, bookedOn, reference, description: null });

  it('reference before amount; both sides must choose each other', () => {
    expect(pairOfDeposit(d('d1', '10.00', '2026-01-01', 'X1'), [c('c1', '10.00', '2026-01-02'), c('c2', '9.00', '2026-01-03', 'ref x1')], [])).toEqual({ credit: expect.objectContaining({ id: 'c2' }), by: 'reference' });
    // the credit would go to another deposit by reference: no pair by amount for this one
    expect(pairOfDeposit(d('d1', '10.00', '2026-01-01'), [c('c1', '10.00', '2026-01-02', 'BAG-2')], [d('d2', '12.00', '2026-01-01', 'bag-2')])).toBeNull();
    // two deposits of the amount around one credit: none
    expect(pairOfCredit(c('c1', '10.00', '2026-01-03'), [d('d1', '10.00', '2026-01-01'), d('d2', '10.00', '2026-01-02')], [])).toBeNull();
    expect(pairOfCredit(c('c1', '10.00', '2026-01-06'), [d('d1', '10.00', '2026-01-01')], [])).toEqual({ deposit: expect.objectContaining({ id: 'd1' }), by: 'amount' });
    expect(pairOfCredit(c('c1', '10.00', '2026-01-07'), [d('d1', '10.00', '2026-01-01')], [])).toBeNull();
  });
});

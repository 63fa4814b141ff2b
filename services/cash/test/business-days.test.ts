/**
 * Business days (days/): the daily summary from real ingested sales, `:close` locking the figures
 * (`cash.business_day_closed`, sales' replica of closed days follows), records arriving for a closed
 * day flagged for review and kept out of the locked figures, direct edits refused with
 * `period_locked`, and `:reopen` with a reason letting them in (`cash.business_day_reopened`).
 */
import { eventually, outboxPayloads, person } from '@bop/test-support';
import { applyRecordedTenders } from '../src/expected/store';
import { ingestSales, pos, saleTransaction, startCashStack, type CashStack } from './fixtures';

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

const day = '2026-11-19';
const at = (time: string) => `${day}T${time}Z`;
const days = (q: Record<string, string>, as?: ReturnType<typeof person>) => s.cash.call('GET', `/cash/business-days?${new URLSearchParams(q)}`, as ? { as } : {});
const close = (locationId: string, d: string, body: unknown = {}, o: { as?: ReturnType<typeof person>; headers?: Record<string, string> } = {}) =>
  s.cash.call('POST', `/cash/business-days/${locationId}/${d}:close`, { body, ...o });
const reopen = (locationId: string, d: string, body: unknown, o: { as?: ReturnType<typeof person> } = {}) => s.cash.call('POST', `/cash/business-days/${locationId}/${d}:reopen`, { body, ...o });
const salesClosed = async (locationId: string, d: string) =>
  (await s.sales.svc.runtime.orm.em.getConnection().execute(`select status from sales.closed_days where location_id = ? and business_day = ?::date`, [locationId, d]))[0]?.status;

describe('business days', () => {
  it('summarises a day from sales, closes it (figures locked, event, sales told), and refuses a second close', async () => {
    await ingestSales(s, [
      saleTransaction({ total: '18.50', tenders: [{ type: 'cash', amount: '20.00', change: '1.50' }], registerId: 'R1', occurredAt: at('15:00:00') }),
      saleTransaction({ total: '30.00', tenders: [{ type: 'card', amount: '30.00' }], registerId: 'R1', occurredAt: at('16:00:00') }),
    ]);
    const open = await days({ locationId: nyc, from: day, to: day });
    expect(open.status).toBe(200);
    expect(open.body.data).toHaveLength(1);
    expect(open.body.data[0]).toMatchObject({
      locationId: nyc,
      businessDay: day,
      status: 'open',
      figures: {
        expectedCash: '18.50',
        expectedByTender: expect.arrayContaining([
          { tenderType: 'cash', platform: null, amount: '18.50' },
          { tenderType: 'card', platform: null, amount: '30.00' },
        ]),
        drawersCounted: 0,
        countedCash: '0.00',
        overShort: '0.00',
        differences: [{ kind: 'not_counted', amount: '18.50', message: 'Drawer R1 has expected cash but no drawer count.' }],
      },
      lateRecords: [],
      closedAt: null,
    });

    const closed = await close(nyc, day, { note: 'Counted by the night manager' });
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({ status: 'closed', closeNote: 'Counted by the night manager', closedBy: { type: 'user', id: 'usr_test' }, version: open.body.data[0].version + 1 });
    expect(closed.body.figures).toEqual(open.body.data[0].figures);
    const [event] = (await outboxPayloads(s.stack, 'cash', { type: 'cash.business_day_closed' })).filter((e: any) => e.data.object.businessDay === day && e.data.object.locationId === nyc);
    expect(event).toMatchObject({ locationId: nyc, data: { object: { status: 'closed', closedAt: closed.body.closedAt, updatedAt: closed.body.updatedAt } } });
    await eventually(async () => (await salesClosed(nyc, day)) === 'closed');

    const again = await close(nyc, day);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'conflict', detail: expect.stringContaining('closed already') });
  });

  it('holds a sale ingested after the close in sales’ review queue, with a warning; cash’s figures stay as closed', async () => {
    const late = saleTransaction({ total: '9.00', tenders: [{ type: 'cash', amount: '9.00' }], registerId: 'R1', occurredAt: at('20:00:00') });
    const r = await s.sales.call('POST', '/sales/transactions:batch', { as: pos, body: { source: 'pos-cash', transactions: [late] } });
    expect(r.status).toBe(202);
    expect(r.body.results[0]).toMatchObject({ status: 'created', warnings: [expect.objectContaining({ message: expect.stringContaining('closed') })] });
    const review = await s.sales.call('GET', `/sales/review-items?locationId=${nyc}`);
    expect(review.body.data.map((i: any) => i.externalId)).toContain(late.externalId);
    // held, not recorded: sales sent cash nothing of it (its batch committed before the 202), so cash has nothing to apply
    const heldId = r.body.results[0].id;
    const recorded = await outboxPayloads(s.stack, 'sales', { type: 'sales.transactions.recorded' });
    expect(recorded.flatMap((e: any) => e.data.object.transactions.map((t: any) => t.id))).not.toContain(heldId);
    expect(await s.sql(`select id from cash.sales_transactions where id = ?`, [heldId])).toEqual([]);
    const still = (await days({ locationId: nyc, from: day, to: day })).body.data[0];
    expect(still).toMatchObject({ status: 'closed', figures: { expectedCash: '18.50' }, lateRecords: [] });
  });

  it('keeps records arriving for a closed day out of its locked figures, listed for review; reopening lets them in', async () => {
    // a sale cash learns of after the close (e.g. sales had not heard of the close yet)
    await s.cash.svc.runtime.write((w) =>
      applyRecordedTenders(w, [{ id: 'stx_late_1', version: 1, locationId: nyc, businessDay: day, status: 'completed', registerId: 'R1', tenders: [{ type: 'cash', amount: '7.00' }] }]),
    );
    const held = (await days({ locationId: nyc, from: day, to: day })).body.data[0];
    expect(held.status).toBe('closed');
    expect(held.figures.expectedCash).toBe('18.50');
    expect(held.lateRecords).toEqual([{ kind: 'sales_transaction', id: 'stx_late_1', message: expect.stringContaining('stx_late_1'), flaggedAt: expect.any(String), status: 'pending' }]);

    const noReason = await reopen(nyc, day, {});
    expect(noReason.status).toBe(422);
    expect(noReason.body.errors.map((e: any) => e.path)).toEqual(['reason']);

    const opened = await reopen(nyc, day, { reason: 'Late sale from the terrace register' });
    expect(opened.status).toBe(200);
    expect(opened.body).toMatchObject({ status: 'open', reopenReason: 'Late sale from the terrace register', reopenedBy: { type: 'user', id: 'usr_test' }, reopenedAt: expect.any(String) });
    expect(opened.body.figures.expectedCash).toBe('25.50');
    expect(opened.body.lateRecords).toEqual([expect.objectContaining({ id: 'stx_late_1', status: 'applied' })]);
    const [event] = (await outboxPayloads(s.stack, 'cash', { type: 'cash.business_day_reopened' })).filter((e: any) => e.data.object.businessDay === day);
    expect(event.data.object).toMatchObject({ locationId: nyc, businessDay: day, status: 'open', reopenedAt: opened.body.reopenedAt });
    // now a public type too (issue 41 item 3): the same envelope, data.object the day as the API returns it
    expect(event.data.object).toEqual(opened.body);
    await eventually(async () => (await salesClosed(nyc, day)) === 'open');

    const notClosed = await reopen(nyc, day, { reason: 'again' });
    expect(notClosed.status).toBe(409);
  });

  it('refuses a direct edit of a closed day with 409 period_locked', async () => {
    const d = '2026-11-17';
    expect((await close(nyc, d)).status).toBe(200);
    const count = await s.cash.call('POST', '/cash/counts', { body: { locationId: nyc, type: 'drawer', drawerId: 'R1', businessDay: d, amount: '10.00', countedAt: '2026-11-18T02:00:00Z' } });
    expect(count.status).toBe(409);
    expect(count.body.code).toBe('period_locked');
    const deposit = await s.cash.call('POST', '/cash/deposits', { body: { locationId: nyc, businessDays: [d], amount: '10.00' } });
    expect(deposit.status).toBe(409);
    expect(deposit.body.code).toBe('period_locked');
  });

  it('raises cash.over_short_exceeded at close when the day’s over/short passes its threshold', async () => {
    const d = '2026-11-16';
    await ingestSales(s, [saleTransaction({ total: '50.00', tenders: [{ type: 'cash', amount: '50.00' }], registerId: 'R5', occurredAt: `${d}T15:00:00Z` })]);
    const put = await s.cash.call('PUT', '/cash/over-short-thresholds', { body: { thresholds: [{ locationId: nyc, countType: 'business_day', amount: '2.00' }] } });
    expect(put.status).toBe(200);
    const count = await s.cash.call('POST', '/cash/counts', { body: { locationId: nyc, type: 'drawer', drawerId: 'R5', businessDay: d, amount: '145.00', openingFloat: '100.00', countedAt: `${d}T23:00:00Z` } });
    expect(count.status).toBe(201);
    expect(count.body).toMatchObject({ expected: '150.00', overShort: '-5.00' });
    const closed = await close(nyc, d);
    expect(closed.status).toBe(200);
    expect(closed.body.figures).toMatchObject({ overShort: '-5.00', drawersCounted: 1, countedCash: '45.00' });
    const exceeded = (await outboxPayloads(s.stack, 'cash', { type: 'cash.over_short_exceeded' })).filter((e: any) => e.data.object.businessDay === d);
    expect(exceeded).toHaveLength(1);
  });

  it('refuses a day not begun, ranges over 92 days, and locations out of reach', async () => {
    const future = await close(nyc, '2099-01-01');
    expect(future.status).toBe(422);
    expect(future.body.errors[0].path).toBe('date');
    const wide = await days({ locationId: nyc, from: '2026-01-01', to: '2026-11-01' });
    expect(wide.status).toBe(422);
    const berlinOnly = person({ 'cash.read': [{ type: 'locations', ids: [ber] }], 'cash.manage': [{ type: 'locations', ids: [ber] }], 'cash.reopen': [{ type: 'locations', ids: [ber] }] });
    expect((await days({ locationId: nyc }, berlinOnly)).status).toBe(403);
    expect((await close(nyc, '2026-11-15', {}, { as: berlinOnly })).status).toBe(403);
    expect((await reopen(nyc, day, { reason: 'x' }, { as: berlinOnly })).status).toBe(403);
    expect((await days({ locationId: ber }, berlinOnly)).status).toBe(200);
  });

  it('answers a malformed date in the path with 400 naming it; an id that cannot exist stays 404', async () => {
    for (const bad of ['2026-13-45', '2026-02-30', 'yesterday']) {
      const r = await close(nyc, bad);
      expect([bad, r.status, r.body.code, r.body.errors?.[0]?.path]).toEqual([bad, 400, 'bad_request', 'date']);
    }
    const reopened = await reopen(nyc, '2026-13-45', { reason: 'typo' });
    expect([reopened.status, reopened.body.errors[0].path]).toEqual([400, 'date']);
    const impossible = await close('x'.repeat(65), '2026-11-15');
    expect([impossible.status, impossible.body.code]).toEqual([404, 'not_found']);
    const unknown = await close('loc_missing', '2026-11-15');
    expect([unknown.status, unknown.body.errors[0].path]).toEqual([422, 'locationId']);
  });
});

/**
 * Refunds and voids (spec: ingestion rule 6) and locked business days (rule 7): the closed-days replica
 * fed by cash events, records held in the review queue, and a person's accept or reject.
 */
import { organizationService } from '@svc/organization';
import { newId } from '@bop/shared';
import { salesService } from '../src';
import { nextDay, nycDaySummary, nycSale } from './fixtures';
import { eventually, integration, NYC_1, person, replicatedLocation, serviceSql, startTestServices, type ServiceSql, type TestServices } from '@bop/test-support';

let stack: TestServices;
const pos = integration(['sales:write', 'sales:read']);
const manager = person({ 'sales.read': [{ type: 'everyone' }], 'sales.manage': [{ type: 'everyone' }] });
let nyc: string;
let la: string;

/** A sale at NYC-1 at 10:00 local time of `day`. */
const sale = (externalId: string, day: string, over: Record<string, unknown> = {}) => nycSale(externalId, { occurredAt: `${day}T15:00:00Z`, ...over });

/** A refund of one soda (−2.43), or of `amount` on one line. */
function refund(externalId: string, day: string, refundOf: string | undefined, amount?: string) {
  const line = amount ? { name: 'Refund', quantity: '-1', unitPrice: amount, tax: '0' } : { itemSku: 'SODA', name: 'Soda', quantity: '-1', unitPrice: '2.25', tax: '-0.18' };
  const total = amount ? `-${amount}` : '-2.43';
  return {
    externalId,
    locationExternalId: 'NYC-1',
    occurredAt: `${day}T16:00:00Z`,
    type: 'refund',
    lines: [line],
    tenders: [{ type: 'cash', amount: total }],
    subtotal: amount ? `-${amount}` : '-2.25',
    tax: amount ? '0' : '-0.18',
    total,
    currency: 'USD',
    ...(refundOf ? { refundOf } : {}),
  };
}

const batch = (transactions: unknown[], source = 'pos-nyc') => stack.services.sales.call('POST', '/sales/transactions:batch', { as: pos, body: { source, transactions } });
const sql: ServiceSql = (q, p) => serviceSql(stack.services.sales)(q, p);
const call = (method: string, path: string, opts: { as?: any; body?: unknown; headers?: Record<string, string> } = {}) =>
  stack.services.sales.call(method, path, { as: manager, ...opts });

async function pendingItem(externalId: string, source = 'pos-nyc', recordKind: 'transaction' | 'summary' = 'transaction') {
  const rows = await sql(`select id from sales.review_items where source = ? and external_id = ? and record_kind = ? and status = 'pending'`, [source, externalId, recordKind]);
  return rows[0]?.id as string | undefined;
}

const daySummary = nycDaySummary;

/** An hour summary at NYC from `start` (UTC) to one hour later. */
function hourSummary(externalId: string, start: string, over: Record<string, unknown> = {}) {
  const end = new Date(Date.parse(start) + 3_600_000).toISOString();
  return { externalId, locationExternalId: 'NYC-1', periodStart: start, periodEnd: end, grossSales: '100.00', netSales: '100.00', tax: '8.00', transactions: 7, ...over };
}

const summaries = (records: unknown[], source = 'sum-nyc') => stack.services.sales.call('POST', '/sales-summaries', { as: pos, body: { source, summaries: records } });

let clock = Date.parse('2026-12-01T00:00:00Z');
/** Publishes cash's business-day event as the cash service's relay would, and waits for the replica to handle it. */
async function cashDay(type: 'closed' | 'reopened', locationId: string, businessDay: string, opts: { updatedAt?: string; object?: Record<string, unknown> } = {}) {
  clock += 60_000;
  const updatedAt = opts.updatedAt ?? new Date(clock).toISOString();
  const eventId = newId('event');
  const object = opts.object ?? {
    locationId,
    businessDay,
    status: type === 'closed' ? 'closed' : 'open',
    ...(type === 'closed' ? { closedAt: updatedAt } : { reopenedAt: updatedAt }),
    updatedAt,
  };
  const eventType = `cash.business_day_${type}`;
  await stack.bus.publish([
    {
      topic: 'cash',
      key: `${locationId}:${businessDay}`,
      eventId,
      type: eventType,
      payload: { id: eventId, type: eventType, createdAt: updatedAt, apiVersion: 'v1', actor: { type: 'user', id: 'usr_cash' }, locationId, data: { object } },
    },
  ]);
  await eventually(async () => (await sql(`select 1 from sales.processed_events where event_id = ?`, [eventId])).length > 0 || (await sql(`select 1 from sales.dead_letters where event_id = ?`, [eventId])).length > 0);
  return eventId;
}

const dayState = async (locationId: string, day: string) =>
  (await sql(`select status from sales.closed_days where location_id = ? and business_day = ?::date`, [locationId, day]))[0]?.status as string | undefined;

beforeAll(async () => {
  stack = await startTestServices([organizationService, salesService], { CONSUMER_MAX_ATTEMPTS: '2' });
  nyc = await replicatedLocation(stack, NYC_1, ['sales']);
  la = await replicatedLocation(stack, { name: 'LA', timezone: 'America/Los_Angeles', businessDayCutoff: '04:00', externalId: 'LA-1' }, ['sales']);
});
afterAll(async () => {
  await stack?.close();
});

describe('closed business days replica (cash.business_day_closed / reopened)', () => {
  it('closes and reopens a day; an older event replayed later never overwrites the newer state', async () => {
    await cashDay('closed', nyc, '2026-10-01', { updatedAt: '2026-10-02T10:00:00Z' });
    expect(await dayState(nyc, '2026-10-01')).toBe('closed');
    await cashDay('reopened', nyc, '2026-10-01', { updatedAt: '2026-10-02T09:00:00Z' }); // older
    expect(await dayState(nyc, '2026-10-01')).toBe('closed');
    await cashDay('reopened', nyc, '2026-10-01', { updatedAt: '2026-10-02T11:00:00Z' });
    expect(await dayState(nyc, '2026-10-01')).toBe('open');
    const [row] = await sql(`select closed_at, reopened_at from sales.closed_days where location_id = ? and business_day = '2026-10-01'`, [nyc]);
    expect(new Date(row.closed_at).toISOString()).toBe('2026-10-02T10:00:00.000Z');
    expect(new Date(row.reopened_at).toISOString()).toBe('2026-10-02T11:00:00.000Z');
  });

  it('parks an event whose data.object is not a business day in dead_letters', async () => {
    const id = await cashDay('closed', nyc, '2026-10-03', { object: { locationId: nyc, businessDay: '03/10/2026', status: 'closed', updatedAt: '2026-10-04T10:00:00Z' } });
    expect(await sql(`select 1 from sales.dead_letters where event_id = ?`, [id])).toHaveLength(1);
    expect(await dayState(nyc, '2026-10-03')).toBeUndefined();
  });
});

describe('records for a closed business day (spec: ingestion rule 7)', () => {
  const day = '2026-11-02';
  beforeAll(async () => {
    await cashDay('closed', nyc, day);
  });

  it('holds a late sale: 202 created with an occurredAt warning, nothing in transactions, a pending review item', async () => {
    const r = await batch([sale('LATE-1', day)]);
    expect(r.status).toBe(202);
    expect(r.body).toMatchObject({ received: 1, created: 1, rejected: 0 });
    const res = r.body.results[0];
    expect(res.status).toBe('created');
    expect(res.id).toMatch(/^stx_/);
    expect(res.warnings).toEqual([{ path: 'occurredAt', message: expect.stringContaining(`Business day ${day} at location ${nyc} is closed`) }]);
    expect(await sql(`select 1 from sales.transactions where external_id = 'LATE-1'`)).toEqual([]);
    const id = await pendingItem('LATE-1');
    const item = await call('GET', `/sales/review-items/${id}`);
    expect(item.status).toBe(200);
    expect(item.body).toMatchObject({
      id,
      source: 'pos-nyc',
      externalId: 'LATE-1',
      recordKind: 'transaction',
      transactionId: res.id,
      locationId: nyc,
      businessDays: [day],
      kind: 'new',
      status: 'pending',
      reason: res.warnings[0].message,
      warnings: res.warnings,
      record: { businessDay: day, type: 'sale', status: 'completed', total: '19.71', subtotal: '18.25', occurredAt: `${day}T15:00:00.000Z` },
      decidedAt: null,
      decidedBy: null,
      version: 1,
      current: null,
    });
    expect(item.body.record.lines).toHaveLength(2);
  });

  it('answers unchanged for the same record again and updated (item replaced) for changed content', async () => {
    const first = await batch([sale('LATE-2', day)]);
    const again = await batch([sale('LATE-2', day)]);
    expect(again.body.results[0]).toMatchObject({ status: 'unchanged', id: first.body.results[0].id });
    const changed = await batch([sale('LATE-2', day, { registerId: 'R7' })]);
    expect(changed.body.results[0]).toMatchObject({ status: 'updated', id: first.body.results[0].id, warnings: [{ path: 'occurredAt', message: expect.any(String) }] });
    const items = await sql(`select status, version, "row"->>'register_id' as register_id from sales.review_items where external_id = 'LATE-2'`);
    expect(items).toEqual([{ status: 'pending', version: 2, register_id: 'R7' }]);
    expect(await sql(`select 1 from sales.transactions where external_id = 'LATE-2'`)).toEqual([]);
  });

  it('passes a re-send equal to a stored transaction of a closed day as unchanged', async () => {
    const d = '2026-11-03';
    const stored = await batch([sale('SAME-1', d)]);
    await cashDay('closed', nyc, d);
    const again = await batch([sale('SAME-1', d)]);
    expect(again.body.results[0]).toEqual({ index: 0, externalId: 'SAME-1', status: 'unchanged', id: stored.body.results[0].id });
    expect(await pendingItem('SAME-1')).toBeUndefined();
  });

  it('holds the void of a sale from a closed day; accepting applies it and records sales.transactions.recorded (review_accepted)', async () => {
    const d = '2026-11-04';
    const stored = await batch([sale('VOID-1', d)]);
    const txId = stored.body.results[0].id;
    await cashDay('closed', nyc, d);
    const v = await batch([sale('VOID-1', d, { status: 'voided' })]);
    expect(v.body.results[0]).toMatchObject({ status: 'created', id: txId, warnings: [{ path: 'occurredAt' }] });
    const [tx] = await sql(`select status, version from sales.transactions where id = ?`, [txId]);
    expect(tx).toEqual({ status: 'completed', version: 1 });

    const id = (await pendingItem('VOID-1'))!;
    const seen = await call('GET', `/sales/review-items/${id}`);
    expect(seen.body).toMatchObject({ kind: 'change', transactionId: txId, record: { status: 'voided' }, current: { id: txId, status: 'completed' } });

    const [{ before }] = await sql(`select max(seq)::text as before from sales.outbox`);
    const accepted = await call('POST', `/sales/review-items/${id}:accept`, { body: { note: 'till closed late' } });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ status: 'accepted', decidedBy: 'usr_test', decisionNote: 'till closed late', version: 2, current: { id: txId, status: 'voided', version: 2 } });
    expect(accepted.body.decidedAt).toEqual(expect.any(String));
    expect(await sql(`select status, version from sales.transactions where id = ?`, [txId])).toEqual([{ status: 'voided', version: 2 }]);

    const recorded: Array<{ aggregate_id: string; payload: any }> = await sql(
      `select aggregate_id, payload from sales.outbox where type = 'sales.transactions.recorded' and (payload::jsonb)->'data'->'object'->'transactions' @> ?::jsonb order by seq`,
      [JSON.stringify([{ id: txId }])],
    );
    expect(recorded).toHaveLength(2); // the original sale, then the accepted void
    expect(recorded[1].aggregate_id).toBe(nyc);
    expect(recorded[1].payload).toMatchObject({ apiVersion: 'v1', actor: { type: 'user', id: 'usr_test' }, locationId: nyc, data: { object: { source: 'pos-nyc', locationId: nyc, reason: 'review_accepted' } } });
    expect(recorded[1].payload.data.object.transactions).toEqual([expect.objectContaining({ id: txId, externalId: 'VOID-1', status: 'voided', businessDay: d, version: 2 })]);
    const events: Array<{ type: string; payload: any }> = await sql(`select type, payload from sales.outbox where aggregate_id = ? order by seq`, [id]);
    const decision = events.find((e) => e.type === 'sales.review_item.accepted')!.payload;
    expect(decision).toMatchObject({ actor: { type: 'user', id: 'usr_test' }, locationId: nyc, data: { object: { id, status: 'accepted', transactionId: txId } } });
    // its public twin (the project's own type): the same item, as GET /sales/review-items lists it
    expect(events.map((e) => e.type)).toEqual(['sales.review_item.accepted', 'sales_review_item.accepted']);
    expect(events[1].payload).toMatchObject({ type: 'sales_review_item.accepted', locationId: nyc, data: decision.data });
    // an accept is a person's decision, not a batch
    const since = await sql(`select type from sales.outbox where seq > ?::bigint order by seq`, [before]);
    const types = since.map((e: { type: string }) => e.type);
    expect(types).toEqual(expect.arrayContaining(['sales.transactions.recorded', 'sales.review_item.accepted']));
    expect(types).not.toContain('sales.batch.completed');
  });

  it('accepting a new held record creates the transaction under the id the batch result gave', async () => {
    const r = await batch([sale('LATE-3', day)]);
    const txId = r.body.results[0].id;
    const id = (await pendingItem('LATE-3'))!;
    const accepted = await call('POST', `/sales/review-items/${id}:accept`);
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ status: 'accepted', transactionId: txId, decisionNote: null, current: { id: txId, externalId: 'LATE-3', businessDay: day, total: '19.71', version: 1 } });
    const recorded = await sql(`select payload->'data'->'object'->>'reason' as reason from sales.outbox where type = 'sales.transactions.recorded' and (payload::jsonb)->'data'->'object'->'transactions' @> ?::jsonb`, [
      JSON.stringify([{ id: txId }]),
    ]);
    expect(recorded).toEqual([{ reason: 'review_accepted' }]);
    // the source sending it again changes nothing now
    const again = await batch([sale('LATE-3', day)]);
    expect(again.body.results[0]).toEqual({ index: 0, externalId: 'LATE-3', status: 'unchanged', id: txId });
  });

  it('rejecting keeps the transaction as it was and records the reason; deciding twice is 409', async () => {
    const d = '2026-11-05';
    const stored = await batch([sale('REJ-1', d)]);
    const txId = stored.body.results[0].id;
    await cashDay('closed', nyc, d);
    await batch([sale('REJ-1', d, { status: 'voided' })]);
    const id = (await pendingItem('REJ-1'))!;

    const noReason = await call('POST', `/sales/review-items/${id}:reject`, { body: {} });
    expect(noReason.status).toBe(422);
    expect(noReason.body.errors.map((e: { path: string }) => e.path)).toEqual(['reason']);

    const rejected = await call('POST', `/sales/review-items/${id}:reject`, { body: { reason: 'voided by mistake at the till' } });
    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({ status: 'rejected', decisionNote: 'voided by mistake at the till', decidedBy: 'usr_test', current: { id: txId, status: 'completed', version: 1 } });
    expect(await sql(`select status, version from sales.transactions where id = ?`, [txId])).toEqual([{ status: 'completed', version: 1 }]);
    expect(await sql(`select type, payload->'data'->'object'->>'id' as object from sales.outbox where aggregate_id = ? order by seq`, [id])).toEqual([
      { type: 'sales.review_item.rejected', object: id },
      { type: 'sales_review_item.rejected', object: id },
    ]);

    for (const action of [':accept', ':reject']) {
      const twice = await call('POST', `/sales/review-items/${id}${action}`, { body: action === ':reject' ? { reason: 'again' } : {} });
      expect(twice.status).toBe(409);
      expect(twice.body.code).toBe('conflict');
    }
    // a later re-send of the same void is held again, as a new pending item
    const again = await batch([sale('REJ-1', d, { status: 'voided' })]);
    expect(again.body.results[0]).toMatchObject({ status: 'created', id: txId });
    expect(await pendingItem('REJ-1')).not.toBe(id);
  });

  it('holds a change that moves a stored sale out of a closed day', async () => {
    const d = '2026-11-06';
    const stored = await batch([sale('MOVE-1', d)]);
    await cashDay('closed', nyc, d);
    const moved = await batch([sale('MOVE-1', '2026-11-07')]);
    expect(moved.body.results[0]).toMatchObject({ status: 'created', id: stored.body.results[0].id, warnings: [{ path: 'occurredAt', message: expect.stringContaining(`business day ${d}`) }] });
    const item = await call('GET', `/sales/review-items/${await pendingItem('MOVE-1')}`);
    expect(item.body).toMatchObject({ kind: 'change', businessDays: [d, '2026-11-07'], record: { businessDay: '2026-11-07' }, current: { businessDay: d } });
  });

  it('answers 409 version_mismatch when If-Match names an older version of the item', async () => {
    await batch([sale('VER-1', day)]);
    await batch([sale('VER-1', day, { registerId: 'R2' })]);
    const id = (await pendingItem('VER-1'))!;
    const stale = await call('POST', `/sales/review-items/${id}:accept`, { headers: { 'if-match': '1' } });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('version_mismatch');
    const fresh = await call('POST', `/sales/review-items/${id}:accept`, { headers: { 'if-match': '2' } });
    expect(fresh.status).toBe(200);
    expect(fresh.body.current.registerId).toBe('R2');
  });

  it('keeps one pending item per record when two clients send the same held batch at the same time', async () => {
    const same = Array.from({ length: 20 }, (_, i) => sale(`CON-${i}`, day));
    const [a, b] = await Promise.all([batch(same), batch(same)]);
    expect(a.body.created + b.body.created).toBe(20);
    expect(a.body.unchanged + b.body.unchanged).toBe(20);
    expect(a.body.results.map((r: { id: string }) => r.id)).toEqual(b.body.results.map((r: { id: string }) => r.id));
    expect(await sql(`select count(*)::int n from sales.review_items where external_id like 'CON-%' and status = 'pending'`)).toEqual([{ n: 20 }]);
  });

  it('answers 404 for an unknown item', async () => {
    expect((await call('GET', '/sales/review-items/rvi_nothing')).status).toBe(404);
    expect((await call('POST', '/sales/review-items/rvi_nothing:accept')).status).toBe(404);
  });
});

describe('open and reopened days', () => {
  it('stores a sale of an open day directly, with no warning', async () => {
    const r = await batch([sale('OPEN-1', '2026-11-08')]);
    expect(r.body.results[0]).toEqual({ index: 0, externalId: 'OPEN-1', status: 'created', id: expect.stringMatching(/^stx_/) });
    expect(await sql(`select 1 from sales.transactions where external_id = 'OPEN-1'`)).toHaveLength(1);
  });

  it('lets sales through again after a reopen; a pending item stays pending and takes later versions until a person decides', async () => {
    const d = '2026-11-09';
    await cashDay('closed', nyc, d);
    const held = await batch([sale('RE-1', d), sale('RE-2', d)]);
    expect(held.body.results.map((x: { status: string }) => x.status)).toEqual(['created', 'created']);
    const promised = held.body.results[0].id;
    const item1 = (await pendingItem('RE-1'))!;
    await cashDay('reopened', nyc, d);
    expect(await pendingItem('RE-1')).toBe(item1); // reopening decides nothing

    const after = await batch([sale('RE-3', d), sale('RE-1', d, { registerId: 'R5' })]);
    expect(after.body.results[0]).toEqual({ index: 0, externalId: 'RE-3', status: 'created', id: expect.any(String) });
    expect(await sql(`select 1 from sales.transactions where external_id = 'RE-3'`)).toHaveLength(1);
    // a newer version of a held record replaces the held one, keeping the id it was promised
    expect(after.body.results[1]).toEqual({
      index: 1,
      externalId: 'RE-1',
      status: 'updated',
      id: promised,
      warnings: [{ path: 'externalId', message: expect.stringContaining(item1) }],
    });
    expect(await sql(`select 1 from sales.transactions where external_id = 'RE-1'`)).toEqual([]);
    const item = await call('GET', `/sales/review-items/${item1}`);
    expect(item.body).toMatchObject({ status: 'pending', version: 2, reason: expect.stringContaining(`Business day ${d}`), record: { registerId: 'R5' } });
    const accepted = await call('POST', `/sales/review-items/${item1}:accept`);
    expect(accepted.body.current).toMatchObject({ id: promised, registerId: 'R5' });
    // decided: the next version goes straight to the (open) day
    const later = await batch([sale('RE-1', d, { registerId: 'R6' })]);
    expect(later.body.results[0]).toEqual({ index: 0, externalId: 'RE-1', status: 'updated', id: promised });
  });
});

describe('refunds and voids (spec: ingestion rule 6)', () => {
  const d = '2026-11-12';

  it('refuses to un-void a voided transaction (path status) and accepts the void re-sent unchanged', async () => {
    await batch([sale('UV-1', d)]);
    const voided = await batch([sale('UV-1', d, { status: 'voided' })]);
    expect(voided.body.results[0].status).toBe('updated');
    const unvoid = await batch([sale('UV-1', d)]);
    expect(unvoid.body.results[0]).toMatchObject({ status: 'rejected', errors: [{ path: 'status', message: expect.stringContaining('new transaction') }] });
    expect(await sql(`select status from sales.transactions where external_id = 'UV-1'`)).toEqual([{ status: 'voided' }]);
    const again = await batch([sale('UV-1', d, { status: 'voided' })]);
    expect(again.body.results[0].status).toBe('unchanged');
  });

  it('accepts a refund whose refundOf is unknown with a warning (refundOf "when known")', async () => {
    const r = await batch([refund('RF-1', d, 'NEVER-SEEN')]);
    expect(r.body.results[0]).toMatchObject({ status: 'created', warnings: [{ path: 'refundOf', message: expect.stringContaining('NEVER-SEEN') }] });
    expect(await sql(`select refund_of from sales.transactions where external_id = 'RF-1'`)).toEqual([{ refund_of: 'NEVER-SEEN' }]);
  });

  it('links a refund to a stored sale or one in the same batch without warnings; a refund without refundOf is fine', async () => {
    await batch([sale('RF-S1', d)]);
    const r = await batch([refund('RF-2', d, 'RF-S1'), sale('RF-S2', d), refund('RF-3', d, 'RF-S2'), refund('RF-4', d, undefined)]);
    expect(r.body.results.map((x: { status: string; warnings?: unknown }) => [x.status, x.warnings])).toEqual([
      ['created', undefined],
      ['created', undefined],
      ['created', undefined],
      ['created', undefined],
    ]);
  });

  it('warns when refunds of a sale add up to more than its total, counting earlier refunds once', async () => {
    await batch([sale('RF-S3', d)]);
    const first = await batch([refund('RF-5', d, 'RF-S3', '15.00')]);
    expect(first.body.results[0].warnings).toBeUndefined();
    // re-sending the same refund with another amount replaces it rather than adding to it
    const resent = await batch([refund('RF-5', d, 'RF-S3', '16.00')]);
    expect(resent.body.results[0]).toMatchObject({ status: 'updated' });
    expect(resent.body.results[0].warnings).toBeUndefined();
    const over = await batch([refund('RF-6', d, 'RF-S3', '5.00')]);
    expect(over.body.results[0]).toMatchObject({ status: 'created', warnings: [{ path: 'total', message: 'Refunds of RF-S3 add up to 21.00, more than its total 19.71.' }] });
  });

  it('warns on a refund of a voided sale, of a refund, or in another currency; refuses a refund of itself', async () => {
    await batch([sale('RF-S4', d, { status: 'voided' })]);
    const r = await batch([
      refund('RF-7', d, 'RF-S4'),
      refund('RF-8', d, 'RF-1'),
      { ...refund('RF-9', d, 'RF-S1'), currency: 'EUR' },
      refund('RF-10', d, 'RF-10'),
    ]);
    expect(r.body.results[0]).toMatchObject({ status: 'created', warnings: [{ path: 'refundOf', message: expect.stringContaining('voided') }] });
    expect(r.body.results[1]).toMatchObject({ status: 'created', warnings: [{ path: 'refundOf', message: expect.stringContaining('itself a refund') }] });
    expect(r.body.results[2]).toMatchObject({ status: 'created', warnings: [{ path: 'currency', message: expect.stringContaining('EUR') }] });
    expect(r.body.results[3]).toMatchObject({ status: 'rejected', errors: [{ path: 'refundOf', message: expect.any(String) }] });
  });

  it('knows an original that waits in the review queue', async () => {
    const closed = '2026-11-13';
    await cashDay('closed', nyc, closed);
    await batch([sale('RF-S5', closed)]);
    const r = await batch([refund('RF-11', '2026-11-14', 'RF-S5')]);
    expect(r.body.results[0]).toEqual({ index: 0, externalId: 'RF-11', status: 'created', id: expect.any(String) });
  });
});

describe('GET /sales/review-items: filters, reach and who may decide', () => {
  const d = '2026-11-16';
  let nycItem: string;
  let laItem: string;
  beforeAll(async () => {
    await cashDay('closed', nyc, d);
    await cashDay('closed', la, d);
    await batch([sale('Q-NYC', d)], 'pos-q');
    await batch([sale('Q-LA', d, { locationExternalId: 'LA-1', occurredAt: `${d}T20:00:00Z` })], 'pos-q-la');
    nycItem = (await pendingItem('Q-NYC', 'pos-q'))!;
    laItem = (await pendingItem('Q-LA', 'pos-q-la'))!;
  });

  it('lists pending items by default; filters status, locationId and source; pages with a cursor', async () => {
    const bySource = await call('GET', '/sales/review-items?source=pos-q');
    expect(bySource.status).toBe(200);
    expect(bySource.body.data.map((i: { id: string }) => i.id)).toEqual([nycItem]);
    const byLocation = await call('GET', `/sales/review-items?locationId=${la}`);
    expect(byLocation.body.data.map((i: { id: string }) => i.id)).toEqual([laItem]);
    const accepted = await call('GET', '/sales/review-items?status=accepted');
    expect(accepted.body.data.length).toBeGreaterThan(0);
    expect(accepted.body.data.every((i: { status: string }) => i.status === 'accepted')).toBe(true);
    const rejected = await call('GET', '/sales/review-items?status=rejected');
    expect(rejected.body.data.map((i: { externalId: string }) => i.externalId)).toContain('REJ-1');

    const page1 = await call('GET', '/sales/review-items?limit=1');
    expect(page1.body).toMatchObject({ hasMore: true, nextCursor: expect.any(String) });
    const page2 = await call('GET', `/sales/review-items?limit=1&cursor=${page1.body.nextCursor}`);
    expect(page2.body.data[0].id > page1.body.data[0].id).toBe(true);

    const bad = await call('GET', '/sales/review-items?status=lost');
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { path: string }) => e.path)).toEqual(['status']);
  });

  it('lets an integration key with sales:read list the queue', async () => {
    const r = await stack.services.sales.call('GET', '/sales/review-items?source=pos-q', { as: integration(['sales:read']) });
    expect(r.status).toBe(200);
    expect(r.body.data).toHaveLength(1);
  });

  it('keeps a location-bound person to reachable locations', async () => {
    const bound = person({ 'sales.read': [{ type: 'locations', ids: [la] }], 'sales.manage': [{ type: 'locations', ids: [la] }] });
    const list = await call('GET', '/sales/review-items', { as: bound });
    expect(list.body.data.map((i: { locationId: string }) => i.locationId)).toEqual([la]);
    const other = await call('GET', `/sales/review-items/${nycItem}`, { as: bound });
    expect([other.status, other.body.code]).toEqual([403, 'out_of_reach']);
    const filtered = await call('GET', `/sales/review-items?locationId=${nyc}`, { as: bound });
    expect([filtered.status, filtered.body.code]).toEqual([403, 'out_of_reach']);
    const decide = await call('POST', `/sales/review-items/${nycItem}:reject`, { as: bound, body: { reason: 'not mine' } });
    expect([decide.status, decide.body.code]).toEqual([403, 'out_of_reach']);
    expect((await call('GET', `/sales/review-items/${laItem}`, { as: bound })).status).toBe(200);
  });

  it('refuses decisions to integrations and to people without sales.manage', async () => {
    const key = await stack.services.sales.call('POST', `/sales/review-items/${nycItem}:accept`, { as: integration(['sales:write', 'sales:read']), body: {} });
    expect([key.status, key.body.code]).toEqual([403, 'forbidden']);
    const reader = await call('POST', `/sales/review-items/${nycItem}:accept`, { as: person({ 'sales.read': [{ type: 'everyone' }] }) });
    expect([reader.status, reader.body.code]).toEqual([403, 'forbidden']);
    const none = await call('GET', '/sales/review-items', { as: person({}) });
    expect([none.status, none.body.code]).toEqual([403, 'forbidden']);
    expect(await pendingItem('Q-NYC', 'pos-q')).toBe(nycItem);
  });
});

describe('summaries for a closed business day (spec: ingestion rule 7)', () => {
  const day = '2026-12-01';
  beforeAll(async () => {
    await cashDay('closed', nyc, day);
  });

  it('holds a late summary: 202 created with a periodStart warning, nothing in sales.summaries, a pending summary item', async () => {
    const r = await summaries([daySummary('S-LATE-1', day)]);
    expect(r.status).toBe(202);
    expect(r.body).toMatchObject({ received: 1, created: 1, rejected: 0 });
    const res = r.body.results[0];
    expect(res).toEqual({
      index: 0,
      externalId: 'S-LATE-1',
      status: 'created',
      id: expect.stringMatching(/^ssm_/),
      warnings: [{ path: 'periodStart', message: `Business day ${day} at location ${nyc} is closed in cash: the record is held for review and changes no figures until a person accepts it.` }],
    });
    expect(await sql(`select 1 from sales.summaries where external_id = 'S-LATE-1'`)).toEqual([]);
    expect(await pendingItem('S-LATE-1', 'sum-nyc')).toBeUndefined(); // not a transaction item
    const id = (await pendingItem('S-LATE-1', 'sum-nyc', 'summary'))!;
    const item = await call('GET', `/sales/review-items/${id}`);
    expect(item.status).toBe(200);
    expect(item.body).toEqual({
      id,
      source: 'sum-nyc',
      externalId: 'S-LATE-1',
      recordKind: 'summary',
      summaryId: res.id,
      locationId: nyc,
      businessDays: [day],
      kind: 'new',
      status: 'pending',
      reason: res.warnings[0].message,
      warnings: res.warnings,
      record: {
        locationId: nyc,
        periodStart: `${day}T09:00:00.000Z`,
        periodEnd: `${nextDay(day)}T09:00:00.000Z`,
        currency: 'USD',
        grossSales: '1250.40',
        discounts: '50.40',
        netSales: '1200.00',
        tax: '96.00',
        transactions: 80,
        guests: 95,
        byChannel: [
          { channel: 'in_store', netSales: '900.00', transactions: 60 },
          { channel: 'delivery', netSales: '300.00', transactions: 20 },
        ],
      },
      decidedAt: null,
      decidedBy: null,
      decisionNote: null,
      version: 1,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      current: null,
    });
    expect(item.body.transactionId).toBeUndefined();
    // no summary event and nothing for reports while it waits
    expect(await sql(`select 1 from sales.outbox where type = 'sales.summary.updated' and aggregate_id = ?`, [res.id])).toEqual([]);

    const listed = await call('GET', '/sales/review-items?source=sum-nyc&recordKind=summary');
    expect(listed.body.data.map((i: { id: string; recordKind: string }) => [i.id, i.recordKind])).toContainEqual([id, 'summary']);
    const transactionsOnly = await call('GET', '/sales/review-items?source=sum-nyc&recordKind=transaction');
    expect(transactionsOnly.body.data).toEqual([]);
    const bad = await call('GET', '/sales/review-items?recordKind=order');
    expect([bad.status, bad.body.errors.map((e: { path: string }) => e.path)]).toEqual([400, ['recordKind']]);
  });

  it('answers unchanged for the same summary again and updated (item replaced) for changed content', async () => {
    const first = await summaries([daySummary('S-LATE-2', day)], 'sum-nyc-2');
    const again = await summaries([daySummary('S-LATE-2', day)], 'sum-nyc-2');
    expect(again.body.results[0]).toMatchObject({ status: 'unchanged', id: first.body.results[0].id });
    const changed = await summaries([daySummary('S-LATE-2', day, { guests: 97 })], 'sum-nyc-2');
    expect(changed.body.results[0]).toMatchObject({ status: 'updated', id: first.body.results[0].id, warnings: [{ path: 'periodStart', message: expect.any(String) }] });
    const items = await sql(`select status, version, kind, "row"->>'guests' as guests from sales.review_items where source = 'sum-nyc-2' and external_id = 'S-LATE-2'`);
    expect(items).toEqual([{ status: 'pending', version: 2, kind: 'new', guests: '97' }]);
    expect(await sql(`select 1 from sales.summaries where source = 'sum-nyc-2'`)).toEqual([]);
  });

  it('keeps one pending item per summary when two clients send the same held batch at once; a repeat in the batch is a duplicate', async () => {
    const same = Array.from({ length: 10 }, (_, i) => hourSummary(`S-CON-${i}`, `${day}T${String(10 + i).padStart(2, '0')}:00:00Z`));
    const [a, b] = await Promise.all([summaries(same, 'sum-con'), summaries(same, 'sum-con')]);
    expect(a.body.created + b.body.created).toBe(10);
    expect(a.body.unchanged + b.body.unchanged).toBe(10);
    expect(a.body.results.map((r: { id: string }) => r.id)).toEqual(b.body.results.map((r: { id: string }) => r.id));
    expect(await sql(`select count(*)::int n from sales.review_items where source = 'sum-con' and status = 'pending'`)).toEqual([{ n: 10 }]);

    const dup = await summaries([hourSummary('S-DUP-1', `${day}T22:00:00Z`), hourSummary('S-DUP-1', `${day}T22:00:00Z`, { guests: 3 })], 'sum-con');
    expect(dup.body.results).toEqual([
      { index: 0, externalId: 'S-DUP-1', status: 'created', id: expect.stringMatching(/^ssm_/), warnings: [{ path: 'periodStart', message: expect.any(String) }] },
      { index: 1, externalId: 'S-DUP-1', status: 'duplicate' },
    ]);
  });

  it('holds an hour whose period runs into a closed day, naming both days it spans', async () => {
    const open = '2026-11-30';
    // 03:30 to 04:30 in New York: the last half hour of 11-30, the first of 12-01 (closed)
    const r = await summaries([hourSummary('S-SPAN-1', `${day}T08:30:00Z`)], 'sum-span');
    expect(r.body.results[0]).toMatchObject({ status: 'created', warnings: [{ path: 'periodStart', message: expect.stringContaining(`Business day ${day} at location ${nyc} is closed`) }] });
    const item = await call('GET', `/sales/review-items/${await pendingItem('S-SPAN-1', 'sum-span', 'summary')}`);
    expect(item.body).toMatchObject({ recordKind: 'summary', kind: 'new', businessDays: [open, day] });
    // an hour wholly on the open day before is stored as usual
    const before = await summaries([hourSummary('S-SPAN-0', `${day}T07:00:00Z`)], 'sum-span');
    expect(before.body.results[0]).toEqual({ index: 0, externalId: 'S-SPAN-0', status: 'created', id: expect.stringMatching(/^ssm_/) });
    expect(await sql(`select 1 from sales.summaries where source = 'sum-span' and external_id = 'S-SPAN-0'`)).toHaveLength(1);
  });

  it('names every closed day a summary touches and every closed day of the stored summary it moves', async () => {
    const d1 = '2026-12-02';
    const d2 = '2026-12-03';
    const stored = await summaries([hourSummary('S-BOTH-1', `${d1}T12:00:00Z`)], 'sum-both');
    await cashDay('closed', nyc, d1);
    await cashDay('closed', nyc, d2);
    // moved from d1 to the hour across the cut-off between d2 and d3 (d3 open)
    const r = await summaries([hourSummary('S-BOTH-1', `${nextDay(d2)}T08:30:00Z`)], 'sum-both');
    expect(r.body.results[0]).toMatchObject({
      status: 'created',
      id: stored.body.results[0].id,
      warnings: [{ path: 'periodStart', message: `Business day ${d2} at location ${nyc} and business day ${d1} at location ${nyc} (where the stored summary is) are closed in cash: the record is held for review and changes no figures until a person accepts it.` }],
    });
    const item = await call('GET', `/sales/review-items/${await pendingItem('S-BOTH-1', 'sum-both', 'summary')}`);
    expect(item.body).toMatchObject({ kind: 'change', summaryId: stored.body.results[0].id, businessDays: [d1, d2, nextDay(d2)], current: { id: stored.body.results[0].id, periodStart: `${d1}T12:00:00.000Z` } });
  });

  it('passes a summary equal to the stored one as unchanged; holds a change to a stored summary of a closed day', async () => {
    const d = '2026-12-04';
    const stored = await summaries([daySummary('S-CHG-1', d)], 'sum-chg');
    const summaryId = stored.body.results[0].id;
    await cashDay('closed', nyc, d);
    const same = await summaries([daySummary('S-CHG-1', d)], 'sum-chg');
    expect(same.body.results[0]).toEqual({ index: 0, externalId: 'S-CHG-1', status: 'unchanged', id: summaryId });
    expect(await pendingItem('S-CHG-1', 'sum-chg', 'summary')).toBeUndefined();

    const changed = await summaries([daySummary('S-CHG-1', d, { tax: '95.00' })], 'sum-chg');
    expect(changed.body.results[0]).toMatchObject({ status: 'created', id: summaryId, warnings: [{ path: 'periodStart' }] });
    expect(await sql(`select tax, version from sales.summaries where id = ?`, [summaryId])).toEqual([{ tax: '96.000000', version: 1 }]);
    const id = (await pendingItem('S-CHG-1', 'sum-chg', 'summary'))!;
    const seen = await call('GET', `/sales/review-items/${id}`);
    expect(seen.body).toMatchObject({ kind: 'change', summaryId, record: { tax: '95.00' }, current: { id: summaryId, tax: '96.00', version: 1, origin: 'ingested' } });

    const [{ before }] = await sql(`select max(seq)::text as before from sales.outbox`);
    const accepted = await call('POST', `/sales/review-items/${id}:accept`, { body: { note: 'late correction from the till' } });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({
      recordKind: 'summary',
      status: 'accepted',
      summaryId,
      decidedBy: 'usr_test',
      decisionNote: 'late correction from the till',
      version: 2,
      current: { id: summaryId, tax: '95.00', version: 2 },
    });
    expect(await sql(`select tax, version from sales.summaries where id = ?`, [summaryId])).toEqual([{ tax: '95.000000', version: 2 }]);

    const since: Array<{ type: string; aggregate_id: string; payload: any }> = await sql(
      `select type, aggregate_id, payload from sales.outbox where seq > ?::bigint and (aggregate_id in (?, ?) or type = 'sales.batch.completed') order by seq`,
      [before, summaryId, id],
    );
    // a person's decision, not a batch: no sales.batch.completed
    expect(since.map((e) => e.type)).toEqual(['sales.summary.updated', 'sales.review_item.accepted', 'sales_review_item.accepted']);
    const updated = since[0];
    expect(updated.aggregate_id).toBe(summaryId);
    expect(updated.payload).toMatchObject({ type: 'sales.summary.updated', apiVersion: 'v1', actor: { type: 'user', id: 'usr_test' }, locationId: nyc });
    expect(updated.payload.data.object).toEqual((await stack.services.sales.call('GET', `/sales-summaries/${summaryId}`, { as: pos })).body);
    expect(since[1].payload).toMatchObject({ actor: { type: 'user', id: 'usr_test' }, locationId: nyc, data: { object: { id, recordKind: 'summary', summaryId, status: 'accepted' } } });
    // the source sending the accepted content again changes nothing
    expect((await summaries([daySummary('S-CHG-1', d, { tax: '95.00' })], 'sum-chg')).body.results[0]).toEqual({ index: 0, externalId: 'S-CHG-1', status: 'unchanged', id: summaryId });
  });

  it('holds a change that moves a stored summary out of a closed day', async () => {
    const d = '2026-12-05';
    const stored = await summaries([daySummary('S-MOVE-1', d)], 'sum-move');
    await cashDay('closed', nyc, d);
    const moved = await summaries([daySummary('S-MOVE-1', '2026-12-06')], 'sum-move');
    expect(moved.body.results[0]).toMatchObject({
      status: 'created',
      id: stored.body.results[0].id,
      warnings: [{ path: 'periodStart', message: `The stored summary covers business day ${d} at location ${nyc}, which is closed in cash: the record is held for review and changes no figures until a person accepts it.` }],
    });
    const item = await call('GET', `/sales/review-items/${await pendingItem('S-MOVE-1', 'sum-move', 'summary')}`);
    expect(item.body).toMatchObject({ kind: 'change', businessDays: [d, '2026-12-06'], record: { periodStart: '2026-12-06T09:00:00.000Z' }, current: { periodStart: `${d}T09:00:00.000Z` } });
  });

  it('accepting a new held summary stores it under the id the batch result gave', async () => {
    const r = await summaries([daySummary('S-NEW-1', day)], 'sum-new');
    const summaryId = r.body.results[0].id;
    const id = (await pendingItem('S-NEW-1', 'sum-new', 'summary'))!;
    const accepted = await call('POST', `/sales/review-items/${id}:accept`);
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ status: 'accepted', summaryId, decisionNote: null, current: { id: summaryId, externalId: 'S-NEW-1', origin: 'ingested', netSales: '1200.00', version: 1 } });
    const got = await stack.services.sales.call('GET', `/sales-summaries/${summaryId}`, { as: pos });
    expect(got.body).toEqual(accepted.body.current);
    const events = await sql(`select payload->'data'->'object'->>'version' as version from sales.outbox where type = 'sales.summary.updated' and aggregate_id = ?`, [summaryId]);
    expect(events).toEqual([{ version: '1' }]);
    const batchEvents = await sql(`select 1 from sales.outbox where type = 'sales.batch.completed' and payload->'data'->'object'->>'endpoint' = 'POST /sales/review-items/{id}:accept'`);
    expect(batchEvents).toEqual([]);
    const again = await summaries([daySummary('S-NEW-1', day)], 'sum-new');
    expect(again.body.results[0]).toEqual({ index: 0, externalId: 'S-NEW-1', status: 'unchanged', id: summaryId });
  });

  it('rejecting keeps the stored summary as it was and records the reason', async () => {
    const d = '2026-12-07';
    const stored = await summaries([daySummary('S-REJ-1', d)], 'sum-rej');
    const summaryId = stored.body.results[0].id;
    await cashDay('closed', nyc, d);
    await summaries([daySummary('S-REJ-1', d, { guests: 12 })], 'sum-rej');
    const id = (await pendingItem('S-REJ-1', 'sum-rej', 'summary'))!;
    const rejected = await call('POST', `/sales/review-items/${id}:reject`, { body: { reason: 'guest count typed wrong' } });
    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({ recordKind: 'summary', status: 'rejected', decisionNote: 'guest count typed wrong', current: { id: summaryId, guests: 95, version: 1 } });
    expect(await sql(`select guests, version from sales.summaries where id = ?`, [summaryId])).toEqual([{ guests: 95, version: 1 }]);
    expect(await sql(`select type, payload->'data'->'object'->>'id' as object from sales.outbox where aggregate_id = ? order by seq`, [id])).toEqual([
      { type: 'sales.review_item.rejected', object: id },
      { type: 'sales_review_item.rejected', object: id },
    ]);
    expect(await sql(`select 1 from sales.outbox where type = 'sales.summary.updated' and aggregate_id = ?`, [summaryId])).toHaveLength(1); // the original only
    const twice = await call('POST', `/sales/review-items/${id}:accept`);
    expect([twice.status, twice.body.code]).toEqual([409, 'conflict']);
  });

  it('refuses a summary overlapping one that waits for review; refuses to accept one a stored summary now overlaps (409, stays pending)', async () => {
    await summaries([hourSummary('S-OV-1', `${day}T15:00:00Z`)], 'sum-ov');
    const overlapping = await summaries([hourSummary('S-OV-2', `${day}T15:30:00Z`)], 'sum-ov');
    expect(overlapping.body.results[0]).toMatchObject({
      status: 'rejected',
      errors: [{ path: 'periodStart', message: `The period overlaps summary S-OV-1 (${day}T15:00:00.000Z to ${day}T16:00:00.000Z, waiting in the review queue) of the same location and source; its sales would count twice.` }],
    });
    // the held summary itself may be re-sent with another period (judged on its new period)
    const resent = await summaries([hourSummary('S-OV-1', `${day}T16:00:00Z`)], 'sum-ov');
    expect(resent.body.results[0]).toMatchObject({ status: 'updated' });

    const id = (await pendingItem('S-OV-1', 'sum-ov', 'summary'))!;
    // a summary stored behind the pipeline's back (e.g. restored from a backup) overlaps it now
    await sql(
      `insert into sales.summaries (id, source, external_id, origin, location_id, period_start, period_end, currency, gross_sales, discounts, net_sales, tax, transactions, by_channel, content_hash, version, created_at, updated_at)
       values ('ssm_OVERLAP', 'sum-ov', 'S-OV-X', 'ingested', ?, ?, ?, null, 1, 0, 1, 0, 1, '[]', repeat('0', 64), 1, now(), now())`,
      [nyc, `${day}T16:30:00Z`, `${day}T17:30:00Z`],
    );
    const accepted = await call('POST', `/sales/review-items/${id}:accept`);
    expect(accepted.status).toBe(409);
    expect(accepted.body).toMatchObject({ code: 'conflict', detail: expect.stringContaining('S-OV-X') });
    expect((await call('GET', `/sales/review-items/${id}`)).body).toMatchObject({ status: 'pending', version: 2 });
    expect(await sql(`select 1 from sales.summaries where external_id = 'S-OV-1'`)).toEqual([]);
  });

  it('keeps a transaction and a summary of one source and externalId apart in the queue', async () => {
    await cashDay('closed', la, day);
    await batch([sale('SAME-EXT', day)], 'pos-mixed');
    const s = await summaries([daySummary('SAME-EXT', day, { locationExternalId: 'LA-1', periodStart: `${day}T12:00:00Z`, periodEnd: `${nextDay(day)}T12:00:00Z` })], 'pos-mixed');
    expect(s.body.results[0]).toMatchObject({ status: 'created', warnings: [{ path: 'periodStart', message: expect.stringContaining(la) }] });
    const rows = await sql(`select record_kind, location_id, kind from sales.review_items where source = 'pos-mixed' and external_id = 'SAME-EXT' and status = 'pending' order by record_kind`);
    expect(rows).toEqual([
      { record_kind: 'summary', location_id: la, kind: 'new' },
      { record_kind: 'transaction', location_id: nyc, kind: 'new' },
    ]);
  });

  it('after a reopen, a newer version of a held summary replaces the held one; deciding lets the next go straight through', async () => {
    const d = '2026-12-08';
    await cashDay('closed', nyc, d);
    const held = await summaries([daySummary('S-RE-1', d)], 'sum-re');
    const promised = held.body.results[0].id;
    const itemId = (await pendingItem('S-RE-1', 'sum-re', 'summary'))!;
    await cashDay('reopened', nyc, d);
    const later = await summaries([daySummary('S-RE-1', d, { guests: 90 })], 'sum-re');
    expect(later.body.results[0]).toEqual({ index: 0, externalId: 'S-RE-1', status: 'updated', id: promised, warnings: [{ path: 'externalId', message: expect.stringContaining(itemId) }] });
    expect(await sql(`select 1 from sales.summaries where source = 'sum-re'`)).toEqual([]);
    const item = await call('GET', `/sales/review-items/${itemId}`);
    expect(item.body).toMatchObject({ status: 'pending', version: 2, reason: expect.stringContaining(`Business day ${d}`), record: { guests: 90 } });
    expect((await call('POST', `/sales/review-items/${itemId}:accept`)).body.current).toMatchObject({ id: promised, guests: 90 });
    const next = await summaries([daySummary('S-RE-1', d, { guests: 91 })], 'sum-re');
    expect(next.body.results[0]).toEqual({ index: 0, externalId: 'S-RE-1', status: 'updated', id: promised });
  });

  it('keeps a location-bound person to summary items of reachable locations', async () => {
    const id = (await pendingItem('S-LATE-1', 'sum-nyc', 'summary'))!;
    const bound = person({ 'sales.read': [{ type: 'locations', ids: [la] }], 'sales.manage': [{ type: 'locations', ids: [la] }] });
    const got = await call('GET', `/sales/review-items/${id}`, { as: bound });
    expect([got.status, got.body.code]).toEqual([403, 'out_of_reach']);
    const decide = await call('POST', `/sales/review-items/${id}:accept`, { as: bound });
    expect([decide.status, decide.body.code]).toEqual([403, 'out_of_reach']);
    const key = await stack.services.sales.call('POST', `/sales/review-items/${id}:reject`, { as: integration(['sales:write', 'sales:read']), body: { reason: 'no' } });
    expect([key.status, key.body.code]).toEqual([403, 'forbidden']);
    expect(await pendingItem('S-LATE-1', 'sum-nyc', 'summary')).toBe(id);
  });
});

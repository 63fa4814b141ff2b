/**
 * Items matching (spec: ingestion rule 3): the item replica fed by inventory's item events, lines
 * matched by itemExternalId / itemSku / itemBarcode, the unmapped-items queue and
 * `POST /sales/unmapped-items:map` recalculating past sales.
 */
import { Client } from 'pg';
import { organizationService } from '@svc/organization';
import { newIdWithPrefix } from '@bop/shared';
import { salesService } from '../src';
import { eventually, integration, person, serviceSql, standardLocations, startTestServices, type ServiceSql, type TestServices } from '@bop/test-support';

let stack: TestServices;
const pos = integration(['sales:write', 'sales:read']);
let locA: string;
let locB: string;

const sql: ServiceSql = (q, p) => serviceSql(stack.services.sales)(q, p);
const call = (method: string, path: string, opts: { as?: any; body?: unknown } = {}) => stack.services.sales.call(method, path, { as: pos, ...opts });
const batch = (transactions: unknown[], source = 'pos-items') => call('POST', '/sales/transactions:batch', { body: { source, transactions } });
const map = (mappings: unknown[], as: any = person()) => call('POST', '/sales/unmapped-items:map', { as, body: { mappings } });

/** A sale of one unit at 1.00 per line, paid by card; `lines` carry the item references under test. */
function sale(externalId: string, lines: Array<Record<string, unknown>>, over: Record<string, unknown> = {}) {
  const total = `${lines.length}.00`;
  return {
    externalId,
    locationExternalId: 'NYC-1',
    occurredAt: '2026-11-21T15:00:00Z',
    lines: lines.map((l) => ({ quantity: '1', unitPrice: '1.00', ...l })),
    tenders: [{ type: 'card', amount: total }],
    subtotal: total,
    tax: '0.00',
    total,
    currency: 'USD',
    ...over,
  };
}

let clock = Date.parse('2026-11-01T00:00:00Z');
/** An inventory item as `item.created` / `item.updated` carry it. */
function item(id: string, over: Record<string, unknown> = {}) {
  clock += 1000;
  return { id, sku: null, barcodes: [], externalId: null, name: id, status: 'active', updatedAt: new Date(clock).toISOString(), ...over };
}

async function publishItem(object: Record<string, unknown>, type = 'item.created') {
  const envelope = { id: newIdWithPrefix('evt'), type, createdAt: new Date().toISOString(), apiVersion: 'v1', actor: { type: 'system', id: null }, locationId: null, data: { object } };
  await stack.bus.publish([{ topic: 'inventory', key: String(object.id), eventId: envelope.id, type, payload: envelope }]);
  return envelope;
}

/** Publishes and waits until the replica holds this state. */
async function givenItem(object: Record<string, unknown>, type = 'item.created') {
  await publishItem(object, type);
  await eventually(async () => (await sql(`select 1 from sales.items where id = ? and updated_at = ?`, [object.id, object.updatedAt])).length > 0);
  return object;
}

async function stored(externalId: string, source = 'pos-items') {
  const rows = await sql(`select id, lines, version, updated_at, content_hash from sales.transactions where source = ? and external_id = ?`, [source, externalId]);
  return { ...rows[0], updated_at: new Date(rows[0].updated_at) } as { id: string; lines: Array<{ itemId: string | null; itemSku: string | null }>; version: number; updated_at: Date; content_hash: string };
}

/** An online order of `lines` (one unit at 1.00 each) fulfilled at NYC-1. */
const putOrder = (externalId: string, lines: Array<Record<string, unknown>>, source = 'shop-items') =>
  call('PUT', `/sales-orders/external/${encodeURIComponent(externalId)}`, {
    body: { source, locationExternalId: 'NYC-1', placedAt: '2026-11-21T09:30:00Z', lines: lines.map((l) => ({ quantity: '1', unitPrice: '1.00', ...l })), currency: 'USD' },
  });

async function storedOrder(externalId: string, source = 'shop-items') {
  const rows = await sql(`select id, lines, version, updated_at, content_hash, core_hash from sales.orders where source = ? and external_id = ?`, [source, externalId]);
  return { ...rows[0], updated_at: new Date(rows[0].updated_at) } as {
    id: string;
    lines: Array<{ itemId: string | null; itemSku: string | null }>;
    version: number;
    updated_at: Date;
    content_hash: string;
    core_hash: string;
  };
}

async function entry(refValue: string, source = 'pos-items') {
  const rows = await sql(`select id from sales.unmapped_items where source = ? and ref_value = ?`, [source, refValue]);
  if (rows.length === 0) return undefined;
  const list = await call('GET', `/sales/unmapped-items?source=${source}&status=open&limit=200`);
  const mapped = await call('GET', `/sales/unmapped-items?source=${source}&status=mapped&limit=200`);
  return [...list.body.data, ...mapped.body.data].find((e: { id: string }) => e.id === rows[0].id);
}

const unmappedEvents = (refValue: string) =>
  sql(`select payload from sales.outbox where type = 'sales.unmapped_item' and payload->'data'->'object'->>'refValue' = ? order by seq`, [refValue]).then((r) => r.map((x) => x.payload));

beforeAll(async () => {
  stack = await startTestServices([organizationService, salesService]);
  ({ 'NYC-1': locA, 'BER-1': locB } = await standardLocations(stack, ['sales']));
});
afterAll(async () => {
  await stack?.close();
});

describe('item replica (consumer of inventory item events)', () => {
  it('keeps created and updated items, and ignores an older replayed event', async () => {
    const v1 = await givenItem(item('itm_REPLICA', { sku: 'R-1', barcodes: ['400', '401'], externalId: 'R-EXT', name: 'Replica' }));
    expect((await sql(`select sku, barcodes, external_id, name, status from sales.items where id = 'itm_REPLICA'`))[0]).toEqual({
      sku: 'R-1', barcodes: ['400', '401'], external_id: 'R-EXT', name: 'Replica', status: 'active',
    });
    const v2 = await givenItem(item('itm_REPLICA', { sku: 'R-2', barcodes: [], name: 'Replica 2', status: 'archived' }), 'item.updated');
    // the older state arrives again (a replay): it must not win
    await publishItem(v1, 'item.updated');
    const marker = await givenItem(item('itm_REPLICA_MARKER'));
    expect(marker).toBeDefined();
    const row = (await sql(`select sku, barcodes, name, status, updated_at from sales.items where id = 'itm_REPLICA'`))[0];
    expect({ ...row, updated_at: new Date(row.updated_at).toISOString() }).toEqual({ sku: 'R-2', barcodes: [], name: 'Replica 2', status: 'archived', updated_at: v2.updatedAt });
  });

  it('parks a malformed item event in dead_letters', async () => {
    const ev = await publishItem({ id: 'itm_BAD', sku: 7, status: 'gone' });
    const parked = await eventually(async () => (await sql(`select consumer, error from sales.dead_letters where event_id = ?`, [ev.id]))[0], 30_000);
    expect(parked).toEqual({ consumer: 'sales.item-replica', error: expect.stringMatching(/not an ItemEventObject/) });
    expect(await sql(`select 1 from sales.items where id = 'itm_BAD'`)).toEqual([]);
  });
});

describe('matching lines to items', () => {
  it('matches by itemExternalId, then itemSku, then itemBarcode; archived items still match', async () => {
    await givenItem(item('itm_MA', { externalId: 'M-EXT-A', sku: 'M-SKU-A', barcodes: ['M-111'] }));
    await givenItem(item('itm_MB', { sku: 'M-SKU-B', barcodes: ['M-222'] }));
    await givenItem(item('itm_MC', { barcodes: ['M-333', 'M-334'] }));
    await givenItem(item('itm_MD', { sku: 'M-SKU-D', status: 'archived' }));
    const r = await batch([
      sale('M-1', [
        { itemExternalId: 'M-EXT-A' },
        { itemSku: 'M-SKU-B' },
        { itemBarcode: 'M-334' },
        { itemExternalId: 'M-EXT-A', itemSku: 'M-SKU-B' }, // externalId wins
        { itemSku: 'M-SKU-B', itemBarcode: 'M-333' }, // SKU wins over barcode
        { itemExternalId: 'M-NOPE', itemSku: 'M-NOPE', itemBarcode: 'M-333' }, // only the barcode matches
        { itemSku: 'M-SKU-D' },
        { itemSku: 'M-UNKNOWN', name: 'Unknown' },
        { name: 'Service charge' },
      ]),
    ]);
    expect(r.status).toBe(202);
    expect(r.body.results[0]).toMatchObject({ status: 'created' });
    const list = await call('GET', '/sales/transactions?source=pos-items');
    const t = list.body.data.find((x: { externalId: string }) => x.externalId === 'M-1');
    expect(t.lines.map((l: { itemId: string | null }) => l.itemId)).toEqual(['itm_MA', 'itm_MB', 'itm_MC', 'itm_MA', 'itm_MB', 'itm_MC', 'itm_MD', null, null]);
    // the unmatched line is stored as sent; a line naming no item has nothing to map and is not queued
    expect(t.lines[7]).toMatchObject({ itemSku: 'M-UNKNOWN', name: 'Unknown', quantity: '1', lineTotal: '1.00' });
    expect(await entry('M-UNKNOWN')).toMatchObject({ refField: 'itemSku', transactionCount: 1 });
    expect(await sql(`select 1 from sales.unmapped_items where 'Service charge' = any(sample_names)`)).toEqual([]);
  });

  it('prefers the active item when an archived one shares the reference', async () => {
    await givenItem(item('itm_OLD', { sku: 'M-SHARED', status: 'archived' }));
    await givenItem(item('itm_NEW', { sku: 'M-SHARED' }));
    await batch([sale('M-2', [{ itemSku: 'M-SHARED' }])]);
    expect((await stored('M-2')).lines[0].itemId).toBe('itm_NEW');
  });
});

describe('the unmapped-items queue', () => {
  it('new POS items that many batches send at once (a launch at every location) are entered once each, every batch stored', async () => {
    // 8 batches at once, each naming the same 3 new POS items in a different order: none is refused
    const items = ['LAUNCH-A', 'LAUNCH-B', 'LAUNCH-C'];
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, b) => batch([sale(`L-${b}`, [...items.slice(b % 3), ...items.slice(0, b % 3)].map((itemSku) => ({ itemSku })))], 'pos-launch')),
    );
    expect(answers.map((a) => [a.status, a.body.created])).toEqual(Array.from({ length: 8 }, () => [202, 1]));
    for (const sku of items) {
      expect(await entry(sku, 'pos-launch')).toMatchObject({ transactionCount: 8, status: 'open' });
      expect(await unmappedEvents(sku)).toHaveLength(1);
    }
  });

  it('lists each POS item once per source with counts, first/last seen and sample names; one event per new POS item', async () => {
    const first = sale('Q-1', [{ itemSku: 'MYST', name: 'Mystery' }, { itemSku: 'MYST', name: 'Mystery Large' }], { occurredAt: '2026-11-20T15:00:00Z' });
    const second = sale('Q-2', [{ itemSku: 'MYST', name: 'mystery' }, { itemBarcode: 'Q-BAR' }], { occurredAt: '2026-11-21T16:00:00Z' });
    expect((await batch([first, second])).body).toMatchObject({ created: 2 });
    const e = await entry('MYST');
    expect(e).toMatchObject({
      source: 'pos-items',
      refField: 'itemSku',
      refValue: 'MYST',
      itemSku: 'MYST',
      itemBarcode: null,
      itemExternalId: null,
      sampleNames: ['Mystery', 'Mystery Large', 'mystery'],
      transactionCount: 2, // per transaction, not per line
      firstSeenAt: '2026-11-20T15:00:00.000Z',
      lastSeenAt: '2026-11-21T16:00:00.000Z',
      locationIds: [locA],
      status: 'open',
      itemId: null,
      suggestedItemId: null,
      mappedAt: null,
      mappedBy: null,
    });
    expect(e.id).toMatch(/^umi_/);
    expect(await entry('Q-BAR')).toMatchObject({ refField: 'itemBarcode', transactionCount: 1 });

    // the same content again: unchanged, nothing counted
    expect((await batch([first, second])).body).toMatchObject({ unchanged: 2 });
    expect(await entry('MYST')).toMatchObject({ transactionCount: 2 });
    // an update still carrying the POS item does not count twice
    expect((await batch([sale('Q-2', [{ itemSku: 'MYST', name: 'Mystery XL' }], { occurredAt: '2026-11-21T16:00:00Z', registerId: 'R2' })])).body).toMatchObject({ updated: 1 });
    const afterUpdate = await entry('MYST');
    expect(afterUpdate).toMatchObject({ transactionCount: 2, sampleNames: ['Mystery', 'Mystery Large', 'mystery', 'Mystery XL'] });
    expect(await entry('Q-BAR')).toMatchObject({ transactionCount: 0 });
    // an update that drops the line counts it no more
    expect((await batch([sale('Q-2', [{ itemSku: 'M-SKU-B' }], { occurredAt: '2026-11-21T16:00:00Z' })])).body).toMatchObject({ updated: 1 });
    expect(await entry('MYST')).toMatchObject({ transactionCount: 1, lastSeenAt: '2026-11-21T16:00:00.000Z' });
    // another source is another POS item
    await batch([sale('Q-3', [{ itemSku: 'MYST' }])], 'pos-other');
    expect(await entry('MYST', 'pos-other')).toMatchObject({ transactionCount: 1 });

    const events = await unmappedEvents('MYST');
    expect(events).toHaveLength(2);
    expect(events[0]).toMatchObject({
      type: 'sales.unmapped_item',
      apiVersion: 'v1',
      actor: { type: 'integration', id: 'int_test' },
      locationId: locA,
      data: { object: { id: e.id, source: 'pos-items', refField: 'itemSku', refValue: 'MYST', transactionCount: 2, status: 'open', locationIds: [locA] } },
    });
    expect(events[0].id).toMatch(/^evt_/);
    expect(events[1].data.object).toMatchObject({ source: 'pos-other' });
    expect(await unmappedEvents('Q-BAR')).toHaveLength(1);
  });

  it('counts each record once when two clients send the same new POS item at the same time', async () => {
    const same = Array.from({ length: 20 }, (_, i) => sale(`CC-${i}`, [{ itemSku: 'CONC' }]));
    const [a, b] = await Promise.all([batch(same), batch(same)]);
    expect(a.body.created + b.body.created).toBe(20);
    expect(await entry('CONC')).toMatchObject({ transactionCount: 20 });
    expect(await unmappedEvents('CONC')).toHaveLength(1);
  });

  it('filters by source, status and location, within the caller’s reach', async () => {
    await batch([sale('L-1', [{ itemSku: 'L-NYC' }]), sale('L-2', [{ itemSku: 'L-BER' }], { locationExternalId: 'BER-1' }), sale('L-3', [{ itemSku: 'L-BOTH' }])]);
    await batch([sale('L-4', [{ itemSku: 'L-BOTH', name: 'Both' }], { locationExternalId: 'BER-1' })]);
    const refs = (body: { data: Array<{ refValue: string }> }) => body.data.map((x) => x.refValue).filter((v) => v.startsWith('L-'));

    const all = await call('GET', '/sales/unmapped-items?source=pos-items');
    expect(all.status).toBe(200);
    expect(refs(all.body)).toEqual(['L-BER', 'L-BOTH', 'L-NYC']);
    expect(all.body.data.find((x: { refValue: string }) => x.refValue === 'L-BOTH').locationIds).toEqual([locA, locB].sort());
    expect(refs((await call('GET', `/sales/unmapped-items?source=pos-items&locationId=${locB}`)).body)).toEqual(['L-BER', 'L-BOTH']);
    expect(refs((await call('GET', '/sales/unmapped-items?source=pos-items&status=mapped')).body)).toEqual([]);
    expect((await call('GET', '/sales/unmapped-items?source=nowhere')).body).toEqual({ data: [], nextCursor: null, hasMore: false });

    const page = await call('GET', '/sales/unmapped-items?source=pos-items&limit=1');
    expect(page.body).toMatchObject({ hasMore: true, nextCursor: expect.any(String) });
    const next = await call('GET', `/sales/unmapped-items?source=pos-items&limit=1&cursor=${page.body.nextCursor}`);
    expect(next.body.data[0].id > page.body.data[0].id).toBe(true);

    const berlin = person({ 'sales.read': [{ type: 'locations', ids: [locB] }] });
    const seen = await call('GET', '/sales/unmapped-items?source=pos-items', { as: berlin });
    expect(refs(seen.body)).toEqual(['L-BER', 'L-BOTH']);
    // only the locations the caller reaches are shown
    expect(seen.body.data.find((x: { refValue: string }) => x.refValue === 'L-BOTH').locationIds).toEqual([locB]);
    const out = await call('GET', `/sales/unmapped-items?locationId=${locA}`, { as: berlin });
    expect(out.status).toBe(403);
    expect(out.body.code).toBe('out_of_reach');

    const bad = await call('GET', '/sales/unmapped-items?status=closed');
    expect(bad.status).toBeGreaterThanOrEqual(400);
    expect(bad.status).toBeLessThan(500);
    expect(bad.body.errors.map((e: { path: string }) => e.path)).toContain('status');
  });

  it('suggests an item created since, without mapping it on its own', async () => {
    await batch([sale('S-1', [{ itemSku: 'S-LATER' }])]);
    await givenItem(item('itm_LATER', { sku: 'S-LATER' }));
    expect(await entry('S-LATER')).toMatchObject({ status: 'open', suggestedItemId: 'itm_LATER', itemId: null });
    expect((await stored('S-1')).lines[0].itemId).toBeNull();
    // new sales match the item directly
    await batch([sale('S-2', [{ itemSku: 'S-LATER' }])]);
    expect((await stored('S-2')).lines[0].itemId).toBe('itm_LATER');
    expect(await entry('S-LATER')).toMatchObject({ transactionCount: 1 });
  });
});

describe('POST /sales/unmapped-items:map', () => {
  it('refuses unknown items, unknown entries and repeated entries with field paths, storing nothing', async () => {
    await batch([sale('V-1', [{ itemSku: 'V-ONE' }, { itemSku: 'V-TWO' }])]);
    await givenItem(item('itm_V'));
    const one = (await entry('V-ONE')).id;
    const two = (await entry('V-TWO')).id;

    const r = await map([
      { unmappedItemId: one, itemId: 'itm_V' },
      { unmappedItemId: two, itemId: 'itm_NOWHERE' },
      { unmappedItemId: 'umi_NOWHERE', itemId: 'itm_V' },
    ]);
    expect(r.status).toBe(422);
    expect(r.body.code).toBe('validation_error');
    expect(r.body.errors).toEqual([
      { path: 'mappings[1].itemId', message: expect.stringMatching(/itm_NOWHERE/) },
      { path: 'mappings[2].unmappedItemId', message: expect.stringMatching(/umi_NOWHERE/) },
    ]);
    // all or nothing: the valid mapping was not applied
    expect(await entry('V-ONE')).toMatchObject({ status: 'open', itemId: null });
    expect((await stored('V-1')).lines.map((l) => l.itemId)).toEqual([null, null]);

    const twice = await map([{ unmappedItemId: one, itemId: 'itm_V' }, { unmappedItemId: one, itemId: 'itm_V' }]);
    expect(twice.status).toBe(422);
    expect(twice.body.errors).toEqual([{ path: 'mappings[1].unmappedItemId', message: expect.any(String) }]);

    const empty = await map([]);
    expect(empty.status).toBe(422);
    expect(empty.body.errors.map((e: { path: string }) => e.path)).toContain('mappings');
    const tooMany = await map(Array.from({ length: 101 }, () => ({ unmappedItemId: one, itemId: 'itm_V' })));
    expect(tooMany.status).toBe(422);
  });

  it('refuses (403 out_of_reach) an entry sold at a location outside the caller’s reach', async () => {
    await batch([sale('R-1', [{ itemSku: 'R-NYC' }])]);
    await givenItem(item('itm_R'));
    const berlin = person({ 'sales.manage': [{ type: 'locations', ids: [locB] }] });
    const r = await map([{ unmappedItemId: (await entry('R-NYC')).id, itemId: 'itm_R' }], berlin);
    expect(r.status).toBe(403);
    expect(r.body.code).toBe('out_of_reach');
    expect(await entry('R-NYC')).toMatchObject({ status: 'open' });
  });

  it('links the POS item, recalculates its past sales and records them again; later sales match directly', async () => {
    await batch([
      sale('P-1', [{ itemSku: 'P-CAKE', name: 'Cake' }, { itemSku: 'M-SKU-B' }]),
      sale('P-2', [{ itemSku: 'P-CAKE', name: 'Cake' }], { locationExternalId: 'BER-1' }),
      sale('P-3', [{ itemSku: 'P-OTHER' }]),
    ]);
    await batch([sale('P-4', [{ itemSku: 'P-CAKE' }])], 'pos-elsewhere');
    await givenItem(item('itm_CAKE', { name: 'Cake' }));
    const before1 = await stored('P-1');
    const before3 = await stored('P-3');
    const cake = await entry('P-CAKE');

    const r = await map([{ unmappedItemId: cake.id, itemId: 'itm_CAKE' }]);
    expect(r.status).toBe(200);
    expect(r.body.transactionsRecalculated).toBe(2);
    expect(r.body.ordersRecalculated).toBe(0);
    expect(r.body.mapped).toEqual([
      expect.objectContaining({ id: cake.id, status: 'mapped', itemId: 'itm_CAKE', mappedBy: { type: 'user', id: 'usr_test' }, mappedAt: expect.any(String), transactionCount: 2, version: cake.version + 1 }),
    ]);

    // the entry's change event (the project's own type): the entry as the API returns it
    const mappedEvents = (await sql(`select payload from sales.outbox where type = 'sales.unmapped_item_mapped' and aggregate_id = ?`, [cake.id])).map((x) => x.payload);
    expect(mappedEvents).toHaveLength(1);
    expect(mappedEvents[0]).toMatchObject({ actor: { type: 'user', id: 'usr_test' }, data: { object: r.body.mapped[0] } });

    // past sales of that POS item in that source now reference the item; hash untouched, version and updated_at moved
    const after1 = await stored('P-1');
    expect(after1.lines.map((l) => l.itemId)).toEqual(['itm_CAKE', 'itm_MB']);
    expect(after1.version).toBe(before1.version + 1);
    expect(after1.updated_at.getTime()).toBeGreaterThan(before1.updated_at.getTime());
    expect(after1.content_hash).toBe(before1.content_hash);
    expect((await stored('P-2')).lines[0].itemId).toBe('itm_CAKE');
    expect(await stored('P-3')).toEqual(before3);
    expect((await stored('P-4', 'pos-elsewhere')).lines[0].itemId).toBeNull();

    // consumers see them again, lines now naming the item
    const events = (await sql(`select payload from sales.outbox where type = 'sales.transactions.recorded' and payload->'data'->'object'->>'reason' = 'items_mapped' order by seq`)).map((x) => x.payload);
    const recalculated = events.flatMap((e) => e.data.object.transactions);
    expect(recalculated.map((t: { externalId: string }) => t.externalId).sort()).toEqual(['P-1', 'P-2']);
    expect(events.map((e) => e.locationId).sort()).toEqual([locA, locB].sort());
    expect(events[0]).toMatchObject({ apiVersion: 'v1', actor: { type: 'user', id: 'usr_test' }, data: { object: { source: 'pos-items', reason: 'items_mapped' } } });
    const p1 = recalculated.find((t: { externalId: string }) => t.externalId === 'P-1');
    expect(p1).toMatchObject({ id: before1.id, version: before1.version + 1, total: '2.00', occurredAt: '2026-11-21T15:00:00.000Z', businessDay: '2026-11-21' });
    expect(p1.lines.map((l: { itemId: string }) => l.itemId)).toEqual(['itm_CAKE', 'itm_MB']);

    // pollers of updatedSince see the recalculated sale
    const since = await call('GET', `/sales/transactions?source=pos-items&updatedSince=${encodeURIComponent(before1.updated_at.toISOString())}`);
    expect(since.body.data.map((t: { externalId: string }) => t.externalId)).toEqual(expect.arrayContaining(['P-1', 'P-2']));

    // the same content sent again is unchanged; new sales of the POS item match directly and are not queued
    expect((await batch([sale('P-1', [{ itemSku: 'P-CAKE', name: 'Cake' }, { itemSku: 'M-SKU-B' }])])).body).toMatchObject({ unchanged: 1 });
    await batch([sale('P-5', [{ itemSku: 'P-CAKE' }])]);
    expect((await stored('P-5')).lines[0].itemId).toBe('itm_CAKE');
    expect(await entry('P-CAKE')).toMatchObject({ status: 'mapped', transactionCount: 2 });
    expect(await unmappedEvents('P-CAKE')).toHaveLength(2); // pos-items and pos-elsewhere, once each

    const listed = await call('GET', '/sales/unmapped-items?source=pos-items&status=mapped');
    expect(listed.body.data.map((e: { id: string }) => e.id)).toContain(cake.id);
    expect((await call('GET', '/sales/unmapped-items?source=pos-items')).body.data.map((e: { id: string }) => e.id)).not.toContain(cake.id);

    // mapping again to the same item changes nothing
    const again = await map([{ unmappedItemId: cake.id, itemId: 'itm_CAKE' }]);
    expect(again.body).toMatchObject({ transactionsRecalculated: 0, mapped: [{ id: cake.id, version: cake.version + 1 }] });
    expect((await stored('P-1')).version).toBe(after1.version);
  });

  it('corrects a mapping: the lines mapped through it move to the new item', async () => {
    await batch([sale('C-1', [{ itemSku: 'C-TEA' }])]);
    await givenItem(item('itm_WRONG'));
    await givenItem(item('itm_TEA'));
    const tea = (await entry('C-TEA')).id;
    expect((await map([{ unmappedItemId: tea, itemId: 'itm_WRONG' }])).body.transactionsRecalculated).toBe(1);
    await batch([sale('C-2', [{ itemSku: 'C-TEA' }])]);
    expect((await stored('C-2')).lines[0].itemId).toBe('itm_WRONG');
    const r = await map([{ unmappedItemId: tea, itemId: 'itm_TEA' }]);
    expect(r.body).toMatchObject({ transactionsRecalculated: 2, mapped: [{ itemId: 'itm_TEA', status: 'mapped' }] });
    expect((await stored('C-1')).lines[0].itemId).toBe('itm_TEA');
    expect((await stored('C-2')).lines[0].itemId).toBe('itm_TEA');
    await batch([sale('C-3', [{ itemSku: 'C-TEA' }])]);
    expect((await stored('C-3')).lines[0].itemId).toBe('itm_TEA');
  });

  it('fixes the unmatched lines of the source’s online orders too (version and updatedAt move, hashes do not; no order event)', async () => {
    const first = await putOrder('OR-1', [{ itemSku: 'OR-LAMP', name: 'Lamp' }, { itemSku: 'M-SKU-B' }]);
    expect(first.status).toBe(201);
    expect(first.body.lines.map((l: { itemId: string | null }) => l.itemId)).toEqual([null, 'itm_MB']);
    await putOrder('OR-2', [{ itemSku: 'OR-OTHER' }]);
    await putOrder('OR-3', [{ itemSku: 'OR-LAMP' }], 'shop-elsewhere');
    await batch([sale('OR-T1', [{ itemSku: 'OR-LAMP' }])], 'shop-items-pos');
    await givenItem(item('itm_LAMP'));
    const lamp = await entry('OR-LAMP', 'shop-items');
    expect(lamp).toMatchObject({ status: 'open', transactionCount: 1 });
    const before1 = await storedOrder('OR-1');
    const before2 = await storedOrder('OR-2');
    const [{ seq }] = await sql(`select coalesce(max(seq), 0)::text as seq from sales.outbox`);

    const r = await map([{ unmappedItemId: lamp.id, itemId: 'itm_LAMP' }]);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ transactionsRecalculated: 0, ordersRecalculated: 1, mapped: [{ id: lamp.id, status: 'mapped', itemId: 'itm_LAMP' }] });

    const after1 = await storedOrder('OR-1');
    expect(after1.lines.map((l) => l.itemId)).toEqual(['itm_LAMP', 'itm_MB']);
    expect(after1.version).toBe(before1.version + 1);
    expect(after1.updated_at.getTime()).toBeGreaterThan(before1.updated_at.getTime());
    expect([after1.content_hash, after1.core_hash]).toEqual([before1.content_hash, before1.core_hash]);
    expect(await storedOrder('OR-2')).toEqual(before2);
    // another source's order and POS are other POS items (their own queue entries)
    expect((await storedOrder('OR-3', 'shop-elsewhere')).lines[0].itemId).toBeNull();
    expect((await stored('OR-T1', 'shop-items-pos')).lines[0].itemId).toBeNull();
    const got = await call('GET', `/sales-orders/${after1.id}`);
    expect(got.body).toMatchObject({ version: after1.version, lines: [{ itemSku: 'OR-LAMP', itemId: 'itm_LAMP' }, { itemId: 'itm_MB' }] });
    const events = await sql(`select type from sales.outbox where seq > ?::bigint and (aggregate_id = ? or type like 'sales_order.%' or type = 'sales.transactions.recorded')`, [seq, after1.id]);
    expect(events).toEqual([]);

    // the same order sent again is unchanged; a new order of the POS item matches directly
    const again = await putOrder('OR-1', [{ itemSku: 'OR-LAMP', name: 'Lamp' }, { itemSku: 'M-SKU-B' }]);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ version: after1.version, lines: [{ itemId: 'itm_LAMP' }, { itemId: 'itm_MB' }] });
    expect((await putOrder('OR-4', [{ itemSku: 'OR-LAMP' }])).body.lines[0].itemId).toBe('itm_LAMP');

    // a correction moves the order lines mapped through it, with the source's sales
    await batch([sale('OR-T2', [{ itemSku: 'OR-LAMP' }])], 'shop-items');
    await givenItem(item('itm_LAMP2'));
    const corrected = await map([{ unmappedItemId: lamp.id, itemId: 'itm_LAMP2' }]);
    expect(corrected.body).toMatchObject({ transactionsRecalculated: 1, ordersRecalculated: 2 });
    expect((await storedOrder('OR-1')).lines.map((l) => l.itemId)).toEqual(['itm_LAMP2', 'itm_MB']);
    expect((await storedOrder('OR-4')).lines[0].itemId).toBe('itm_LAMP2');
    expect((await stored('OR-T2', 'shop-items')).lines[0].itemId).toBe('itm_LAMP2');
    // mapping again to the same item changes nothing
    expect((await map([{ unmappedItemId: lamp.id, itemId: 'itm_LAMP2' }])).body).toMatchObject({ transactionsRecalculated: 0, ordersRecalculated: 0 });
  });

  it('waits for an order that matched lines before the mapping, and fixes its lines too', async () => {
    await putOrder('OW-1', [{ itemSku: 'OW-RACE' }], 'shop-race');
    await givenItem(item('itm_ORACE'));
    const race = (await entry('OW-RACE', 'shop-race')).id;
    const client = new Client({ connectionString: stack.db.url });
    await client.connect();
    try {
      // an order PUT in flight: it matched its lines (no mapping yet) and stored them, but has not committed
      await client.query('begin');
      await client.query(`select pg_advisory_xact_lock_shared(hashtextextended('sales.item-mapping shop-race', 0))`);
      await client.query(
        `insert into sales.orders (id, source, external_id, location_id, customer, placed_at, lines, shipping, payment_status, status, currency,
           subtotal, tax_total, shipping_total, total, content_hash, core_hash, version, created_at, updated_at)
         select 'sor_RACE2', source, 'OW-2', location_id, customer, placed_at, lines, shipping, payment_status, status, currency,
           subtotal, tax_total, shipping_total, total, content_hash, core_hash, 1, now(), now()
         from sales.orders where source = 'shop-race' and external_id = 'OW-1'`,
      );
      const pending = map([{ unmappedItemId: race, itemId: 'itm_ORACE' }]);
      await eventually(async () => (await sql(`select 1 from pg_locks where locktype = 'advisory' and not granted and database = (select oid from pg_database where datname = current_database())`)).length > 0);
      await client.query('commit');
      const r = await pending;
      expect(r.status).toBe(200);
      expect(r.body.ordersRecalculated).toBe(2);
    } finally {
      await client.end();
    }
    expect((await storedOrder('OW-2', 'shop-race')).lines[0].itemId).toBe('itm_ORACE');
  });

  it('waits for a batch that matched lines before the mapping, and recalculates those lines too', async () => {
    await batch([sale('W-1', [{ itemSku: 'W-RACE' }])], 'pos-race');
    await givenItem(item('itm_RACE'));
    const race = (await entry('W-RACE', 'pos-race')).id;
    const client = new Client({ connectionString: stack.db.url });
    await client.connect();
    try {
      // a batch in flight: it matched its lines (no mapping yet) and stored them, but has not committed
      await client.query('begin');
      await client.query(`select pg_advisory_xact_lock_shared(hashtextextended('sales.item-mapping pos-race', 0))`);
      await client.query(
        `insert into sales.transactions (id, source, external_id, location_id, occurred_at, business_day, type, status, channel, register_id, employee_external_id,
           subtotal, tax, total, currency, refund_of, lines, tenders, content_hash, version, created_at, updated_at)
         select 'stx_RACE2', source, 'W-2', location_id, occurred_at, business_day, type, status, channel, register_id, employee_external_id,
           subtotal, tax, total, currency, refund_of, lines, tenders, content_hash, 1, now(), now()
         from sales.transactions where source = 'pos-race' and external_id = 'W-1'`,
      );
      const pending = map([{ unmappedItemId: race, itemId: 'itm_RACE' }]);
      await eventually(async () => (await sql(`select 1 from pg_locks where locktype = 'advisory' and not granted and database = (select oid from pg_database where datname = current_database())`)).length > 0);
      await client.query('commit');
      const r = await pending;
      expect(r.status).toBe(200);
      expect(r.body.transactionsRecalculated).toBe(2);
    } finally {
      await client.end();
    }
    expect((await stored('W-2', 'pos-race')).lines[0].itemId).toBe('itm_RACE');
  });
});

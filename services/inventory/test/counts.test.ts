/**
 * Stock counts (supplement: Stock count states): entering a count with validation and field paths,
 * counted totals over storage areas, expected quantities and variances against the ledger at
 * countedAt (computed at read time while open, frozen once posted), posting as count_variance
 * movements dated countedAt (later movements stay on top), cancelling, every refused transition,
 * If-Match, reach, the events in the outbox, and concurrent posts of one count.
 */
import { newId } from '@bop/shared';
import { insertItem, insertUnit, levelOf, outboxPayloads, person, postLedger } from '@bop/test-support';
import type { MovementInput } from '../src';
import { startInventoryStack, type InventoryStack } from './fixtures';

let s: InventoryStack;
let nyc: string;
let ber: string;

const inv = () => s.stack.services.inventory;
const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000);

/** Stock put in place through the ledger, dated `occurredAt`. */
const ledger = (movements: Array<Partial<MovementInput> & Pick<MovementInput, 'itemId' | 'type' | 'quantity' | 'occurredAt'>>) => postLedger(s, movements);

const createCount = (body: Record<string, unknown>, as = person()) => inv().call('POST', '/stock-counts', { as, body });
const getCount = (id: string, as = person()) => inv().call('GET', `/stock-counts/${id}`, { as });
const action = (id: string, verb: 'post' | 'cancel', opts: { as?: ReturnType<typeof person>; body?: unknown; ifMatch?: string } = {}) =>
  inv().call('POST', `/stock-counts/${id}:${verb}`, { as: opts.as, body: opts.body ?? {}, headers: opts.ifMatch ? { 'if-match': opts.ifMatch } : {} });
const list = (query: string, as = person()) => inv().call('GET', `/stock-counts${query}`, { as });

async function storageArea(locationId: string, status: 'active' | 'archived' = 'active'): Promise<string> {
  const id = newId('storageArea');
  await s.sql(`insert into inventory.storage_areas (id, location_id, name, status, created_at, updated_at) values (?, ?, ?, ?, now(), now())`, [id, locationId, `Area ${id}`, status]);
  return id;
}

const unitOf = (baseUnit: 'each' | 'g' | 'ml', factor: string, itemId: string | null = null) => insertUnit(s.stack, baseUnit, factor, itemId);

/** Σ of an item's movement quantities at NYC up to an instant (the spec's definition of on hand then). */
async function ledgerSumAt(itemId: string, at: Date): Promise<string> {
  const rows = await s.sql(`select coalesce(trim_scale(sum(quantity)), 0)::text as q from inventory.stock_movements where item_id = ? and location_id = ? and occurred_at <= ?`, [itemId, nyc, at]);
  return rows[0].q;
}

const countEvents = async (type: string, id: string) => (await outboxPayloads(s.stack, 'inventory', { type: type })).filter((e) => e.data.object.id === id);

beforeAll(async () => {
  s = await startInventoryStack();
  nyc = s.locations['NYC-1'];
  ber = s.locations['BER-1'];
});
afterAll(async () => {
  await s?.stack.close();
});

describe('POST /stock-counts', () => {
  it('enters an open count: lines in base units, items summed over storage areas, expected and variance from the ledger', async () => {
    const flour = await insertItem(s.stack, { baseUnit: 'g', cost: '0.01' });
    const eggs = await insertItem(s.stack);
    const walkIn = await storageArea(nyc);
    const dry = await storageArea(nyc);
    const bag = await unitOf('g', '1000');
    await ledger([
      { itemId: flour, type: 'receipt', quantity: '5000', unitCost: '0.002', occurredAt: hoursAgo(5) },
      { itemId: eggs, type: 'receipt', quantity: '30', unitCost: '0.25', occurredAt: hoursAgo(5) },
    ]);
    const countedAt = hoursAgo(1).toISOString();
    const r = await createCount({
      locationId: nyc,
      countedAt,
      note: ' Sunday close ',
      lines: [
        { itemId: flour, storageAreaId: dry, quantity: '3', unitId: bag },
        { itemId: eggs, storageAreaId: walkIn, quantity: '24' },
        { itemId: flour, storageAreaId: walkIn, quantity: '1500.5' },
        { itemId: flour, quantity: '0.50' },
      ],
    });
    expect(r.status).toBe(201);
    expect(r.headers.get('etag')).toBe('"1"');
    expect(r.headers.get('location')).toBe(`/api/v1/stock-counts/${r.body.id}`);
    expect(r.body).toEqual({
      id: expect.stringMatching(/^cnt_/),
      locationId: nyc,
      status: 'open',
      countedAt,
      note: 'Sunday close',
      lines: [
        { itemId: flour, storageAreaId: dry, quantity: '3', unitId: bag, baseQuantity: '3000' },
        { itemId: eggs, storageAreaId: walkIn, quantity: '24', unitId: null, baseQuantity: '24' },
        { itemId: flour, storageAreaId: walkIn, quantity: '1500.5', unitId: null, baseQuantity: '1500.5' },
        { itemId: flour, storageAreaId: null, quantity: '0.5', unitId: null, baseQuantity: '0.5' },
      ],
      items: [
        { itemId: flour, counted: '4501', expected: '5000', variance: '-499', unitCost: '0.002', varianceValue: '-0.998', movementId: null },
        { itemId: eggs, counted: '24', expected: '30', variance: '-6', unitCost: '0.25', varianceValue: '-1.5', movementId: null },
      ],
      varianceValue: '-2.498',
      cancelReason: null,
      postedAt: null,
      cancelledAt: null,
      version: 1,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    // entering a count changes no stock
    expect(await levelOf(s.stack, flour, nyc)).toMatchObject({ on_hand: '5000' });
    const created = await countEvents('inventory.stock_count.created', r.body.id);
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({ type: 'inventory.stock_count.created', locationId: nyc, actor: { type: 'user', id: 'usr_test' }, data: { object: { id: r.body.id, status: 'open' } } });
    // the public stock_count.created (the project's own type) next to the internal one: data.object the count as the API returns it
    expect((await countEvents('stock_count.created', r.body.id)).map((e) => e.data.object)).toEqual([r.body]);
  });

  it('defaults countedAt to now and values an item without any cost as null', async () => {
    const item = await insertItem(s.stack);
    const before = Date.now();
    const r = await createCount({ locationId: nyc, lines: [{ itemId: item, quantity: '2' }] });
    expect(r.status).toBe(201);
    expect(new Date(r.body.countedAt).getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(r.body.items).toEqual([{ itemId: item, counted: '2', expected: '0', variance: '2', unitCost: null, varianceValue: null, movementId: null }]);
    expect(r.body.varianceValue).toBe('0');
  });

  it('refuses bad input with field paths, storing nothing', async () => {
    const item = await insertItem(s.stack);
    const archived = await insertItem(s.stack, { status: 'archived' });
    const berArea = await storageArea(ber);
    const oldArea = await storageArea(nyc, 'archived');
    const area = await storageArea(nyc);
    const ml = await unitOf('ml', '750');
    const countsBefore = (await s.sql(`select count(*)::int as n from inventory.stock_counts`))[0].n;

    const shape = await createCount({ locationId: nyc, lines: [{ itemId: item, quantity: '-1' }, { itemId: item, quantity: 2 }, { itemId: item, quantity: '1', extra: true }], size: 3 });
    expect(shape.status).toBe(422);
    expect(shape.body.code).toBe('validation_error');
    expect(shape.body.errors.map((e: any) => e.path)).toEqual(expect.arrayContaining(['lines[0].quantity', 'lines[1].quantity', 'lines[2].extra', 'size']));

    expect((await createCount({ locationId: nyc, lines: [] })).body.errors).toEqual([{ path: 'lines', message: 'Count at least one item.' }]);

    const r = await createCount({
      locationId: nyc,
      countedAt: new Date(Date.now() + 3_600_000).toISOString(),
      lines: [
        { itemId: item, storageAreaId: area, quantity: '1' },
        { itemId: item, storageAreaId: area, quantity: '2' },
        { itemId: archived, quantity: '1' },
        { itemId: 'itm_missing', quantity: '1' },
        { itemId: item, storageAreaId: berArea, quantity: '1' },
        { itemId: item, storageAreaId: oldArea, quantity: '1' },
        { itemId: item, storageAreaId: 'sta_missing', quantity: '1' },
        { itemId: item, quantity: '1', unitId: ml },
      ],
    });
    expect(r.status).toBe(422);
    expect(r.body.errors).toEqual(
      expect.arrayContaining([
        { path: 'countedAt', message: expect.stringContaining('future') },
        { path: 'lines[1].itemId', message: expect.stringContaining('already counted in storage area') },
        { path: 'lines[2].itemId', message: `Item ${archived} is archived.` },
        { path: 'lines[3].itemId', message: 'No item itm_missing.' },
        { path: 'lines[4].storageAreaId', message: expect.stringContaining(`belongs to location ${ber}`) },
        { path: 'lines[5].storageAreaId', message: expect.stringContaining('archived') },
        { path: 'lines[6].storageAreaId', message: 'No storage area sta_missing.' },
        { path: 'lines[7].unitId', message: expect.stringContaining('measures ml') },
      ]),
    );
    expect(r.body.errors).toHaveLength(8);

    const nowhere = await createCount({ locationId: 'loc_nowhere', lines: [{ itemId: item, quantity: '1' }] });
    expect(nowhere.status).toBe(422);
    expect(nowhere.body.errors).toEqual([{ path: 'locationId', message: expect.stringContaining('No location loc_nowhere') }]);
    expect((await s.sql(`select count(*)::int as n from inventory.stock_counts`))[0].n).toBe(countsBefore);
  });

  it('refuses a location the person cannot count at (403 out_of_reach)', async () => {
    const item = await insertItem(s.stack);
    const counter = person({ 'stock_counts.count': [{ type: 'locations', ids: [nyc] }] });
    const r = await createCount({ locationId: ber, lines: [{ itemId: item, quantity: '1' }] }, counter);
    expect(r.status).toBe(403);
    expect(r.body.code).toBe('out_of_reach');
    expect((await createCount({ locationId: nyc, lines: [{ itemId: item, quantity: '1' }] }, counter)).status).toBe(201);
  });
});

describe('variances against the ledger at countedAt', () => {
  it('computes them at read time while open, posts them dated countedAt, keeps later movements on top, then freezes them', async () => {
    const item = await insertItem(s.stack, { cost: '9' });
    const untouched = await insertItem(s.stack);
    const countedAt = hoursAgo(2);
    await ledger([
      { itemId: item, type: 'receipt', quantity: '20', unitCost: '1.5', occurredAt: hoursAgo(6) },
      { itemId: item, type: 'sale', quantity: '-4', occurredAt: hoursAgo(4) },
      { itemId: untouched, type: 'receipt', quantity: '7', unitCost: '1', occurredAt: hoursAgo(6) },
    ]);
    // after the count: stays on top of what was counted
    await ledger([{ itemId: item, type: 'sale', quantity: '-3', occurredAt: hoursAgo(1) }]);
    const c = await createCount({ locationId: nyc, countedAt: countedAt.toISOString(), lines: [{ itemId: item, quantity: '14' }] });
    expect(c.body.items).toEqual([{ itemId: item, counted: '14', expected: '16', variance: '-2', unitCost: '1.5', varianceValue: '-3', movementId: null }]);

    // a late sale dated before countedAt changes the open count's figures
    await ledger([{ itemId: item, type: 'sale', quantity: '-1', occurredAt: hoursAgo(3) }]);
    expect((await getCount(c.body.id)).body.items[0]).toMatchObject({ expected: '15', variance: '-1', varianceValue: '-1.5' });
    expect(await ledgerSumAt(item, countedAt)).toBe('15');

    const posted = await action(c.body.id, 'post', { ifMatch: '"1"' });
    expect(posted.status).toBe(200);
    expect(posted.headers.get('etag')).toBe('"2"');
    expect(posted.body).toMatchObject({ status: 'posted', version: 2, postedAt: expect.any(String), cancelledAt: null, varianceValue: '-1.5' });
    const movements = await s.sql(
      `select id, type, trim_scale(quantity)::text as quantity, trim_scale(unit_cost)::text as unit_cost, trim_scale(value)::text as value, cause_type, cause_id, to_json(occurred_at) #>> '{}' as occurred_at from inventory.stock_movements where item_id = ? and type = 'count_variance'`,
      [item],
    );
    expect(movements).toEqual([
      { id: expect.stringMatching(/^smv_/), type: 'count_variance', quantity: '-1', unit_cost: '1.5', value: '-1.5', cause_type: 'stock_count', cause_id: c.body.id, occurred_at: expect.any(String) },
    ]);
    expect(new Date(movements[0].occurred_at)).toEqual(countedAt);
    expect(posted.body.items).toEqual([{ itemId: item, counted: '14', expected: '15', variance: '-1', unitCost: '1.5', varianceValue: '-1.5', movementId: movements[0].id }]);
    // on hand at countedAt is what was counted; the sale after it stays on top
    expect(await ledgerSumAt(item, countedAt)).toBe('14');
    expect(await levelOf(s.stack, item, nyc)).toMatchObject({ on_hand: '11' });
    // items not counted are not touched
    expect(await levelOf(s.stack, untouched, nyc)).toMatchObject({ on_hand: '7', version: 1 });

    // frozen: a later backdated sale no longer moves the posted figures
    await ledger([{ itemId: item, type: 'sale', quantity: '-2', occurredAt: hoursAgo(5) }]);
    expect((await getCount(c.body.id)).body).toEqual(posted.body);

    const events = await countEvents('stock_count.posted', c.body.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'stock_count.posted',
      apiVersion: 'v1',
      locationId: nyc,
      actor: { type: 'user', id: 'usr_test' },
      data: { object: posted.body, previous: { status: 'open', postedAt: null } },
    });
    const changed = (await outboxPayloads(s.stack, 'inventory', { type: 'stock.level_changed' })).filter((e) => e.data.object.itemId === item);
    expect(changed.at(-2).data).toMatchObject({ previous: { onHand: '12' }, object: { onHand: '11' } });
  });

  it('writes no movement for an item counted exactly as expected, and a positive one for found stock', async () => {
    const exact = await insertItem(s.stack);
    const found = await insertItem(s.stack, { cost: '2' });
    await ledger([{ itemId: exact, type: 'receipt', quantity: '5', unitCost: '1', occurredAt: hoursAgo(3) }]);
    const c = await createCount({ locationId: nyc, countedAt: hoursAgo(1).toISOString(), lines: [{ itemId: exact, quantity: '5' }, { itemId: found, quantity: '3' }] });
    const posted = await action(c.body.id, 'post');
    expect(posted.status).toBe(200);
    expect(posted.body.items).toEqual([
      { itemId: exact, counted: '5', expected: '5', variance: '0', unitCost: '1', varianceValue: '0', movementId: null },
      { itemId: found, counted: '3', expected: '0', variance: '3', unitCost: '2', varianceValue: '6', movementId: expect.stringMatching(/^smv_/) },
    ]);
    expect((await s.sql(`select count(*)::int as n from inventory.stock_movements where cause_id = ?`, [c.body.id]))[0].n).toBe(1);
    expect(await levelOf(s.stack, found, nyc)).toMatchObject({ on_hand: '3' });
    expect(await levelOf(s.stack, exact, nyc)).toMatchObject({ on_hand: '5' });
  });

  it('refuses to post a count older than a posted count of one of its items (409), leaving stock alone', async () => {
    const item = await insertItem(s.stack);
    await ledger([{ itemId: item, type: 'receipt', quantity: '10', unitCost: '1', occurredAt: hoursAgo(8) }]);
    const earlier = await createCount({ locationId: nyc, countedAt: hoursAgo(4).toISOString(), lines: [{ itemId: item, quantity: '6' }] });
    const later = await createCount({ locationId: nyc, countedAt: hoursAgo(2).toISOString(), lines: [{ itemId: item, quantity: '8' }] });
    expect((await action(later.body.id, 'post')).status).toBe(200);
    const r = await action(earlier.body.id, 'post');
    expect(r.status).toBe(409);
    expect(r.body.code).toBe('conflict');
    expect(r.body.errors).toEqual([{ path: 'lines[0].itemId', message: expect.stringContaining(`posted count ${later.body.id}`) }]);
    expect(await levelOf(s.stack, item, nyc)).toMatchObject({ on_hand: '8' });
    expect((await getCount(earlier.body.id)).body.status).toBe('open');
    expect((await action(earlier.body.id, 'cancel')).status).toBe(200);
  });
});

describe('transitions', () => {
  const simpleCount = async () => {
    const item = await insertItem(s.stack);
    await ledger([{ itemId: item, type: 'receipt', quantity: '4', unitCost: '1', occurredAt: hoursAgo(2) }]);
    const c = await createCount({ locationId: nyc, countedAt: hoursAgo(1).toISOString(), lines: [{ itemId: item, quantity: '3' }] });
    expect(c.status).toBe(201);
    return { item, id: c.body.id as string };
  };

  it('cancels an open count with a reason: stock unchanged, figures frozen, internal event', async () => {
    const { item, id } = await simpleCount();
    const r = await action(id, 'cancel', { body: { reason: 'Counted the wrong shelf' }, ifMatch: '"1"' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'cancelled', version: 2, cancelReason: 'Counted the wrong shelf', cancelledAt: expect.any(String), postedAt: null });
    expect(r.body.items).toEqual([{ itemId: item, counted: '3', expected: '4', variance: '-1', unitCost: '1', varianceValue: '-1', movementId: null }]);
    expect(await levelOf(s.stack, item, nyc)).toMatchObject({ on_hand: '4' });
    await ledger([{ itemId: item, type: 'sale', quantity: '-1', occurredAt: hoursAgo(1.5) }]);
    expect((await getCount(id)).body.items[0].expected).toBe('4');
    const events = await countEvents('inventory.stock_count.cancelled', id);
    expect(events).toHaveLength(1);
    expect(events[0].data.previous).toMatchObject({ status: 'open', cancelledAt: null, cancelReason: null });
    expect((await countEvents('stock_count.cancelled', id)).map((e) => e.data.object)).toEqual([r.body]);
    expect(await countEvents('stock_count.posted', id)).toEqual([]);
  });

  it('refuses every transition out of a final state with 409 and a clear detail', async () => {
    const posted = await simpleCount();
    expect((await action(posted.id, 'post')).status).toBe(200);
    const again = await action(posted.id, 'post');
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'conflict', detail: expect.stringContaining('already posted') });
    const cancelPosted = await action(posted.id, 'cancel');
    expect(cancelPosted.status).toBe(409);
    expect(cancelPosted.body.detail).toContain('cannot be cancelled');

    const cancelled = await simpleCount();
    expect((await action(cancelled.id, 'cancel')).status).toBe(200);
    const postCancelled = await action(cancelled.id, 'post');
    expect(postCancelled.status).toBe(409);
    expect(postCancelled.body.detail).toContain('cannot be posted');
    const cancelAgain = await action(cancelled.id, 'cancel');
    expect(cancelAgain.status).toBe(409);
    expect(cancelAgain.body.detail).toContain('already cancelled');
    expect(await levelOf(s.stack, cancelled.item, nyc)).toMatchObject({ on_hand: '4' });

    expect((await action('cnt_missing', 'post')).status).toBe(404);
    expect((await action('cnt_missing', 'cancel')).status).toBe(404);
  });

  it('checks If-Match on both actions (409 version_mismatch) and refuses a body on :post', async () => {
    const { id } = await simpleCount();
    const post = await action(id, 'post', { ifMatch: '"7"' });
    expect(post.status).toBe(409);
    expect(post.body.code).toBe('version_mismatch');
    const cancel = await action(id, 'cancel', { ifMatch: '"2"' });
    expect(cancel.body.code).toBe('version_mismatch');
    const extra = await action(id, 'post', { body: { force: true } });
    expect(extra.status).toBe(422);
    expect((await getCount(id)).body).toMatchObject({ status: 'open', version: 1 });
  });

  it('posts once when two posts of one count race (the row is locked)', async () => {
    const { item, id } = await simpleCount();
    const results = await Promise.all(Array.from({ length: 5 }, () => action(id, 'post')));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409]);
    expect((await s.sql(`select count(*)::int as n from inventory.stock_movements where cause_id = ?`, [id]))[0].n).toBe(1);
    expect(await levelOf(s.stack, item, nyc)).toMatchObject({ on_hand: '3' });
    expect(await countEvents('stock_count.posted', id)).toHaveLength(1);
  });
});

describe('reading counts', () => {
  let nycCount: string;
  let berCount: string;
  let postedNyc: string;
  let since: string;

  beforeAll(async () => {
    since = new Date().toISOString();
    const item = await insertItem(s.stack);
    nycCount = (await createCount({ locationId: nyc, lines: [{ itemId: item, quantity: '1' }] })).body.id;
    berCount = (await createCount({ locationId: ber, lines: [{ itemId: item, quantity: '2' }] })).body.id;
    postedNyc = (await createCount({ locationId: nyc, lines: [{ itemId: item, quantity: '1' }] })).body.id;
    expect((await action(postedNyc, 'post')).status).toBe(200);
  });

  it('gets a count in reach, 403 out of reach, 404 when missing', async () => {
    const reader = person({ 'inventory.read': [{ type: 'locations', ids: [nyc] }] });
    expect((await getCount(nycCount, reader)).status).toBe(200);
    const far = await getCount(berCount, reader);
    expect(far.status).toBe(403);
    expect(far.body.code).toBe('out_of_reach');
    expect((await getCount('cnt_missing')).status).toBe(404);
  });

  it('lists with filters locationId, status and from, and cursors', async () => {
    const all = await list(`?from=${encodeURIComponent(since)}`);
    expect(all.status).toBe(200);
    expect(all.body.data.map((c: any) => c.id)).toEqual([nycCount, berCount, postedNyc]);
    expect((await list(`?from=${encodeURIComponent(since)}&locationId=${nyc}`)).body.data.map((c: any) => c.id)).toEqual([nycCount, postedNyc]);
    expect((await list(`?from=${encodeURIComponent(since)}&status=posted`)).body.data.map((c: any) => c.id)).toEqual([postedNyc]);
    const posted = (await list(`?from=${encodeURIComponent(since)}&status=posted`)).body.data[0];
    expect(posted.items[0]).toMatchObject({ counted: '1', expected: '0', variance: '1', movementId: expect.stringMatching(/^smv_/) });

    const first = await list(`?from=${encodeURIComponent(since)}&limit=2`);
    expect(first.body).toMatchObject({ hasMore: true, nextCursor: expect.any(String) });
    expect(first.body.data.map((c: any) => c.id)).toEqual([nycCount, berCount]);
    const second = await list(`?from=${encodeURIComponent(since)}&limit=2&cursor=${first.body.nextCursor}`);
    expect(second.body).toMatchObject({ hasMore: false, nextCursor: null });
    expect(second.body.data.map((c: any) => c.id)).toEqual([postedNyc]);

    expect((await list('?status=draft')).status).toBe(400);
    expect((await list('?cursor=nonsense')).status).toBe(400);
  });

  it('lists only reachable locations, and refuses a locationId out of reach', async () => {
    const reader = person({ 'inventory.read': [{ type: 'locations', ids: [ber] }] });
    const r = await list(`?from=${encodeURIComponent(since)}`, reader);
    expect(r.body.data.map((c: any) => c.id)).toEqual([berCount]);
    const far = await list(`?locationId=${nyc}`, reader);
    expect(far.status).toBe(403);
    expect(far.body.code).toBe('out_of_reach');
  });

  it('posts and cancels only within the reach of stock_counts.manage', async () => {
    const manager = person({ 'stock_counts.manage': [{ type: 'locations', ids: [nyc] }] });
    const post = await action(berCount, 'post', { as: manager });
    expect(post.status).toBe(403);
    expect(post.body.code).toBe('out_of_reach');
    expect((await action(berCount, 'cancel', { as: manager })).status).toBe(403);
    expect((await getCount(berCount)).body.status).toBe('open');
    expect((await action(nycCount, 'cancel', { as: manager })).status).toBe(200);
  });
});

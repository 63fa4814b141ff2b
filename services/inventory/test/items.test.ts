/**
 * Items (spec: Inventory; supplement: DELETE /items/{id}): POST, GET, the list with filters and
 * cursors, PATCH (If-Match, only fields sent, null clears), PUT by externalId (create or replace, a
 * sync never revives an archived item), DELETE (archive, idempotent), validation with field paths,
 * uniqueness of externalId / SKU / barcodes (also under concurrent writers), the base unit that
 * cannot change once stock moved, company-wide reach, and item.created / item.updated in the outbox.
 */
import { ItemEventObject } from '@bop/contracts';
import type { Reach } from '@bop/shared';
import { postMovements, resolveLines } from '../src';
import { integration, outboxPayloads, person } from '@bop/test-support';
import { startInventoryStack, type InventoryStack } from './fixtures';

let s: InventoryStack;
let nyc: string;
const catalog = integration(['inventory:write', 'inventory:read']);

let n = 0;
const next = (prefix: string) => `${prefix}-${++n}`;

const inv = () => s.stack.services.inventory;
type As = ReturnType<typeof person>;
const post = (body: unknown, as?: As) => inv().call('POST', '/items', { as, body });
const get = (path: string, as?: As) => inv().call('GET', path, { as });
const patch = (id: string, body: unknown, opts: { as?: As; headers?: Record<string, string> } = {}) => inv().call('PATCH', `/items/${id}`, { body, ...opts });
const put = (externalId: string, body: unknown, opts: { as?: As; headers?: Record<string, string> } = {}) =>
  inv().call('PUT', `/items/external/${encodeURIComponent(externalId)}`, { as: opts.as ?? catalog, body, headers: opts.headers });
const del = (id: string, opts: { as?: As; headers?: Record<string, string> } = {}) => inv().call('DELETE', `/items/${id}`, opts);

/** item.created / item.updated of one item, oldest first. */
async function itemEvents(id: string) {
  const all = [...(await outboxPayloads(s.stack, 'inventory', { type: 'item.created' })), ...(await outboxPayloads(s.stack, 'inventory', { type: 'item.updated' }))];
  const rows = await s.sql(`select payload from inventory.outbox where aggregate_type = 'item' and aggregate_id = ? order by seq`, [id]);
  expect(all.filter((e) => e.data.object.id === id)).toHaveLength(rows.length);
  return rows.map((r) => r.payload);
}

const count = async () => Number((await s.sql(`select count(*)::int as n from inventory.items`))[0].n);

function itemBody(over: Record<string, unknown> = {}) {
  return { sku: next('SKU'), barcodes: [next('400')], name: 'Oat milk 1 l', baseUnit: 'ml', cost: '0.0019', ...over };
}

const limited = (perm: string, reach: Reach[]) => person({ [perm]: reach });

beforeAll(async () => {
  s = await startInventoryStack();
  nyc = s.locations['NYC-1'];
});
afterAll(async () => {
  await s?.stack.close();
});

describe('POST /items', () => {
  it('creates an active item (201, ETag, Location) with the units of its base unit, and records item.created', async () => {
    const kg = await inv().call('POST', '/units-of-measure', { body: { name: 'kg', baseUnit: 'g', factor: '1000' } });
    expect(kg.status).toBe(201);
    const ext = next('POS');
    const r = await post({ externalId: ext, sku: 'FLOUR-25', barcodes: ['4006381333931', 'ABC-123'], name: '  Flour  ', baseUnit: 'g', cost: '0.00120' });
    expect(r.status).toBe(201);
    expect(r.headers.get('etag')).toBe('"1"');
    expect(r.headers.get('location')).toBe(`/api/v1/items/${r.body.id}`);
    expect(r.body).toEqual({
      id: expect.stringMatching(/^itm_/),
      externalId: ext,
      sku: 'FLOUR-25',
      barcodes: ['4006381333931', 'ABC-123'],
      name: 'Flour',
      categoryId: null,
      baseUnit: 'g',
      cost: '0.0012',
      units: [{ id: kg.body.id, name: 'kg', factor: '1000', itemId: null }],
      status: 'active',
      archivedAt: null,
      version: 1,
      createdAt: expect.any(String),
      updatedAt: r.body.createdAt,
    });
    expect((await get(`/items/${r.body.id}`)).body).toEqual(r.body);

    const events = await itemEvents(r.body.id);
    expect(events).toEqual([
      {
        id: expect.stringMatching(/^evt_/),
        type: 'item.created',
        createdAt: expect.any(String),
        apiVersion: 'v1',
        actor: { type: 'user', id: 'usr_test' },
        locationId: null,
        data: { object: r.body },
      },
    ]);
    // sales keeps its replica from this object
    expect(ItemEventObject.safeParse(events[0].data.object).success).toBe(true);
  });

  it('needs only a name and a base unit; the rest is empty', async () => {
    const r = await post({ name: 'Lemon', baseUnit: 'each' });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ externalId: null, sku: null, barcodes: [], categoryId: null, cost: null, units: [], status: 'active' });
    expect(ItemEventObject.safeParse((await itemEvents(r.body.id))[0].data.object).success).toBe(true);
  });

  it('answers 422 with field paths and stores nothing', async () => {
    const before = await count();
    const bad = async (body: unknown) => {
      const r = await post(body);
      expect(r.status).toBe(422);
      expect(r.body.code).toBe('validation_error');
      return r.body.errors;
    };
    expect(await bad({})).toEqual([
      { path: 'name', message: expect.any(String) },
      { path: 'baseUnit', message: expect.any(String) },
    ]);
    expect(await bad(itemBody({ name: '  ' }))).toEqual([{ path: 'name', message: expect.any(String) }]);
    expect(await bad(itemBody({ baseUnit: 'kg' }))).toEqual([{ path: 'baseUnit', message: expect.any(String) }]);
    expect(await bad(itemBody({ cost: 1.5 }))).toEqual([{ path: 'cost', message: 'send decimals as strings' }]);
    expect(await bad(itemBody({ cost: '-1' }))).toEqual([{ path: 'cost', message: 'Must not be negative.' }]);
    expect(await bad(itemBody({ cost: '1.1234567' }))).toEqual([{ path: 'cost', message: expect.stringMatching(/6 decimals/) }]);
    expect(await bad(itemBody({ barcodes: ['123', 'has space', '123'] }))).toEqual([
      { path: 'barcodes[1]', message: 'Must be printable characters without spaces, such as 4006381333931.' },
      { path: 'barcodes[2]', message: 'Listed twice.' },
    ]);
    expect(await bad(itemBody({ sku: '' }))).toEqual([{ path: 'sku', message: expect.any(String) }]);
    expect(await bad(itemBody({ sku: 'x'.repeat(101) }))).toEqual([{ path: 'sku', message: expect.any(String) }]);
    expect(await bad(itemBody({ status: 'archived', colour: 'red' }))).toEqual([
      { path: 'status', message: 'Unknown field.' },
      { path: 'colour', message: 'Unknown field.' },
    ]);
    expect(await bad(itemBody({ categoryId: 'ica_NOPE' }))).toEqual([{ path: 'categoryId', message: 'No item category ica_NOPE.' }]);
    const cat = await inv().call('POST', '/item-categories', { body: { name: next('Old stock') } });
    await inv().call('PATCH', `/item-categories/${cat.body.id}`, { body: { status: 'archived' } });
    expect(await bad(itemBody({ categoryId: cat.body.id }))).toEqual([{ path: 'categoryId', message: `Item category ${cat.body.id} is archived.` }]);
    expect(await count()).toBe(before);
  });

  it('answers 409 conflict with the path of every identifier another item holds, and stores nothing', async () => {
    const first = await post(itemBody({ externalId: next('POS'), barcodes: [next('400'), next('400')] }));
    expect(first.status).toBe(201);
    const before = await count();

    const sku = await post(itemBody({ sku: first.body.sku }));
    expect(sku.status).toBe(409);
    expect(sku.body).toMatchObject({
      code: 'conflict',
      detail: `Active item ${first.body.id} already has SKU ${first.body.sku}.`,
      errors: [{ path: 'sku', message: `Already used by active item ${first.body.id}.` }],
    });

    const barcode = await post(itemBody({ barcodes: [next('400'), first.body.barcodes[1]] }));
    expect(barcode.status).toBe(409);
    expect(barcode.body.errors).toEqual([{ path: 'barcodes[1]', message: `Already used by active item ${first.body.id}.` }]);

    const all = await post(itemBody({ externalId: first.body.externalId, sku: first.body.sku, barcodes: first.body.barcodes }));
    expect(all.status).toBe(409);
    expect(all.body.errors.map((e: { path: string }) => e.path)).toEqual(['externalId', 'sku', 'barcodes[0]', 'barcodes[1]']);
    expect(await count()).toBe(before);
  });

  it('lets an archived item’s SKU and barcodes be used again, but not its externalId', async () => {
    const old = await post(itemBody({ externalId: next('POS') }));
    expect((await del(old.body.id)).status).toBe(200);
    const reuse = await post(itemBody({ sku: old.body.sku, barcodes: old.body.barcodes }));
    expect(reuse.status).toBe(201);
    const ext = await post(itemBody({ externalId: old.body.externalId }));
    expect(ext.status).toBe(409);
    expect(ext.body.errors).toEqual([{ path: 'externalId', message: `Already used by item ${old.body.id}.` }]);
    // reviving the archived one would put its SKU and barcode on two active items
    const revive = await patch(old.body.id, { status: 'active' });
    expect(revive.status).toBe(409);
    expect(revive.body.errors).toEqual([
      { path: 'sku', message: `Already used by active item ${reuse.body.id}.` },
      { path: 'barcodes[0]', message: `Already used by active item ${reuse.body.id}.` },
    ]);
    expect((await patch(old.body.id, { status: 'active', sku: next('SKU'), barcodes: [] })).body).toMatchObject({ status: 'active', archivedAt: null, version: 3 });
  });

  it('gives one of several concurrent creates with the same SKU and barcode the item, the others a 409 (never a 500)', async () => {
    const body = itemBody();
    const results = await Promise.all(Array.from({ length: 6 }, () => post(body)));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    for (const r of results.filter((x) => x.status === 409)) expect(r.body.errors.map((e: { path: string }) => e.path)).toEqual(['sku', 'barcodes[0]']);
    expect((await s.sql(`select count(*)::int as n from inventory.items where sku = ?`, [body.sku]))[0].n).toBe(1);
  });

  it('is refused out of reach: changing company-wide items needs items.manage at Everyone', async () => {
    const r = await post(itemBody(), limited('items.manage', [{ type: 'locations', ids: [nyc] }]));
    expect(r.status).toBe(403);
    expect(r.body.code).toBe('out_of_reach');
    const none = await post(itemBody(), limited('inventory.read', [{ type: 'everyone' }]));
    expect(none.status).toBe(403);
    expect(none.body.code).toBe('forbidden');
  });
});

describe('GET /items, /items/{id}, /items/external/{externalId}', () => {
  let cat: string;
  let a: any;
  let b: any;
  let c: any;
  beforeAll(async () => {
    cat = (await inv().call('POST', '/item-categories', { body: { name: next('Produce') } })).body.id;
    a = (await post(itemBody({ externalId: next('LIST'), categoryId: cat, barcodes: ['LIST-BC-1', 'LIST-BC-2'] }))).body;
    b = (await post(itemBody({ categoryId: cat }))).body;
    c = (await post(itemBody({ externalId: next('LIST') }))).body;
    await del(c.id);
  });

  it('reads one item by id and by externalId with any reach of inventory.read; 404 otherwise', async () => {
    const reader = limited('inventory.read', [{ type: 'locations', ids: [nyc] }]);
    expect((await get(`/items/${a.id}`, reader)).body).toEqual(a);
    expect((await get(`/items/external/${encodeURIComponent(a.externalId)}`, reader)).body).toEqual(a);
    const missing = await get('/items/itm_NOPE');
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('not_found');
    expect((await get('/items/external/NOPE')).status).toBe(404);
    expect((await get(`/items/${a.id}`, limited('stock_counts.count', [{ type: 'everyone' }]))).status).toBe(403);
  });

  it('filters by status, categoryId, sku, barcode, externalId and updatedSince', async () => {
    const ids = async (q: string) => (await get(`/items?limit=200&${q}`)).body.data.map((i: { id: string }) => i.id);
    expect(await ids(`categoryId=${cat}`)).toEqual([a.id, b.id]);
    expect(await ids(`sku=${encodeURIComponent(b.sku)}`)).toEqual([b.id]);
    expect(await ids('barcode=LIST-BC-2')).toEqual([a.id]);
    expect(await ids(`externalId=${encodeURIComponent(c.externalId)}`)).toEqual([c.id]);
    expect(await ids(`externalId=${encodeURIComponent(c.externalId)}&status=active`)).toEqual([]);
    expect(await ids(`externalId=${encodeURIComponent(c.externalId)}&status=archived`)).toEqual([c.id]);
    const since = new Date(Date.now() + 60_000).toISOString();
    expect(await ids(`updatedSince=${encodeURIComponent(since)}`)).toEqual([]);
    const bad = await get('/items?status=gone&updatedSince=yesterday');
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { path: string }) => e.path)).toEqual(['status', 'updatedSince']);
  });

  it('stores barcodes as sent, also those a Postgres array literal would read otherwise (NULL, quotes, commas, braces, backslashes)', async () => {
    const odd = ['NULL', 'a"b', 'c,d', '{e}', 'f\\g'];
    const ids = async (q: string) => (await get(`/items?limit=200&${q}`)).body.data.map((i: { id: string }) => i.id);
    const r = await post(itemBody({ barcodes: odd }));
    expect(r.status).toBe(201);
    expect((await get(`/items/${r.body.id}`)).body.barcodes).toEqual(odd);
    for (const code of odd) expect(await ids(`barcode=${encodeURIComponent(code)}`)).toEqual([r.body.id]);
  });

  it('pages with cursors', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const r: any = await get(`/items?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(r.status).toBe(200);
      expect(r.body.data.length).toBeLessThanOrEqual(2);
      seen.push(...r.body.data.map((i: { id: string }) => i.id));
      cursor = r.body.nextCursor;
      expect(r.body.hasMore).toBe(cursor !== null);
    } while (cursor);
    expect(seen).toEqual([...seen].sort());
    expect(seen.length).toBe(await count());
    expect((await get('/items?cursor=garbage')).status).toBe(400);
  });
});

describe('PATCH /items/{id}', () => {
  it('changes only the fields sent, null clears, records item.updated with data.previous', async () => {
    const cat = (await inv().call('POST', '/item-categories', { body: { name: next('Dairy') } })).body.id;
    const created = (await post(itemBody({ externalId: next('POS') }))).body;
    const r = await patch(created.id, { name: 'Oat drink 1 l', sku: null, cost: '0.002', categoryId: cat, externalId: null }, { headers: { 'If-Match': '"1"' } });
    expect(r.status).toBe(200);
    expect(r.headers.get('etag')).toBe('"2"');
    expect(r.body).toEqual({ ...created, name: 'Oat drink 1 l', sku: null, cost: '0.002', categoryId: cat, externalId: null, version: 2, updatedAt: expect.any(String) });
    const events = await itemEvents(created.id);
    expect(events.map((e) => e.type)).toEqual(['item.created', 'item.updated']);
    expect(events[1]).toMatchObject({
      type: 'item.updated',
      actor: { type: 'user', id: 'usr_test' },
      locationId: null,
      data: { object: r.body, previous: { name: 'Oat milk 1 l', sku: created.sku, cost: '0.0019', categoryId: null, externalId: created.externalId } },
    });
    expect(ItemEventObject.safeParse(events[1].data.object).success).toBe(true);
  });

  it('writes nothing when nothing changes (no version, no event), including the same cost spelled otherwise', async () => {
    const created = (await post(itemBody({ cost: '1.5' }))).body;
    const r = await patch(created.id, { name: created.name, cost: '1.500', barcodes: created.barcodes });
    expect(r.status).toBe(200);
    expect(r.body).toEqual(created);
    expect(await itemEvents(created.id)).toHaveLength(1);
  });

  it('answers 409 version_mismatch on a stale If-Match, 404 for no item, 422 with paths', async () => {
    const created = (await post(itemBody())).body;
    await patch(created.id, { name: 'Renamed' });
    const stale = await patch(created.id, { name: 'Again' }, { headers: { 'If-Match': '"1"' } });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ code: 'version_mismatch', currentVersion: 2 });
    expect((await patch('itm_NOPE', { name: 'x' })).status).toBe(404);
    const bad = await patch(created.id, { name: null, baseUnit: null, barcodes: ['a', 'a'], id: 'itm_X' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { path: string }) => e.path)).toEqual(['barcodes[1]', 'name', 'baseUnit', 'id']);
    expect((await get(`/items/${created.id}`)).body).toMatchObject({ name: 'Renamed', version: 2 });
  });

  it('changes the base unit only while the item has no stock movements and no units of its own', async () => {
    const item = (await post(itemBody({ baseUnit: 'each' }))).body;
    const changed = await patch(item.id, { baseUnit: 'g' });
    expect(changed.status).toBe(200);
    expect(changed.body.baseUnit).toBe('g');
    // the company-wide units follow the base unit
    expect(changed.body.units.map((u: { name: string }) => u.name)).toContain('kg');
    expect((await itemEvents(item.id))[1].data.previous).toEqual({ baseUnit: 'each', units: item.units });

    const sack = await inv().call('POST', '/units-of-measure', { body: { name: 'sack', baseUnit: 'g', factor: '25000', itemId: item.id } });
    expect(sack.status).toBe(201);
    const own = await patch(item.id, { baseUnit: 'ml' });
    expect(own.status).toBe(409);
    expect(own.body).toMatchObject({ code: 'conflict', errors: [{ path: 'baseUnit', message: 'Cannot change while the item has units of measure of its own.' }] });
    expect(own.body.detail).toContain('sack');

    // par levels and usage recipes state quantities in the base unit too
    const levelled = (await post(itemBody({ baseUnit: 'each' }))).body;
    await s.sql(`insert into inventory.stock_levels (item_id, location_id, par_level, updated_at) values (?, ?, 12, now())`, [levelled.id, nyc]);
    const par = await patch(levelled.id, { baseUnit: 'g' });
    expect(par.status).toBe(409);
    expect(par.body).toMatchObject({ detail: `Item ${levelled.id} has par levels or reorder points in each at ${nyc}; its base unit cannot change from each to g.` });
    const component = (await post(itemBody({ baseUnit: 'g' }))).body;
    const sold = (await post(itemBody({ baseUnit: 'each' }))).body;
    await s.sql(`insert into inventory.usage_recipes (item_id, components, created_at, updated_at) values (?, ?::jsonb, now(), now())`, [
      sold.id,
      JSON.stringify([{ itemId: component.id, quantity: '18', unitId: null, yield: '1', baseQuantity: '18' }]),
    ]);
    for (const id of [component.id, sold.id]) {
      const r = await patch(id, { baseUnit: 'ml' });
      expect(r.status).toBe(409);
      expect(r.body.errors).toEqual([{ path: 'baseUnit', message: 'Cannot change while usage recipes measure the item in the old unit.' }]);
    }

    const moved = (await post(itemBody({ baseUnit: 'ml' }))).body;
    await inv().svc.runtime.write((w) =>
      postMovements(w, [{ itemId: moved.id, locationId: nyc, type: 'receipt', quantity: '1000', unitCost: '0.002', cause: { type: 'stock_adjustment', id: 'adj_TEST' }, occurredAt: w.now }]),
    );
    const refused = await patch(moved.id, { baseUnit: 'g', name: 'Renamed too' });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      code: 'conflict',
      detail: `Item ${moved.id} has stock movements in ml; its base unit cannot change to g. Archive it and create a new item kept in g.`,
      errors: [{ path: 'baseUnit', message: 'Cannot change once the item has stock movements.' }],
    });
    expect((await get(`/items/${moved.id}`)).body).toMatchObject({ baseUnit: 'ml', name: moved.name, version: 1 });
    // other fields still change
    expect((await patch(moved.id, { cost: '0.0025' })).status).toBe(200);
  });

  it('is refused out of reach', async () => {
    const item = (await post(itemBody())).body;
    const r = await patch(item.id, { name: 'x' }, { as: limited('items.manage', [{ type: 'locations', ids: [nyc] }]) });
    expect(r.status).toBe(403);
    expect(r.body.code).toBe('out_of_reach');
  });
});

describe('PUT /items/external/{externalId}', () => {
  it('creates (201, item.created), answers the same content with the stored item (200, nothing written), replaces changes (fields left out are cleared)', async () => {
    const ext = next('CAT');
    const body = { sku: next('SKU'), barcodes: [next('400')], name: 'Espresso beans 1 kg', baseUnit: 'g', cost: '0.025' };
    const created = await put(ext, body);
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe(`/api/v1/items/${created.body.id}`);
    expect(created.body).toMatchObject({ ...body, externalId: ext, status: 'active', version: 1 });

    const same = await put(ext, { ...body, cost: '0.0250' });
    expect(same.status).toBe(200);
    expect(same.body).toEqual(created.body);

    const replaced = await put(ext, { name: 'Espresso beans', baseUnit: 'g' });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toEqual({ ...created.body, name: 'Espresso beans', sku: null, barcodes: [], cost: null, version: 2, updatedAt: expect.any(String) });

    const events = await itemEvents(created.body.id);
    expect(events.map((e) => [e.type, e.actor])).toEqual([
      ['item.created', { type: 'integration', id: 'int_test' }],
      ['item.updated', { type: 'integration', id: 'int_test' }],
    ]);
    expect(events[1].data).toEqual({ object: replaced.body, previous: { name: body.name, sku: body.sku, barcodes: body.barcodes, cost: '0.025' } });
  });

  it('keeps the stored status when the body has none (a sync never revives an archived item); a status sent is applied', async () => {
    const ext = next('CAT');
    const created = (await put(ext, { name: 'Seasonal syrup', baseUnit: 'ml' })).body;
    const archived = (await del(created.id)).body;
    const synced = await put(ext, { name: 'Seasonal syrup 750 ml', baseUnit: 'ml' });
    expect(synced.status).toBe(200);
    expect(synced.body).toMatchObject({ status: 'archived', archivedAt: archived.archivedAt, name: 'Seasonal syrup 750 ml' });
    const revived = await put(ext, { name: 'Seasonal syrup 750 ml', baseUnit: 'ml', status: 'active' });
    expect(revived.body).toMatchObject({ status: 'active', archivedAt: null });
    const newArchived = await put(next('CAT'), { name: 'Discontinued', baseUnit: 'each', status: 'archived' });
    expect(newArchived.status).toBe(201);
    expect(newArchived.body).toMatchObject({ status: 'archived', archivedAt: newArchived.body.createdAt });
  });

  it('honours If-Match when it changes something, answers 409 on identifiers held by others and 422 with paths', async () => {
    const ext = next('CAT');
    const created = (await put(ext, { name: 'Milk', baseUnit: 'ml' })).body;
    expect((await put(ext, { name: 'Milk 2', baseUnit: 'ml' }, { headers: { 'If-Match': '"7"' } })).body.code).toBe('version_mismatch');
    expect((await put(ext, { name: 'Milk 2', baseUnit: 'ml' }, { headers: { 'If-Match': '"1"' } })).status).toBe(200);
    const other = (await post(itemBody())).body;
    const taken = await put(ext, { name: 'Milk 2', baseUnit: 'ml', sku: other.sku });
    expect(taken.status).toBe(409);
    expect(taken.body.errors).toEqual([{ path: 'sku', message: `Already used by active item ${other.id}.` }]);
    const bad = await put(ext, { name: 'Milk', externalId: 'X', baseUnit: 'l', cost: 'free' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { path: string }) => e.path)).toEqual(['baseUnit', 'cost', 'externalId']);
    expect((await get(`/items/${created.id}`)).body).toMatchObject({ name: 'Milk 2', version: 2 });
  });

  it('creates one item when several first PUTs of an externalId race (one 201, the others 200)', async () => {
    const ext = next('RACE');
    const results = await Promise.all(Array.from({ length: 5 }, () => put(ext, { name: 'Raced', baseUnit: 'each', sku: `${ext}-SKU` })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 201]);
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
    expect((await s.sql(`select count(*)::int as n from inventory.items where external_id = ?`, [ext]))[0].n).toBe(1);
    expect(await itemEvents(results[0].body.id)).toHaveLength(1);
  });

  it('is refused out of reach', async () => {
    const r = await put(next('CAT'), { name: 'x', baseUnit: 'each' }, { as: limited('items.manage', [{ type: 'locations', ids: [nyc] }]) });
    expect(r.status).toBe(403);
    expect(r.body.code).toBe('out_of_reach');
  });
});

describe('DELETE /items/{id}', () => {
  it('archives (200, item.updated with status archived), keeps the item readable, and is idempotent', async () => {
    const item = (await post(itemBody())).body;
    const r = await del(item.id);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ ...item, status: 'archived', archivedAt: expect.any(String), version: 2, updatedAt: r.body.archivedAt });
    const again = await del(item.id, { headers: { 'If-Match': '"1"' } });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(r.body);
    expect((await get(`/items/${item.id}`)).body).toEqual(r.body);
    const events = await itemEvents(item.id);
    expect(events.map((e) => e.type)).toEqual(['item.created', 'item.updated']);
    expect(events[1].data).toEqual({ object: r.body, previous: { status: 'active', archivedAt: null } });
    expect(ItemEventObject.parse(events[1].data.object).status).toBe('archived');
  });

  it('no longer lets documents use the item', async () => {
    const item = (await post(itemBody())).body;
    await del(item.id);
    const err = await inv().svc.runtime.read((w) => resolveLines(w, [{ itemId: item.id, quantity: '1' }])).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'validation_error', errors: [{ path: 'lines[0].itemId', message: `Item ${item.id} is archived.` }] });
  });

  it('answers 404 for no item, 409 on a stale If-Match, 403 out of reach', async () => {
    expect((await del('itm_NOPE')).status).toBe(404);
    const item = (await post(itemBody())).body;
    expect((await del(item.id, { headers: { 'If-Match': '"5"' } })).body.code).toBe('version_mismatch');
    const r = await del(item.id, { as: limited('items.manage', [{ type: 'locations', ids: [nyc] }]) });
    expect(r.status).toBe(403);
    expect(r.body.code).toBe('out_of_reach');
    expect((await get(`/items/${item.id}`)).body.status).toBe('active');
  });
});

/**
 * The items' reference data (supplement: Inventory additions): item categories (name unique among
 * active ones, parents without cycles, archiving), units of measure (company-wide and an item's own,
 * conversions used by document lines) and storage areas (location-bound reach, name unique per
 * location, counting order, the items kept there, If-Match).
 */
import type { Reach } from '@bop/shared';
import { resolveLines } from '../src';
import { insertItem, person, untilReplicated } from '@bop/test-support';
import { startInventoryStack, type InventoryStack } from './fixtures';

let s: InventoryStack;
let nyc: string;
let ber: string;

let n = 0;
const next = (prefix: string) => `${prefix} ${++n}`;

const inv = () => s.stack.services.inventory;
type As = ReturnType<typeof person>;
const call = (method: string, path: string, opts: { as?: As; body?: unknown; headers?: Record<string, string> } = {}) => inv().call(method, path, opts);
const limited = (perm: string, reach: Reach[]) => person({ [perm]: reach });
const atNyc: Reach[] = [{ type: 'locations', ids: [] }];

beforeAll(async () => {
  s = await startInventoryStack();
  nyc = s.locations['NYC-1'];
  ber = s.locations['BER-1'];
  atNyc[0] = { type: 'locations', ids: [nyc] };
});
afterAll(async () => {
  await s?.stack.close();
});

describe('item categories', () => {
  it('creates (201) and lists with filters; names are unique among active categories, case-insensitive', async () => {
    const name = next('Beverages');
    const top = await call('POST', '/item-categories', { body: { name: `  ${name}  ` } });
    expect(top.status).toBe(201);
    expect(top.headers.get('etag')).toBe('"1"');
    expect(top.body).toEqual({ id: expect.stringMatching(/^ica_/), name, parentId: null, status: 'active', version: 1, createdAt: expect.any(String), updatedAt: top.body.createdAt });
    const child = await call('POST', '/item-categories', { body: { name: next('Beer'), parentId: top.body.id } });
    expect(child.body.parentId).toBe(top.body.id);

    const dup = await call('POST', '/item-categories', { body: { name: name.toUpperCase() } });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ code: 'conflict', detail: `Active category ${top.body.id} is already named ${name}.`, errors: [{ path: 'name', message: 'Already used by another active category.' }] });

    const list = await call('GET', `/item-categories?parentId=${top.body.id}`);
    expect(list.body).toEqual({ data: [child.body], nextCursor: null, hasMore: false });
    const page = await call('GET', '/item-categories?limit=1');
    expect(page.body).toMatchObject({ hasMore: true, nextCursor: expect.any(String) });
    const rest = await call('GET', `/item-categories?limit=200&cursor=${page.body.nextCursor}`);
    expect(rest.body.data.map((c: { id: string }) => c.id)).not.toContain(page.body.data[0].id);
    // any reach of inventory.read reads them
    expect((await call('GET', '/item-categories', { as: limited('inventory.read', atNyc) })).status).toBe(200);
  });

  it('answers 422 with paths: a missing or archived parent, unknown fields', async () => {
    const bad = async (body: unknown) => {
      const r = await call('POST', '/item-categories', { body });
      expect(r.status).toBe(422);
      return r.body.errors;
    };
    expect(await bad({ name: '' })).toEqual([{ path: 'name', message: expect.any(String) }]);
    expect(await bad({ name: 'x', status: 'archived' })).toEqual([{ path: 'status', message: 'Unknown field.' }]);
    expect(await bad({ name: next('Orphan'), parentId: 'ica_NOPE' })).toEqual([{ path: 'parentId', message: 'No item category ica_NOPE.' }]);
    const old = (await call('POST', '/item-categories', { body: { name: next('Old') } })).body;
    await call('PATCH', `/item-categories/${old.id}`, { body: { status: 'archived' } });
    expect(await bad({ name: next('Under old'), parentId: old.id })).toEqual([{ path: 'parentId', message: `Item category ${old.id} is archived.` }]);
  });

  it('patches (If-Match), refuses cycles, archives only without active subcategories, frees an archived name', async () => {
    const a = (await call('POST', '/item-categories', { body: { name: next('Food') } })).body;
    const b = (await call('POST', '/item-categories', { body: { name: next('Bakery'), parentId: a.id } })).body;
    const c = (await call('POST', '/item-categories', { body: { name: next('Bread'), parentId: b.id } })).body;

    const cycle = await call('PATCH', `/item-categories/${a.id}`, { body: { parentId: c.id } });
    expect(cycle.status).toBe(422);
    expect(cycle.body.errors).toEqual([{ path: 'parentId', message: `Category ${c.id} is this category or one of its subcategories; moving under it would make a cycle.` }]);
    expect((await call('PATCH', `/item-categories/${a.id}`, { body: { parentId: a.id } })).status).toBe(422);

    const archiveParent = await call('PATCH', `/item-categories/${b.id}`, { body: { status: 'archived' } });
    expect(archiveParent.status).toBe(409);
    expect(archiveParent.body.errors).toEqual([{ path: 'status', message: 'Has active subcategories.' }]);

    const moved = await call('PATCH', `/item-categories/${c.id}`, { body: { parentId: null }, headers: { 'If-Match': '"1"' } });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ parentId: null, version: 2 });
    expect((await call('PATCH', `/item-categories/${c.id}`, { body: { name: 'x' }, headers: { 'If-Match': '"1"' } })).body.code).toBe('version_mismatch');
    // nothing changed: same version
    expect((await call('PATCH', `/item-categories/${c.id}`, { body: { parentId: null } })).body.version).toBe(2);

    const archived = await call('PATCH', `/item-categories/${b.id}`, { body: { status: 'archived' } });
    expect(archived.body).toMatchObject({ status: 'archived', version: 2 });
    // its name is free again; reviving it then collides
    expect((await call('POST', '/item-categories', { body: { name: b.name } })).status).toBe(201);
    const revive = await call('PATCH', `/item-categories/${b.id}`, { body: { status: 'active' } });
    expect(revive.status).toBe(409);
    expect(revive.body.errors).toEqual([{ path: 'name', message: 'Already used by another active category.' }]);
    expect((await call('PATCH', `/item-categories/${b.id}`, { body: { status: 'active', name: next('Bakery') } })).body.status).toBe('active');

    expect((await call('PATCH', '/item-categories/ica_NOPE', { body: { name: 'x' } })).status).toBe(404);
  });

  it('needs items.manage at Everyone to write', async () => {
    const r = await call('POST', '/item-categories', { as: limited('items.manage', atNyc), body: { name: next('Nope') } });
    expect(r.status).toBe(403);
    expect(r.body.code).toBe('out_of_reach');
    expect((await call('POST', '/item-categories', { as: limited('inventory.read', [{ type: 'everyone' }]), body: { name: next('Nope') } })).body.code).toBe('forbidden');
  });

  it('gives one of several concurrent creates of a name the category, the others a 409', async () => {
    const name = next('Raced');
    const results = await Promise.all(Array.from({ length: 4 }, () => call('POST', '/item-categories', { body: { name } })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409]);
  });
});

describe('units of measure', () => {
  it('creates company-wide units and an item’s own; lists them with filters; the item shows the units that apply to it', async () => {
    const litre = await call('POST', '/units-of-measure', { body: { name: 'l', baseUnit: 'ml', factor: '1000.000' } });
    expect(litre.status).toBe(201);
    expect(litre.body).toEqual({ id: expect.stringMatching(/^uom_/), name: 'l', baseUnit: 'ml', factor: '1000', itemId: null, version: 1, createdAt: expect.any(String), updatedAt: litre.body.createdAt });
    const dozen = (await call('POST', '/units-of-measure', { body: { name: 'dozen', baseUnit: 'each', factor: '12' } })).body;
    const wine = (await call('POST', '/items', { body: { name: 'House red', baseUnit: 'ml' } })).body;
    const bottle = await call('POST', '/units-of-measure', { body: { name: 'bottle', baseUnit: 'ml', factor: '750', itemId: wine.id } });
    expect(bottle.status).toBe(201);
    expect(bottle.body).toMatchObject({ itemId: wine.id, factor: '750' });

    const forWine = await call('GET', `/units-of-measure?itemId=${wine.id}`, { as: limited('inventory.read', atNyc) });
    expect(forWine.body.data.map((u: { id: string }) => u.id).sort()).toEqual([litre.body.id, bottle.body.id].sort());
    const each = await call('GET', '/units-of-measure?baseUnit=each&limit=200');
    expect(each.body.data.map((u: { id: string }) => u.id)).toEqual([dozen.id]);
    expect((await call('GET', '/units-of-measure?baseUnit=kg')).status).toBe(400);

    expect((await call('GET', `/items/${wine.id}`)).body.units).toEqual([
      { id: bottle.body.id, name: 'bottle', factor: '750', itemId: wine.id },
      { id: litre.body.id, name: 'l', factor: '1000', itemId: null },
    ]);

    // document lines convert with them
    const lines = await inv().svc.runtime.read((w) =>
      resolveLines(w, [
        { itemId: wine.id, quantity: '2', unitId: bottle.body.id },
        { itemId: wine.id, quantity: '0.5', unitId: litre.body.id },
      ]),
    );
    expect(lines.map((l) => l.base.toFixed())).toEqual(['1500', '500']);
  });

  it('answers 422 with paths: unknown or archived item, another base unit, a factor that is not a positive decimal', async () => {
    const bad = async (body: unknown) => {
      const r = await call('POST', '/units-of-measure', { body });
      expect(r.status).toBe(422);
      return r.body.errors;
    };
    expect(await bad({ name: 'x', baseUnit: 'g', factor: '0' })).toEqual([{ path: 'factor', message: 'Must be greater than zero.' }]);
    expect(await bad({ name: 'x', baseUnit: 'g', factor: 12 })).toEqual([{ path: 'factor', message: 'send decimals as strings' }]);
    expect(await bad({ name: '', baseUnit: 'lb', factor: '-1' })).toEqual([
      { path: 'name', message: expect.any(String) },
      { path: 'baseUnit', message: expect.any(String) },
      { path: 'factor', message: 'Must be greater than zero.' },
    ]);
    expect(await bad({ name: 'case', baseUnit: 'each', factor: '12', itemId: 'itm_NOPE' })).toEqual([{ path: 'itemId', message: 'No item itm_NOPE.' }]);
    const flour = await insertItem(s.stack, { baseUnit: 'g' });
    expect(await bad({ name: 'case', baseUnit: 'each', factor: '12', itemId: flour })).toEqual([{ path: 'baseUnit', message: `Item ${flour} is kept in g; its units must measure g.` }]);
    const gone = await insertItem(s.stack, { status: 'archived' });
    expect(await bad({ name: 'case', baseUnit: 'each', factor: '12', itemId: gone })).toEqual([{ path: 'itemId', message: `Item ${gone} is archived.` }]);
  });

  it('keeps names unique among the units that apply to one item', async () => {
    const cup = await call('POST', '/units-of-measure', { body: { name: 'cup', baseUnit: 'ml', factor: '240' } });
    expect(cup.status).toBe(201);
    const again = await call('POST', '/units-of-measure', { body: { name: 'CUP', baseUnit: 'g', factor: '120' } });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ detail: `Company-wide unit ${cup.body.id} is already named CUP.`, errors: [{ path: 'name', message: expect.any(String) }] });

    const milk = await insertItem(s.stack, { baseUnit: 'ml' });
    expect((await call('POST', '/units-of-measure', { body: { name: 'Cup', baseUnit: 'ml', factor: '250', itemId: milk } })).status).toBe(409);
    // another base unit's company-wide name does not apply to an item kept in each
    const lemons = await insertItem(s.stack, { baseUnit: 'each' });
    expect((await call('POST', '/units-of-measure', { body: { name: 'cup', baseUnit: 'each', factor: '3', itemId: lemons } })).status).toBe(201);
    const crate = await call('POST', '/units-of-measure', { body: { name: 'crate', baseUnit: 'each', factor: '24', itemId: lemons } });
    expect(crate.status).toBe(201);
    expect((await call('POST', '/units-of-measure', { body: { name: 'crate', baseUnit: 'each', factor: '30', itemId: lemons } })).status).toBe(409);
    // a company-wide unit may not take a name an item kept in its base unit already uses
    const clash = await call('POST', '/units-of-measure', { body: { name: 'crate', baseUnit: 'each', factor: '20' } });
    expect(clash.status).toBe(409);
    expect(clash.body.detail).toBe(`Item ${lemons} already has a unit of its own named crate (${crate.body.id}).`);
    expect((await call('POST', '/units-of-measure', { body: { name: 'crate', baseUnit: 'g', factor: '10000' } })).status).toBe(201);
  });

  it('needs items.manage at Everyone to create one', async () => {
    const r = await call('POST', '/units-of-measure', { as: limited('items.manage', atNyc), body: { name: 'tray', baseUnit: 'each', factor: '30' } });
    expect(r.status).toBe(403);
    expect(r.body.code).toBe('out_of_reach');
  });
});

describe('storage areas', () => {
  const manager = () => limited('items.manage', atNyc);

  it('creates areas at a location in reach (201), default position after the last, names unique per location among active areas', async () => {
    const a = await call('POST', '/storage-areas', { as: manager(), body: { locationId: nyc, name: ' Walk-in cooler ' } });
    expect(a.status).toBe(201);
    expect(a.body).toEqual({
      id: expect.stringMatching(/^sta_/),
      locationId: nyc,
      name: 'Walk-in cooler',
      countingOrder: 0,
      itemIds: [],
      status: 'active',
      version: 1,
      createdAt: expect.any(String),
      updatedAt: a.body.createdAt,
    });
    const b = await call('POST', '/storage-areas', { as: manager(), body: { locationId: nyc, name: 'Dry store' } });
    expect(b.body.countingOrder).toBe(1);
    const dup = await call('POST', '/storage-areas', { body: { locationId: nyc, name: 'WALK-IN COOLER' } });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ code: 'conflict', detail: `Storage area ${a.body.id} of location ${nyc} is already named Walk-in cooler.`, errors: [{ path: 'name', message: expect.any(String) }] });
    // another location may use the name
    expect((await call('POST', '/storage-areas', { body: { locationId: ber, name: 'Walk-in cooler' } })).status).toBe(201);
  });

  it('is refused at a location out of reach (403), and answers 422 for an unknown location, items and bad fields', async () => {
    const out = await call('POST', '/storage-areas', { as: manager(), body: { locationId: ber, name: 'Bar' } });
    expect(out.status).toBe(403);
    expect(out.body.code).toBe('out_of_reach');
    const bad = async (body: unknown) => {
      const r = await call('POST', '/storage-areas', { body });
      expect(r.status).toBe(422);
      return r.body.errors;
    };
    expect(await bad({ locationId: 'loc_NOPE', name: 'Bar' })).toEqual([{ path: 'locationId', message: 'No location loc_NOPE.' }]);
    const lemon = await insertItem(s.stack);
    const gone = await insertItem(s.stack, { status: 'archived' });
    expect(await bad({ locationId: nyc, name: next('Bar'), itemIds: [lemon, 'itm_NOPE', gone, lemon] })).toEqual([{ path: 'itemIds[3]', message: 'Listed twice.' }]);
    expect(await bad({ locationId: nyc, name: next('Bar'), itemIds: [lemon, 'itm_NOPE', gone] })).toEqual([
      { path: 'itemIds[1]', message: 'No item itm_NOPE.' },
      { path: 'itemIds[2]', message: `Item ${gone} is archived.` },
    ]);
    expect(await bad({ locationId: nyc, name: 'x'.repeat(101), countingOrder: -1, shelf: 2 })).toEqual([
      { path: 'name', message: expect.any(String) },
      { path: 'countingOrder', message: expect.any(String) },
      { path: 'shelf', message: 'Unknown field.' },
    ]);
    expect(await bad({ locationId: nyc, name: 'x', countingOrder: 1.5 })).toEqual([{ path: 'countingOrder', message: expect.any(String) }]);
  });

  it('lists in counting order, only the locations in reach, with cursors', async () => {
    const loc = (await s.stack.services.organization.call('POST', '/locations', { body: { name: 'Lisbon', timezone: 'Europe/Lisbon', externalId: 'LIS-1' } })).body.id as string;
    await untilReplicated(s.stack, 'inventory', [loc]);
    const bar = (await call('POST', '/storage-areas', { body: { locationId: loc, name: 'Bar', countingOrder: 20 } })).body;
    const cellar = (await call('POST', '/storage-areas', { body: { locationId: loc, name: 'Cellar', countingOrder: 10 } })).body;
    const kitchen = (await call('POST', '/storage-areas', { body: { locationId: loc, name: 'Kitchen', countingOrder: 10 } })).body;
    const freezer = (await call('POST', '/storage-areas', { body: { locationId: loc, name: 'Freezer' } })).body;
    expect(freezer.countingOrder).toBe(21);

    const order = [cellar.id, kitchen.id, bar.id, freezer.id];
    const all = await call('GET', `/storage-areas?locationId=${loc}`);
    expect(all.body.data.map((a: { id: string }) => a.id)).toEqual(order);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const r: any = await call('GET', `/storage-areas?locationId=${loc}&limit=1${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...r.body.data.map((a: { id: string }) => a.id));
      cursor = r.body.nextCursor;
    } while (cursor);
    expect(seen).toEqual(order);

    const reader = limited('inventory.read', atNyc);
    const mine = await call('GET', '/storage-areas?limit=200', { as: reader });
    expect(mine.body.data.length).toBeGreaterThan(0);
    expect(mine.body.data.every((a: { locationId: string }) => a.locationId === nyc)).toBe(true);
    const other = await call('GET', `/storage-areas?locationId=${loc}`, { as: reader });
    expect(other.status).toBe(403);
    expect(other.body.code).toBe('out_of_reach');
    expect((await call('GET', '/storage-areas?cursor=eyJhIjoibm9wZSJ9')).status).toBe(400);
  });

  it('patches name, counting order, the items kept there and status (If-Match, reach of the location)', async () => {
    const oil = await insertItem(s.stack);
    const salt = await insertItem(s.stack);
    const area = (await call('POST', '/storage-areas', { as: manager(), body: { locationId: nyc, name: next('Pantry'), itemIds: [oil] } })).body;
    const r = await call('PATCH', `/storage-areas/${area.id}`, { as: manager(), body: { itemIds: [salt, oil], countingOrder: 5 }, headers: { 'If-Match': '"1"' } });
    expect(r.status).toBe(200);
    expect(r.headers.get('etag')).toBe('"2"');
    expect(r.body).toEqual({ ...area, itemIds: [salt, oil], countingOrder: 5, version: 2, updatedAt: expect.any(String) });
    const stale = await call('PATCH', `/storage-areas/${area.id}`, { body: { name: 'x' }, headers: { 'If-Match': '"1"' } });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('version_mismatch');
    // nothing changes: same version
    expect((await call('PATCH', `/storage-areas/${area.id}`, { body: { countingOrder: 5 } })).body.version).toBe(2);

    // an item archived since stays listed; a newly listed archived one is refused
    await call('DELETE', `/items/${oil}`);
    const gone = await insertItem(s.stack, { status: 'archived' });
    expect((await call('PATCH', `/storage-areas/${area.id}`, { body: { itemIds: [oil, salt] } })).status).toBe(200);
    const refused = await call('PATCH', `/storage-areas/${area.id}`, { body: { itemIds: [oil, salt, gone] } });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual([{ path: 'itemIds[2]', message: `Item ${gone} is archived.` }]);

    const cooler = (await call('POST', '/storage-areas', { body: { locationId: nyc, name: next('Cooler') } })).body;
    const clash = await call('PATCH', `/storage-areas/${cooler.id}`, { body: { name: area.name.toUpperCase() } });
    expect(clash.status).toBe(409);
    expect(clash.body.errors).toEqual([{ path: 'name', message: expect.any(String) }]);
    const archived = await call('PATCH', `/storage-areas/${area.id}`, { body: { status: 'archived' } });
    expect(archived.body).toMatchObject({ status: 'archived', version: 4 });
    expect((await call('PATCH', `/storage-areas/${cooler.id}`, { body: { name: area.name } })).status).toBe(200);

    const berArea = (await call('POST', '/storage-areas', { body: { locationId: ber, name: next('Bar') } })).body;
    const out = await call('PATCH', `/storage-areas/${berArea.id}`, { as: manager(), body: { name: 'Mine now' } });
    expect(out.status).toBe(403);
    expect(out.body.code).toBe('out_of_reach');
    expect((await call('PATCH', '/storage-areas/sta_NOPE', { body: { name: 'x' } })).status).toBe(404);
    expect((await call('PATCH', `/storage-areas/${area.id}`, { body: { locationId: ber } })).body.errors).toEqual([{ path: 'locationId', message: 'Unknown field.' }]);
  });
});

/**
 * Usage recipes (GET/PUT /usage-recipes/{itemId}): what one base unit of a sold item uses, nested
 * recipes expanded to leaf ingredients with yields, units converted, cycles and too deep nesting
 * refused with field paths, If-Match, removal by an empty list, `inventory.usage_recipe.*` events,
 * and the reach rules (company-wide: reading with any reach, writing with Everyone).
 */
import { newId } from '@bop/shared';
import { insertItem, outboxPayloads, person } from '@bop/test-support';
import { startInventoryStack, type InventoryStack } from './fixtures';

let s: InventoryStack;
let nyc: string;

const inv = () => s.stack.services.inventory;
const put = (itemId: string, components: unknown[], opts: { as?: ReturnType<typeof person>; headers?: Record<string, string> } = {}) =>
  inv().call('PUT', `/usage-recipes/${itemId}`, { as: opts.as, body: { components }, headers: opts.headers });
const get = (itemId: string, as?: ReturnType<typeof person>) => inv().call('GET', `/usage-recipes/${itemId}`, { as });
const recipeEvents = async (itemId: string) =>
  [...(await outboxPayloads(s.stack, 'inventory', { type: 'inventory.usage_recipe.replaced' })), ...(await outboxPayloads(s.stack, 'inventory', { type: 'inventory.usage_recipe.removed' }))]
    .filter((e) => e.data.object.itemId === itemId)
    .sort((a, b) => a.data.object.version - b.data.object.version);

/** A unit of measure row (company-wide unless `itemId`). */
async function insertUnit(name: string, baseUnit: 'each' | 'g' | 'ml', factor: string, itemId: string | null = null): Promise<string> {
  const id = newId('unitOfMeasure');
  const now = new Date();
  await s.sql(`insert into inventory.units_of_measure (id, name, base_unit, factor, item_id, created_at, updated_at) values (?, ?, ?, ?, ?, ?, ?)`, [id, name, baseUnit, factor, itemId, now, now]);
  return id;
}

beforeAll(async () => {
  s = await startInventoryStack();
  nyc = s.locations['NYC-1'];
});
afterAll(async () => {
  await s?.stack.close();
});

describe('PUT and GET /usage-recipes/{itemId}', () => {
  it('creates a recipe (201, ETag), reads it back, and records inventory.usage_recipe.replaced', async () => {
    const latte = await insertItem(s.stack, { name: 'Latte' });
    const milk = await insertItem(s.stack, { name: 'Milk', baseUnit: 'ml' });
    const beans = await insertItem(s.stack, { name: 'Beans', baseUnit: 'g' });
    const r = await put(latte, [{ itemId: milk, quantity: '250.0' }, { itemId: beans, quantity: '18', yield: '0.9' }]);
    expect(r.status).toBe(201);
    expect(r.headers.get('etag')).toBe('"1"');
    expect(r.body).toEqual({
      itemId: latte,
      components: [
        { itemId: milk, quantity: '250', unitId: null, yield: '1', baseQuantity: '250', grossQuantity: '250' },
        { itemId: beans, quantity: '18', unitId: null, yield: '0.9', baseQuantity: '18', grossQuantity: '20' },
      ],
      depletes: [
        { itemId: milk < beans ? milk : beans, quantity: milk < beans ? '250' : '20' },
        { itemId: milk < beans ? beans : milk, quantity: milk < beans ? '20' : '250' },
      ],
      version: 1,
      createdAt: expect.any(String),
      updatedAt: r.body.createdAt,
    });
    const got = await get(latte);
    expect(got.status).toBe(200);
    expect(got.headers.get('etag')).toBe('"1"');
    expect(got.body).toEqual(r.body);
    const events = await recipeEvents(latte);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      id: expect.stringMatching(/^evt_/),
      type: 'inventory.usage_recipe.replaced',
      apiVersion: 'v1',
      actor: { type: 'user', id: 'usr_test' },
      locationId: null,
      data: { object: r.body },
    });
    expect(events[0].data.previous).toBeUndefined();
  });

  it('expands nested recipes to their leaf ingredients, yields multiplying along the way', async () => {
    const burger = await insertItem(s.stack, { name: 'Burger' });
    const bun = await insertItem(s.stack, { name: 'Bun' });
    const patty = await insertItem(s.stack, { name: 'Patty' });
    const beef = await insertItem(s.stack, { name: 'Beef', baseUnit: 'g' });
    const salt = await insertItem(s.stack, { name: 'Salt', baseUnit: 'g' });
    // a patty is 100 g of usable beef at a 0.8 yield (125 g leaves stock) and 1.5 g salt
    expect((await put(patty, [{ itemId: beef, quantity: '100', yield: '0.8' }, { itemId: salt, quantity: '1.5' }])).status).toBe(201);
    // a double burger: two patties, of which 5 % is lost on the grill
    const r = await put(burger, [{ itemId: bun, quantity: '1' }, { itemId: patty, quantity: '2', yield: '0.95' }]);
    expect(r.status).toBe(201);
    const want = new Map([[bun, '1'], [beef, '263.157895'], [salt, '3.157895']]);
    expect(r.body.depletes).toEqual([...want].sort(([a], [b]) => (a < b ? -1 : 1)).map(([itemId, quantity]) => ({ itemId, quantity })));
    expect(r.body.components[1]).toEqual({ itemId: patty, quantity: '2', unitId: null, yield: '0.95', baseQuantity: '2', grossQuantity: '2.105263' });
    // the patty's recipe changing shows in the burger's expansion at once
    await put(patty, [{ itemId: beef, quantity: '120', yield: '0.8' }]);
    expect((await get(burger)).body.depletes).toEqual(
      [[bun, '1'], [beef, '315.789474']].sort(([a], [b]) => (a < b ? -1 : 1)).map(([itemId, quantity]) => ({ itemId, quantity })),
    );
  });

  it('converts units of measure to the component base unit, and refuses units of another base unit or another item', async () => {
    const pizza = await insertItem(s.stack, { name: 'Pizza' });
    const cheese = await insertItem(s.stack, { name: 'Cheese', baseUnit: 'g' });
    const oil = await insertItem(s.stack, { name: 'Oil', baseUnit: 'ml' });
    const other = await insertItem(s.stack, { name: 'Other', baseUnit: 'g' });
    const handful = await insertUnit('handful', 'g', '40');
    const spoon = await insertUnit('tablespoon', 'ml', '15');
    const otherScoop = await insertUnit('scoop', 'g', '30', other);
    const ok = await put(pizza, [{ itemId: cheese, quantity: '2.5', unitId: handful }, { itemId: oil, quantity: '1', unitId: spoon, yield: '0.75' }]);
    expect(ok.status).toBe(201);
    expect(ok.body.components).toEqual([
      { itemId: cheese, quantity: '2.5', unitId: handful, yield: '1', baseQuantity: '100', grossQuantity: '100' },
      { itemId: oil, quantity: '1', unitId: spoon, yield: '0.75', baseQuantity: '15', grossQuantity: '20' },
    ]);
    const bad = await put(pizza, [
      { itemId: cheese, quantity: '1', unitId: spoon },
      { itemId: oil, quantity: '1', unitId: 'uom_NOPE' },
      { itemId: other, quantity: '1' },
      { itemId: oil, quantity: '1' },
    ]);
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([
      { path: 'components[0].unitId', message: expect.stringContaining('measures ml') },
      { path: 'components[1].unitId', message: expect.stringContaining('No unit of measure uom_NOPE') },
      { path: 'components[3].itemId', message: expect.stringContaining('already listed at components[1]') },
    ]);
    const foreign = await put(pizza, [{ itemId: cheese, quantity: '1', unitId: otherScoop }]);
    expect(foreign.status).toBe(422);
    expect(foreign.body.errors).toEqual([{ path: 'components[0].unitId', message: expect.stringContaining(`belongs to item ${other}`) }]);
    // nothing was changed by the refused PUTs
    expect((await get(pizza)).body).toEqual(ok.body);
  });

  it('refuses bad components with field paths: unknown, archived, the item itself, duplicates, quantities and yields', async () => {
    const soup = await insertItem(s.stack, { name: 'Soup' });
    const carrot = await insertItem(s.stack, { name: 'Carrot', baseUnit: 'g' });
    const old = await insertItem(s.stack, { name: 'Old stock', status: 'archived' });
    const r = await put(soup, [{ itemId: 'itm_NOPE', quantity: '1' }, { itemId: soup, quantity: '1' }, { itemId: carrot, quantity: '5' }, { itemId: carrot, quantity: '6' }, { itemId: old, quantity: '1' }]);
    expect(r.status).toBe(422);
    expect(r.body.code).toBe('validation_error');
    expect(r.body.errors).toEqual([
      { path: 'components[0].itemId', message: 'No item itm_NOPE.' },
      { path: 'components[1].itemId', message: 'A recipe cannot use its own item.' },
      { path: 'components[3].itemId', message: expect.stringContaining('already listed at components[2]') },
      { path: 'components[4].itemId', message: `Item ${old} is archived.` },
    ]);
    const shape = await inv().call('PUT', `/usage-recipes/${soup}`, {
      body: {
        components: [
          { itemId: carrot, quantity: '0' },
          { itemId: carrot, quantity: 5 },
          { itemId: carrot, quantity: '-1' },
          { itemId: carrot, quantity: '1', yield: '1.2' },
          { itemId: carrot, quantity: '1', yield: '0' },
          { itemId: carrot, quantity: '1', yield: 0.5 },
          { itemId: carrot, quantity: '1', extra: true },
        ],
      },
    });
    expect(shape.status).toBe(422);
    const paths = shape.body.errors.map((e: { path: string }) => e.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'components[0].quantity',
        'components[1].quantity',
        'components[2].quantity',
        'components[3].yield',
        'components[4].yield',
        'components[5].yield',
        'components[6].extra',
      ]),
    );
    expect(shape.body.errors.find((e: { path: string }) => e.path === 'components[1].quantity').message).toBe('send decimals as strings');
    const tooMany = await put(soup, Array.from({ length: 101 }, () => ({ itemId: carrot, quantity: '1' })));
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.errors[0].path).toBe('components');
    const tiny = await put(soup, [{ itemId: carrot, quantity: '0.000001', unitId: await insertUnit('pinch', 'g', '0.1') }]);
    expect(tiny.status).toBe(422);
    expect(tiny.body.errors).toEqual([{ path: 'components[0].quantity', message: expect.stringContaining('Less than 0.000001 g') }]);
    expect((await get(soup)).status).toBe(404);
  });

  it('answers 404 for an unknown item and for an item without a recipe', async () => {
    const plain = await insertItem(s.stack, { name: 'Bottled water' });
    const none = await get(plain);
    expect(none.status).toBe(404);
    expect(none.body).toMatchObject({ code: 'not_found', detail: `No usage recipe for item with id ${plain}.` });
    expect((await get('itm_NOPE')).body).toMatchObject({ code: 'not_found', detail: 'No item with id itm_NOPE.' });
    const unknownPut = await put('itm_NOPE', [{ itemId: plain, quantity: '1' }]);
    expect(unknownPut.status).toBe(404);
  });
});

describe('cycles and nesting depth', () => {
  it('refuses a component that uses the item, directly or through other recipes, naming the cycle', async () => {
    const a = await insertItem(s.stack, { name: 'A' });
    const b = await insertItem(s.stack, { name: 'B' });
    const c = await insertItem(s.stack, { name: 'C' });
    const leaf = await insertItem(s.stack, { name: 'Leaf' });
    expect((await put(a, [{ itemId: b, quantity: '1' }])).status).toBe(201);
    const direct = await put(b, [{ itemId: leaf, quantity: '1' }, { itemId: a, quantity: '1' }]);
    expect(direct.status).toBe(422);
    expect(direct.body.errors).toEqual([{ path: 'components[1].itemId', message: `A (${a}) uses B (${b}), which would make a cycle: B (${b}) → A (${a}) → B (${b}).` }]);
    expect((await put(b, [{ itemId: c, quantity: '2' }])).status).toBe(201);
    const indirect = await put(c, [{ itemId: a, quantity: '1' }]);
    expect(indirect.status).toBe(422);
    expect(indirect.body.errors).toEqual([{ path: 'components[0].itemId', message: `A (${a}) uses C (${c}), which would make a cycle: C (${c}) → A (${a}) → B (${b}) → C (${c}).` }]);
    expect((await get(c)).status).toBe(404);
  });

  it('allows 10 recipe levels along any chain and refuses an 11th, from below or from above', async () => {
    const chain = [];
    for (let i = 0; i <= 11; i++) chain.push(await insertItem(s.stack, { name: `L${i}` }));
    // chain[i] uses chain[i + 1]: building bottom-up, chain[10] … chain[1] is 10 levels above chain[11]
    for (let i = 10; i >= 1; i--) expect((await put(chain[i], [{ itemId: chain[i + 1], quantity: '1' }])).status).toBe(201);
    const deeper = await put(chain[0], [{ itemId: chain[1], quantity: '1' }]);
    expect(deeper.status).toBe(422);
    expect(deeper.body.errors).toEqual([{ path: 'components[0].itemId', message: expect.stringMatching(/^Recipes would nest 11 levels deep \(L0 .* → L11 .*\); the limit is 10\.$/) }]);
    // from above: the leaf's own new recipe would add an 11th level under the 10 that use it
    const leaf = await insertItem(s.stack, { name: 'Deep leaf' });
    const below = await put(chain[11], [{ itemId: leaf, quantity: '1' }]);
    expect(below.status).toBe(422);
    expect(below.body.errors).toEqual([{ path: 'components', message: expect.stringMatching(/^Recipes would nest 11 levels deep \(L1 .* → L11 .* → Deep leaf .*\); the limit is 10\.$/) }]);
    // the deepest allowed chain expands to its leaf
    expect((await get(chain[1])).body.depletes).toEqual([{ itemId: chain[11], quantity: '1' }]);
  });

  it('serialises recipe writes, so two edits at once cannot close a cycle between them', async () => {
    const x = await insertItem(s.stack, { name: 'X' });
    const y = await insertItem(s.stack, { name: 'Y' });
    const [rx, ry] = await Promise.all([put(x, [{ itemId: y, quantity: '1' }]), put(y, [{ itemId: x, quantity: '1' }])]);
    expect([rx.status, ry.status].sort()).toEqual([201, 422]);
  });
});

describe('replacing, If-Match and removal', () => {
  it('replaces with a new version and data.previous; the same recipe again changes nothing', async () => {
    const fries = await insertItem(s.stack, { name: 'Fries' });
    const potato = await insertItem(s.stack, { name: 'Potato', baseUnit: 'g' });
    const created = await put(fries, [{ itemId: potato, quantity: '200', yield: '0.85' }]);
    const again = await put(fries, [{ itemId: potato, quantity: '200.000', yield: '0.850' }]);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(created.body);
    const replaced = await put(fries, [{ itemId: potato, quantity: '180', yield: '0.9' }]);
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ version: 2, createdAt: created.body.createdAt, depletes: [{ itemId: potato, quantity: '200' }] });
    const events = await recipeEvents(fries);
    expect(events.map((e) => e.data.object.version)).toEqual([1, 2]);
    expect(events[1].data.previous).toEqual({ components: created.body.components });
  });

  it('honours If-Match: 409 version_mismatch on another version, applied on the current one', async () => {
    const tea = await insertItem(s.stack, { name: 'Tea' });
    const leaves = await insertItem(s.stack, { name: 'Tea leaves', baseUnit: 'g' });
    await put(tea, [{ itemId: leaves, quantity: '3' }]);
    const stale = await put(tea, [{ itemId: leaves, quantity: '4' }], { headers: { 'If-Match': '"7"' } });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ code: 'version_mismatch', currentVersion: 1 });
    const fresh = await put(tea, [{ itemId: leaves, quantity: '4' }], { headers: { 'If-Match': '"1"' } });
    expect(fresh.status).toBe(200);
    expect(fresh.body.version).toBe(2);
    expect((await get(tea)).body.components[0].quantity).toBe('4');
  });

  it('removes a recipe with an empty list (204, then 404); the version goes on when it is made again', async () => {
    const shake = await insertItem(s.stack, { name: 'Shake' });
    const cream = await insertItem(s.stack, { name: 'Ice cream', baseUnit: 'g' });
    await put(shake, [{ itemId: cream, quantity: '150' }]);
    const removed = await put(shake, [], { headers: { 'If-Match': '"1"' } });
    expect(removed.status).toBe(204);
    expect((await get(shake)).status).toBe(404);
    expect((await put(shake, [])).status).toBe(204);
    const events = await recipeEvents(shake);
    expect(events.map((e) => e.type)).toEqual(['inventory.usage_recipe.replaced', 'inventory.usage_recipe.removed']);
    expect(events[1].data).toMatchObject({ object: { itemId: shake, components: [], depletes: [{ itemId: shake, quantity: '1' }], version: 2 }, previous: { version: 1 } });
    // a client still holding version 1 does not overwrite what came after
    expect((await put(shake, [{ itemId: cream, quantity: '100' }], { headers: { 'If-Match': '"1"' } })).status).toBe(409);
    const again = await put(shake, [{ itemId: cream, quantity: '100' }]);
    expect(again.status).toBe(201);
    expect(again.body.version).toBe(3);
  });
});

describe('reach', () => {
  it('reads with any reach of inventory.read; writes only with usage_recipes.manage at Everyone', async () => {
    const cake = await insertItem(s.stack, { name: 'Cake' });
    const flour = await insertItem(s.stack, { name: 'Flour', baseUnit: 'g' });
    await put(cake, [{ itemId: flour, quantity: '80' }]);
    const reader = person({ 'inventory.read': [{ type: 'locations', ids: [nyc] }] });
    expect((await get(cake, reader)).status).toBe(200);
    const localManager = person({ 'usage_recipes.manage': [{ type: 'locations', ids: [nyc] }] });
    const refused = await put(cake, [{ itemId: flour, quantity: '90' }], { as: localManager });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('out_of_reach');
    const noPermission = await put(cake, [{ itemId: flour, quantity: '90' }], { as: person({ 'inventory.read': [{ type: 'everyone' }] }) });
    expect(noPermission.status).toBe(403);
    expect(noPermission.body.code).toBe('forbidden');
    const manager = person({ 'usage_recipes.manage': [{ type: 'everyone' }] });
    expect((await put(cake, [{ itemId: flour, quantity: '90' }], { as: manager })).status).toBe(200);
    expect((await get(cake)).body.components[0].quantity).toBe('90');
  });
});

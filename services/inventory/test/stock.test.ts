/**
 * The stock area through the API: adjustments and waste (documents, ledger lines, levels, weighted
 * average, events, validation with paths, reach), their lists, the levels (value, filters, polling
 * `updatedSince` page by page), configure (par level, reorder point, If-Match, below_reorder_point,
 * no lost update against concurrent movements), the ledger's list, and parallel writers on one item.
 */
import { newId } from '@bop/shared';
import { eventually, insertItem, levelOf, outboxPayloads, person } from '@bop/test-support';
import { startInventoryStack, type InventoryStack } from './fixtures';

let s: InventoryStack;
let nyc: string;
let ber: string;

const inv = () => s.stack.services.inventory;
type As = ReturnType<typeof person>;
const adjust = (body: unknown, as?: As) => inv().call('POST', '/inventory/adjustments', { body, as });
const waste = (body: unknown, as?: As) => inv().call('POST', '/inventory/waste', { body, as });
const configure = (body: unknown, opts: { as?: As; headers?: Record<string, string> } = {}) => inv().call('POST', '/stock-levels:configure', { body, ...opts });
const get = (path: string, as?: As) => inv().call('GET', path, { as });
const qs = (q: Record<string, string | undefined>) => new URLSearchParams(Object.entries(q).filter((e): e is [string, string] => e[1] !== undefined)).toString();

/** A unit of measure row (e.g. a case of 12 of `each`), optionally bound to one item. */
async function insertUnit(over: { baseUnit?: 'each' | 'g' | 'ml'; factor: string; itemId?: string }): Promise<string> {
  const id = newId('unitOfMeasure');
  const now = new Date();
  await s.sql(`insert into inventory.units_of_measure (id, name, base_unit, factor, item_id, created_at, updated_at) values (?, ?, ?, ?, ?, ?, ?)`, [
    id,
    `unit ${over.factor} ${id}`,
    over.baseUnit ?? 'each',
    over.factor,
    over.itemId ?? null,
    now,
    now,
  ]);
  return id;
}

/** Puts stock of an item at a location with an opening balance at a cost. */
async function stock(itemId: string, quantity: string, unitCost: string, locationId = nyc) {
  const r = await adjust({ locationId, reason: 'opening_balance', lines: [{ itemId, quantity, unitCost }] });
  expect(r.status).toBe(201);
  return r.body;
}

const movementsOf = (itemId: string) =>
  s.sql(`select type, trim_scale(quantity)::text as quantity, trim_scale(on_hand_after)::text as after, cause_type, cause_id from inventory.stock_movements where item_id = ? order by seq`, [itemId]);
const documents = async () => Number((await s.sql(`select count(*)::int as n from inventory.stock_documents`))[0].n);

beforeAll(async () => {
  s = await startInventoryStack([], { API_MAX_BATCH_SIZE: '5' });
  nyc = s.locations['NYC-1'];
  ber = s.locations['BER-1'];
});
afterAll(async () => {
  await s?.stack.close();
});

describe('POST /inventory/adjustments', () => {
  it('writes one adjustment movement per line and answers the document with its lines and movements', async () => {
    const item = await insertItem(s.stack, { cost: '9' });
    const r = await adjust({ locationId: nyc, reason: 'found', note: 'Behind the freezer', occurredAt: '2025-11-21T15:00:00Z', lines: [{ itemId: item, quantity: '2', unitCost: '1.5' }] });
    expect(r.status).toBe(201);
    const m = r.body.movements[0];
    expect(r.body).toEqual({
      id: expect.stringMatching(/^adj_/),
      locationId: nyc,
      reason: 'found',
      note: 'Behind the freezer',
      occurredAt: '2025-11-21T15:00:00.000Z',
      businessDay: '2025-11-21',
      lines: [{ itemId: item, quantity: '2', unitId: null, baseQuantity: '2', unitCost: '1.5', value: '3', movementId: m.id }],
      totalValue: '3',
      movements: [
        {
          id: expect.stringMatching(/^smv_/),
          itemId: item,
          locationId: nyc,
          type: 'adjustment',
          quantity: '2',
          reservedChange: '0',
          onHandAfter: '2',
          reservedAfter: '0',
          unitCost: '1.5',
          value: '3',
          cause: { type: 'stock_adjustment', id: r.body.id },
          reason: 'found',
          note: 'Behind the freezer',
          businessDay: '2025-11-21',
          occurredAt: '2025-11-21T15:00:00.000Z',
          createdAt: r.body.createdAt,
        },
      ],
      actor: { type: 'user', id: 'usr_test' },
      createdAt: expect.any(String),
    });
    expect(await levelOf(s.stack, item, nyc)).toMatchObject({ on_hand: '2', average_cost: '1.5', version: 1 });
    const stored = await s.sql(`select kind, location_id, reason, business_day::text as day from inventory.stock_documents where id = ?`, [r.body.id]);
    expect(stored).toEqual([{ kind: 'adjustment', location_id: nyc, reason: 'found', day: '2025-11-21' }]);
    const changed = (await outboxPayloads(s.stack, 'inventory', { type: 'stock.level_changed' })).filter((e) => e.data.object.itemId === item);
    expect(changed).toHaveLength(1);
    expect(changed[0]).toMatchObject({ actor: { type: 'user', id: 'usr_test' }, locationId: nyc, data: { object: { onHand: '2', averageCost: '1.5' }, previous: { onHand: '0' } } });
    // the list answers the same document
    const listed = await get(`/inventory/adjustments?${qs({ itemId: item })}`);
    expect(listed.body).toEqual({ data: [r.body], nextCursor: null, hasMore: false });
  });

  it('moves the weighted-average cost with costed arrivals and values what leaves at it', async () => {
    const item = await insertItem(s.stack);
    await stock(item, '10', '2');
    const found = await adjust({ locationId: nyc, reason: 'found', lines: [{ itemId: item, quantity: '10', unitCost: '3' }] });
    expect(found.body.movements[0]).toMatchObject({ onHandAfter: '20', unitCost: '3', value: '30' });
    // found without a cost: valued at the average, which it does not move
    const uncosted = await adjust({ locationId: nyc, reason: 'found', lines: [{ itemId: item, quantity: '4' }] });
    expect(uncosted.body.lines[0]).toMatchObject({ baseQuantity: '4', unitCost: '2.5', value: '10' });
    const lost = await adjust({ locationId: nyc, reason: 'lost', lines: [{ itemId: item, quantity: '-4' }] });
    expect(lost.body).toMatchObject({ totalValue: '-10', lines: [{ baseQuantity: '-4', unitCost: '2.5', value: '-10' }] });
    expect(await levelOf(s.stack, item, nyc)).toMatchObject({ on_hand: '20', average_cost: '2.5' });
    const level = (await get(`/stock-levels?${qs({ itemId: item })}`)).body.data[0];
    expect(level).toMatchObject({ onHand: '20', averageCost: '2.5', value: '50' });
  });

  it('converts units to the base unit, lets stock go negative, and keeps several lines of one item as several movements', async () => {
    const item = await insertItem(s.stack, { cost: '0.5' });
    const caseOf12 = await insertUnit({ factor: '12' });
    const r = await adjust({
      locationId: nyc,
      reason: 'correction',
      lines: [
        { itemId: item, quantity: '-1.5', unitId: caseOf12 },
        { itemId: item, quantity: '3' },
        { itemId: item, quantity: '-1' },
      ],
    });
    expect(r.status).toBe(201);
    expect(r.body.lines.map((l: any) => [l.quantity, l.unitId, l.baseQuantity, l.value])).toEqual([
      ['-1.5', caseOf12, '-18', '-9'],
      ['3', null, '3', '1.5'],
      ['-1', null, '-1', '-0.5'],
    ]);
    expect(r.body.totalValue).toBe('-8');
    expect((await movementsOf(item)).map((m) => [m.quantity, m.after])).toEqual([['-18', '-18'], ['3', '-15'], ['-1', '-16']]);
    expect(await levelOf(s.stack, item, nyc)).toMatchObject({ on_hand: '-16', version: 1 });
    // one stock.level_changed for the item however many lines touched it
    expect((await outboxPayloads(s.stack, 'inventory', { type: 'stock.level_changed' })).filter((e) => e.data.object.itemId === item)).toHaveLength(1);
  });

  it('assigns the business day from the location time zone and cut-off (a backdated adjustment)', async () => {
    const item = await insertItem(s.stack);
    // 03:30 in New York, before the 04:00 cut-off: the previous business day
    const r = await adjust({ locationId: nyc, reason: 'found', occurredAt: '2025-11-21T08:30:00Z', lines: [{ itemId: item, quantity: '1' }] });
    expect(r.body).toMatchObject({ occurredAt: '2025-11-21T08:30:00.000Z', businessDay: '2025-11-20', movements: [{ businessDay: '2025-11-20' }] });
    // an offset other than UTC is the same instant
    const offset = await adjust({ locationId: ber, reason: 'found', occurredAt: '2025-11-21T06:00:00+01:00', lines: [{ itemId: item, quantity: '1' }] });
    expect(offset.body).toMatchObject({ occurredAt: '2025-11-21T05:00:00.000Z', businessDay: '2025-11-21' });
  });

  it('refuses bad bodies with field paths (422) and stores nothing', async () => {
    const item = await insertItem(s.stack);
    const before = await documents();
    const shape = await adjust({ locationId: nyc, reason: 'misplaced', extra: 1, lines: [{ itemId: item, quantity: '0' }, { itemId: item, quantity: 2 }, { itemId: item, quantity: '1.1234567' }] });
    expect(shape.status).toBe(422);
    expect(shape.body.code).toBe('validation_error');
    expect(shape.body.errors.map((e: any) => e.path).sort()).toEqual(['extra', 'lines[0].quantity', 'lines[1].quantity', 'lines[2].quantity', 'reason'].sort());
    expect(shape.body.errors.find((e: any) => e.path === 'lines[1].quantity').message).toBe('send decimals as strings');

    const empty = await adjust({ locationId: nyc, reason: 'found', lines: [] });
    expect(empty.body.errors).toEqual([{ path: 'lines', message: 'Send at least one line.' }]);

    const tooMany = await adjust({ locationId: nyc, reason: 'found', lines: Array.from({ length: 6 }, () => ({ itemId: item, quantity: '1' })) });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.errors).toEqual([{ path: 'lines', message: 'At most 5 lines per document; send the rest in another.' }]);

    const archived = await insertItem(s.stack, { status: 'archived' });
    const gram = await insertUnit({ baseUnit: 'g', factor: '1000' });
    const rules = await adjust({
      locationId: nyc,
      reason: 'other',
      occurredAt: new Date(Date.now() + 3_600_000).toISOString(),
      lines: [
        { itemId: item, quantity: '-2', unitCost: '1' },
        { itemId: 'itm_nope', quantity: '1' },
        { itemId: item, quantity: '1', unitId: gram },
        { itemId: archived, quantity: '1' },
        { itemId: item, quantity: '0.000001', unitId: await insertUnit({ factor: '0.1' }) },
      ],
    });
    expect(rules.status).toBe(422);
    expect(rules.body.errors).toEqual([
      { path: 'note', message: expect.stringContaining('note is required') },
      { path: 'occurredAt', message: 'Must not be in the future.' },
      { path: 'lines[0].unitCost', message: expect.stringContaining('Only stock that arrives') },
      { path: 'lines[1].itemId', message: 'No item itm_nope.' },
      { path: 'lines[2].unitId', message: expect.stringContaining('measures g') },
    ]);
    // with the items resolved, the rules that need them
    const resolved = await adjust({
      locationId: nyc,
      reason: 'correction',
      lines: [
        { itemId: archived, quantity: '1' },
        { itemId: archived, quantity: '-1' },
        { itemId: item, quantity: '0.000001', unitId: await insertUnit({ factor: '0.1' }) },
        { itemId: item, quantity: '99999999999999', unitId: await insertUnit({ factor: '10' }) },
        { itemId: item, quantity: '100000000', unitCost: '1000000' },
      ],
    });
    expect(resolved.body.errors).toEqual([
      { path: 'lines[0].itemId', message: `Item ${archived} is archived: its stock can only be written off.` },
      { path: 'lines[2].quantity', message: expect.stringContaining('Rounds to zero') },
      { path: 'lines[3].quantity', message: expect.stringContaining('Too large') },
      { path: 'lines[4].unitCost', message: expect.stringContaining('too large') },
    ]);
    const signs = await adjust({ locationId: nyc, reason: 'lost', lines: [{ itemId: item, quantity: '1' }] });
    expect(signs.body.errors).toEqual([{ path: 'lines[0].quantity', message: 'Reason lost removes stock: the quantity must be negative.' }]);

    const location = await adjust({ locationId: 'loc_nope', reason: 'found', lines: [{ itemId: item, quantity: '1' }] });
    expect(location.body.errors).toEqual([{ path: 'locationId', message: 'No location loc_nope.' }]);

    expect(await documents()).toBe(before);
    expect(await movementsOf(item)).toEqual([]);
    expect(await movementsOf(archived)).toEqual([]);
  });

  it('answers 422, not 500, when a level or value would leave the ledger\u2019s range, and stores nothing', async () => {
    const item = await insertItem(s.stack);
    await stock(item, '1', '99999999');
    // each line fits, but its value at the average cost (≈ 10^16) does not fit numeric(20,6)
    const r = await adjust({ locationId: nyc, reason: 'lost', lines: [{ itemId: item, quantity: '-99999999' }] });
    expect(r.status).toBe(422);
    expect(r.body.errors).toEqual([{ path: 'lines', message: expect.stringContaining('ledger\u2019s range') }]);
    expect(await levelOf(s.stack, item, nyc)).toMatchObject({ on_hand: '1', version: 1 });
    expect(await movementsOf(item)).toHaveLength(1);
  });

  it('writes off the stock of an archived item', async () => {
    const item = await insertItem(s.stack);
    await stock(item, '3', '1');
    await s.sql(`update inventory.items set status = 'archived' where id = ?`, [item]);
    const r = await adjust({ locationId: nyc, reason: 'correction', lines: [{ itemId: item, quantity: '-3' }] });
    expect(r.status).toBe(201);
    expect(await levelOf(s.stack, item, nyc)).toMatchObject({ on_hand: '0' });
  });

  it('checks reach: a person adjusting at one location is refused another (403 out_of_reach); no permission is 403 forbidden', async () => {
    const item = await insertItem(s.stack);
    const local = person({ 'inventory.adjust': [{ type: 'locations', ids: [nyc] }] });
    expect((await adjust({ locationId: nyc, reason: 'found', lines: [{ itemId: item, quantity: '1' }] }, local)).status).toBe(201);
    const far = await adjust({ locationId: ber, reason: 'found', lines: [{ itemId: item, quantity: '1' }] }, local);
    expect(far.status).toBe(403);
    expect(far.body.code).toBe('out_of_reach');
    const none = await adjust({ locationId: nyc, reason: 'found', lines: [{ itemId: item, quantity: '1' }] }, person({ 'inventory.read': [{ type: 'everyone' }] }));
    expect(none.status).toBe(403);
    expect(none.body.code).toBe('forbidden');
    expect(await levelOf(s.stack, item, ber)).toBeUndefined();
  });
});

describe('GET /inventory/adjustments', () => {
  it('filters by location, item, reason and occurredAt, pages with a cursor, and lists only reachable locations', async () => {
    const item = await insertItem(s.stack);
    const a = await adjust({ locationId: nyc, reason: 'found', occurredAt: '2025-11-01T12:00:00Z', lines: [{ itemId: item, quantity: '1' }] });
    const b = await adjust({ locationId: ber, reason: 'found', occurredAt: '2025-11-10T12:00:00Z', lines: [{ itemId: item, quantity: '2' }] });
    const c = await adjust({ locationId: nyc, reason: 'lost', occurredAt: '2025-11-20T12:00:00Z', lines: [{ itemId: item, quantity: '-1' }] });
    const ids = async (q: Record<string, string | undefined>, as?: As) => (await get(`/inventory/adjustments?${qs({ itemId: item, ...q })}`, as)).body.data.map((d: any) => d.id);
    expect(await ids({})).toEqual([a.body.id, b.body.id, c.body.id]);
    expect(await ids({ locationId: nyc })).toEqual([a.body.id, c.body.id]);
    expect(await ids({ reason: 'lost' })).toEqual([c.body.id]);
    expect(await ids({ from: '2025-11-10T12:00:00Z' })).toEqual([b.body.id, c.body.id]);

    const first = await get(`/inventory/adjustments?${qs({ itemId: item, limit: '2' })}`);
    expect(first.body).toMatchObject({ hasMore: true, nextCursor: expect.any(String) });
    expect(first.body.data.map((d: any) => d.id)).toEqual([a.body.id, b.body.id]);
    const second = await get(`/inventory/adjustments?${qs({ itemId: item, limit: '2', cursor: first.body.nextCursor })}`);
    expect(second.body).toMatchObject({ hasMore: false, nextCursor: null });
    expect(second.body.data).toEqual([c.body]);

    const reader = person({ 'inventory.read': [{ type: 'locations', ids: [nyc] }] });
    expect(await ids({}, reader)).toEqual([a.body.id, c.body.id]);
    const far = await get(`/inventory/adjustments?${qs({ locationId: ber })}`, reader);
    expect(far.status).toBe(403);
    expect(far.body.code).toBe('out_of_reach');
    const bad = await get(`/inventory/adjustments?${qs({ reason: 'misplaced', cursor: 'zzz' })}`);
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: any) => e.path)).toEqual(['reason']);
    const badCursor = await get(`/inventory/adjustments?${qs({ cursor: 'zzz' })}`);
    expect(badCursor.body.errors).toEqual([{ path: 'cursor', message: 'Not a cursor returned by this list.' }]);
  });
});

describe('POST /inventory/waste', () => {
  it('writes negative waste movements valued at the average cost and records waste.recorded with the record', async () => {
    const item = await insertItem(s.stack, { baseUnit: 'g' });
    const other = await insertItem(s.stack, { cost: '0.2' });
    await stock(item, '5000', '0.004');
    const kilo = await insertUnit({ baseUnit: 'g', factor: '1000' });
    const r = await waste({
      locationId: nyc,
      reason: 'spoiled',
      note: 'Fridge failed overnight',
      lines: [
        { itemId: item, quantity: '1.5', unitId: kilo },
        { itemId: other, quantity: '3' },
      ],
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      id: expect.stringMatching(/^wst_/),
      locationId: nyc,
      reason: 'spoiled',
      note: 'Fridge failed overnight',
      lines: [
        { itemId: item, quantity: '1.5', unitId: kilo, baseQuantity: '1500', unitCost: '0.004', value: '6' },
        { itemId: other, quantity: '3', unitId: null, baseQuantity: '3', unitCost: '0.2', value: '0.6' },
      ],
      totalValue: '6.6',
      movements: [
        { type: 'waste', quantity: '-1500', onHandAfter: '3500', value: '-6', cause: { type: 'waste_record', id: r.body.id }, reason: 'spoiled' },
        { type: 'waste', quantity: '-3', onHandAfter: '-3', value: '-0.6' },
      ],
    });
    expect(r.body.lines.map((l: any) => l.movementId)).toEqual(r.body.movements.map((m: any) => m.id));
    expect(await levelOf(s.stack, item, nyc)).toMatchObject({ on_hand: '3500', average_cost: '0.004' });

    const recorded = (await outboxPayloads(s.stack, 'inventory', { type: 'waste.recorded' })).filter((e) => e.data.object.id === r.body.id);
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({ type: 'waste.recorded', apiVersion: 'v1', actor: { type: 'user', id: 'usr_test' }, locationId: nyc });
    expect(recorded[0].data.object).toEqual(r.body);
    const onHand = async (id: string) => (await outboxPayloads(s.stack, 'inventory', { type: 'stock.level_changed' })).filter((e) => e.data.object.itemId === id).map((e) => e.data.object.onHand);
    expect(await onHand(item)).toEqual(['5000', '3500']);
    expect(await onHand(other)).toEqual(['-3']);

    const listed = await get(`/inventory/waste?${qs({ itemId: other })}`);
    expect(listed.body.data).toEqual([r.body]);
  });

  it('refuses bad bodies with field paths and checks reach with waste.record', async () => {
    const item = await insertItem(s.stack);
    const bad = await waste({ locationId: nyc, reason: 'other', lines: [{ itemId: item, quantity: '-1' }, { itemId: item, quantity: '0' }, { itemId: item, quantity: '1', unitCost: '2' }] });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: any) => e.path)).toEqual(['lines[0].quantity', 'lines[1].quantity', 'lines[2].unitCost']);
    const noNote = await waste({ locationId: nyc, reason: 'other', lines: [{ itemId: item, quantity: '1' }] });
    expect(noNote.body.errors).toEqual([{ path: 'note', message: expect.stringContaining('note is required') }]);
    const unknown = await waste({ locationId: nyc, reason: 'expired', lines: [{ itemId: item, quantity: '1' }, { itemId: 'itm_gone', quantity: '1' }] });
    expect(unknown.body.errors).toEqual([{ path: 'lines[1].itemId', message: 'No item itm_gone.' }]);

    const local = person({ 'waste.record': [{ type: 'locations', ids: [ber] }] });
    expect((await waste({ locationId: ber, reason: 'expired', lines: [{ itemId: item, quantity: '1' }] }, local)).status).toBe(201);
    const far = await waste({ locationId: nyc, reason: 'expired', lines: [{ itemId: item, quantity: '1' }] }, local);
    expect(far.status).toBe(403);
    expect(far.body.code).toBe('out_of_reach');
    expect((await waste({ locationId: ber, reason: 'expired', lines: [{ itemId: item, quantity: '1' }] }, person({ 'inventory.adjust': [{ type: 'everyone' }] }))).status).toBe(403);
    expect(await movementsOf(item)).toEqual([{ type: 'waste', quantity: '-1', after: '-1', cause_type: 'waste_record', cause_id: expect.stringMatching(/^wst_/) }]);
  });
});

describe('GET /inventory/waste', () => {
  it('filters by location, item, reason and occurredAt; reach limits the list', async () => {
    const item = await insertItem(s.stack);
    const a = await waste({ locationId: nyc, reason: 'expired', occurredAt: '2025-11-02T12:00:00Z', lines: [{ itemId: item, quantity: '1' }] });
    const b = await waste({ locationId: ber, reason: 'theft', occurredAt: '2025-11-12T12:00:00Z', lines: [{ itemId: item, quantity: '1' }] });
    const ids = async (q: Record<string, string | undefined>, as?: As) => (await get(`/inventory/waste?${qs({ itemId: item, ...q })}`, as)).body.data.map((d: any) => d.id);
    expect(await ids({})).toEqual([a.body.id, b.body.id]);
    expect(await ids({ reason: 'theft' })).toEqual([b.body.id]);
    expect(await ids({ locationId: nyc })).toEqual([a.body.id]);
    expect(await ids({ from: '2025-11-03T00:00:00Z' })).toEqual([b.body.id]);
    expect(await ids({}, person({ 'inventory.read': [{ type: 'locations', ids: [ber] }] }))).toEqual([b.body.id]);
    // adjustments are not waste
    expect((await get(`/inventory/adjustments?${qs({ itemId: item })}`)).body.data).toEqual([]);
  });
});

describe('GET /stock-levels', () => {
  it('answers on hand, reserved, available and value; filters by location, item and belowReorderPoint; reach limits it', async () => {
    const item = await insertItem(s.stack);
    await stock(item, '10', '1.25');
    await stock(item, '4', '2', ber);
    await configure({ locationId: ber, itemId: item, reorderPoint: '5' });
    const all = await get(`/stock-levels?${qs({ itemId: item })}`);
    expect(all.status).toBe(200);
    expect(all.body.data.map((l: any) => l.locationId).sort()).toEqual([nyc, ber].sort());
    const atNyc = await get(`/stock-levels?${qs({ itemId: item, locationId: nyc })}`);
    expect(atNyc.body.data).toEqual([
      {
        itemId: item,
        locationId: nyc,
        onHand: '10',
        reserved: '0',
        available: '10',
        averageCost: '1.25',
        value: '12.5',
        parLevel: null,
        reorderPoint: null,
        belowReorderPoint: false,
        version: 1,
        updatedAt: expect.any(String),
      },
    ]);
    expect((await get(`/stock-levels?${qs({ itemId: item, belowReorderPoint: 'true' })}`)).body.data.map((l: any) => l.locationId)).toEqual([ber]);
    expect((await get(`/stock-levels?${qs({ itemId: item, belowReorderPoint: 'false' })}`)).body.data.map((l: any) => l.locationId)).toEqual([nyc]);
    const reader = person({ 'inventory.read': [{ type: 'locations', ids: [nyc] }] });
    expect((await get(`/stock-levels?${qs({ itemId: item })}`, reader)).body.data.map((l: any) => l.locationId)).toEqual([nyc]);
    expect((await get(`/stock-levels?${qs({ locationId: ber })}`, reader)).status).toBe(403);
    expect((await get(`/stock-levels?${qs({ belowReorderPoint: 'yes' })}`)).status).toBe(400);
    expect((await get(`/stock-levels?${qs({ cursor: Buffer.from(JSON.stringify({ a: 'x' })).toString('base64url') })}`)).status).toBe(400);
  });

  it('serves updatedSince polling: pages in updatedAt order, and a level changed meanwhile comes back later', async () => {
    const items = [await insertItem(s.stack), await insertItem(s.stack), await insertItem(s.stack), await insertItem(s.stack), await insertItem(s.stack)];
    // levels written earlier at BER may come back too (at or after since): only this test's items are compared below
    const since = new Date().toISOString();
    for (const item of items) await stock(item, '1', '1', ber);
    const poll = async (cursor?: string) => (await get(`/stock-levels?${qs({ locationId: ber, updatedSince: since, limit: '2', cursor })}`)).body;
    const seen: string[] = [];
    let page = await poll();
    seen.push(...page.data.map((l: any) => l.itemId));
    // the first item changes while the poller is between pages: it moves to the end
    await adjust({ locationId: ber, reason: 'found', lines: [{ itemId: items[0], quantity: '1' }] });
    // the poller goes on from nextCursor, also after hasMore false: rows at or past the horizon (a
    // transaction still running anywhere on the server: another test file's) come again in a later poll
    await eventually(async () => {
      page = await poll(page.nextCursor);
      seen.push(...page.data.map((l: any) => l.itemId));
      return !page.hasMore && seen.includes(items[4]) && seen.filter((id) => id === items[0]).length >= 2;
    });
    const mine = seen.filter((id) => items.includes(id));
    expect([...new Set(mine)]).toEqual(items);
    expect(mine.at(-1)).toBe(items[0]);
    const levels = (await get(`/stock-levels?${qs({ locationId: ber, updatedSince: since, limit: '200' })}`)).body.data.filter((l: any) => items.includes(l.itemId));
    const stamps = levels.map((l: any) => l.updatedAt);
    expect([...stamps].sort()).toEqual(stamps);
    // polling again from the last updatedAt seen answers that level again (inclusive), nothing older
    const last = levels[levels.length - 1];
    const again = (await get(`/stock-levels?${qs({ locationId: ber, updatedSince: last.updatedAt })}`)).body.data;
    expect(again.map((l: any) => l.itemId)).toContain(items[0]);
    expect(again.every((l: any) => l.updatedAt >= last.updatedAt)).toBe(true);
  });
});

describe('POST /stock-levels:configure', () => {
  it('sets par level and reorder point, emits below_reorder_point once when the new point is above available, and no level_changed', async () => {
    const item = await insertItem(s.stack);
    await stock(item, '8', '1');
    const r = await configure({ locationId: nyc, itemId: item, parLevel: '20', reorderPoint: '6' });
    expect(r.status).toBe(200);
    expect(r.headers.get('etag')).toBe('"2"');
    expect(r.body).toMatchObject({ itemId: item, locationId: nyc, onHand: '8', available: '8', parLevel: '20', reorderPoint: '6', belowReorderPoint: false, version: 2 });
    const below = () => outboxPayloads(s.stack, 'inventory', { type: 'stock.below_reorder_point' }).then((es) => es.filter((e) => e.data.object.itemId === item));
    expect(await below()).toEqual([]);

    const raised = await configure({ locationId: nyc, itemId: item, reorderPoint: '10' });
    expect(raised.body).toMatchObject({ parLevel: '20', reorderPoint: '10', belowReorderPoint: true, version: 3 });
    const events = await below();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ locationId: nyc, actor: { type: 'user', id: 'usr_test' }, data: { object: raised.body } });

    // still below with a higher point: no new event; the same values again: nothing changes
    const higher = await configure({ locationId: nyc, itemId: item, reorderPoint: '12' });
    expect(higher.body.version).toBe(4);
    expect((await configure({ locationId: nyc, itemId: item, parLevel: '20', reorderPoint: '12.000' })).body).toEqual(higher.body);
    expect(await below()).toHaveLength(1);

    // clearing, then setting it again above available: a new crossing
    expect((await configure({ locationId: nyc, itemId: item, reorderPoint: null })).body).toMatchObject({ reorderPoint: null, belowReorderPoint: false, version: 5 });
    await configure({ locationId: nyc, itemId: item, reorderPoint: '9' });
    expect(await below()).toHaveLength(2);
    expect((await outboxPayloads(s.stack, 'inventory', { type: 'stock.level_changed' })).filter((e) => e.data.object.itemId === item)).toHaveLength(1);
    expect(await levelOf(s.stack, item, nyc)).toMatchObject({ on_hand: '8', version: 6 });
  });

  it('configures an item with no stock yet, checks If-Match, and refuses bad values with paths', async () => {
    const item = await insertItem(s.stack);
    const fresh = await configure({ locationId: ber, itemId: item, parLevel: '4.5' });
    expect(fresh.body).toMatchObject({ onHand: '0', parLevel: '4.5', reorderPoint: null, averageCost: null, value: null, version: 1 });

    const stale = await configure({ locationId: ber, itemId: item, parLevel: '5' }, { headers: { 'if-match': '"0"' } });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('version_mismatch');
    expect((await configure({ locationId: ber, itemId: item, parLevel: '5' }, { headers: { 'if-match': '"1"' } })).body).toMatchObject({ parLevel: '5', version: 2 });

    const over = await configure({ locationId: ber, itemId: item, reorderPoint: '6' });
    expect(over.status).toBe(422);
    expect(over.body.errors).toEqual([{ path: 'reorderPoint', message: 'The reorder point (6) must not exceed the par level (5).' }]);
    await configure({ locationId: ber, itemId: item, reorderPoint: '3' });
    expect((await configure({ locationId: ber, itemId: item, parLevel: '2' })).body.errors).toEqual([{ path: 'parLevel', message: 'The reorder point (3) must not exceed the par level (2).' }]);

    expect((await configure({ locationId: ber, itemId: item })).body.errors).toEqual([{ path: 'reorderPoint', message: 'Send parLevel, reorderPoint or both.' }]);
    expect((await configure({ locationId: ber, itemId: item, parLevel: '-1', reorderPoint: 2 })).body.errors.map((e: any) => e.path)).toEqual(['parLevel', 'reorderPoint']);
    const archived = await insertItem(s.stack, { status: 'archived' });
    expect((await configure({ locationId: 'loc_nope', itemId: 'itm_nope', parLevel: '1' })).body.errors).toEqual([
      { path: 'locationId', message: 'No location loc_nope.' },
      { path: 'itemId', message: 'No item itm_nope.' },
    ]);
    expect((await configure({ locationId: ber, itemId: archived, parLevel: '1' })).body.errors).toEqual([{ path: 'itemId', message: `Item ${archived} is archived.` }]);

    const local = person({ 'items.manage': [{ type: 'locations', ids: [nyc] }] });
    const far = await configure({ locationId: ber, itemId: item, parLevel: '1' }, { as: local });
    expect(far.status).toBe(403);
    expect(far.body.code).toBe('out_of_reach');
    expect((await configure({ locationId: ber, itemId: item, parLevel: '1' }, { as: person({ 'inventory.read': [{ type: 'everyone' }] }) })).status).toBe(403);
    expect(await levelOf(s.stack, item, ber)).toMatchObject({ version: 3 });
  });

  it('loses no update against concurrent movements on the level', async () => {
    const item = await insertItem(s.stack);
    await stock(item, '100', '1');
    await Promise.all([
      ...Array.from({ length: 8 }, () => waste({ locationId: nyc, reason: 'expired', lines: [{ itemId: item, quantity: '1' }] })),
      configure({ locationId: nyc, itemId: item, parLevel: '100', reorderPoint: '50' }),
      ...Array.from({ length: 8 }, () => adjust({ locationId: nyc, reason: 'found', lines: [{ itemId: item, quantity: '2' }] })),
    ]).then((rs) => rs.forEach((r) => expect(r.status).toBeLessThan(300)));
    const level = (await get(`/stock-levels?${qs({ itemId: item })}`)).body.data[0];
    expect(level).toMatchObject({ onHand: '108', parLevel: '100', reorderPoint: '50', version: 18 });
  });
});

describe('GET /stock-movements', () => {
  it('lists the ledger in append order with filters and a cursor by sequence; reach limits it', async () => {
    const item = await insertItem(s.stack);
    const a = await adjust({ locationId: nyc, reason: 'found', occurredAt: '2025-11-05T10:00:00Z', lines: [{ itemId: item, quantity: '5' }] });
    const w = await waste({ locationId: nyc, reason: 'expired', occurredAt: '2025-11-06T10:00:00Z', lines: [{ itemId: item, quantity: '1' }] });
    const b = await adjust({ locationId: ber, reason: 'found', occurredAt: '2025-11-07T10:00:00Z', lines: [{ itemId: item, quantity: '2' }] });
    const list = async (q: Record<string, string | undefined>, as?: As) => (await get(`/stock-movements?${qs({ itemId: item, ...q })}`, as)).body;
    const ids = async (q: Record<string, string | undefined>, as?: As) => (await list(q, as)).data.map((m: any) => m.id);
    const [ma, mw, mb] = [a.body.movements[0].id, w.body.movements[0].id, b.body.movements[0].id];
    expect((await list({})).data).toEqual([a.body.movements[0], w.body.movements[0], b.body.movements[0]]);
    expect(await ids({ locationId: nyc })).toEqual([ma, mw]);
    expect(await ids({ type: 'waste' })).toEqual([mw]);
    expect(await ids({ causeType: 'stock_adjustment' })).toEqual([ma, mb]);
    expect(await ids({ causeType: 'waste_record', causeId: w.body.id, itemId: undefined })).toEqual([mw]);
    expect(await ids({ from: '2025-11-06T10:00:00Z', to: '2025-11-07T10:00:00Z' })).toEqual([mw]);

    const first = await list({ limit: '2' });
    expect(first).toMatchObject({ hasMore: true, data: [{ id: ma }, { id: mw }] });
    expect(await list({ limit: '2', cursor: first.nextCursor })).toEqual({ data: [b.body.movements[0]], hasMore: false, nextCursor: null });

    expect(await ids({}, person({ 'inventory.read': [{ type: 'locations', ids: [ber] }] }))).toEqual([mb]);
    expect((await get(`/stock-movements?${qs({ locationId: nyc })}`, person({ 'inventory.read': [{ type: 'locations', ids: [ber] }] }))).status).toBe(403);
    const noType = await get(`/stock-movements?${qs({ causeId: w.body.id })}`);
    expect(noType.status).toBe(400);
    expect(noType.body.errors).toEqual([{ path: 'causeType', message: 'Send causeType with causeId.' }]);
    expect((await get(`/stock-movements?${qs({ from: '2025-11-07T00:00:00Z', to: '2025-11-06T00:00:00Z' })}`)).body.errors).toEqual([{ path: 'to', message: 'Must be after from.' }]);
    expect((await get(`/stock-movements?${qs({ type: 'gift' })}`)).body.errors.map((e: any) => e.path)).toEqual(['type']);
    expect((await get(`/stock-movements?${qs({ cursor: Buffer.from(JSON.stringify({ a: 'x1' })).toString('base64url') })}`)).status).toBe(400);
  });
});

describe('parallel writers on one item', () => {
  it('20 concurrent adjustments and waste records: the level is the sum and onHandAfter is a gap-free chain', async () => {
    const item = await insertItem(s.stack, { cost: '2' });
    await stock(item, '50', '2');
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2 === 0 ? adjust({ locationId: nyc, reason: 'found', lines: [{ itemId: item, quantity: '3' }] }) : waste({ locationId: nyc, reason: 'spoiled', lines: [{ itemId: item, quantity: '1.5' }] }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(201));
    expect(await levelOf(s.stack, item, nyc)).toMatchObject({ on_hand: '65', average_cost: '2', version: 21 });
    const ledger = await movementsOf(item);
    expect(ledger).toHaveLength(21);
    let running = 0;
    for (const m of ledger) {
      running += Number(m.quantity);
      expect(Number(m.after)).toBe(running);
    }
    // every level_changed carries the previous state the one before it left
    const changed = (await outboxPayloads(s.stack, 'inventory', { type: 'stock.level_changed' })).filter((e) => e.data.object.itemId === item);
    expect(changed).toHaveLength(21);
    changed.slice(1).forEach((e, i) => expect(e.data.previous.onHand).toBe(changed[i].data.object.onHand));
    // writers that waited for the lock never stamp the level back in time (updatedSince pollers)
    const stamps = changed.map((e) => e.data.object.updatedAt);
    expect([...stamps].sort()).toEqual(stamps);
  });
});

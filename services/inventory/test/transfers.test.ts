/**
 * Transfers (supplement: Transfer states): sending (transfer_out at the sender, available stock
 * required, the sender's unit cost kept per line), receiving (transfer_in at the receiver at that
 * cost, moving its weighted average; received or received_with_discrepancy with per-line
 * differences), every sent item answered, receiving twice refused, If-Match, reach on both sides,
 * lists and the events in the outbox.
 */
import { insertItem, insertUnit, levelOf, outboxPayloads, person, postLedger } from '@bop/test-support';
import { startInventoryStack, type InventoryStack } from './fixtures';

let s: InventoryStack;
let nyc: string;
let ber: string;

const inv = () => s.stack.services.inventory;

/** Stock put in place through the ledger. */
const stock = (locationId: string, itemId: string, quantity: string, unitCost: string) => postLedger(s, [{ itemId, locationId, type: 'receipt', quantity, unitCost }]);

const send = (body: Record<string, unknown>, as = person()) => inv().call('POST', '/transfers', { as, body });
const receive = (id: string, body: Record<string, unknown>, opts: { as?: ReturnType<typeof person>; ifMatch?: string } = {}) =>
  inv().call('POST', `/transfers/${id}:receive`, { as: opts.as, body, headers: opts.ifMatch ? { 'if-match': opts.ifMatch } : {} });
const getTransfer = (id: string, as = person()) => inv().call('GET', `/transfers/${id}`, { as });
const list = (query: string, as = person()) => inv().call('GET', `/transfers${query}`, { as });
const transferEvents = async (type: string, id: string) => (await outboxPayloads(s.stack, 'inventory', { type: type })).filter((e) => e.data.object.id === id);
const movementsOf = (transferId: string) =>
  s.sql(
    `select item_id, location_id, type, trim_scale(quantity)::text as quantity, trim_scale(unit_cost)::text as unit_cost, trim_scale(value)::text as value, cause_type from inventory.stock_movements where cause_id = ? order by seq`,
    [transferId],
  );

const unitOf = (baseUnit: 'each' | 'g' | 'ml', factor: string) => insertUnit(s.stack, baseUnit, factor);

beforeAll(async () => {
  s = await startInventoryStack();
  nyc = s.locations['NYC-1'];
  ber = s.locations['BER-1'];
});
afterAll(async () => {
  await s?.stack.close();
});

describe('POST /transfers', () => {
  it('sends stock: transfer_out at the sender at its average cost, in_transit, transfer.sent', async () => {
    const wine = await insertItem(s.stack, { baseUnit: 'ml', cost: '0.05' });
    const lemons = await insertItem(s.stack);
    const caseOf6 = await unitOf('ml', '4500');
    await stock(nyc, wine, '9000', '0.02');
    await stock(nyc, lemons, '40', '0.3');
    const r = await send({ fromLocationId: nyc, toLocationId: ber, note: 'For the weekend', lines: [{ itemId: wine, quantity: '1', unitId: caseOf6 }, { itemId: lemons, quantity: '12.50' }] });
    expect(r.status).toBe(201);
    expect(r.headers.get('etag')).toBe('"1"');
    expect(r.headers.get('location')).toBe(`/api/v1/transfers/${r.body.id}`);
    expect(r.body).toEqual({
      id: expect.stringMatching(/^trf_/),
      fromLocationId: nyc,
      toLocationId: ber,
      status: 'in_transit',
      note: 'For the weekend',
      receiveNote: null,
      lines: [
        { itemId: wine, quantity: '1', unitId: caseOf6, sentQuantity: '4500', unitCost: '0.02', sentValue: '90', receivedQuantity: null, difference: null, differenceValue: null },
        { itemId: lemons, quantity: '12.5', unitId: null, sentQuantity: '12.5', unitCost: '0.3', sentValue: '3.75', receivedQuantity: null, difference: null, differenceValue: null },
      ],
      sentAt: expect.any(String),
      receivedAt: null,
      version: 1,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(await movementsOf(r.body.id)).toEqual([
      { item_id: wine, location_id: nyc, type: 'transfer_out', quantity: '-4500', unit_cost: '0.02', value: '-90', cause_type: 'transfer' },
      { item_id: lemons, location_id: nyc, type: 'transfer_out', quantity: '-12.5', unit_cost: '0.3', value: '-3.75', cause_type: 'transfer' },
    ]);
    expect(await levelOf(s.stack, wine, nyc)).toMatchObject({ on_hand: '4500' });
    expect(await levelOf(s.stack, wine, ber)).toBeUndefined();
    const sent = await transferEvents('transfer.sent', r.body.id);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ type: 'transfer.sent', apiVersion: 'v1', locationId: nyc, actor: { type: 'user', id: 'usr_test' }, data: { object: r.body } });
    const changed = (await outboxPayloads(s.stack, 'inventory', { type: 'stock.level_changed' })).filter((e) => e.data.object.itemId === lemons);
    expect(changed.at(-1).data).toMatchObject({ previous: { onHand: '40' }, object: { onHand: '27.5', locationId: nyc } });
  });

  it('refuses with 422 insufficient_stock when the sender lacks available stock, changing nothing', async () => {
    const plenty = await insertItem(s.stack);
    const scarce = await insertItem(s.stack);
    await stock(nyc, plenty, '10', '1');
    await stock(nyc, scarce, '2', '1');
    const transfersBefore = (await s.sql(`select count(*)::int as n from inventory.transfers`))[0].n;
    const r = await send({ fromLocationId: nyc, toLocationId: ber, lines: [{ itemId: plenty, quantity: '5' }, { itemId: scarce, quantity: '3' }] });
    expect(r.status).toBe(422);
    expect(r.body.code).toBe('insufficient_stock');
    expect(r.body.errors).toEqual([{ path: 'lines[1].quantity', message: expect.stringContaining('Only 2 available') }]);
    expect(await levelOf(s.stack, plenty, nyc)).toMatchObject({ on_hand: '10' });
    expect((await s.sql(`select count(*)::int as n from inventory.transfers`))[0].n).toBe(transfersBefore);
  });

  it('lets only one of two transfers racing for the same stock through', async () => {
    const item = await insertItem(s.stack);
    await stock(nyc, item, '10', '1');
    const results = await Promise.all([0, 1].map(() => send({ fromLocationId: nyc, toLocationId: ber, lines: [{ itemId: item, quantity: '6' }] })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 422]);
    expect(results.find((r) => r.status === 422)!.body.code).toBe('insufficient_stock');
    expect(await levelOf(s.stack, item, nyc)).toMatchObject({ on_hand: '4' });
  });

  it('refuses bad input with field paths', async () => {
    const item = await insertItem(s.stack);
    const archived = await insertItem(s.stack, { status: 'archived' });
    const grams = await unitOf('g', '1');
    await stock(nyc, item, '5', '1');
    const shape = await send({ fromLocationId: nyc, toLocationId: ber, lines: [{ itemId: item, quantity: '0' }, { itemId: item, quantity: '-1' }, { itemId: item }], via: 'truck' });
    expect(shape.status).toBe(422);
    expect(shape.body.errors.map((e: any) => e.path)).toEqual(expect.arrayContaining(['lines[0].quantity', 'lines[1].quantity', 'lines[2].quantity', 'via']));

    const same = await send({ fromLocationId: nyc, toLocationId: nyc, lines: [{ itemId: item, quantity: '1' }] });
    expect(same.status).toBe(422);
    expect(same.body.errors).toEqual([{ path: 'toLocationId', message: 'Must differ from fromLocationId.' }]);

    const r = await send({
      fromLocationId: nyc,
      toLocationId: 'loc_nowhere',
      lines: [{ itemId: item, quantity: '1' }, { itemId: item, quantity: '2' }, { itemId: archived, quantity: '1' }, { itemId: 'itm_missing', quantity: '1' }, { itemId: 'itm_other', quantity: '1', unitId: grams }],
    });
    expect(r.status).toBe(422);
    expect(r.body.errors).toEqual(
      expect.arrayContaining([
        { path: 'toLocationId', message: expect.stringContaining('No location loc_nowhere') },
        { path: 'lines[1].itemId', message: expect.stringContaining('already at lines[0]') },
        { path: 'lines[2].itemId', message: `Item ${archived} is archived.` },
        { path: 'lines[3].itemId', message: 'No item itm_missing.' },
        { path: 'lines[4].itemId', message: 'No item itm_other.' },
      ]),
    );
    expect(r.body.errors).toHaveLength(5);
    expect(await levelOf(s.stack, item, nyc)).toMatchObject({ on_hand: '5' });
  });

  it('needs transfers.manage at the sending location (403 out_of_reach otherwise)', async () => {
    const item = await insertItem(s.stack);
    await stock(ber, item, '5', '1');
    const nycManager = person({ 'transfers.manage': [{ type: 'locations', ids: [nyc] }] });
    const r = await send({ fromLocationId: ber, toLocationId: nyc, lines: [{ itemId: item, quantity: '1' }] }, nycManager);
    expect(r.status).toBe(403);
    expect(r.body.code).toBe('out_of_reach');
    expect(await levelOf(s.stack, item, ber)).toMatchObject({ on_hand: '5' });
  });
});

describe('POST /transfers/{id}:receive', () => {
  /** 10 × item at NYC bought at 2, sent to BER where 10 were bought at 4. */
  async function inTransit(quantity = '10') {
    const item = await insertItem(s.stack);
    const other = await insertItem(s.stack);
    await stock(nyc, item, '10', '2');
    await stock(nyc, other, '3', '1');
    await stock(ber, item, '10', '4');
    const t = await send({ fromLocationId: nyc, toLocationId: ber, lines: [{ itemId: item, quantity }, { itemId: other, quantity: '3' }] });
    expect(t.status).toBe(201);
    return { item, other, id: t.body.id as string };
  }

  it('receives everything as sent: transfer_in at the sender cost, the receiver average moves, received, transfer.received', async () => {
    const { item, other, id } = await inTransit();
    const r = await receive(id, { lines: [{ itemId: other, receivedQuantity: '3' }, { itemId: item, receivedQuantity: '10' }], note: 'All good' }, { ifMatch: '"1"' });
    expect(r.status).toBe(200);
    expect(r.headers.get('etag')).toBe('"2"');
    expect(r.body).toMatchObject({ status: 'received', version: 2, receiveNote: 'All good', receivedAt: expect.any(String) });
    expect(r.body.lines).toEqual([
      expect.objectContaining({ itemId: item, sentQuantity: '10', unitCost: '2', receivedQuantity: '10', difference: '0', differenceValue: '0' }),
      expect.objectContaining({ itemId: other, sentQuantity: '3', unitCost: '1', receivedQuantity: '3', difference: '0', differenceValue: '0' }),
    ]);
    // (10 × 4 + 10 × 2) / 20
    expect(await levelOf(s.stack, item, ber)).toMatchObject({ on_hand: '20', average_cost: '3' });
    expect(await levelOf(s.stack, other, ber)).toMatchObject({ on_hand: '3', average_cost: '1' });
    expect(await levelOf(s.stack, item, nyc)).toMatchObject({ on_hand: '0' });
    expect((await movementsOf(id)).filter((m) => m.type === 'transfer_in')).toEqual([
      { item_id: item, location_id: ber, type: 'transfer_in', quantity: '10', unit_cost: '2', value: '20', cause_type: 'transfer' },
      { item_id: other, location_id: ber, type: 'transfer_in', quantity: '3', unit_cost: '1', value: '3', cause_type: 'transfer' },
    ]);
    const received = await transferEvents('transfer.received', id);
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ locationId: ber, data: { object: r.body, previous: { status: 'in_transit', receivedAt: null } } });
    expect(await transferEvents('transfer.discrepancy', id)).toEqual([]);
    expect((await getTransfer(id)).body).toEqual(r.body);
  });

  it('books what arrived and records the difference: received_with_discrepancy, transfer.discrepancy', async () => {
    const { item, other, id } = await inTransit();
    const r = await receive(id, { lines: [{ itemId: item, receivedQuantity: '8' }, { itemId: other, receivedQuantity: '0' }] });
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('received_with_discrepancy');
    expect(r.body.lines).toEqual([
      expect.objectContaining({ itemId: item, sentQuantity: '10', receivedQuantity: '8', difference: '-2', differenceValue: '-4' }),
      expect.objectContaining({ itemId: other, sentQuantity: '3', receivedQuantity: '0', difference: '-3', differenceValue: '-3' }),
    ]);
    // (10 × 4 + 8 × 2) / 18
    expect(await levelOf(s.stack, item, ber)).toMatchObject({ on_hand: '18', average_cost: '3.111111' });
    expect(await levelOf(s.stack, other, ber)).toBeUndefined();
    expect((await movementsOf(id)).filter((m) => m.type === 'transfer_in')).toHaveLength(1);
    expect(await transferEvents('transfer.received', id)).toHaveLength(1);
    const discrepancy = await transferEvents('transfer.discrepancy', id);
    expect(discrepancy).toHaveLength(1);
    expect(discrepancy[0]).toMatchObject({ type: 'transfer.discrepancy', locationId: ber, data: { object: r.body } });
  });

  it('records more arriving than was sent as a discrepancy too, in the unit the receiver used', async () => {
    const { item, other, id } = await inTransit('4');
    const pair = await unitOf('each', '2');
    const r = await receive(id, { lines: [{ itemId: item, receivedQuantity: '2.5', unitId: pair }, { itemId: other, receivedQuantity: '3' }] });
    expect(r.body.status).toBe('received_with_discrepancy');
    expect(r.body.lines[0]).toMatchObject({ sentQuantity: '4', receivedQuantity: '5', difference: '1', differenceValue: '2' });
    expect(await levelOf(s.stack, item, ber)).toMatchObject({ on_hand: '15' });
  });

  it('needs every sent item answered once, and nothing else', async () => {
    const { item, other, id } = await inTransit();
    const missing = await receive(id, { lines: [{ itemId: item, receivedQuantity: '10' }] });
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual([{ path: 'lines', message: expect.stringContaining(`missing: ${other}`) }]);
    const wrong = await receive(id, {
      lines: [{ itemId: item, receivedQuantity: '10' }, { itemId: item, receivedQuantity: '1' }, { itemId: other, receivedQuantity: '-1' }, { itemId: 'itm_stranger', receivedQuantity: '1' }],
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors.map((e: any) => e.path)).toEqual(['lines[2].receivedQuantity']);
    const stranger = await receive(id, { lines: [{ itemId: item, receivedQuantity: '10' }, { itemId: item, receivedQuantity: '1' }, { itemId: other, receivedQuantity: '3' }, { itemId: 'itm_stranger', receivedQuantity: '1' }] });
    expect(stranger.body.errors).toEqual(
      expect.arrayContaining([
        { path: 'lines[1].itemId', message: expect.stringContaining('already at lines[0]') },
        { path: 'lines[3].itemId', message: 'Item itm_stranger was not sent on this transfer.' },
      ]),
    );
    expect((await getTransfer(id)).body).toMatchObject({ status: 'in_transit', version: 1 });
    expect(await levelOf(s.stack, item, ber)).toMatchObject({ on_hand: '10' });
  });

  it('refuses receiving twice (409), checks If-Match, and receives once under a race', async () => {
    const { item, other, id } = await inTransit();
    const answer = { lines: [{ itemId: item, receivedQuantity: '10' }, { itemId: other, receivedQuantity: '3' }] };
    const stale = await receive(id, answer, { ifMatch: '"3"' });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('version_mismatch');
    const results = await Promise.all(Array.from({ length: 4 }, () => receive(id, answer)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409]);
    const again = await receive(id, answer);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'conflict', detail: expect.stringContaining('already received') });
    expect(await levelOf(s.stack, item, ber)).toMatchObject({ on_hand: '20' });
    expect(await transferEvents('transfer.received', id)).toHaveLength(1);
    expect((await receive('trf_missing', answer)).status).toBe(404);
  });

  it('needs transfers.manage at the receiving location', async () => {
    const { item, other, id } = await inTransit();
    const sender = person({ 'transfers.manage': [{ type: 'locations', ids: [nyc] }] });
    const r = await receive(id, { lines: [{ itemId: item, receivedQuantity: '10' }, { itemId: other, receivedQuantity: '3' }] }, { as: sender });
    expect(r.status).toBe(403);
    expect(r.body.code).toBe('out_of_reach');
    const receiver = person({ 'transfers.manage': [{ type: 'locations', ids: [ber] }] });
    expect((await receive(id, { lines: [{ itemId: item, receivedQuantity: '10' }, { itemId: other, receivedQuantity: '3' }] }, { as: receiver })).status).toBe(200);
  });
});

describe('reading transfers', () => {
  let toBer: string;
  let toNyc: string;
  let since: string;

  beforeAll(async () => {
    since = new Date().toISOString();
    const item = await insertItem(s.stack);
    await stock(nyc, item, '10', '1');
    await stock(ber, item, '10', '1');
    toBer = (await send({ fromLocationId: nyc, toLocationId: ber, lines: [{ itemId: item, quantity: '1' }] })).body.id;
    toNyc = (await send({ fromLocationId: ber, toLocationId: nyc, lines: [{ itemId: item, quantity: '1' }] })).body.id;
    expect((await receive(toNyc, { lines: [{ itemId: item, receivedQuantity: '1' }] })).status).toBe(200);
  });

  it('gets a transfer reached on either side; 403 on neither; 404 when missing', async () => {
    const nycReader = person({ 'inventory.read': [{ type: 'locations', ids: [nyc] }] });
    const berReader = person({ 'inventory.read': [{ type: 'locations', ids: [ber] }] });
    expect((await getTransfer(toBer, nycReader)).status).toBe(200);
    expect((await getTransfer(toBer, berReader)).status).toBe(200);
    const nobody = await getTransfer(toBer, person({ 'inventory.read': [{ type: 'locations', ids: ['loc_elsewhere'] }] }));
    expect(nobody.status).toBe(403);
    expect(nobody.body.code).toBe('out_of_reach');
    expect((await getTransfer('trf_missing')).status).toBe(404);
  });

  it('lists with filters locationId (either side), status and from, and cursors', async () => {
    const q = `?from=${encodeURIComponent(since)}`;
    expect((await list(q)).body.data.map((t: any) => t.id)).toEqual([toBer, toNyc]);
    expect((await list(`${q}&locationId=${ber}`)).body.data.map((t: any) => t.id)).toEqual([toBer, toNyc]);
    expect((await list(`${q}&status=in_transit`)).body.data.map((t: any) => t.id)).toEqual([toBer]);
    expect((await list(`${q}&status=received`)).body.data.map((t: any) => t.id)).toEqual([toNyc]);
    expect((await list(`?from=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).body.data).toEqual([]);
    const first = await list(`${q}&limit=1`);
    expect(first.body).toMatchObject({ hasMore: true, data: [{ id: toBer }] });
    const second = await list(`${q}&limit=1&cursor=${first.body.nextCursor}`);
    expect(second.body).toMatchObject({ hasMore: false, nextCursor: null, data: [{ id: toNyc }] });
    expect((await list('')).body.data.map((t: any) => t.id)).toEqual(expect.arrayContaining([toBer, toNyc]));
    expect((await list('?status=lost')).status).toBe(400);
  });

  it('lists transfers of reachable locations only, and refuses a locationId out of reach', async () => {
    const elsewhere = person({ 'inventory.read': [{ type: 'locations', ids: ['loc_elsewhere'] }] });
    expect((await list(`?from=${encodeURIComponent(since)}`, elsewhere)).body.data).toEqual([]);
    const berReader = person({ 'inventory.read': [{ type: 'locations', ids: [ber] }] });
    expect((await list(`?from=${encodeURIComponent(since)}`, berReader)).body.data.map((t: any) => t.id)).toEqual([toBer, toNyc]);
    const far = await list(`?locationId=${nyc}`, berReader);
    expect(far.status).toBe(403);
    expect(far.body.code).toBe('out_of_reach');
  });
});

/**
 * The stock ledger (ledger/store.ts): movements with the levels after each, weighted-average cost on
 * costed arrivals, no lost updates under concurrent writers, insufficient_stock refusing everything,
 * one stock.level_changed per item and location per transaction, stock.below_reorder_point crossings.
 */
import { ApiError, sqlList } from '@bop/shared';
import { LEVEL_DTO_COLUMNS, stockLevelFromDtoRow, stockLevelFromRow, type MovementInput } from '../src';
import { insertItem, levelOf, outboxPayloads, postLedger } from '@bop/test-support';
import { startInventoryStack, type InventoryStack } from './fixtures';

let s: InventoryStack;
let nyc: string;
const at = new Date('2026-11-21T15:00:00Z');

const post = (movements: Array<Partial<MovementInput> & Pick<MovementInput, 'itemId' | 'type' | 'quantity'>>, opts: { requireAvailable?: boolean } = {}) =>
  postLedger(s, movements.map((m) => ({ occurredAt: at, ...m })), opts);

beforeAll(async () => {
  s = await startInventoryStack();
  nyc = s.locations['NYC-1'];
});
afterAll(async () => {
  await s?.stack.close();
});

describe('stock ledger', () => {
  it('keeps the weighted-average cost over costed receipts and costs what leaves at it', async () => {
    const item = await insertItem(s.stack, { cost: '9.99' });
    await post([{ itemId: item, type: 'receipt', quantity: '10', unitCost: '2.00' }]);
    const r = await post([{ itemId: item, type: 'receipt', quantity: '10', unitCost: '3.00' }]);
    expect(r.levels[0]).toMatchObject({ onHand: '20', averageCost: '2.5', value: '50' });
    const sale = await post([{ itemId: item, type: 'sale', quantity: '-5' }]);
    expect(sale.movements[0]).toMatchObject({ quantity: '-5', unitCost: '2.5', value: '-12.5', onHandAfter: '15', businessDay: '2026-11-21' });
    expect(await levelOf(s.stack, item, nyc)).toMatchObject({ on_hand: '15', reserved: '0', average_cost: '2.5' });
  });

  it('keeps the value of what is on hand to the cent: an arrival at its exact value, all of it leaving at all of it', async () => {
    const oat = await insertItem(s.stack, { baseUnit: 'ml' });
    // 3 cases of 6 l at 14.00: 42.00 for 18 000 ml (0.0023333… per ml)
    const r = await post([{ itemId: oat, type: 'receipt', quantity: '18000', unitCost: '0.002333', value: '42.00' }]);
    expect(r.movements[0]).toMatchObject({ quantity: '18000', unitCost: '0.002333', value: '42' });
    expect(r.levels[0]).toMatchObject({ onHand: '18000', averageCost: '0.002333', value: '42' });
    const more = await post([{ itemId: oat, type: 'receipt', quantity: '6000', unitCost: '0.0025', value: '15.00' }]);
    expect(more.levels[0]).toMatchObject({ onHand: '24000', averageCost: '0.002375', value: '57' });
    const part = await post([{ itemId: oat, type: 'sale', quantity: '-1000' }]);
    expect(part.movements[0]).toMatchObject({ unitCost: '0.002375', value: '-2.375' });
    expect(part.levels[0]).toMatchObject({ onHand: '23000', value: '54.625' });
    const rest = await post([{ itemId: oat, type: 'waste', quantity: '-23000' }]);
    expect(rest.movements[0]).toMatchObject({ value: '-54.625' });
    expect(rest.levels[0]).toMatchObject({ onHand: '0', value: '0' });
    const [{ total }] = await s.sql(`select trim_scale(sum(value))::text as total from inventory.stock_movements where item_id = ?`, [oat]);
    expect(total).toBe('0');
  });

  it('announces each posting to insights: its sums per item, business day, type and adjustment reason (inventory.movements.posted)', async () => {
    const item = await insertItem(s.stack, { cost: '2.00' });
    const other = await insertItem(s.stack);
    await post([
      { itemId: item, type: 'sale', quantity: '-2' },
      { itemId: item, type: 'sale', quantity: '-1.5' },
      { itemId: item, type: 'adjustment', quantity: '4', reason: 'opening_balance' },
      { itemId: item, type: 'adjustment', quantity: '-1', reason: 'lost' },
      // no cost yet: counted, no value
      { itemId: other, type: 'waste', quantity: '-1' },
      // a reservation moves no stock: not announced
      { itemId: item, type: 'reservation', quantity: '0', reservedChange: '1' },
    ]);
    const [posted] = (await outboxPayloads(s.stack, 'inventory', { type: 'inventory.movements.posted' })).filter((e) => e.data.object.sums.some((x: { itemId: string }) => x.itemId === item));
    expect(posted.locationId).toBe(nyc);
    expect(posted.data.object.locationId).toBe(nyc);
    expect(posted.data.object.sums).toEqual([
      { itemId: item, businessDay: '2026-11-21', type: 'sale', reason: null, quantity: '-3.5', value: '-7', unvalued: 0 },
      { itemId: item, businessDay: '2026-11-21', type: 'adjustment', reason: 'opening_balance', quantity: '4', value: '8', unvalued: 0 },
      { itemId: item, businessDay: '2026-11-21', type: 'adjustment', reason: 'lost', quantity: '-1', value: '-2', unvalued: 0 },
      { itemId: other, businessDay: '2026-11-21', type: 'waste', reason: null, quantity: '-1', value: '0', unvalued: 1 },
    ]);
  });

  it('uses the standard cost before any receipt, and the receipt cost when nothing is on hand', async () => {
    const item = await insertItem(s.stack, { cost: '1.20' });
    const sold = await post([{ itemId: item, type: 'sale', quantity: '-3' }]);
    expect(sold.movements[0]).toMatchObject({ unitCost: '1.2', value: '-3.6', onHandAfter: '-3' });
    const received = await post([{ itemId: item, type: 'receipt', quantity: '5', unitCost: '2' }]);
    expect(received.levels[0]).toMatchObject({ onHand: '2', averageCost: '2' });
  });

  it('loses no update under concurrent writers on one item', async () => {
    const item = await insertItem(s.stack);
    await post([{ itemId: item, type: 'receipt', quantity: '100', unitCost: '1' }]);
    await Promise.all(Array.from({ length: 25 }, () => post([{ itemId: item, type: 'sale', quantity: '-1' }])));
    expect(await levelOf(s.stack, item, nyc)).toMatchObject({ on_hand: '75' });
    const after = (await s.sql(`select trim_scale(on_hand_after)::text as a from inventory.stock_movements where item_id = ? order by seq`, [item])).map((r) => r.a);
    expect(after).toEqual(['100', ...Array.from({ length: 25 }, (_, i) => String(99 - i))]);
  });

  it('refuses everything with insufficient_stock when available would go below zero', async () => {
    const a = await insertItem(s.stack);
    const b = await insertItem(s.stack);
    await post([{ itemId: a, type: 'receipt', quantity: '5', unitCost: '1' }, { itemId: b, type: 'receipt', quantity: '1', unitCost: '1' }]);
    const err = await post([{ itemId: a, type: 'reservation', quantity: '0', reservedChange: '4' }, { itemId: b, type: 'reservation', quantity: '0', reservedChange: '3' }], { requireAvailable: true }).catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err.code).toBe('insufficient_stock');
    expect(err.errors).toEqual([{ path: 'lines[1].quantity', message: expect.stringContaining('Only 1 available') }]);
    expect(await levelOf(s.stack, a, nyc)).toMatchObject({ on_hand: '5', reserved: '0' });
    expect((await s.sql(`select count(*)::int as n from inventory.stock_movements where item_id in (?, ?)`, [a, b]))[0].n).toBe(2);
  });

  it('emits one stock.level_changed per item and location per transaction, and below_reorder_point on crossing', async () => {
    const item = await insertItem(s.stack);
    await post([{ itemId: item, type: 'receipt', quantity: '10', unitCost: '1' }]);
    await s.sql(`update inventory.stock_levels set reorder_point = 6 where item_id = ?`, [item]);
    await post([{ itemId: item, type: 'sale', quantity: '-2' }, { itemId: item, type: 'sale', quantity: '-3' }]);
    await post([{ itemId: item, type: 'sale', quantity: '-1' }]);
    const changed = (await outboxPayloads(s.stack, 'inventory', { type: 'stock.level_changed' })).filter((e) => e.data.object.itemId === item);
    expect(changed.map((e) => [e.data.previous.onHand, e.data.object.onHand])).toEqual([['0', '10'], ['10', '5'], ['5', '4']]);
    const below = (await outboxPayloads(s.stack, 'inventory', { type: 'stock.below_reorder_point' })).filter((e) => e.data.object.itemId === item);
    expect(below.map((e) => e.data.object.available)).toEqual(['5']);
    expect(below[0].data.object).toMatchObject({ reorderPoint: '6', belowReorderPoint: true, locationId: nyc });
  });

  it('prints levels in SQL (the lists) exactly as the ledger prints them in decimal.js', async () => {
    const rows: Array<Record<string, string | null>> = [
      { on_hand: '12.500000', reserved: '0', average_cost: '2.333333', stock_value: null, par_level: '40', reorder_point: '20' }, // value rounded from on hand × average
      { on_hand: '0.000001', reserved: '0.000001', average_cost: '0.000003', stock_value: null, par_level: null, reorder_point: '0' }, // 3e-12 rounds to 0
      { on_hand: '-3', reserved: '2.5', average_cost: '1.2', stock_value: '-3.6', par_level: null, reorder_point: '0' }, // negative, available below on hand
      { on_hand: '-0.000001', reserved: '0', average_cost: null, stock_value: '7', par_level: null, reorder_point: null }, // no average: no value
      { on_hand: '99999999999999.999999', reserved: '0.5', average_cost: '0.000005', stock_value: null, par_level: '0', reorder_point: '99999999999999.999999' }, // half rounds away from zero
      { on_hand: '-1.5', reserved: '0', average_cost: '0.000001', stock_value: null, par_level: null, reorder_point: null }, // −0.0000015: half away from zero
      { on_hand: '-0.000001', reserved: '0', average_cost: '0.000001', stock_value: null, par_level: null, reorder_point: null }, // −1e-12: zero, not −0
    ];
    const items: string[] = [];
    for (const r of rows) {
      const item = await insertItem(s.stack);
      items.push(item);
      await post([{ itemId: item, type: 'receipt', quantity: '1', unitCost: '1' }]);
      await s.sql(
        `update inventory.stock_levels set on_hand = ?, reserved = ?, average_cost = ?, stock_value = ?, par_level = ?, reorder_point = ? where item_id = ? and location_id = ?`,
        [r.on_hand, r.reserved, r.average_cost, r.stock_value, r.par_level, r.reorder_point, item, nyc],
      );
    }
    const raw = await s.sql(`select l.* from inventory.stock_levels l where l.item_id = any(?::text[]) and l.location_id = ? order by l.item_id`, [sqlList(items), nyc]);
    const printed = await s.sql(`select ${LEVEL_DTO_COLUMNS} from inventory.stock_levels l where l.item_id = any(?::text[]) and l.location_id = ? order by l.item_id`, [sqlList(items), nyc]);
    expect(printed.map((r) => stockLevelFromDtoRow(r as any))).toEqual(raw.map((r) => stockLevelFromRow(r as any)));
    expect(printed.map((r) => [r.value, r.below_reorder_point])).toEqual(
      [...items.keys()].sort((a, b) => (items[a] < items[b] ? -1 : 1)).map((i) => [['29.166663', true], ['0', false], ['-3.6', true], [null, false], ['500000000', true], ['-0.000002', false], ['0', false]][i]),
    );
  });
});

/**
 * Inventory's side of purchasing (contracts/src/purchasing/internal.ts): receipts arrive as
 * `purchasing.receipt.recorded` on the bus and are booked once as `receipt` movements moving the
 * weighted-average cost; `POST /internal/items:resolve` and `POST /internal/replenishment` answer
 * purchasing (the system principal) only.
 */
import { ConsumerRunner, createLogger, newIdWithPrefix } from '@bop/shared';
import { eventually, insertItem, insertUnit, levelOf, outboxPayloads, person, postLedger, system } from '@bop/test-support';
import { inventoryService } from '../src';
import { startInventoryStack, type InventoryStack } from './fixtures';

let s: InventoryStack;
let nyc: string;
let ber: string;

beforeAll(async () => {
  s = await startInventoryStack();
  nyc = s.locations['NYC-1'];
  ber = s.locations['BER-1'];
});
afterAll(async () => {
  await s?.stack.close();
});

const internal = (path: string, body: unknown, as = system) => s.stack.services.inventory.call('POST', path, { as, body });

interface ReceiptLine {
  itemId: string;
  quantity: string;
  unitCost: string | null;
}

/** A receipt as purchasing records it (PO, supplier, NYC-1 unless told). */
function receipt(lines: ReceiptLine[], over: Record<string, unknown> = {}) {
  return {
    id: newIdWithPrefix('prc'),
    purchaseOrderId: newIdWithPrefix('po'),
    supplierId: newIdWithPrefix('sup'),
    locationId: nyc,
    receivedAt: '2026-11-22T14:30:00.000Z',
    note: null,
    lines,
    ...over,
  };
}

/** Publishes `purchasing.receipt.recorded` onto the bus as purchasing's relay would; answers the envelope. */
async function publishReceipt(object: Record<string, unknown>, eventId = newIdWithPrefix('evt')) {
  const envelope = {
    id: eventId,
    type: 'purchasing.receipt.recorded',
    createdAt: new Date().toISOString(),
    apiVersion: 'v1',
    actor: { type: 'system', id: null },
    locationId: object.locationId ?? null,
    data: { object },
  };
  await s.stack.bus.publish([{ topic: 'purchasing', key: String(object.purchaseOrderId), eventId: envelope.id, type: envelope.type, payload: envelope }]);
  return envelope;
}

const movementsOf = async (purchaseOrderId: string) =>
  (
    await s.sql(
      `select item_id, location_id, type, trim_scale(quantity)::text as quantity, trim_scale(unit_cost)::text as unit_cost, cause_type, cause_id, reason, note, occurred_at, business_day::text as business_day
       from inventory.stock_movements where cause_type = 'purchase_order' and cause_id = ? order by seq`,
      [purchaseOrderId],
    )
  ).map((m) => ({ ...m, occurred_at: new Date(m.occurred_at).toISOString() }));

const levelChanges = async (itemId: string) => (await outboxPayloads(s.stack, 'inventory', { type: 'stock.level_changed' })).filter((e) => e.data.object.itemId === itemId);

const deadLetter = (eventId: string) => eventually(async () => (await s.sql(`select id, consumer, error from inventory.dead_letters where event_id = ?`, [eventId]))[0], 30_000);

describe('purchase receipts (purchasing.receipt.recorded)', () => {
  it('books one receipt movement per line, moving the weighted-average cost (uncosted lines leave it)', async () => {
    const flour = await insertItem(s.stack, { name: 'Flour', baseUnit: 'g' });
    const eggs = await insertItem(s.stack, { name: 'Eggs' });
    await postLedger(s, [
      { itemId: flour, type: 'receipt', quantity: '10', unitCost: '2.00' },
      { itemId: eggs, type: 'receipt', quantity: '6', unitCost: '0.5' },
    ]);
    const before = (await levelChanges(flour)).length;

    const r = receipt([{ itemId: flour, quantity: '10', unitCost: '3.000000' }, { itemId: eggs, quantity: '12', unitCost: null }], { note: 'Delivery note 4711' });
    await publishReceipt(r);
    await eventually(async () => (await levelOf(s.stack, flour, nyc))?.on_hand === '20');
    expect(await levelOf(s.stack, flour, nyc)).toMatchObject({ on_hand: '20', average_cost: '2.5' });
    expect(await levelOf(s.stack, eggs, nyc)).toMatchObject({ on_hand: '18', average_cost: '0.5' });

    const movements = await movementsOf(r.purchaseOrderId);
    expect(movements).toEqual([
      { item_id: flour, location_id: nyc, type: 'receipt', quantity: '10', unit_cost: '3', cause_type: 'purchase_order', cause_id: r.purchaseOrderId, reason: r.id, note: 'Delivery note 4711', occurred_at: r.receivedAt, business_day: '2026-11-22' },
      // uncosted: valued at the average, which it leaves as it is
      { item_id: eggs, location_id: nyc, type: 'receipt', quantity: '12', unit_cost: '0.5', cause_type: 'purchase_order', cause_id: r.purchaseOrderId, reason: r.id, note: 'Delivery note 4711', occurred_at: r.receivedAt, business_day: '2026-11-22' },
    ]);
    const changes = await levelChanges(flour);
    expect(changes).toHaveLength(before + 1);
    expect(changes.at(-1)).toMatchObject({ type: 'stock.level_changed', data: { object: { itemId: flour, locationId: nyc, onHand: '20', averageCost: '2.5', value: '50' }, previous: { onHand: '10' } } });
  });

  it('takes the cost of the first costed receipt, and archived items still receive', async () => {
    const oil = await insertItem(s.stack, { name: 'Oil', baseUnit: 'ml', status: 'archived' });
    const r = receipt([{ itemId: oil, quantity: '5000', unitCost: '0.004' }], { locationId: ber });
    await publishReceipt(r);
    await eventually(async () => (await levelOf(s.stack, oil, ber))?.on_hand === '5000');
    expect(await levelOf(s.stack, oil, ber)).toMatchObject({ average_cost: '0.004' });
    expect((await movementsOf(r.purchaseOrderId))[0]).toMatchObject({ note: null, reason: r.id, business_day: '2026-11-22' });
  });

  it('books the same event delivered twice once', async () => {
    const salt = await insertItem(s.stack, { name: 'Salt' });
    const r = receipt([{ itemId: salt, quantity: '4', unitCost: '1' }]);
    const envelope = await publishReceipt(r);
    await eventually(async () => (await levelOf(s.stack, salt, nyc))?.on_hand === '4');
    await publishReceipt(r, envelope.id);
    // a later receipt of the same order behind it on the bus: once it is booked, the duplicate was seen
    const later = receipt([{ itemId: salt, quantity: '1', unitCost: '1' }], { purchaseOrderId: r.purchaseOrderId });
    await publishReceipt(later);
    await eventually(async () => (await levelOf(s.stack, salt, nyc))?.on_hand === '5');
    expect((await movementsOf(r.purchaseOrderId)).map((m) => [m.reason, m.quantity])).toEqual([
      [r.id, '4'],
      [later.id, '1'],
    ]);
    expect(await levelChanges(salt)).toHaveLength(2);
  });

  it('parks a receipt naming an item inventory does not know (nothing booked) and books it once the item exists', async () => {
    const known = await insertItem(s.stack, { name: 'Sugar' });
    const r = receipt([{ itemId: known, quantity: '2', unitCost: '1' }, { itemId: 'itm_NOT_YET', quantity: '3', unitCost: '1' }]);
    const envelope = await publishReceipt(r);
    const parked = await deadLetter(envelope.id);
    expect(parked).toMatchObject({ consumer: 'inventory.purchase-receipts', error: expect.stringContaining('itm_NOT_YET') });
    expect(await movementsOf(r.purchaseOrderId)).toEqual([]);
    expect(await levelOf(s.stack, known, nyc)).toBeUndefined();

    // the item arrives; the operator retries the dead letter (`ops dead-letters retry`)
    await insertItem(s.stack, { id: 'itm_NOT_YET', name: 'Late item' });
    const runtime = s.stack.services.inventory.svc.runtime;
    const runner = new ConsumerRunner(inventoryService.consumers!(runtime), { service: 'inventory', schema: 'inventory', orm: runtime.orm, bus: s.stack.bus, log: createLogger('runner', 'silent') });
    expect(await runner.retryDeadLetters(String(parked.id))).toEqual({ retried: 1, stillFailing: 0 });
    expect(await levelOf(s.stack, known, nyc)).toMatchObject({ on_hand: '2' });
    expect(await levelOf(s.stack, 'itm_NOT_YET', nyc)).toMatchObject({ on_hand: '3' });
  });

  it('parks a receipt at a location inventory does not know yet, and a malformed one', async () => {
    const pepper = await insertItem(s.stack, { name: 'Pepper' });
    const elsewhere = receipt([{ itemId: pepper, quantity: '1', unitCost: '1' }], { locationId: 'loc_NOT_REPLICATED' });
    const malformed = receipt([{ itemId: pepper, quantity: 'ten', unitCost: '1' }]);
    const zero = receipt([{ itemId: pepper, quantity: '0', unitCost: '1' }]);
    const [a, b, c] = [await publishReceipt(elsewhere), await publishReceipt(malformed), await publishReceipt(zero)];
    expect(await deadLetter(a.id)).toMatchObject({ error: expect.stringContaining('loc_NOT_REPLICATED') });
    expect(await deadLetter(b.id)).toMatchObject({ error: expect.stringMatching(/not a ReceiptRecordedObject \(lines\.0\.quantity\)/) });
    expect(await deadLetter(c.id)).toMatchObject({ error: expect.stringMatching(/lines\.0\.quantity not > 0/) });
    expect(await s.sql(`select 1 from inventory.stock_movements where item_id = ?`, [pepper])).toEqual([]);
  });
});

describe('POST /internal/items:resolve', () => {
  it('answers each line’s item, base unit and factor, in request order', async () => {
    const cheese = await insertItem(s.stack, { name: 'Cheese', baseUnit: 'g' });
    const cans = await insertItem(s.stack, { name: 'Tomato can' });
    const kg = await insertUnit(s.stack, 'g', '1000');
    const caseOf12 = await insertUnit(s.stack, 'each', '12', cans);
    const res = await internal('/internal/items:resolve', { lines: [{ itemId: cheese, unitId: kg }, { itemId: cans, unitId: caseOf12 }, { itemId: cans }, { itemId: cheese, unitId: null }] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      lines: [
        { itemId: cheese, name: 'Cheese', baseUnit: 'g', unitId: kg, factor: '1000' },
        { itemId: cans, name: 'Tomato can', baseUnit: 'each', unitId: caseOf12, factor: '12' },
        { itemId: cans, name: 'Tomato can', baseUnit: 'each', unitId: null, factor: '1' },
        { itemId: cheese, name: 'Cheese', baseUnit: 'g', unitId: null, factor: '1' },
      ],
    });
  });

  it('refuses unknown and archived items and units that do not apply (422 naming each line)', async () => {
    const milk = await insertItem(s.stack, { name: 'Milk', baseUnit: 'ml' });
    const old = await insertItem(s.stack, { name: 'Old', status: 'archived' });
    const other = await insertItem(s.stack, { name: 'Other' });
    const othersCase = await insertUnit(s.stack, 'each', '6', other);
    const pound = await insertUnit(s.stack, 'g', '453.59237');
    const res = await internal('/internal/items:resolve', {
      lines: [{ itemId: 'itm_NOPE' }, { itemId: old }, { itemId: other, unitId: 'uom_NOPE' }, { itemId: milk, unitId: pound }, { itemId: milk, unitId: othersCase }, { itemId: other, unitId: othersCase }],
    });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('validation_error');
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(['lines[0].itemId', 'lines[1].itemId', 'lines[2].unitId', 'lines[3].unitId', 'lines[4].unitId']);
    expect((await internal('/internal/items:resolve', { lines: [] })).status).toBe(422);
  });

  it('answers the system principal only', async () => {
    const item = await insertItem(s.stack);
    expect((await internal('/internal/items:resolve', { lines: [{ itemId: item }] }, person())).status).toBe(403);
  });
});

describe('POST /internal/replenishment', () => {
  const window = { usageFrom: '2026-11-01T00:00:00Z', usageTo: '2026-11-08T00:00:00Z' };
  const at = (iso: string) => new Date(iso);

  it('answers levels and net usage by sales in [usageFrom, usageTo), zeros and nulls without a level', async () => {
    const bread = await insertItem(s.stack, { name: 'Bread' });
    const butter = await insertItem(s.stack, { name: 'Butter', baseUnit: 'g' });
    const unstocked = await insertItem(s.stack, { name: 'Never stocked' });
    await postLedger(s, [
      { itemId: bread, type: 'receipt', quantity: '40', unitCost: '1', occurredAt: at('2026-10-30T10:00:00Z') },
      { itemId: bread, type: 'reservation', quantity: '0', reservedChange: '3.5', cause: { type: 'sales_order', id: 'sor_X' } },
      { itemId: bread, type: 'sale', quantity: '-4', occurredAt: at('2026-10-31T23:59:59Z') }, // before the window
      { itemId: bread, type: 'sale', quantity: '-5', occurredAt: at('2026-11-01T00:00:00Z') },
      { itemId: bread, type: 'sale', quantity: '-1.25', occurredAt: at('2026-11-03T12:00:00Z') },
      { itemId: bread, type: 'refund', quantity: '2', occurredAt: at('2026-11-04T12:00:00Z') },
      { itemId: bread, type: 'void_reversal', quantity: '1', occurredAt: at('2026-11-05T12:00:00Z') },
      { itemId: bread, type: 'waste', quantity: '-3', occurredAt: at('2026-11-05T12:00:00Z') }, // not a sale
      { itemId: bread, type: 'sale', quantity: '-7', occurredAt: at('2026-11-08T00:00:00Z') }, // usageTo is excluded
      { itemId: bread, type: 'sale', quantity: '-9', occurredAt: at('2026-11-02T12:00:00Z'), locationId: ber }, // another location
      { itemId: butter, type: 'receipt', quantity: '500', unitCost: '0.01', occurredAt: at('2026-10-30T10:00:00Z') },
    ]);
    await s.sql(`update inventory.stock_levels set par_level = 30, reorder_point = 12.5 where item_id = ? and location_id = ?`, [bread, nyc]);

    const res = await internal('/internal/replenishment', { locationId: nyc, itemIds: [unstocked, bread, butter], ...window });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      items: [
        { itemId: unstocked, onHand: '0', reserved: '0', available: '0', parLevel: null, reorderPoint: null, usage: '0' },
        // on hand 40 − 4 − 5 − 1.25 + 2 + 1 − 3 − 7 = 22.75; usage 5 + 1.25 − 2 − 1 = 3.25
        { itemId: bread, onHand: '22.75', reserved: '3.5', available: '19.25', parLevel: '30', reorderPoint: '12.5', usage: '3.25' },
        { itemId: butter, onHand: '500', reserved: '0', available: '500', parLevel: null, reorderPoint: null, usage: '0' },
      ],
    });
    const berlin = await internal('/internal/replenishment', { locationId: ber, itemIds: [bread], usageFrom: '2026-11-02T12:00:00+01:00', usageTo: '2026-11-02T14:00:00+01:00' });
    expect(berlin.body.items).toEqual([{ itemId: bread, onHand: '-9', reserved: '0', available: '-9', parLevel: null, reorderPoint: null, usage: '9' }]);
  });

  it('refuses an unknown location and an empty or reversed window (422), and people', async () => {
    const item = await insertItem(s.stack);
    const unknown = await internal('/internal/replenishment', { locationId: 'loc_NOPE', itemIds: [item], ...window });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors).toEqual([{ path: 'locationId', message: expect.any(String) }]);
    const reversed = await internal('/internal/replenishment', { locationId: nyc, itemIds: [item], usageFrom: window.usageTo, usageTo: window.usageFrom });
    expect(reversed.status).toBe(422);
    expect(reversed.body.errors).toEqual([{ path: 'usageTo', message: expect.any(String) }]);
    expect((await internal('/internal/replenishment', { locationId: nyc, itemIds: [item], usageFrom: window.usageFrom, usageTo: window.usageFrom })).status).toBe(422);
    expect((await internal('/internal/replenishment', { locationId: nyc, itemIds: [], ...window })).status).toBe(422);
    expect((await internal('/internal/replenishment', { locationId: nyc, itemIds: [item], ...window }, person())).status).toBe(403);
  });
});

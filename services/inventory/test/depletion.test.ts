/**
 * Depletion of sales, end to end: transactions ingested by the real sales service
 * (`POST /sales/transactions:batch`) reach inventory as `sales.transactions.recorded` over the real
 * bus; their items' usage recipes (nested ones expanded, yields applied) or the items themselves are
 * taken from stock as `sale` movements; refunds give stock back, voids reverse, updates and items
 * mapped later post only the difference, and a delivery seen before changes nothing.
 */
import { salesService } from '@svc/sales';
import { newIdWithPrefix } from '@bop/shared';
import { eventually, integration, itemKnownToSales, levelOf, outboxPayloads, person } from '@bop/test-support';
import { applyRecordedSales } from '../src/recipes/depletion-store';
import { startInventoryStack, type InventoryStack } from './fixtures';

let s: InventoryStack;
let nyc: string;
const pos = integration(['sales:write', 'sales:read']);
const SOURCE = 'pos-depletion';

const inv = () => s.stack.services.inventory;
const sales = () => s.stack.services.sales;
const salesSql = (q: string, p: unknown[] = []): Promise<any[]> => sales().svc.runtime.orm.em.getConnection().execute(q, p);

let n = 0;
const unique = (prefix: string) => `${prefix}-${++n}`;

/** An item in inventory and in sales' item replica (as inventory's item.created would carry it). */
const givenItem = (over: { name: string; sku?: string; baseUnit?: 'each' | 'g' | 'ml'; cost?: string }) => itemKnownToSales(s, { ...over, sku: over.sku ?? unique('SKU') });

const putRecipe = async (itemId: string, components: unknown[]) => {
  const r = await inv().call('PUT', `/usage-recipes/${itemId}`, { body: { components } });
  expect([200, 201]).toContain(r.status);
  return r.body;
};

const money = (v: number) => v.toFixed(2);

/** A transaction of `lines` at 1.00 per unit, paid by card; a refund's quantities are negative. */
function transaction(externalId: string, lines: Array<{ itemSku: string; quantity: string }>, over: Record<string, unknown> = {}) {
  const total = money(lines.reduce((sum, l) => sum + Number(l.quantity), 0));
  return {
    externalId,
    locationExternalId: 'NYC-1',
    occurredAt: '2026-11-21T15:00:00Z',
    lines: lines.map((l) => ({ ...l, unitPrice: '1.00' })),
    tenders: [{ type: 'card', amount: total }],
    subtotal: total,
    tax: '0.00',
    total,
    currency: 'USD',
    ...over,
  };
}

async function ingest(transactions: unknown[]) {
  const r = await sales().call('POST', '/sales/transactions:batch', { as: pos, body: { source: SOURCE, transactions } });
  expect(r.status).toBe(202);
  for (const result of r.body.results) expect(result).toMatchObject({ status: expect.stringMatching(/^(created|updated)$/) });
  return r.body;
}

async function stored(externalId: string): Promise<{ id: string; version: number }> {
  return (await salesSql(`select id, version from sales.transactions where source = ? and external_id = ?`, [SOURCE, externalId]))[0];
}

/** On hand of an item at NYC-1 ('0' when it never moved). */
const onHand = async (itemId: string) => (await levelOf(s.stack, itemId, nyc))?.on_hand ?? '0';
/** Waits until the item's on hand at NYC-1 is `want`. */
const untilOnHand = (itemId: string, want: string) => eventually(async () => (await onHand(itemId)) === want, 15_000);

/** A transaction's movements in the ledger, oldest first. */
async function movementsOf(transactionId: string) {
  const rows = await s.sql(
    `select item_id, type, trim_scale(quantity)::text as quantity, cause_type, cause_id, occurred_at, reason from inventory.stock_movements where cause_id = ? order by seq`,
    [transactionId],
  );
  return { rows };
}

const depletionRow = async (transactionId: string) =>
  (await s.sql(`select location_id, version, applied from inventory.sale_depletions where transaction_id = ?`, [transactionId]))[0] as
    | { location_id: string; version: number; applied: Record<string, string> }
    | undefined;

/** A sale on a marker item, waited for: everything published at the location before it has been applied. */
async function barrier() {
  const marker = await givenItem({ name: 'Marker' });
  const sku = (await s.sql(`select sku from inventory.items where id = ?`, [marker]))[0].sku;
  await ingest([transaction(unique('MARK'), [{ itemSku: sku, quantity: '1' }])]);
  await untilOnHand(marker, '-1');
}

beforeAll(async () => {
  s = await startInventoryStack([salesService]);
  nyc = s.locations['NYC-1'];
  await eventually(async () => (await salesSql(`select 1 from sales.locations where id in (?, ?)`, [nyc, s.locations['BER-1']])).length === 2);
});
afterAll(async () => {
  await s?.stack.close();
});

describe('depletion of ingested sales', () => {
  it('takes nested recipes down to their leaf ingredients with yields, and an item without a recipe itself', async () => {
    const burger = await givenItem({ name: 'Burger', sku: 'BURGER' });
    const cola = await givenItem({ name: 'Bottled cola', sku: 'COLA' });
    const bun = await givenItem({ name: 'Bun' });
    const patty = await givenItem({ name: 'Patty' });
    const beef = await givenItem({ name: 'Beef', baseUnit: 'g', cost: '0.02' });
    const cheese = await givenItem({ name: 'Cheese', baseUnit: 'g' });
    // a patty: 100 g usable beef at a 0.8 yield (125 g leaves stock); a burger: bun, patty, 20 g cheese of which 10 % is lost
    await putRecipe(patty, [{ itemId: beef, quantity: '100', yield: '0.8' }]);
    await putRecipe(burger, [{ itemId: bun, quantity: '1' }, { itemId: patty, quantity: '1' }, { itemId: cheese, quantity: '18', yield: '0.9' }]);

    await ingest([transaction('DEP-1', [{ itemSku: 'BURGER', quantity: '2' }, { itemSku: 'COLA', quantity: '3' }, { itemSku: 'BURGER', quantity: '1' }])]);
    const tx = await stored('DEP-1');
    await untilOnHand(beef, '-375');
    expect(await onHand(bun)).toBe('-3');
    expect(await onHand(cheese)).toBe('-60');
    expect(await onHand(cola)).toBe('-3');
    // the sold item and the prepared one have recipes: they are not stock themselves
    expect(await levelOf(s.stack, burger, nyc)).toBeUndefined();
    expect(await levelOf(s.stack, patty, nyc)).toBeUndefined();

    const { rows } = await movementsOf(tx.id);
    expect(rows.map((m) => [m.item_id, m.type, m.quantity, m.cause_type]).sort()).toEqual(
      [[beef, 'sale', '-375', 'sales_transaction'], [bun, 'sale', '-3', 'sales_transaction'], [cheese, 'sale', '-60', 'sales_transaction'], [cola, 'sale', '-3', 'sales_transaction']].sort(),
    );
    expect(rows.every((m) => new Date(m.occurred_at).toISOString() === '2026-11-21T15:00:00.000Z' && m.reason === 'ingested')).toBe(true);
    // the ledger as GET /stock-movements shows it: costed at the item's cost, the location's business day
    const listed = await inv().call('GET', `/stock-movements?causeType=sales_transaction&causeId=${tx.id}&itemId=${beef}`);
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual([
      expect.objectContaining({ itemId: beef, locationId: nyc, type: 'sale', quantity: '-375', unitCost: '0.02', value: '-7.5', businessDay: '2026-11-21', occurredAt: '2026-11-21T15:00:00.000Z', cause: { type: 'sales_transaction', id: tx.id } }),
    ]);

    // one stock.level_changed per item for the event, however many lines sold it
    const changed = (await outboxPayloads(s.stack, 'inventory', { type: 'stock.level_changed' })).filter((e) => [beef, bun, cheese, cola].includes(e.data.object.itemId));
    expect(changed.map((e) => [e.data.object.itemId, e.data.previous.onHand, e.data.object.onHand]).sort()).toEqual(
      [[beef, '0', '-375'], [bun, '0', '-3'], [cheese, '0', '-60'], [cola, '0', '-3']].sort(),
    );
    expect(changed.every((e) => e.locationId === nyc)).toBe(true);
    expect(await depletionRow(tx.id)).toEqual({ location_id: nyc, version: tx.version, applied: { [beef]: '375', [bun]: '3', [cheese]: '60', [cola]: '3' } });
  });

  it('gives stock back for a refund (refund movements)', async () => {
    const wrap = await givenItem({ name: 'Wrap', sku: 'WRAP' });
    const tortilla = await givenItem({ name: 'Tortilla' });
    const chicken = await givenItem({ name: 'Chicken', baseUnit: 'g' });
    await putRecipe(wrap, [{ itemId: tortilla, quantity: '1' }, { itemId: chicken, quantity: '90' }]);
    await ingest([transaction('DEP-SALE-2', [{ itemSku: 'WRAP', quantity: '3' }])]);
    await untilOnHand(chicken, '-270');
    await ingest([transaction('DEP-REF-2', [{ itemSku: 'WRAP', quantity: '-2' }], { type: 'refund', refundOf: 'DEP-SALE-2' })]);
    await untilOnHand(chicken, '-90');
    expect(await onHand(tortilla)).toBe('-1');
    const refund = await stored('DEP-REF-2');
    const { rows } = await movementsOf(refund.id);
    expect(rows.map((m) => [m.item_id, m.type, m.quantity]).sort()).toEqual([[chicken, 'refund', '180'], [tortilla, 'refund', '2']].sort());
  });

  it('reverses a voided sale (void_reversal movements), and a sale voided before it was applied takes nothing', async () => {
    const salad = await givenItem({ name: 'Salad', sku: 'SALAD' });
    const lettuce = await givenItem({ name: 'Lettuce', baseUnit: 'g' });
    await putRecipe(salad, [{ itemId: lettuce, quantity: '150', yield: '0.75' }]);
    const sale = transaction('DEP-VOID-3', [{ itemSku: 'SALAD', quantity: '2' }]);
    await ingest([sale]);
    await untilOnHand(lettuce, '-400');
    await ingest([{ ...sale, status: 'voided' }]);
    await untilOnHand(lettuce, '0');
    const tx = await stored('DEP-VOID-3');
    const { rows } = await movementsOf(tx.id);
    expect(rows.map((m) => [m.type, m.quantity])).toEqual([['sale', '-400'], ['void_reversal', '400']]);
    expect(await depletionRow(tx.id)).toEqual({ location_id: nyc, version: tx.version, applied: {} });

    await ingest([transaction('DEP-VOID-4', [{ itemSku: 'SALAD', quantity: '5' }], { status: 'voided' })]);
    await barrier();
    const voided = await stored('DEP-VOID-4');
    expect((await movementsOf(voided.id)).rows).toEqual([]);
    expect(await depletionRow(voided.id)).toMatchObject({ version: voided.version, applied: {} });
    expect(await onHand(lettuce)).toBe('0');
  });

  it('posts only the difference when a transaction is updated', async () => {
    const juice = await givenItem({ name: 'Juice', sku: 'JUICE', baseUnit: 'ml' });
    const orange = await givenItem({ name: 'Orange' });
    await putRecipe(juice, [{ itemId: orange, quantity: '0.01' }]); // per ml: 3 oranges per 300 ml
    await ingest([transaction('DEP-UPD-5', [{ itemSku: 'JUICE', quantity: '300' }])]);
    await untilOnHand(orange, '-3');
    await ingest([transaction('DEP-UPD-5', [{ itemSku: 'JUICE', quantity: '500' }])]);
    await untilOnHand(orange, '-5');
    await ingest([transaction('DEP-UPD-5', [{ itemSku: 'JUICE', quantity: '200' }])]);
    await untilOnHand(orange, '-2');
    const tx = await stored('DEP-UPD-5');
    expect(tx.version).toBe(3);
    expect((await movementsOf(tx.id)).rows.map((m) => [m.type, m.quantity])).toEqual([['sale', '-3'], ['sale', '-2'], ['sale', '3']]);
    expect(await depletionRow(tx.id)).toEqual({ location_id: nyc, version: 3, applied: { [orange]: '2' } });
  });

  it('depletes past sales once their unmatched line is mapped to an item (POST /sales/unmapped-items:map)', async () => {
    const pie = await givenItem({ name: 'Pie', sku: 'PIE-INV' });
    const apple = await givenItem({ name: 'Apple' });
    await putRecipe(pie, [{ itemId: apple, quantity: '4' }]);
    // the POS sends a SKU nobody knows yet: stored, queued as unmapped, nothing depleted
    await ingest([transaction('DEP-MAP-6', [{ itemSku: 'PIE-POS', quantity: '2' }]), transaction('DEP-MAP-7', [{ itemSku: 'PIE-POS', quantity: '1' }])]);
    await barrier();
    const [t6, t7] = [await stored('DEP-MAP-6'), await stored('DEP-MAP-7')];
    // a transaction naming no item has nothing to apply: nothing is kept for it until a version names one
    expect(await depletionRow(t6.id)).toBeUndefined();
    expect(await onHand(apple)).toBe('0');

    const entry = (await salesSql(`select id from sales.unmapped_items where source = ? and ref_value = 'PIE-POS'`, [SOURCE]))[0];
    const mapped = await sales().call('POST', '/sales/unmapped-items:map', { as: person(), body: { mappings: [{ unmappedItemId: entry.id, itemId: pie }] } });
    expect(mapped.status).toBe(200);
    expect(mapped.body.transactionsRecalculated).toBe(2);
    await untilOnHand(apple, '-12');
    expect((await movementsOf(t6.id)).rows.map((m) => [m.type, m.quantity, m.reason])).toEqual([['sale', '-8', 'items_mapped']]);
    expect(await depletionRow(t7.id)).toEqual({ location_id: nyc, version: t7.version + 1, applied: { [apple]: '4' } });
  });

  it('applies a delivery once: the same event again, or an older version under a new event id, changes nothing', async () => {
    const soup = await givenItem({ name: 'Soup', sku: 'SOUP' });
    const stock = await givenItem({ name: 'Stock', baseUnit: 'ml' });
    await putRecipe(soup, [{ itemId: stock, quantity: '250' }]);
    await ingest([transaction('DEP-DUP-8', [{ itemSku: 'SOUP', quantity: '2' }])]);
    await untilOnHand(stock, '-500');
    await ingest([transaction('DEP-DUP-8', [{ itemSku: 'SOUP', quantity: '3' }])]);
    await untilOnHand(stock, '-750');
    const tx = await stored('DEP-DUP-8');
    const outbox = (
      await salesSql(
        `select aggregate_id, payload from sales.outbox where type = 'sales.transactions.recorded' and payload::jsonb->'data'->'object'->'transactions' @> ?::jsonb order by seq`,
        [JSON.stringify([{ id: tx.id }])],
      )
    ).map((r) => ({ key: r.aggregate_id as string, payload: typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload }));
    expect(outbox.map((o) => o.payload.data.object.transactions[0].version)).toEqual([1, 2]);
    const [first, second] = outbox;
    // the newest event again (same id), and the first version under a new event id (a late, older delivery)
    await s.stack.bus.publish([{ topic: 'sales', key: second.key, eventId: second.payload.id, type: second.payload.type, payload: second.payload }]);
    const older = { ...first.payload, id: newIdWithPrefix('evt') };
    await s.stack.bus.publish([{ topic: 'sales', key: first.key, eventId: older.id, type: older.type, payload: older }]);
    await barrier();
    expect(await s.sql(`select 1 from inventory.processed_events where event_id = ?`, [older.id])).toHaveLength(1);
    expect(await onHand(stock)).toBe('-750');
    expect((await movementsOf(tx.id)).rows.map((m) => m.quantity)).toEqual(['-500', '-250']);
    expect(await depletionRow(tx.id)).toMatchObject({ version: 2, applied: { [stock]: '750' } });
  });

  it('uses the recipe as it is when a sale is applied: changes apply to sales ingested after them', async () => {
    const coffee = await givenItem({ name: 'Coffee', sku: 'COFFEE' });
    const beans = await givenItem({ name: 'Beans', baseUnit: 'g' });
    await putRecipe(coffee, [{ itemId: beans, quantity: '18' }]);
    await ingest([transaction('DEP-REC-9', [{ itemSku: 'COFFEE', quantity: '1' }])]);
    await untilOnHand(beans, '-18');
    await putRecipe(coffee, [{ itemId: beans, quantity: '20' }]);
    await ingest([transaction('DEP-REC-10', [{ itemSku: 'COFFEE', quantity: '1' }])]);
    await untilOnHand(beans, '-38');
    // the recipe removed: the sold item is its own stock again
    expect((await inv().call('PUT', `/usage-recipes/${coffee}`, { body: { components: [] } })).status).toBe(204);
    await ingest([transaction('DEP-REC-11', [{ itemSku: 'COFFEE', quantity: '2' }])]);
    await untilOnHand(coffee, '-2');
    expect(await onHand(beans)).toBe('-38');
  });

  it('posts a batch of sales as one ledger write: one stock.level_changed per item for the event', async () => {
    const beer = await givenItem({ name: 'Bottled beer', sku: 'BEER' });
    const r = await ingest([1, 2, 3].map((i) => transaction(`DEP-BATCH-${i}`, [{ itemSku: 'BEER', quantity: String(i) }])));
    expect(r.created).toBe(3);
    await untilOnHand(beer, '-6');
    const ids = await Promise.all([1, 2, 3].map(async (i) => (await stored(`DEP-BATCH-${i}`)).id));
    const rows = await s.sql(`select cause_id, trim_scale(quantity)::text as quantity, trim_scale(on_hand_after)::text as after from inventory.stock_movements where item_id = ? order by seq`, [beer]);
    expect(rows.map((m) => [m.cause_id, m.quantity, m.after])).toEqual([[ids[0], '-1', '-1'], [ids[1], '-2', '-3'], [ids[2], '-3', '-6']]);
    const changed = (await outboxPayloads(s.stack, 'inventory', { type: 'stock.level_changed' })).filter((e) => e.data.object.itemId === beer);
    expect(changed.map((e) => [e.data.previous.onHand, e.data.object.onHand])).toEqual([['0', '-6']]);
  });

  it('moves the depletion when a transaction is re-sent for another location', async () => {
    const bagel = await givenItem({ name: 'Bagel', sku: 'BAGEL' });
    const ber = s.locations['BER-1'];
    await ingest([transaction('DEP-LOC-12', [{ itemSku: 'BAGEL', quantity: '4' }])]);
    await untilOnHand(bagel, '-4');
    await ingest([transaction('DEP-LOC-12', [{ itemSku: 'BAGEL', quantity: '4' }], { locationExternalId: 'BER-1' })]);
    await untilOnHand(bagel, '0');
    await eventually(async () => (await levelOf(s.stack, bagel, ber))?.on_hand === '-4');
    const tx = await stored('DEP-LOC-12');
    expect(await depletionRow(tx.id)).toEqual({ location_id: ber, version: 2, applied: { [bagel]: '4' } });
  });

  it('applies a transaction once when two consumers take the same event at once', async () => {
    const muffin = await givenItem({ name: 'Muffin' });
    const runtime = inv().svc.runtime;
    const object = {
      locationId: nyc,
      reason: 'ingested',
      transactions: [{ id: newIdWithPrefix('stx'), version: 1, type: 'sale' as const, status: 'completed' as const, occurredAt: '2026-11-21T16:00:00.000Z', lines: [{ itemId: muffin, quantity: '2' }] }],
    };
    const results = await Promise.all([1, 2, 3].map(() => runtime.write((w) => applyRecordedSales(w, object))));
    expect(results.map((r) => r.applied).sort()).toEqual([0, 0, 1]);
    expect(await onHand(muffin)).toBe('-2');
  });

  it('parks a malformed recorded event in dead_letters', async () => {
    const envelope = {
      id: newIdWithPrefix('evt'),
      type: 'sales.transactions.recorded',
      createdAt: new Date().toISOString(),
      apiVersion: 'v1',
      actor: { type: 'system', id: null },
      locationId: nyc,
      data: { object: { locationId: nyc, transactions: [{ id: 'stx_BAD', version: 'one', lines: [] }] } },
    };
    await s.stack.bus.publish([{ topic: 'sales', key: nyc, eventId: envelope.id, type: envelope.type, payload: envelope }]);
    const parked = await eventually(async () => (await s.sql(`select consumer, error from inventory.dead_letters where event_id = ?`, [envelope.id]))[0], 30_000);
    expect(parked).toEqual({ consumer: 'inventory.sales-depletion', error: expect.stringMatching(/not a RecordedSalesObject/) });
    expect(await depletionRow('stx_BAD')).toBeUndefined();
  });
});

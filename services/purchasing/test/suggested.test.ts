/**
 * Suggested orders through the API: par levels configured in inventory, stock from the ledger or
 * from a receipt, usage from sale and refund movements in the window, open orders of any supplier
 * as on order, packs rounded up and raised to the minimum order, lead time from the catalog line or
 * the supplier's default; items without a par level; 422 for an unknown supplier or location; reach.
 */
import { eventually, insertItem, insertUnit, levelOf, person, postLedger } from '@bop/test-support';
import { api, archiveLocation, draftOrder, newLocation, orderAction, personAt, sentOrder, supplierWithCatalog, unique, startPurchasingStack, type PurchasingStack } from './fixtures';

let s: PurchasingStack;
let nyc: string;
let ber: string;

beforeAll(async () => {
  s = await startPurchasingStack();
  nyc = s.locations['NYC-1'];
  ber = s.locations['BER-1'];
});
afterAll(async () => {
  await s?.stack.close();
});

const DAY = 86_400_000;
const daysAgo = (n: number) => new Date(Date.now() - n * DAY);

/** Par level (base units) of an item at a location, through inventory's API. */
async function configurePar(itemId: string, parLevel: string, locationId = nyc) {
  const r = await s.inventory.call('POST', '/stock-levels:configure', { body: { locationId, itemId, parLevel } });
  if (r.status !== 200) throw new Error(`configure: ${r.status} ${JSON.stringify(r.body)}`);
}

/** Stock on hand through the ledger (a receipt 40 days ago, outside any usage window used here). */
const stock = (itemId: string, quantity: string, locationId = nyc) => postLedger(s, [{ itemId, locationId, type: 'receipt', quantity, unitCost: '1', occurredAt: daysAgo(40) }]);

/** Sales depletion `days` ago (negative quantities), as sales' depletion writes it. */
const sold = (itemId: string, quantity: string, days: number, type: 'sale' | 'refund' = 'sale', locationId = nyc) =>
  postLedger(s, [{ itemId, locationId, type, quantity: type === 'sale' ? `-${quantity}` : quantity, occurredAt: daysAgo(days), cause: { type: 'sales_transaction', id: 'stx_TEST' } }]);

const suggest = (supplierId: string, locationId = nyc, extra = '', as?: ReturnType<typeof person>) =>
  api(s, 'GET', `/suggested-orders?supplierId=${supplierId}&locationId=${locationId}${extra}`, undefined, { as });

describe('GET /suggested-orders', () => {
  it('need = par − available − on order + expected usage; packs rounded up; the arithmetic in words', async () => {
    const lemons = await insertItem(s.stack, { name: 'Lemons' });
    const case12 = await insertUnit(s.stack, 'each', '12');
    const { supplier } = await supplierWithCatalog(s, [{ supplierItemCode: 'LEM-12', itemId: lemons, packSize: '1', unitId: case12, price: '18.95', leadTimeDays: 3 }]);
    await configurePar(lemons, '48');
    // 100 in, 88 sold and 4 refunded in the last 28 days (usage 84 = 3/day), 6 sold before the window
    await stock(lemons, '100');
    await sold(lemons, '88', 2);
    await sold(lemons, '4', 0.5, 'refund');
    await sold(lemons, '6', 35);
    expect(await levelOf(s.stack, lemons, nyc)).toMatchObject({ on_hand: '10' });
    // a draft of another supplier counts as on order: 1 case = 12
    const other = await supplierWithCatalog(s, [{ supplierItemCode: 'OTHER-LEM', itemId: lemons, packSize: '12', price: '20' }]);
    await draftOrder(s, { supplierId: other.supplier.id, lines: [{ supplierItemCode: 'OTHER-LEM', quantity: '1' }] });

    const r = await suggest(supplier.id);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      supplierId: supplier.id,
      locationId: nyc,
      usageDays: 28,
      usageFrom: expect.any(String),
      usageTo: expect.any(String),
      generatedAt: expect.any(String),
      total: '56.85',
      lines: [
        {
          supplierItemCode: 'LEM-12',
          itemId: lemons,
          itemName: 'Lemons',
          baseUnit: 'each',
          parLevel: '48',
          onHand: '10',
          reserved: '0',
          available: '10',
          onOrder: '12',
          usageInWindow: '84',
          averageDailyUsage: '3',
          leadTimeDays: 3,
          expectedUsage: '9',
          need: '35',
          baseQuantityPerPack: '12',
          minimumOrderQuantity: '1',
          // 35 ÷ 12 = 2.92 → 3 packs
          quantity: '3',
          price: '18.95',
          amount: '56.85',
          explanation: expect.stringContaining('= 35 each; 35 ÷ 12 per pack = 2.92 → 3 packs'),
        },
      ],
    });
    expect(Date.parse(r.body.usageTo) - Date.parse(r.body.usageFrom)).toBe(28 * DAY);
    expect(r.body.lines[0].explanation).toContain('par 48 − available 10 − on order 12 + expected usage 9 (3/day × 3 days)');

    // a shorter window leaves the sales of 2 days ago in, at a higher daily rate: 84/7 = 12/day × 3 = 36
    const week = await suggest(supplier.id, nyc, '&usageDays=7');
    expect(week.body.usageDays).toBe(7);
    expect(week.body.lines[0]).toMatchObject({ usageInWindow: '84', averageDailyUsage: '12', expectedUsage: '36', need: '62', quantity: '6' });
    // a day's window holds only the refund: negative usage counts as none
    const recent = await suggest(supplier.id, nyc, '&usageDays=1');
    expect(recent.body.lines[0]).toMatchObject({ usageInWindow: '-4', averageDailyUsage: '0', expectedUsage: '0', need: '26', quantity: '3' });
    expect(recent.body.lines[0].explanation).toContain('counts as 0: refunds exceeded sales');
  });

  it('raises packs to the minimum order; nothing when the need is covered; items without par level get 0 and why', async () => {
    const flour = await insertItem(s.stack, { name: 'Flour', baseUnit: 'g' });
    const salt = await insertItem(s.stack, { name: 'Salt', baseUnit: 'g' });
    const pepper = await insertItem(s.stack, { name: 'Pepper', baseUnit: 'g' });
    const { supplier } = await supplierWithCatalog(s, [
      { supplierItemCode: 'FLR', itemId: flour, packSize: '1000', price: '2.10', minimumOrderQuantity: '5' },
      { supplierItemCode: 'SLT', itemId: salt, packSize: '500', price: '1' },
      { supplierItemCode: 'PEP', itemId: pepper, packSize: '100', price: '4.25' },
    ]);
    await configurePar(flour, '2500');
    await stock(flour, '1000');
    await configurePar(salt, '500');
    await stock(salt, '600');
    await stock(pepper, '50');

    const r = await suggest(supplier.id);
    expect(r.status).toBe(200);
    const [f, sl, p] = r.body.lines;
    // 1500 g ÷ 1000 g per pack = 1.5 → 2 packs, raised to the minimum of 5
    expect(f).toMatchObject({ need: '1500', quantity: '5', amount: '10.50', minimumOrderQuantity: '5' });
    expect(f.explanation).toContain('1500 ÷ 1000 g per pack = 1.5 → 2 packs, raised to the minimum order of 5 packs');
    expect(sl).toMatchObject({ need: '-100', quantity: '0', amount: '0.00' });
    expect(sl.explanation).toContain('nothing to order');
    expect(p).toMatchObject({ parLevel: null, onHand: '50', need: '0', quantity: '0', amount: '0.00' });
    expect(p.explanation).toContain('No par level for Pepper');
    expect(r.body.total).toBe('10.50');
  });

  it('takes the lead time from the catalog line, else the supplier’s default, else 0 days', async () => {
    const a = await insertItem(s.stack, { name: 'A' });
    const b = await insertItem(s.stack, { name: 'B' });
    const { supplier } = await supplierWithCatalog(
      s,
      [
        { supplierItemCode: 'A', itemId: a, price: '1', leadTimeDays: 2 },
        { supplierItemCode: 'B', itemId: b, price: '1' },
      ],
      { defaultLeadTimeDays: 7 },
    );
    for (const item of [a, b]) {
      await configurePar(item, '10');
      await sold(item, '28', 3);
    }
    // 1/day: A 2 days → need 10 + 28 + 2, B 7 days → 10 + 28 + 7 (on hand −28)
    const r = await suggest(supplier.id);
    expect(r.body.lines.map((l: any) => [l.leadTimeDays, l.expectedUsage, l.need, l.quantity])).toEqual([
      [2, '2', '40', '40'],
      [7, '7', '45', '45'],
    ]);

    await api(s, 'PATCH', `/suppliers/${supplier.id}`, { defaultLeadTimeDays: null });
    const none = await suggest(supplier.id);
    expect(none.body.lines[1]).toMatchObject({ leadTimeDays: 0, expectedUsage: '0', need: '38' });
    expect(none.body.lines[1].explanation).toContain('no lead time set');
  });

  it('counts what open orders still expect (outstanding of partially received, not cancelled or received) and stock from a receipt', async () => {
    const item = await insertItem(s.stack, { name: 'Cream' });
    const { supplier } = await supplierWithCatalog(s, [{ supplierItemCode: 'CRM', itemId: item, packSize: '12', price: '30' }]);
    await configurePar(item, '100', ber);
    const order = await sentOrder(s, { supplierId: supplier.id, locationId: ber, lines: [{ supplierItemCode: 'CRM', quantity: '3' }] });
    await orderAction(s, order.id, 'receive', { lines: [{ supplierItemCode: 'CRM', quantity: '1' }] });
    const cancelled = await draftOrder(s, { supplierId: supplier.id, locationId: ber, lines: [{ supplierItemCode: 'CRM', quantity: '5' }] });
    await orderAction(s, cancelled.id, 'cancel');
    const done = await sentOrder(s, { supplierId: supplier.id, locationId: ber, lines: [{ supplierItemCode: 'CRM', quantity: '4' }] });
    await orderAction(s, done.id, 'receive', { final: true, lines: [{ supplierItemCode: 'CRM', quantity: '1' }] });
    // an order at another location is not on order here
    await draftOrder(s, { supplierId: supplier.id, locationId: nyc, lines: [{ supplierItemCode: 'CRM', quantity: '2' }] });

    // the receipts reach inventory: 12 + 12 on hand
    await eventually(async () => (await levelOf(s.stack, item, ber))?.on_hand === '24');
    const r = await suggest(supplier.id, ber);
    // 100 − 24 − 24 = 52 → 52 ÷ 12 = 4.33 → 5 packs
    expect(r.body.lines[0]).toMatchObject({ onHand: '24', available: '24', onOrder: '24', need: '52', quantity: '5', amount: '150.00' });
  });

  it('an empty catalog suggests nothing', async () => {
    const { supplier } = await supplierWithCatalog(s, []);
    const r = await suggest(supplier.id);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ lines: [], total: '0.00' });
  });

  it('refuses an unknown supplier, one not delivering there, an unknown or archived location (422), bad queries (400)', async () => {
    const { supplier } = await supplierWithCatalog(s, []);
    const berOnly = (await supplierWithCatalog(s, [], { locationIds: [ber] })).supplier;
    const unknown = await suggest('sup_missing');
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors).toEqual([{ path: 'supplierId', message: 'No supplier sup_missing.' }]);
    const notThere = await suggest(berOnly.id, nyc);
    expect(notThere.status).toBe(422);
    expect(notThere.body.errors).toEqual([{ path: 'supplierId', message: expect.stringContaining('does not deliver') }]);
    expect((await suggest(berOnly.id, ber)).status).toBe(200);

    const nowhere = await suggest(supplier.id, 'loc_nowhere');
    expect(nowhere.status).toBe(422);
    expect(nowhere.body.errors).toEqual([{ path: 'locationId', message: expect.stringContaining('No location loc_nowhere') }]);
    const closed = await newLocation(s, unique('Closed'));
    await archiveLocation(s, closed);
    const atClosed = await suggest(supplier.id, closed);
    expect(atClosed.status).toBe(422);
    expect(atClosed.body.errors).toEqual([{ path: 'locationId', message: expect.stringContaining('archived') }]);

    const noSupplier = await api(s, 'GET', `/suggested-orders?locationId=${nyc}`);
    expect(noSupplier.status).toBe(400);
    expect(noSupplier.body.errors.map((e: any) => e.path)).toEqual(['supplierId']);
    expect((await suggest(supplier.id, nyc, '&usageDays=0')).status).toBe(400);
    expect((await suggest(supplier.id, nyc, '&usageDays=366')).status).toBe(400);
  });

  it('needs orders.create at the location (403 out_of_reach elsewhere)', async () => {
    const { supplier } = await supplierWithCatalog(s, []);
    const berlin = personAt([ber], ['orders.create']);
    const r = await suggest(supplier.id, nyc, '', berlin);
    expect(r.status).toBe(403);
    expect(r.body.code).toBe('out_of_reach');
    expect((await suggest(supplier.id, ber, '', berlin)).status).toBe(200);
    const reader = person({ 'purchasing.read': [{ type: 'everyone' }] });
    expect((await suggest(supplier.id, nyc, '', reader)).body.code).toBe('forbidden');
  });
});

/**
 * Online-order stock (supplement: Sales order :reserve / :ship / :cancel): sales calls inventory's
 * internal commands; reservations hold stock (available down), shipping deducts it, cancelling
 * releases it (inventory consumes sales_order.cancelled), 422 insufficient_stock when short.
 */
import { salesService } from '@svc/sales';
import { eventually, integration, itemKnownToSales, levelOf, outboxPayloads, person, postLedger } from '@bop/test-support';
import { startInventoryStack, type InventoryStack } from './fixtures';

let s: InventoryStack;
let nyc: string;
let burger: string;
let fries: string;
const shop = integration(['sales:write', 'sales:read']);

const sales = (method: string, path: string, body?: unknown, as: any = person()) => s.stack.services.sales.call(method, path, { as, body });
const putOrder = (externalId: string, lines: Array<Record<string, unknown>>, over: Record<string, unknown> = {}) =>
  sales(
    'PUT',
    `/sales-orders/external/${externalId}`,
    { source: 'shop', locationExternalId: 'NYC-1', placedAt: '2026-11-21T09:30:00Z', lines: lines.map((l) => ({ unitPrice: '5.00', ...l })), currency: 'USD', ...over },
    shop,
  );

/** An item in inventory that sales' replica also knows, with `onHand` received. */
async function stockedItem(sku: string, onHand: string): Promise<string> {
  const id = await itemKnownToSales(s, { sku, name: sku });
  await postLedger(s, [{ itemId: id, type: 'receipt', quantity: onHand, unitCost: '1.00' }]);
  return id;
}

beforeAll(async () => {
  s = await startInventoryStack([salesService]);
  nyc = s.locations['NYC-1'];
  const salesSql = (q: string, p: unknown[]) => s.stack.services.sales.svc.runtime.orm.em.getConnection().execute(q, p);
  await eventually(async () => (await salesSql(`select 1 from sales.locations where id = ?`, [nyc])).length > 0);
  burger = await stockedItem('BURGER', '10');
  fries = await stockedItem('FRIES', '4');
});
afterAll(async () => {
  await s?.stack.close();
});

describe('online-order stock', () => {
  it('reserves (available down), then ships the reserved stock (on hand down, reserved released)', async () => {
    const order = (await putOrder('O-1', [{ itemSku: 'BURGER', quantity: '3' }, { itemSku: 'FRIES', quantity: '1' }])).body;
    const reserved = await sales('POST', `/sales-orders/${order.id}:reserve`, {});
    expect(reserved.status).toBe(200);
    expect(reserved.body).toMatchObject({ status: 'reserved', reservations: [{ itemId: burger, quantity: '3' }, { itemId: fries, quantity: '1' }] });
    expect(await levelOf(s.stack, burger, nyc)).toMatchObject({ on_hand: '10', reserved: '3' });

    const shipped = await sales('POST', `/sales-orders/${order.id}:ship`, { carrier: 'UPS', trackingNumber: '1Z999' });
    expect(shipped.status).toBe(200);
    expect(shipped.body).toMatchObject({ status: 'shipped', reservations: [], shipment: { carrier: 'UPS', trackingNumber: '1Z999', lines: [{ itemId: burger, quantity: '3' }, { itemId: fries, quantity: '1' }] } });
    expect(await levelOf(s.stack, burger, nyc)).toMatchObject({ on_hand: '7', reserved: '0' });
    expect(await levelOf(s.stack, fries, nyc)).toMatchObject({ on_hand: '3', reserved: '0' });
    const types = (await s.sql(`select type, trim_scale(quantity)::text as q, trim_scale(reserved_change)::text as r from inventory.stock_movements where cause_id = ? and item_id = ? order by seq`, [order.id, burger])).map((m) => [m.type, m.q, m.r]);
    expect(types).toEqual([['reservation', '0', '3'], ['shipment', '-3', '-3']]);
    const salesSql = (q: string, p: unknown[]) => s.stack.services.sales.svc.runtime.orm.em.getConnection().execute(q, p);
    expect((await salesSql(`select count(*)::int as n from sales.outbox where type = 'sales_order.shipped' and aggregate_id = ?`, [order.id]))[0].n).toBe(1);
    // final: no second shipment, no reservation, no cancel
    expect((await sales('POST', `/sales-orders/${order.id}:ship`, {})).status).toBe(409);
    expect((await sales('POST', `/sales-orders/${order.id}:reserve`, {})).status).toBe(409);
    expect((await sales('POST', `/sales-orders/${order.id}:cancel`, {})).status).toBe(409);
  });

  it('answers 422 insufficient_stock naming the order line, and the order stays open', async () => {
    const order = (await putOrder('O-2', [{ itemSku: 'BURGER', quantity: '1' }, { itemSku: 'FRIES', quantity: '50' }])).body;
    const res = await sales('POST', `/sales-orders/${order.id}:reserve`, {});
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('insufficient_stock');
    expect(res.body.errors).toEqual([{ path: 'lines[1].quantity', message: expect.stringContaining('Only 3 available') }]);
    expect((await sales('GET', `/sales-orders/${order.id}`)).body).toMatchObject({ status: 'open', reservations: [] });
    expect(await levelOf(s.stack, burger, nyc)).toMatchObject({ reserved: '0' });
    // shipping without a reservation needs the stock as well
    const ship = await sales('POST', `/sales-orders/${order.id}:ship`, {});
    expect(ship.status).toBe(422);
    expect(ship.body.code).toBe('insufficient_stock');
  });

  it('ships an open order straight from available stock', async () => {
    const before = await levelOf(s.stack, burger, nyc);
    const order = (await putOrder('O-3', [{ itemSku: 'BURGER', quantity: '2' }])).body;
    const shipped = await sales('POST', `/sales-orders/${order.id}:ship`, { shippedAt: '2026-11-20T12:00:00Z' });
    expect(shipped.status).toBe(200);
    expect(shipped.body.shipment).toMatchObject({ shippedAt: '2026-11-20T12:00:00.000Z', carrier: null });
    expect(await levelOf(s.stack, burger, nyc)).toMatchObject({ on_hand: String(Number(before!.on_hand) - 2), reserved: '0' });
  });

  it('releases the reserved stock when the order is cancelled (by :cancel or by the source)', async () => {
    const a = (await putOrder('O-4', [{ itemSku: 'BURGER', quantity: '2' }])).body;
    const b = (await putOrder('O-5', [{ itemSku: 'BURGER', quantity: '1' }])).body;
    expect((await sales('POST', `/sales-orders/${a.id}:reserve`, {})).status).toBe(200);
    expect((await sales('POST', `/sales-orders/${b.id}:reserve`, {})).status).toBe(200);
    expect(await levelOf(s.stack, burger, nyc)).toMatchObject({ reserved: '3' });
    // a reserved order's lines can no longer change; cancelling is still possible
    expect((await putOrder('O-5', [{ itemSku: 'BURGER', quantity: '9' }])).status).toBe(409);
    expect((await sales('POST', `/sales-orders/${a.id}:cancel`, {})).body).toMatchObject({ status: 'cancelled', reservations: [] });
    expect((await putOrder('O-5', [{ itemSku: 'BURGER', quantity: '1' }], { status: 'cancelled' })).body.status).toBe('cancelled');
    await eventually(async () => (await levelOf(s.stack, burger, nyc))?.reserved === '0');
    const releases = await s.sql(`select cause_id from inventory.stock_movements where type = 'release' and cause_id in (?, ?)`, [a.id, b.id]);
    expect(releases.map((r) => r.cause_id).sort()).toEqual([a.id, b.id].sort());
    const changed = (await outboxPayloads(s.stack, 'inventory', { type: 'stock.level_changed' })).filter((e) => e.data.object.itemId === burger);
    expect(changed.at(-1).data.object).toMatchObject({ reserved: '0' });
  });

  it('refuses to reserve or ship an order with an unmatched line, naming it', async () => {
    const order = (await putOrder('O-6', [{ itemSku: 'BURGER', quantity: '1' }, { itemSku: 'NOT-IN-CATALOG', quantity: '1' }])).body;
    const res = await sales('POST', `/sales-orders/${order.id}:reserve`, {});
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([{ path: 'lines[1].itemId', message: expect.stringContaining('map its POS item first') }]);
    expect((await sales('POST', `/sales-orders/${order.id}:ship`, {})).status).toBe(422);
  });

  it('makes inventory’s commands idempotent per order (a retry after sales failed to commit)', async () => {
    const inv = (path: string, body: unknown) => s.stack.services.inventory.call('POST', path, { as: { kind: 'system', via: 'internal', id: 'system' }, body });
    const first = await inv('/internal/sales-orders/sor_RETRY:reserve', { locationId: nyc, lines: [{ itemId: fries, quantity: '1' }] });
    const again = await inv('/internal/sales-orders/sor_RETRY:reserve', { locationId: nyc, lines: [{ itemId: fries, quantity: '1' }] });
    expect(first.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect((await s.sql(`select count(*)::int as n from inventory.stock_movements where cause_id = 'sor_RETRY'`))[0].n).toBe(1);
    const released = await inv('/internal/sales-orders/sor_RETRY:release', {});
    expect(released.body.status).toBe('released');
    expect((await inv('/internal/sales-orders/sor_RETRY:release', {})).body.status).toBe('released');
    expect((await inv('/internal/sales-orders/sor_RETRY:ship', { locationId: nyc, lines: [{ itemId: fries, quantity: '1' }], shippedAt: new Date().toISOString() })).status).toBe(409);
    // a person or key never reaches internal commands
    expect((await s.stack.services.inventory.call('POST', '/internal/sales-orders/sor_X:reserve', { as: person(), body: { locationId: nyc, lines: [{ itemId: fries, quantity: '1' }] } })).status).toBe(403);
  });

  it('keeps an order out of reach out of reach', async () => {
    const order = (await putOrder('O-7', [{ itemSku: 'BURGER', quantity: '1' }])).body;
    const ber = s.locations['BER-1'];
    const elsewhere = person({ 'sales_orders.fulfil': [{ type: 'locations', ids: [ber] }] });
    expect((await sales('POST', `/sales-orders/${order.id}:reserve`, {}, elsewhere)).status).toBe(403);
  });
});

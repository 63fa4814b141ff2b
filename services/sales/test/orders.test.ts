/**
 * Online sales orders with a real organization service feeding sales' location replica:
 * PUT /sales-orders/external/{externalId} (created / unchanged / updated / cancelled, totals,
 * validation, final states), the gets and list, :cancel, reach, events in the outbox.
 */
import { organizationService } from '@svc/organization';
import { salesService } from '../src';
import { eventually, integration, outboxEvents, person, replicatedLocation, serviceSql, startTestServices, untilReplicated, type ServiceSql, type TestServices } from '@bop/test-support';
import { newOrderBody } from './fixtures';

let stack: TestServices;
const shop = integration(['sales:write', 'sales:read']);
let locA: string;
let locB: string;

let n = 0;
const nextId = (prefix = 'O') => `${prefix}-${++n}`;

/** A valid order: 3 × 0.10 + 1 × 12.00, shipping 4.99, fulfilled at WH-A. */
const orderBody = newOrderBody;

const sales = () => stack.services.sales;
const put = (externalId: string, body: unknown, opts: { as?: typeof shop; headers?: Record<string, string> } = {}) =>
  sales().call('PUT', `/sales-orders/external/${encodeURIComponent(externalId)}`, { as: opts.as ?? shop, body, headers: opts.headers });
const sql: ServiceSql = (q, p) => serviceSql(sales())(q, p);
const outbox = (aggregateId: string) => outboxEvents(stack, 'sales', { aggregateId });

async function replicaStatus(id: string): Promise<string | undefined> {
  return (await sql('select status from sales.locations where id = ?', [id]))[0]?.status;
}

beforeAll(async () => {
  stack = await startTestServices([organizationService, salesService]);
  locA = await replicatedLocation(stack, { name: 'Warehouse A', timezone: 'America/New_York', externalId: 'WH-A' }, ['sales']);
  locB = await replicatedLocation(stack, { name: 'Warehouse B', timezone: 'Europe/Berlin', externalId: 'WH-B' }, ['sales']);
  const old = await replicatedLocation(stack, { name: 'Closed', timezone: 'Europe/Berlin', externalId: 'WH-OLD' }, ['sales']);
  expect((await stack.services.organization.call('DELETE', `/locations/${old}`)).status).toBe(200);
  await untilReplicated(stack, 'sales', [old], { status: 'archived' });
});
afterAll(async () => {
  await stack?.close();
});

describe('PUT /sales-orders/external/{externalId}', () => {
  it('creates (201), answers unchanged content with the stored order (200), updates changes (version + 1)', async () => {
    const ext = nextId();
    const created = await put(ext, orderBody());
    expect(created.status).toBe(201);
    expect(created.headers.get('etag')).toBe('"1"');
    expect(created.body).toEqual({
      id: expect.stringMatching(/^sor_/),
      source: 'shop-main',
      externalId: ext,
      locationId: locA,
      customer: { externalId: 'C-1', name: 'Ada Lovelace', email: 'ada@example.com' },
      customerId: null,
      placedAt: '2026-11-21T09:30:00.000Z',
      lines: [
        { itemExternalId: 'SKU-PEN', itemSku: null, itemBarcode: null, itemId: null, name: 'Pen', quantity: '3', unitPrice: '0.10', discount: '0.00', tax: '0.00', lineTotal: '0.30' },
        { itemExternalId: 'SKU-BOOK', itemSku: null, itemBarcode: null, itemId: null, name: 'Book', quantity: '1', unitPrice: '12.00', discount: '0.00', tax: '0.00', lineTotal: '12.00' },
      ],
      shipping: { method: 'standard', amount: '4.99', address: { line1: '1 Main St', line2: null, city: 'Springfield', region: null, postalCode: '12345', country: 'US' } },
      paymentStatus: 'paid',
      status: 'open',
      currency: 'USD',
      subtotal: '12.30',
      taxTotal: '0.00',
      shippingTotal: '4.99',
      total: '17.29',
      reservations: [],
      reservedAt: null,
      shipment: null,
      cancelledAt: null,
      cancelReason: null,
      version: 1,
      createdAt: expect.any(String),
      updatedAt: created.body.createdAt,
    });

    // same content, other spelling and location reference → unchanged
    const same = await put(ext, orderBody({ locationExternalId: undefined, locationId: locA, lines: [{ itemExternalId: 'SKU-PEN', name: 'Pen', quantity: '3.0', unitPrice: '0.1' }, { itemExternalId: 'SKU-BOOK', name: 'Book', quantity: '1', unitPrice: '12' }] }));
    expect(same.status).toBe(200);
    expect(same.body).toEqual(created.body);

    const changed = await put(ext, orderBody({ lines: [{ itemExternalId: 'SKU-PEN', name: 'Pen', quantity: '5', unitPrice: '0.10' }], locationExternalId: 'WH-B', paymentStatus: 'pending' }));
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ id: created.body.id, version: 2, status: 'open', locationId: locB, paymentStatus: 'pending', subtotal: '0.50', total: '5.49', createdAt: created.body.createdAt });
    expect(changed.body.updatedAt >= created.body.updatedAt).toBe(true);
    expect((await outbox(created.body.id)).map((e) => e.type)).toEqual(['sales_order.created']);
  });

  it('records sales_order.created with the envelope and the order record as data.object', async () => {
    const created = await put(nextId(), orderBody());
    const events = await outbox(created.body.id);
    expect(events).toHaveLength(1);
    expect(events[0].payload).toEqual({
      id: expect.stringMatching(/^evt_/),
      type: 'sales_order.created',
      createdAt: expect.any(String),
      apiVersion: 'v1',
      actor: { type: 'integration', id: 'int_test' },
      locationId: locA,
      data: { object: created.body },
    });
  });

  it('cancels an order re-sent with status cancelled (final): one sales_order.cancelled, same content again is fine, changes are 409', async () => {
    const ext = nextId();
    const created = await put(ext, orderBody());
    const cancelled = await put(ext, orderBody({ status: 'cancelled', cancelReason: 'customer asked' }));
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ status: 'cancelled', version: 2, cancelReason: 'customer asked', cancelledAt: expect.any(String) });

    const again = await put(ext, orderBody({ status: 'cancelled', cancelReason: 'customer asked' }));
    expect(again.status).toBe(200);
    expect(again.body).toEqual(cancelled.body);

    const changed = await put(ext, orderBody({ status: 'cancelled', lines: [{ itemExternalId: 'SKU-PEN', quantity: '1', unitPrice: '0.10' }] }));
    expect(changed.status).toBe(409);
    expect(changed.body).toMatchObject({ code: 'conflict', detail: expect.stringMatching(/cancelled, a final state/) });
    const reopened = await put(ext, orderBody());
    expect(reopened.status).toBe(409);
    expect(reopened.body.detail).toMatch(/cannot be reopened/);

    const events = await outbox(created.body.id);
    expect(events.map((e) => e.type)).toEqual(['sales_order.created', 'sales_order.cancelled']);
    expect(events[1].payload).toMatchObject({
      type: 'sales_order.cancelled',
      apiVersion: 'v1',
      actor: { type: 'integration', id: 'int_test' },
      locationId: locA,
      data: { object: cancelled.body, previous: { status: 'open', cancelledAt: null, cancelReason: null } },
    });
    expect((await sales().call('GET', `/sales-orders/${created.body.id}`)).body).toEqual(cancelled.body);
  });

  it('lets only paymentStatus of a cancelled order move (version + 1, no event)', async () => {
    const ext = nextId();
    const created = await put(ext, orderBody({ status: 'cancelled' }));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: 'cancelled', cancelledAt: expect.any(String), version: 1 });
    const refunded = await put(ext, orderBody({ status: 'cancelled', paymentStatus: 'refunded' }));
    expect(refunded.status).toBe(200);
    expect(refunded.body).toMatchObject({ status: 'cancelled', paymentStatus: 'refunded', version: 2, cancelledAt: created.body.cancelledAt });
    // an order new and already cancelled is created, not cancelled: spec events table, `sales_order.cancelled` is for re-sends
    expect((await outbox(created.body.id)).map((e) => e.type)).toEqual(['sales_order.created']);
  });

  it('computes totals exactly: line tax and discounts, JPY without decimals', async () => {
    const jpy = await put(nextId(), orderBody({ currency: 'JPY', lines: [{ itemSku: 'TEA', quantity: '3', unitPrice: '0.5' }, { itemSku: 'POT', quantity: '1', unitPrice: '1200' }], shipping: { method: 'post', amount: '500' } }));
    expect(jpy.status).toBe(201);
    expect(jpy.body).toMatchObject({ subtotal: '1202', taxTotal: '0', shippingTotal: '500', total: '1702', shipping: { method: 'post', amount: '500', address: null } });
    expect(jpy.body.lines.map((l: { lineTotal: string }) => l.lineTotal)).toEqual(['2', '1200']);
    const taxed = await put(nextId(), orderBody({ shipping: undefined, lines: [{ itemSku: 'A', quantity: '2', unitPrice: '10.00', discount: '1.50', tax: '1.85' }] }));
    expect(taxed.body).toMatchObject({ subtotal: '18.50', taxTotal: '1.85', shippingTotal: '0.00', total: '20.35', shipping: null });
    const stored = await sql(`select subtotal::text, total::text from sales.orders where id = ?`, [taxed.body.id]);
    expect(stored).toEqual([{ subtotal: '18.500000', total: '20.350000' }]);
  });

  it('answers 422 with field paths and stores nothing', async () => {
    const bad = async (body: unknown) => {
      const ext = nextId('BAD');
      const r = await put(ext, body);
      expect(r.status).toBe(422);
      expect(r.body.code).toBe('validation_error');
      expect(await sql(`select 1 from sales.orders where external_id = ?`, [ext])).toEqual([]);
      return r.body.errors;
    };
    expect(await bad(orderBody({ lines: [{ itemExternalId: 'A', quantity: '0', unitPrice: '1.00' }] }))).toEqual([{ path: 'lines[0].quantity', message: 'Must be greater than zero.' }]);
    expect(await bad(orderBody({ currency: 'EURO' }))).toEqual([{ path: 'currency', message: expect.any(String) }]);
    expect(await bad(orderBody({ locationExternalId: 'NOWHERE' }))).toEqual([{ path: 'locationExternalId', message: 'No location with externalId NOWHERE.' }]);
    expect(await bad(orderBody({ locationExternalId: 'WH-OLD' }))).toEqual([{ path: 'locationExternalId', message: expect.stringMatching(/archived/) }]);
    expect(await bad(orderBody({ status: 'shipped' }))).toEqual([{ path: 'status', message: expect.stringMatching(/open or cancelled/) }]);
    expect(await bad(orderBody({ lines: [] }))).toEqual([{ path: 'lines', message: 'An order has at least one line.' }]);
    expect(await bad(orderBody({ shipping: { method: 'post', amount: 4.99 } }))).toEqual([{ path: 'shipping.amount', message: 'send decimals as strings' }]);
    expect(await bad(orderBody({ lines: [{ itemSku: 'A', quantity: '1', unitPrice: '1.00', tax: '0.001' }], source: undefined }))).toEqual([{ path: 'source', message: expect.any(String) }]);
    expect(await bad(orderBody({ lines: [{ itemSku: 'A', quantity: '1', unitPrice: '1.00', tax: '0.001' }] }))).toEqual([{ path: 'lines[0].tax', message: 'USD amounts have at most 2 decimals.' }]);
  });

  it('moves no order to an archived location, but keeps updating orders already there', async () => {
    const ext = nextId();
    await put(ext, orderBody());
    const moved = await put(ext, orderBody({ locationExternalId: 'WH-OLD' }));
    expect(moved.status).toBe(422);
    expect(moved.body.errors).toEqual([{ path: 'locationExternalId', message: expect.stringMatching(/archived/) }]);

    const org = stack.services.organization;
    const tmp = await org.call('POST', '/locations', { body: { name: 'Pop-up', timezone: 'Europe/Berlin', externalId: 'WH-POP' } });
    await eventually(async () => (await replicaStatus(tmp.body.id)) === 'active');
    const there = nextId();
    expect((await put(there, orderBody({ locationExternalId: 'WH-POP' }))).status).toBe(201);
    expect((await org.call('DELETE', `/locations/${tmp.body.id}`)).status).toBe(200);
    await eventually(async () => (await replicaStatus(tmp.body.id)) === 'archived');
    const updated = await put(there, orderBody({ locationExternalId: 'WH-POP', paymentStatus: 'pending' }));
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ locationId: tmp.body.id, paymentStatus: 'pending', version: 2 });
  });

  it('honours If-Match on a change (409 version_mismatch) and ignores it on an unchanged re-send', async () => {
    const ext = nextId();
    await put(ext, orderBody());
    expect((await put(ext, orderBody(), { headers: { 'if-match': '"7"' } })).status).toBe(200);
    const stale = await put(ext, orderBody({ paymentStatus: 'pending' }), { headers: { 'if-match': '"7"' } });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ code: 'version_mismatch', currentVersion: 1 });
    const fresh = await put(ext, orderBody({ paymentStatus: 'pending' }), { headers: { 'if-match': '"1"' } });
    expect(fresh.body).toMatchObject({ version: 2, paymentStatus: 'pending' });
  });

  it('creates one order when the same new order arrives twice at once', async () => {
    const ext = nextId();
    const [x, y] = await Promise.all([put(ext, orderBody()), put(ext, orderBody())]);
    expect([x.status, y.status].sort()).toEqual([200, 201]);
    expect(x.body.id).toBe(y.body.id);
    expect((await outbox(x.body.id)).map((e) => e.type)).toEqual(['sales_order.created']);
  });
});

describe('item matching (spec: ingestion rule 3)', () => {
  beforeAll(async () => {
    await sql(`insert into sales.items (id, sku, barcodes, external_id, name, status, updated_at) values ('itm_orders_mug', 'MUG-1', '{}', 'SKU-MUG', 'Mug', 'active', now())`);
  });

  it('stores the matched itemId, keeps unmatched lines with itemId null and queues their POS item once (sales.unmapped_item)', async () => {
    const ext = nextId();
    const body = orderBody({ source: 'shop-items', lines: [{ itemExternalId: 'SKU-MUG', name: 'Mug', quantity: '1', unitPrice: '9.00' }, { itemExternalId: 'SKU-NEW-1', name: 'Mystery', quantity: '1', unitPrice: '1.00' }] });
    const created = await put(ext, body);
    expect(created.status).toBe(201);
    expect(created.body.lines.map((l: { itemId: string | null }) => l.itemId)).toEqual(['itm_orders_mug', null]);
    const unmapped = async () => (await sql(`select payload from sales.outbox where type = 'sales.unmapped_item'`)).map((r) => r.payload).filter((p) => JSON.stringify(p.data.object).includes('SKU-NEW-1'));
    expect(await unmapped()).toEqual([expect.objectContaining({ type: 'sales.unmapped_item', apiVersion: 'v1', locationId: locA, actor: { type: 'integration', id: 'int_test' } })]);
    // updated and a second order with the same unknown item: no second event
    expect((await put(ext, { ...body, paymentStatus: 'pending' })).status).toBe(200);
    expect((await put(nextId(), body)).status).toBe(201);
    expect(await unmapped()).toHaveLength(1);
  });
});

describe('GET /sales-orders, /sales-orders/{id}, /sales-orders/external/{externalId}', () => {
  let ids: string[];
  beforeAll(async () => {
    const made = [
      await put('L-1', orderBody({ source: 'list-a' })),
      await put('L-2', orderBody({ source: 'list-a', locationExternalId: 'WH-B' })),
      await put('L-3', orderBody({ source: 'list-a', status: 'cancelled' })),
      await put('L-1', orderBody({ source: 'list-b', locationExternalId: 'WH-B' })),
    ];
    expect(made.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    ids = made.map((r) => r.body.id);
    await sql(`update sales.orders set updated_at = ? where id = ?`, [new Date('2020-01-01T00:00:00Z'), ids[0]]);
  });
  const list = async (q: string, as = shop) => {
    const r = await sales().call('GET', `/sales-orders?${q}`, { as });
    expect(r.status).toBe(200);
    return r.body.data as Array<{ id: string; status: string; locationId: string; source: string }>;
  };

  it('pages with cursors in id order', async () => {
    const first = await sales().call('GET', '/sales-orders?source=list-a&limit=2');
    expect(first.body).toMatchObject({ hasMore: true, nextCursor: expect.any(String) });
    const second = await sales().call('GET', `/sales-orders?source=list-a&limit=2&cursor=${first.body.nextCursor}`);
    expect(second.body).toMatchObject({ hasMore: false, nextCursor: null });
    expect([...first.body.data, ...second.body.data].map((o: { id: string }) => o.id)).toEqual(ids.slice(0, 3));
    expect(first.body.data[0]).toMatchObject({ externalId: 'L-1', total: '17.29', reservations: [], shipment: null });
  });

  it('filters by status, source, locationId and updatedSince', async () => {
    expect((await list('source=list-b')).map((o) => o.id)).toEqual([ids[3]]);
    expect((await list('source=list-a&status=cancelled')).map((o) => o.id)).toEqual([ids[2]]);
    const open = await list('status=open&limit=200');
    expect(open.every((o) => o.status === 'open')).toBe(true);
    expect(open.map((o) => o.id)).toEqual(expect.arrayContaining([ids[0], ids[1], ids[3]]));
    const atB = await list(`locationId=${locB}&limit=200`);
    expect(atB.every((o) => o.locationId === locB)).toBe(true);
    expect(atB.map((o) => o.id)).toEqual(expect.arrayContaining([ids[1], ids[3]]));
    expect((await list(`source=list-a&updatedSince=${encodeURIComponent('2021-01-01T00:00:00Z')}`)).map((o) => o.id)).toEqual(ids.slice(1, 3));
  });

  it('answers 400 for bad filters and cursors', async () => {
    expect((await sales().call('GET', '/sales-orders?status=lost')).body).toMatchObject({ code: 'bad_request', errors: [{ path: 'status' }] });
    expect((await sales().call('GET', '/sales-orders?cursor=zzz')).status).toBe(400);
    expect((await sales().call('GET', '/sales-orders?updatedSince=yesterday')).status).toBe(400);
  });

  it('gets by id (404 when unknown)', async () => {
    const r = await sales().call('GET', `/sales-orders/${ids[1]}`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: ids[1], externalId: 'L-2', source: 'list-a', locationId: locB, subtotal: '12.30', shippingTotal: '4.99', total: '17.29' });
    expect(r.headers.get('etag')).toBe('"1"');
    const missing = await sales().call('GET', '/sales-orders/sor_nope');
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('not_found');
  });

  it('gets by externalId: with source, alone when unique, 422 asking for source when several sources use it', async () => {
    expect((await sales().call('GET', '/sales-orders/external/L-1?source=list-b')).body.id).toBe(ids[3]);
    expect((await sales().call('GET', '/sales-orders/external/L-1?source=list-a')).body.id).toBe(ids[0]);
    expect((await sales().call('GET', '/sales-orders/external/L-2')).body.id).toBe(ids[1]);
    const ambiguous = await sales().call('GET', '/sales-orders/external/L-1');
    expect(ambiguous.status).toBe(422);
    expect(ambiguous.body.errors).toEqual([{ path: 'source', message: expect.stringMatching(/list-a, list-b/) }]);
    expect((await sales().call('GET', '/sales-orders/external/L-2?source=list-b')).status).toBe(404);
    expect((await sales().call('GET', '/sales-orders/external/NOPE')).status).toBe(404);
  });

  it('keeps a location-bound person to reachable locations (403 out_of_reach elsewhere); integrations see all', async () => {
    const atB = person({ 'sales.read': [{ type: 'locations', ids: [locB] }] });
    const seen = await list('source=list-a', atB);
    expect(seen.map((o) => o.id)).toEqual([ids[1]]);
    const out = await sales().call('GET', `/sales-orders?locationId=${locA}`, { as: atB });
    expect(out.status).toBe(403);
    expect(out.body.code).toBe('out_of_reach');
    expect((await sales().call('GET', `/sales-orders/${ids[0]}`, { as: atB })).body.code).toBe('out_of_reach');
    expect((await sales().call('GET', `/sales-orders/${ids[1]}`, { as: atB })).status).toBe(200);
    expect((await sales().call('GET', '/sales-orders/external/L-1?source=list-a', { as: atB })).body.code).toBe('out_of_reach');
    // only list-b's L-1 is in reach: no need to name the source
    expect((await sales().call('GET', '/sales-orders/external/L-1', { as: atB })).body.id).toBe(ids[3]);
    expect((await list('source=list-a', integration(['sales:read']))).length).toBe(3);
    for (const path of ['/sales-orders', `/sales-orders/${ids[0]}`, '/sales-orders/external/L-2']) {
      const none = await sales().call('GET', path, { as: person({}) });
      expect(none.status).toBe(403);
      expect(none.body.code).toBe('forbidden');
    }
  });
});

describe('POST /sales-orders/{id}:cancel', () => {
  it('cancels an open order (final), records sales_order.cancelled once, refuses a second cancel with 409', async () => {
    const ext = nextId();
    const created = await put(ext, orderBody());
    const r = await sales().call('POST', `/sales-orders/${created.body.id}:cancel`, { body: { reason: 'out of stock' } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: created.body.id, status: 'cancelled', cancelReason: 'out of stock', cancelledAt: expect.any(String), version: 2 });
    const again = await sales().call('POST', `/sales-orders/${created.body.id}:cancel`);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'conflict', detail: 'The order is already cancelled.' });
    const events = await outbox(created.body.id);
    expect(events.map((e) => e.type)).toEqual(['sales_order.created', 'sales_order.cancelled']);
    expect(events[1].payload).toMatchObject({
      actor: { type: 'user', id: 'usr_test' },
      locationId: locA,
      data: { object: r.body, previous: { status: 'open', cancelledAt: null, cancelReason: null } },
    });

    // the source, unaware, re-sends what it sent before: unchanged; confirming the cancel changes nothing either
    expect((await put(ext, orderBody())).body).toEqual(r.body);
    const confirmed = await put(ext, orderBody({ status: 'cancelled' }));
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toEqual(r.body);
    expect((await put(ext, orderBody({ paymentStatus: 'refunded' }))).status).toBe(409);
    expect((await outbox(created.body.id))).toHaveLength(2);
  });

  it('takes no body, answers 404 for an unknown order, 422 for a bad reason and honours If-Match', async () => {
    const created = await put(nextId(), orderBody());
    expect((await sales().call('POST', '/sales-orders/sor_nope:cancel')).status).toBe(404);
    const bad = await sales().call('POST', `/sales-orders/${created.body.id}:cancel`, { body: { reason: '', note: 'x' } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['note', 'reason']);
    const stale = await sales().call('POST', `/sales-orders/${created.body.id}:cancel`, { headers: { 'if-match': '"3"' } });
    expect(stale.body.code).toBe('version_mismatch');
    const r = await sales().call('POST', `/sales-orders/${created.body.id}:cancel`, { headers: { 'if-match': '"1"' } });
    expect(r.body).toMatchObject({ status: 'cancelled', cancelReason: null, version: 2 });
  });

  it('refuses a person whose cancel permission does not reach the order’s location', async () => {
    const created = await put(nextId(), orderBody());
    const atB = person({ 'sales_orders.cancel': [{ type: 'locations', ids: [locB] }] });
    const r = await sales().call('POST', `/sales-orders/${created.body.id}:cancel`, { as: atB });
    expect(r.status).toBe(403);
    expect(r.body.code).toBe('out_of_reach');
    expect((await sales().call('GET', `/sales-orders/${created.body.id}`)).body.status).toBe('open');
    const none = await sales().call('POST', `/sales-orders/${created.body.id}:cancel`, { as: person({ 'sales.read': [{ type: 'everyone' }] }) });
    expect(none.status).toBe(403);
    expect(none.body.code).toBe('forbidden');
    const atA = person({ 'sales_orders.cancel': [{ type: 'locations', ids: [locA] }] });
    expect((await sales().call('POST', `/sales-orders/${created.body.id}:cancel`, { as: atA })).status).toBe(200);
  });
});

describe('link to customers (customerId)', () => {
  it('names the customer whose externalId is customer.externalId, null otherwise; the inline customer stays as sent', async () => {
    const customer = await sales().call('PUT', '/customers/external/ORD-LINK-1', { as: shop, body: { name: 'Grace Hopper', email: 'grace@example.com' } });
    expect(customer.status).toBe(201);
    const inline = { externalId: 'ORD-LINK-1', name: 'G. Hopper', email: 'g.hopper@example.com' };
    const linked = await put(nextId(), orderBody({ customer: inline }));
    expect(linked.status).toBe(201);
    expect(linked.body).toMatchObject({ customerId: customer.body.id, customer: inline });
    expect(await sql(`select customer_id from sales.orders where id = ?`, [linked.body.id])).toEqual([{ customer_id: customer.body.id }]);
    expect((await outbox(linked.body.id))[0].payload.data.object.customerId).toBe(customer.body.id);

    expect((await put(nextId(), orderBody({ customer: { externalId: 'ORD-LINK-NONE', name: 'Nobody' } }))).body.customerId).toBeNull();
    expect((await put(nextId(), orderBody({ customer: { email: 'grace@example.com' } }))).body.customerId).toBeNull();
    expect((await put(nextId(), orderBody({ customer: undefined }))).body.customerId).toBeNull();
    // no customer record is made from an order
    expect(await sql(`select external_id from sales.customers where external_id = 'ORD-LINK-NONE'`)).toEqual([]);
  });

  it('follows a re-sent order naming another customer, and keeps the link while it names the same one', async () => {
    const grace = (await sales().call('GET', '/customers/external/ORD-LINK-1', { as: shop })).body;
    const ext = nextId();
    const created = await put(ext, orderBody({ customer: { externalId: 'ORD-LINK-1' } }));
    expect(created.body.customerId).toBe(grace.id);
    const other = await put(ext, orderBody({ customer: { externalId: 'ORD-LINK-OTHER' } }));
    expect(other.body).toMatchObject({ version: 2, customerId: null });
    const back = await put(ext, orderBody({ customer: { externalId: 'ORD-LINK-1' }, paymentStatus: 'pending' }));
    expect(back.body).toMatchObject({ version: 3, customerId: grace.id });
  });
});

/**
 * Purchase orders (supplement: Purchase order states): creation from the supplier's catalog with
 * field paths for every bad line; every allowed and every refused transition (409 `conflict`), the
 * approval threshold from the company settings at its boundary; partial receipts, `final` closing
 * short, over-receipt; stock and weighted-average cost booked by inventory from the internal
 * `purchasing.receipt.recorded` event; the events with their envelopes; reach and If-Match.
 */
import { eventually, insertItem, levelOf, outboxPayloads, person, postLedger } from '@bop/test-support';
import { api, archiveLocation, createOrder, draftOrder, newLocation, newSupplier, orderAction, personAt, putCatalog, receiptMovements, sentOrder, setCompanySettings, standardSupplier, supplierWithCatalog, unique, type PurchasingStack, startPurchasingStack } from './fixtures';

let s: PurchasingStack;
let nyc: string;
let ber: string;
/** A case of 12 (item A) at 24.00 and single B at 2.50, delivering everywhere. */
let std: Awaited<ReturnType<typeof standardSupplier>>;

beforeAll(async () => {
  s = await startPurchasingStack();
  nyc = s.locations['NYC-1'];
  ber = s.locations['BER-1'];
  std = await standardSupplier(s);
});
afterAll(async () => {
  await s?.stack.close();
});

/** A small order of the standard supplier: 2 cases of A (48.00) and 10 of B (25.00) = 73.00. */
const small = (over: Record<string, unknown> = {}) => ({
  supplierId: std.supplier.id,
  lines: [
    { supplierItemCode: std.codeA, quantity: '2' },
    { itemId: std.itemB, quantity: '10' },
  ],
  ...over,
});

const paths = (body: any) => (body.errors ?? []).map((e: { path: string }) => e.path);

describe('POST /purchase-orders', () => {
  it('creates a draft priced from the catalog (or the price agreed), lines copied with their pack; purchase_order.created', async () => {
    const r = await createOrder(s, {
      supplierId: std.supplier.id,
      expectedDeliveryDate: '2026-12-01',
      note: 'Back door',
      lines: [
        { supplierItemCode: std.codeA.toLowerCase(), itemId: std.itemA, quantity: '2' },
        { itemId: std.itemB, quantity: '10.5', unitPrice: '2.40' },
      ],
    });
    expect(r.status).toBe(201);
    expect(r.headers.get('location')).toBe(`/api/v1/purchase-orders/${r.body.id}`);
    expect(r.headers.get('etag')).toBe('"1"');
    const lineA = std.catalog.lines[0];
    const lineB = std.catalog.lines[1];
    expect(r.body).toEqual({
      id: expect.stringMatching(/^po_/),
      number: expect.stringMatching(/^PO-\d{6}$/),
      supplierId: std.supplier.id,
      locationId: nyc,
      status: 'draft',
      expectedDeliveryDate: '2026-12-01',
      note: 'Back door',
      lines: [
        {
          id: expect.stringMatching(/^pol_/),
          supplierItemCode: std.codeA,
          itemId: std.itemA,
          description: lineA.itemName,
          packSize: '1',
          unitId: std.case12,
          baseQuantityPerPack: '12',
          quantity: '2',
          unitPrice: '24',
          amount: '48.00',
          receivedQuantity: '0',
          outstandingQuantity: '2',
          receivedAmount: '0.00',
        },
        {
          id: expect.stringMatching(/^pol_/),
          supplierItemCode: std.codeB,
          itemId: std.itemB,
          description: lineB.itemName,
          packSize: '1',
          unitId: null,
          baseQuantityPerPack: '1',
          quantity: '10.5',
          unitPrice: '2.4',
          amount: '25.20',
          receivedQuantity: '0',
          outstandingQuantity: '10.5',
          receivedAmount: '0.00',
        },
      ],
      total: '73.20',
      receipts: [],
      createdBy: { type: 'user', id: 'usr_test' },
      approvedAt: null,
      approvedBy: null,
      approvalNote: null,
      sentAt: null,
      receivedAt: null,
      cancelledAt: null,
      cancelReason: null,
      version: 1,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect((await api(s, 'GET', `/purchase-orders/${r.body.id}`)).body).toEqual(r.body);

    const events = await outboxPayloads(s.stack, 'purchasing', { type: 'purchase_order.created', aggregateId: r.body.id });
    expect(events).toHaveLength(1);
    expect(events[0]).toEqual({
      id: expect.stringMatching(/^evt_/),
      type: 'purchase_order.created',
      createdAt: expect.any(String),
      apiVersion: 'v1',
      actor: { type: 'user', id: 'usr_test' },
      locationId: nyc,
      data: { object: r.body },
    });
  });

  it('refuses lines not in the catalog, below the minimum, naming two different lines, or twice (422 with paths); nothing created', async () => {
    const item = await insertItem(s.stack);
    const { supplier } = await supplierWithCatalog(s, [
      { supplierItemCode: 'MIN-3', itemId: item, price: '5', minimumOrderQuantity: '3' },
      { supplierItemCode: 'A', itemId: std.itemA, price: '20' },
      { supplierItemCode: 'B', itemId: std.itemB, price: '2' },
    ]);
    const before = (await s.psql(`select count(*)::int as n from purchasing.purchase_orders`))[0].n;
    const r = await createOrder(s, {
      supplierId: supplier.id,
      lines: [
        { supplierItemCode: 'NOPE', quantity: '1' },
        { itemId: 'itm_elsewhere', quantity: '1' },
        { supplierItemCode: 'A', itemId: std.itemB, quantity: '1' },
        { supplierItemCode: 'MIN-3', quantity: '2.999' },
        { supplierItemCode: 'B', quantity: '1' },
        { itemId: std.itemB, quantity: '2' },
        { quantity: '1' },
      ],
    });
    expect(r.status).toBe(422);
    expect(r.body.code).toBe('validation_error');
    expect(r.body.errors).toEqual([
      { path: 'lines[0].supplierItemCode', message: expect.stringContaining('Not in supplier') },
      { path: 'lines[1].itemId', message: expect.stringContaining('itm_elsewhere') },
      { path: 'lines[2].itemId', message: `Supplier code A is item ${std.itemA}, not ${std.itemB}.` },
      { path: 'lines[3].quantity', message: expect.stringContaining('minimum order of 3') },
      { path: 'lines[5]', message: expect.stringContaining('also on line 4') },
      { path: 'lines[6]', message: expect.stringContaining('supplierItemCode or itemId') },
    ]);

    // exactly the minimum is fine
    expect((await createOrder(s, { supplierId: supplier.id, lines: [{ supplierItemCode: 'MIN-3', quantity: '3' }] })).status).toBe(201);

    const shape = await createOrder(s, { supplierId: supplier.id, lines: [{ supplierItemCode: 'B', quantity: '0' }, { supplierItemCode: 'B', quantity: 2 }], extra: true });
    expect(shape.status).toBe(422);
    expect(paths(shape.body)).toEqual(expect.arrayContaining(['lines[0].quantity', 'lines[1].quantity', 'extra']));
    expect(paths((await createOrder(s, { supplierId: supplier.id, lines: [] })).body)).toEqual(['lines']);
    expect((await s.psql(`select count(*)::int as n from purchasing.purchase_orders`))[0].n).toBe(before + 1);
  });

  it('refuses a supplier that is unknown, archived or does not deliver there, and a location that is unknown or archived (422)', async () => {
    const item = await insertItem(s.stack);
    const line = { supplierItemCode: 'X', itemId: item, price: '1' };
    const berOnly = (await supplierWithCatalog(s, [line], { locationIds: [ber] })).supplier;
    const archived = (await supplierWithCatalog(s, [line])).supplier;
    await api(s, 'DELETE', `/suppliers/${archived.id}`);
    const order = (supplierId: string, locationId = nyc) => createOrder(s, { supplierId, locationId, lines: [{ supplierItemCode: 'X', quantity: '1' }] });

    const notThere = await order(berOnly.id);
    expect(notThere.status).toBe(422);
    expect(notThere.body.errors).toEqual([{ path: 'supplierId', message: expect.stringContaining('does not deliver to location') }]);
    expect((await order(berOnly.id, ber)).status).toBe(201);

    const gone = await order(archived.id);
    expect(gone.status).toBe(422);
    expect(gone.body.errors).toEqual([{ path: 'supplierId', message: expect.stringContaining('archived') }]);
    expect((await order('sup_missing')).body.errors).toEqual([{ path: 'supplierId', message: 'No supplier sup_missing.' }]);

    const closed = await newLocation(s, unique('Closed'));
    await archiveLocation(s, closed);
    const atClosed = await order(std.supplier.id, closed);
    expect(atClosed.status).toBe(422);
    expect(atClosed.body.errors).toEqual([{ path: 'locationId', message: expect.stringContaining('archived') }]);
    expect((await order(std.supplier.id, 'loc_nowhere')).body.errors).toEqual([{ path: 'locationId', message: expect.stringContaining('No location loc_nowhere') }]);
  });
});

describe('archived items', () => {
  it('refuses an item archived after it entered the catalog, by item id or supplier code (422 at the line); the catalog refuses it too', async () => {
    const item = await s.inventory.call('POST', '/items', { body: { name: unique('Flour'), baseUnit: 'g' } });
    expect(item.status).toBe(201);
    const kept = await insertItem(s.stack);
    const { supplier } = await supplierWithCatalog(s, [
      { supplierItemCode: 'FL', itemId: item.body.id, price: '3' },
      { supplierItemCode: 'KP', itemId: kept, price: '1' },
    ]);
    expect((await createOrder(s, { supplierId: supplier.id, locationId: nyc, lines: [{ itemId: item.body.id, quantity: '1' }] })).status).toBe(201);

    expect((await s.inventory.call('DELETE', `/items/${item.body.id}`)).status).toBe(200);
    const byId = await createOrder(s, { supplierId: supplier.id, locationId: nyc, lines: [{ itemId: kept, quantity: '1' }, { itemId: item.body.id, quantity: '1' }] });
    expect(byId.status).toBe(422);
    expect(byId.body.errors).toEqual([{ path: 'lines[1].itemId', message: `Item ${item.body.id} is archived.` }]);
    const byCode = await createOrder(s, { supplierId: supplier.id, locationId: nyc, lines: [{ supplierItemCode: 'FL', quantity: '1' }] });
    expect(byCode.status).toBe(422);
    expect(byCode.body.errors).toEqual([{ path: 'lines[0].supplierItemCode', message: `Item ${item.body.id} is archived.` }]);
    expect((await createOrder(s, { supplierId: supplier.id, locationId: nyc, lines: [{ supplierItemCode: 'KP', quantity: '1' }] })).status).toBe(201);

    const catalog = await api(s, 'PUT', `/suppliers/${supplier.id}/catalog`, { lines: [{ supplierItemCode: 'FL', itemId: item.body.id, packSize: '1', price: '3' }] });
    expect(catalog.status).toBe(422);
    expect(catalog.body.errors).toEqual([{ path: 'lines[0].itemId', message: `Item ${item.body.id} is archived.` }]);
  });
});

describe('the state machine', () => {
  type Status = 'draft' | 'approved' | 'sent' | 'partially_received' | 'received' | 'cancelled';
  type Action = 'approve' | 'send' | 'receive' | 'cancel';

  /** An order of the standard supplier brought to `status`. */
  async function orderIn(status: Status): Promise<any> {
    const draft = await draftOrder(s, small());
    const ok = async (r: Promise<any>) => {
      const res = await r;
      if (res.status !== 200) throw new Error(`${status}: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body;
    };
    switch (status) {
      case 'draft':
        return draft;
      case 'approved':
        return ok(orderAction(s, draft.id, 'approve'));
      case 'cancelled':
        return ok(orderAction(s, draft.id, 'cancel'));
      default: {
        const sent = await ok(orderAction(s, draft.id, 'send'));
        if (status === 'sent') return sent;
        const part = await ok(orderAction(s, draft.id, 'receive', { lines: [{ supplierItemCode: std.codeA, quantity: '1' }] }));
        if (status === 'partially_received') return part;
        return ok(orderAction(s, draft.id, 'receive', { lines: [{ supplierItemCode: std.codeA, quantity: '1' }, { itemId: std.itemB, quantity: '10' }] }));
      }
    }
  }

  /** The body each action is tried with: `receive` brings 1 case of A to a sent order (a partial receipt), else everything outstanding. */
  const bodyFor = (action: Action, order: any) => {
    if (action !== 'receive') return {};
    if (order.status === 'sent') return { lines: [{ lineId: order.lines[0].id, quantity: '1' }] };
    return { lines: order.lines.map((l: any) => ({ lineId: l.id, quantity: l.outstandingQuantity })) };
  };

  /** action → status → the status it leads to, or 409. */
  const table: Record<Action, Record<Status, Status | 409>> = {
    approve: { draft: 'approved', approved: 409, sent: 409, partially_received: 409, received: 409, cancelled: 409 },
    send: { draft: 'sent', approved: 'sent', sent: 409, partially_received: 409, received: 409, cancelled: 409 },
    receive: { draft: 409, approved: 409, sent: 'partially_received', partially_received: 'received', received: 409, cancelled: 409 },
    cancel: { draft: 'cancelled', approved: 'cancelled', sent: 'cancelled', partially_received: 409, received: 409, cancelled: 409 },
  };

  const cases = (Object.keys(table) as Action[]).flatMap((action) => (Object.keys(table[action]) as Status[]).map((status) => [action, status, table[action][status]] as const));

  it.each(cases)('%s of a %s order → %s', async (action, status, outcome) => {
    const order = await orderIn(status);
    expect(order.status).toBe(status);
    const r = await orderAction(s, order.id, action, bodyFor(action, order));
    const after = (await api(s, 'GET', `/purchase-orders/${order.id}`)).body;
    if (outcome === 409) {
      expect(r.status).toBe(409);
      expect(r.body.code).toBe('conflict');
      expect(r.body.detail).toContain(order.number);
      expect(after).toEqual(order);
    } else {
      expect(r.status).toBe(200);
      expect(r.body.status).toBe(outcome);
      expect(r.body.version).toBe(order.version + 1);
      expect(after).toEqual(r.body);
    }
  });

  it('says what to do instead', async () => {
    const draft = await orderIn('draft');
    expect((await orderAction(s, draft.id, 'receive', bodyFor('receive', draft))).body.detail).toContain('Send it to the supplier first');
    const part = await orderIn('partially_received');
    expect((await orderAction(s, part.id, 'cancel')).body.detail).toContain('"final": true');
    expect((await orderAction(s, 'po_missing', 'send')).status).toBe(404);
  });

  it('approves (approver and note kept) and cancels (reason kept); a cancellation records purchase_order.cancelled next to the internal event', async () => {
    const a = await draftOrder(s, small());
    const approved = await orderAction(s, a.id, 'approve', { note: 'OK for the weekend' });
    expect(approved.body).toMatchObject({ status: 'approved', approvedAt: expect.any(String), approvedBy: { type: 'user', id: 'usr_test' }, approvalNote: 'OK for the weekend', version: 2 });
    const cancelled = await orderAction(s, a.id, 'cancel', { reason: 'Menu changed' });
    expect(cancelled.body).toMatchObject({ status: 'cancelled', cancelledAt: expect.any(String), cancelReason: 'Menu changed', version: 3 });
    const all = await s.psql(`select type from purchasing.outbox where aggregate_id = ? order by seq`, [a.id]);
    // the internal event insights reads stays; the public purchase_order.cancelled (the project's own type) is recorded next to it
    expect(all.map((e) => e.type)).toEqual(['purchase_order.created', 'purchase_order.approved', 'purchasing.purchase_order.cancelled', 'purchase_order.cancelled']);
    const [publicCancel] = await outboxPayloads(s.stack, 'purchasing', { type: 'purchase_order.cancelled', aggregateId: a.id });
    expect(publicCancel).toMatchObject({ data: { object: cancelled.body, previous: { status: 'approved', cancelledAt: null, cancelReason: null } } });
  });

  describe('the approval threshold (company settings, default 1000.00)', () => {
    it('sends a draft totalling exactly the threshold; one cent above needs approval first (409), then sends', async () => {
      // 41 cases × 24.00 = 984.00, + 6.4 × 2.50 = 16.00 → 1000.00
      const exact = await draftOrder(s, { supplierId: std.supplier.id, lines: [{ supplierItemCode: std.codeA, quantity: '41' }, { itemId: std.itemB, quantity: '6.4' }] });
      expect(exact.total).toBe('1000.00');
      const sent = await orderAction(s, exact.id, 'send');
      expect(sent.status).toBe(200);
      expect(sent.body).toMatchObject({ status: 'sent', sentAt: expect.any(String), approvedAt: null });

      // 6.4 × 2.5016 = 16.01024 → 16.01
      const over = await draftOrder(s, { supplierId: std.supplier.id, lines: [{ supplierItemCode: std.codeA, quantity: '41' }, { itemId: std.itemB, quantity: '6.4', unitPrice: '2.5016' }] });
      expect(over.total).toBe('1000.01');
      const refused = await orderAction(s, over.id, 'send');
      expect(refused.status).toBe(409);
      expect(refused.body.code).toBe('conflict');
      expect(refused.body.detail).toContain('approve it first');
      expect((await api(s, 'GET', `/purchase-orders/${over.id}`)).body).toEqual(over);
      expect(await outboxPayloads(s.stack, 'purchasing', { type: 'purchase_order.sent', aggregateId: over.id })).toHaveLength(0);

      expect((await orderAction(s, over.id, 'approve')).body.status).toBe('approved');
      const thenSent = await orderAction(s, over.id, 'send');
      expect(thenSent.status).toBe(200);
      expect(thenSent.body).toMatchObject({ status: 'sent', approvedAt: expect.any(String), version: 3 });
    });

    it('reads the threshold when sending: a change applies to the next send', async () => {
      const big = await draftOrder(s, { supplierId: std.supplier.id, lines: [{ supplierItemCode: std.codeA, quantity: '50' }] });
      expect(big.total).toBe('1200.00');
      expect((await orderAction(s, big.id, 'send')).status).toBe(409);
      await setCompanySettings(s, { purchaseOrderApprovalThreshold: '1200.00' });
      try {
        expect((await orderAction(s, big.id, 'send')).body.status).toBe('sent');
      } finally {
        await setCompanySettings(s, { purchaseOrderApprovalThreshold: '1000.00' });
      }
    });
  });

  it('records purchase_order.approved, .sent and .received with the order as data.object, what changed as previous', async () => {
    const draft = await draftOrder(s, small());
    const approved = (await orderAction(s, draft.id, 'approve')).body;
    const sent = (await orderAction(s, draft.id, 'send')).body;
    const received = (await orderAction(s, draft.id, 'receive', { lines: [{ supplierItemCode: std.codeA, quantity: '2' }, { itemId: std.itemB, quantity: '10' }] })).body;
    const envelope = (type: string, object: any) => ({
      id: expect.stringMatching(/^evt_/),
      type,
      createdAt: object.updatedAt,
      apiVersion: 'v1',
      actor: { type: 'user', id: 'usr_test' },
      locationId: nyc,
      data: { object, previous: expect.any(Object) },
    });
    const [a] = await outboxPayloads(s.stack, 'purchasing', { type: 'purchase_order.approved', aggregateId: draft.id });
    expect(a).toEqual(envelope('purchase_order.approved', approved));
    expect(a.data.previous).toEqual({ status: 'draft', approvedAt: null, approvedBy: null });
    const [se] = await outboxPayloads(s.stack, 'purchasing', { type: 'purchase_order.sent', aggregateId: draft.id });
    expect(se).toEqual(envelope('purchase_order.sent', sent));
    expect(se.data.previous).toEqual({ status: 'approved', sentAt: null });
    const [re] = await outboxPayloads(s.stack, 'purchasing', { type: 'purchase_order.received', aggregateId: draft.id });
    expect(re).toEqual(envelope('purchase_order.received', received));
    expect(re.data.previous).toEqual({ status: 'sent', receivedAt: null, receipts: [], lines: sent.lines });
  });
});

describe('POST /purchase-orders/{id}:receive', () => {
  it('takes two deliveries (partially received, then received), books stock and the weighted-average cost in inventory', async () => {
    const a = await insertItem(s.stack, { name: 'Tomatoes' });
    const b = await insertItem(s.stack, { name: 'Basil' });
    const { supplier } = await supplierWithCatalog(s, [
      { supplierItemCode: 'TOM', itemId: a, packSize: '12', price: '24' },
      { supplierItemCode: 'BAS', itemId: b, price: '2.50' },
    ]);
    // 24 on hand at 1.50 before anything arrives
    await postLedger(s, [{ itemId: a, type: 'receipt', quantity: '24', unitCost: '1.50' }]);
    const order = await sentOrder(s, { supplierId: supplier.id, lines: [{ supplierItemCode: 'TOM', quantity: '3' }, { supplierItemCode: 'BAS', quantity: '10' }] });

    const first = await orderAction(s, order.id, 'receive', {
      note: 'DN-100',
      lines: [
        { lineId: order.lines[0].id, quantity: '1' },
        { itemId: b, quantity: '4', unitPrice: '2.60' },
      ],
    });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ status: 'partially_received', receivedAt: null, version: 3 });
    expect(first.body.lines).toEqual([
      expect.objectContaining({ quantity: '3', receivedQuantity: '1', outstandingQuantity: '2', receivedAmount: '24.00' }),
      expect.objectContaining({ quantity: '10', receivedQuantity: '4', outstandingQuantity: '6', receivedAmount: '10.40' }),
    ]);
    expect(first.body.receipts).toEqual([
      {
        id: expect.stringMatching(/^prc_/),
        receivedAt: expect.any(String),
        note: 'DN-100',
        final: false,
        actor: { type: 'user', id: 'usr_test' },
        lines: [
          { lineId: order.lines[0].id, itemId: a, quantity: '1', unitPrice: '24', amount: '24.00', baseQuantity: '12', unitCost: '2' },
          { lineId: order.lines[1].id, itemId: b, quantity: '4', unitPrice: '2.6', amount: '10.40', baseQuantity: '4', unitCost: '2.6' },
        ],
      },
    ]);
    const receipt1 = first.body.receipts[0];
    const [recorded] = await outboxPayloads(s.stack, 'purchasing', { type: 'purchasing.receipt.recorded', aggregateId: order.id });
    expect(recorded).toMatchObject({
      type: 'purchasing.receipt.recorded',
      locationId: nyc,
      data: {
        object: {
          id: receipt1.id,
          purchaseOrderId: order.id,
          supplierId: supplier.id,
          locationId: nyc,
          receivedAt: receipt1.receivedAt,
          note: 'DN-100',
          lines: [
            { itemId: a, quantity: '12', unitCost: '2', value: '24.00' },
            { itemId: b, quantity: '4', unitCost: '2.6', value: '10.40' },
          ],
        },
      },
    });

    // inventory books it: (24 × 1.50 + 12 × 2) / 36 = 1.666667
    await eventually(async () => (await levelOf(s.stack, a, nyc))?.on_hand === '36');
    expect(await levelOf(s.stack, a, nyc)).toMatchObject({ on_hand: '36', average_cost: '1.666667' });
    // the value on hand is what was paid, to the cent (not 36 × 1.666667)
    const valueOf = async (item: string) => (await s.sql(`select trim_scale(stock_value)::text as v from inventory.stock_levels where item_id = ? and location_id = ?`, [item, nyc]))[0].v;
    expect(await valueOf(a)).toBe('60');
    await eventually(async () => (await levelOf(s.stack, b, nyc))?.on_hand === '4');
    expect(await levelOf(s.stack, b, nyc)).toMatchObject({ average_cost: '2.6' });

    const second = await orderAction(s, order.id, 'receive', { lines: [{ supplierItemCode: 'tom', quantity: '2' }, { supplierItemCode: 'BAS', quantity: '6' }] });
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ status: 'received', receivedAt: second.body.receipts[1].receivedAt, version: 4 });
    expect(second.body.receipts).toHaveLength(2);
    expect(second.body.receipts[1]).toMatchObject({ final: true, note: null });
    expect(second.body.lines.map((l: any) => [l.receivedQuantity, l.outstandingQuantity, l.receivedAmount])).toEqual([
      ['3', '0', '72.00'],
      ['10', '0', '25.40'],
    ]);

    // (36 × 1.666667 + 24 × 2) / 60 and (4 × 2.6 + 6 × 2.5) / 10
    await eventually(async () => (await levelOf(s.stack, a, nyc))?.on_hand === '60');
    expect(await levelOf(s.stack, a, nyc)).toMatchObject({ average_cost: '1.8' });
    expect(await valueOf(a)).toBe('108');
    await eventually(async () => (await levelOf(s.stack, b, nyc))?.on_hand === '10');
    expect(await levelOf(s.stack, b, nyc)).toMatchObject({ average_cost: '2.54' });

    const movements = await receiptMovements(s, order.id);
    expect(movements).toEqual([
      { item_id: a, location_id: nyc, type: 'receipt', quantity: '12', unit_cost: '2', cause_type: 'purchase_order', cause_id: order.id, reason: receipt1.id },
      { item_id: b, location_id: nyc, type: 'receipt', quantity: '4', unit_cost: '2.6', cause_type: 'purchase_order', cause_id: order.id, reason: receipt1.id },
      { item_id: a, location_id: nyc, type: 'receipt', quantity: '24', unit_cost: '2', cause_type: 'purchase_order', cause_id: order.id, reason: second.body.receipts[1].id },
      { item_id: b, location_id: nyc, type: 'receipt', quantity: '6', unit_cost: '2.5', cause_type: 'purchase_order', cause_id: order.id, reason: second.body.receipts[1].id },
    ]);
    expect(await outboxPayloads(s.stack, 'purchasing', { type: 'purchase_order.received', aggregateId: order.id })).toHaveLength(2);
    expect(await outboxPayloads(s.stack, 'purchasing', { type: 'purchasing.receipt.recorded', aggregateId: order.id })).toHaveLength(2);
  });

  it('converts cases into base units through the catalog line’s unit (1 case of 12 → 12 each at price ÷ 12)', async () => {
    const order = await sentOrder(s, { supplierId: std.supplier.id, locationId: ber, lines: [{ supplierItemCode: std.codeA, quantity: '2.5' }] });
    const r = await orderAction(s, order.id, 'receive', { lines: [{ supplierItemCode: std.codeA, quantity: '2.5', unitPrice: '25.20' }] });
    expect(r.body.receipts[0].lines).toEqual([{ lineId: order.lines[0].id, itemId: std.itemA, quantity: '2.5', unitPrice: '25.2', amount: '63.00', baseQuantity: '30', unitCost: '2.1' }]);
    expect(r.body.status).toBe('received');
    await eventually(async () => (await levelOf(s.stack, std.itemA, ber))?.on_hand === '30');
    expect(await levelOf(s.stack, std.itemA, ber)).toMatchObject({ average_cost: '2.1' });
  });

  it('`final: true` closes the order short; with no lines it only closes it (no receipt.recorded)', async () => {
    const short = await sentOrder(s, small());
    const r = await orderAction(s, short.id, 'receive', { final: true, lines: [{ supplierItemCode: std.codeA, quantity: '1' }] });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'received', receivedAt: expect.any(String) });
    expect(r.body.lines.map((l: any) => l.outstandingQuantity)).toEqual(['1', '10']);
    expect(r.body.receipts[0].final).toBe(true);

    const part = await sentOrder(s, small());
    await orderAction(s, part.id, 'receive', { lines: [{ supplierItemCode: std.codeA, quantity: '2' }] });
    const closed = await orderAction(s, part.id, 'receive', { final: true, note: 'Limes discontinued' });
    expect(closed.status).toBe(200);
    expect(closed.body.status).toBe('received');
    expect(closed.body.receipts[1]).toMatchObject({ final: true, lines: [], note: 'Limes discontinued' });
    expect(await outboxPayloads(s.stack, 'purchasing', { type: 'purchasing.receipt.recorded', aggregateId: part.id })).toHaveLength(1);
    expect(await outboxPayloads(s.stack, 'purchasing', { type: 'purchase_order.received', aggregateId: part.id })).toHaveLength(2);

    // nothing ever arrived: that is a cancellation, not a receipt
    const none = await sentOrder(s, small());
    const refused = await orderAction(s, none.id, 'receive', { final: true, lines: [{ supplierItemCode: std.codeA, quantity: '0' }] });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'conflict', detail: expect.stringContaining('cancel it (:cancel)') });
    expect((await orderAction(s, none.id, 'cancel', {})).body.status).toBe('cancelled');
  });

  it('allows over-receipt (outstanding never below 0)', async () => {
    const order = await sentOrder(s, small());
    const r = await orderAction(s, order.id, 'receive', { lines: [{ supplierItemCode: std.codeA, quantity: '3' }, { itemId: std.itemB, quantity: '12' }] });
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('received');
    expect(r.body.lines.map((l: any) => [l.receivedQuantity, l.outstandingQuantity])).toEqual([
      ['3', '0'],
      ['12', '0'],
    ]);
  });

  it('refuses a receipt in the future, before sending, naming no or an unknown line, a line twice, or nothing at all (422); nothing changes', async () => {
    const order = await sentOrder(s, small());
    const tries: Array<[Record<string, unknown>, Array<{ path: string; message: unknown }>]> = [
      [{ receivedAt: new Date(Date.now() + 3_600_000).toISOString(), lines: [{ supplierItemCode: std.codeA, quantity: '1' }] }, [{ path: 'receivedAt', message: 'Is in the future.' }]],
      [{ receivedAt: new Date(Date.now() - 3_600_000).toISOString(), lines: [{ supplierItemCode: std.codeA, quantity: '1' }] }, [{ path: 'receivedAt', message: expect.stringContaining('before the order was sent') }]],
      [
        {
          lines: [
            { lineId: 'pol_unknown', quantity: '1' },
            { quantity: '1' },
            { supplierItemCode: std.codeA, quantity: '1' },
            { itemId: std.itemA, quantity: '1' },
            { supplierItemCode: std.codeB, itemId: std.itemA, quantity: '1' },
          ],
        },
        [
          { path: 'lines[0].lineId', message: expect.stringContaining('No line') },
          { path: 'lines[1]', message: expect.stringContaining('Name the order line') },
          { path: 'lines[3]', message: expect.stringContaining('also on line 2') },
          { path: 'lines[4].supplierItemCode', message: expect.stringContaining('No line') },
        ],
      ],
      [{ lines: [{ supplierItemCode: std.codeA, quantity: '0' }] }, [{ path: 'lines', message: expect.stringContaining('"final": true') }]],
      [{}, [{ path: 'lines', message: expect.stringContaining('at least one pack') }]],
    ];
    for (const [body, errors] of tries) {
      const r = await orderAction(s, order.id, 'receive', body);
      expect(r.status).toBe(422);
      expect(r.body.errors).toEqual(errors);
    }
    const shape = await orderAction(s, order.id, 'receive', { lines: [{ supplierItemCode: std.codeA, quantity: '-1' }], receivedAt: 'yesterday' });
    expect(shape.status).toBe(422);
    expect(paths(shape.body)).toEqual(expect.arrayContaining(['lines[0].quantity', 'receivedAt']));
    expect((await api(s, 'GET', `/purchase-orders/${order.id}`)).body).toEqual(order);
    expect(await outboxPayloads(s.stack, 'purchasing', { type: 'purchasing.receipt.recorded', aggregateId: order.id })).toHaveLength(0);
  });
});

describe('reach, If-Match and lists', () => {
  it('a person limited to Berlin cannot create, read or act on New York orders, and lists only Berlin’s', async () => {
    const berlin = personAt([ber], ['orders.create', 'purchasing.read', 'purchase_orders.approve', 'goods_receipts.create']);
    const nycOrder = await sentOrder(s, small());
    const nycDraft = await draftOrder(s, small());

    const create = await createOrder(s, small(), { as: berlin });
    expect(create.status).toBe(403);
    expect(create.body.code).toBe('out_of_reach');
    for (const r of [
      await api(s, 'GET', `/purchase-orders/${nycOrder.id}`, undefined, { as: berlin }),
      await orderAction(s, nycDraft.id, 'approve', {}, { as: berlin }),
      await orderAction(s, nycDraft.id, 'send', {}, { as: berlin }),
      await orderAction(s, nycDraft.id, 'cancel', {}, { as: berlin }),
      await orderAction(s, nycOrder.id, 'receive', { lines: [{ supplierItemCode: std.codeA, quantity: '1' }] }, { as: berlin }),
      await api(s, 'GET', `/purchase-orders?locationId=${nyc}`, undefined, { as: berlin }),
    ]) {
      expect(r.status).toBe(403);
      expect(r.body.code).toBe('out_of_reach');
    }
    expect((await api(s, 'GET', `/purchase-orders/${nycDraft.id}`)).body).toEqual(nycDraft);

    const mine = await createOrder(s, small({ locationId: ber }), { as: berlin });
    expect(mine.status).toBe(201);
    expect(mine.body.createdBy).toEqual({ type: 'user', id: 'usr_test' });
    expect((await orderAction(s, mine.body.id, 'send', {}, { as: berlin })).status).toBe(200);

    const listed = await api(s, 'GET', '/purchase-orders?limit=200', undefined, { as: berlin });
    expect(listed.status).toBe(200);
    expect(listed.body.data.length).toBeGreaterThan(0);
    expect(listed.body.data.every((o: any) => o.locationId === ber)).toBe(true);
    expect(listed.body.data.map((o: any) => o.id)).toContain(mine.body.id);

    const nobody = person({ 'suppliers.manage': [{ type: 'everyone' }] });
    const denied = await api(s, 'GET', '/purchase-orders', undefined, { as: nobody });
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe('forbidden');
  });

  it('checks If-Match on an action (409 version_mismatch), and answers the ETag', async () => {
    const draft = await draftOrder(s, small());
    const stale = await orderAction(s, draft.id, 'send', {}, { ifMatch: 2 });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('version_mismatch');
    expect((await api(s, 'GET', `/purchase-orders/${draft.id}`)).body.status).toBe('draft');
    const ok = await orderAction(s, draft.id, 'send', {}, { ifMatch: 1 });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('etag')).toBe('"2"');
  });

  it('lists with filters (status, supplier, location, number) in pages', async () => {
    const sup = await newSupplier(s);
    const item = await insertItem(s.stack);
    await putCatalog(s, sup.id, [{ supplierItemCode: 'Q', itemId: item, price: '1' }]);
    const o1 = await draftOrder(s, { supplierId: sup.id, lines: [{ supplierItemCode: 'Q', quantity: '1' }] });
    const o2 = await sentOrder(s, { supplierId: sup.id, locationId: ber, lines: [{ supplierItemCode: 'Q', quantity: '1' }] });
    const ids = async (q: string) => (await api(s, 'GET', `/purchase-orders?${q}`)).body.data.map((o: any) => o.id);
    expect(await ids(`supplierId=${sup.id}`)).toEqual([o1.id, o2.id]);
    expect(await ids(`supplierId=${sup.id}&status=sent`)).toEqual([o2.id]);
    expect(await ids(`supplierId=${sup.id}&locationId=${ber}`)).toEqual([o2.id]);
    expect(await ids(`number=${o1.number}`)).toEqual([o1.id]);
    const page = await api(s, 'GET', `/purchase-orders?supplierId=${sup.id}&limit=1`);
    expect(page.body.data.map((o: any) => o.id)).toEqual([o1.id]);
    expect(page.body.nextCursor).toEqual(expect.any(String));
    const next = await api(s, 'GET', `/purchase-orders?supplierId=${sup.id}&limit=1&cursor=${encodeURIComponent(page.body.nextCursor)}`);
    expect(next.body.data.map((o: any) => o.id)).toEqual([o2.id]);
  });
});

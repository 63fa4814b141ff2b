/**
 * Supplier invoices (supplement: Supplier invoice states): recorded and matched three ways at once
 * against the order's lines and receipts — matched (no event) or mismatched with
 * `supplier_invoice.mismatch` for each kind of difference (quantity over and under, price,
 * not ordered, missing line, tax and total arithmetic, no matching order); the company's tolerances
 * at their boundary; partial invoicing (matched invoices count as billed); the invoice number unique
 * per supplier; approve and dispute with their 409s; reads, lists and reach.
 */
import { outboxPayloads, person } from '@bop/test-support';
import { api, exactTolerances, orderAction, personAt, sentOrder, setCompanySettings, standardSupplier, unique, draftOrder, startPurchasingStack, type PurchasingStack } from './fixtures';

let s: PurchasingStack;
let nyc: string;
let ber: string;
/** A case of 12 (item A) at 24.00 and single B at 2.50. */
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

/** A sent order of the standard supplier (A 2 cases, B 10 unless told) with `received` packs received (default: all). */
async function receivedOrder(opts: { a?: string; b?: string; receivedA?: string; receivedB?: string; locationId?: string } = {}) {
  const a = opts.a ?? '2';
  const b = opts.b ?? '10';
  const order = await sentOrder(s, {
    supplierId: std.supplier.id,
    locationId: opts.locationId ?? nyc,
    lines: [
      { supplierItemCode: std.codeA, quantity: a },
      { itemId: std.itemB, quantity: b },
    ],
  });
  const lines = [
    { supplierItemCode: std.codeA, quantity: opts.receivedA ?? a },
    { itemId: std.itemB, quantity: opts.receivedB ?? b },
  ].filter((l) => l.quantity !== '0');
  const r = await orderAction(s, order.id, 'receive', { lines });
  if (r.status !== 200) throw new Error(`receive: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/** Invoice lines billing A and B (A by supplier code, B by item). */
const billA = (quantity: string, unitPrice = '24.00', taxAmount?: string) => ({ supplierItemCode: std.codeA, quantity, unitPrice, ...(taxAmount ? { taxAmount } : {}) });
const billB = (quantity: string, unitPrice = '2.50', taxAmount?: string) => ({ itemId: std.itemB, quantity, unitPrice, ...(taxAmount ? { taxAmount } : {}) });

/** POST /supplier-invoices of the standard supplier with a fresh number. */
function record(body: Record<string, unknown>, as?: ReturnType<typeof person>) {
  return api(s, 'POST', '/supplier-invoices', { supplierId: std.supplier.id, invoiceNumber: unique('INV').replace(/\s/g, '-'), invoiceDate: '2026-11-20', ...body }, { as });
}

const kinds = (differences: any[]) => differences.map((d) => d.kind);
const mismatchEvents = (id: string) => outboxPayloads(s.stack, 'purchasing', { type: 'supplier_invoice.mismatch', aggregateId: id });

describe('POST /supplier-invoices: matching', () => {
  it('matches an invoice agreeing with the order and its receipts (by order number): matched, no event', async () => {
    const order = await receivedOrder();
    const r = await record({
      purchaseOrderNumber: order.number,
      dueDate: '2026-12-20',
      note: 'Net 30',
      lines: [billA('2', '24.00', '4.80'), { ...billB('10', '2.5', '2.50'), description: 'Limes, loose' }],
      taxTotal: '7.30',
      total: '80.30',
    });
    expect(r.status).toBe(201);
    expect(r.headers.get('location')).toBe(`/api/v1/supplier-invoices/${r.body.id}`);
    expect(r.headers.get('etag')).toBe('"1"');
    expect(r.body).toEqual({
      id: expect.stringMatching(/^sin_/),
      supplierId: std.supplier.id,
      invoiceNumber: expect.any(String),
      invoiceDate: '2026-11-20',
      dueDate: '2026-12-20',
      purchaseOrderId: order.id,
      locationId: nyc,
      status: 'matched',
      lines: [
        {
          supplierItemCode: std.codeA,
          itemId: std.itemA,
          description: null,
          quantity: '2',
          unitPrice: '24',
          amount: '48.00',
          taxAmount: '4.80',
          purchaseOrderLineId: order.lines[0].id,
          orderedQuantity: '2',
          receivedQuantity: '2',
          previouslyInvoicedQuantity: '0',
          orderUnitPrice: '24',
          result: 'matched',
          differences: [],
        },
        {
          supplierItemCode: std.codeB,
          itemId: std.itemB,
          description: 'Limes, loose',
          quantity: '10',
          unitPrice: '2.5',
          amount: '25.00',
          taxAmount: '2.50',
          purchaseOrderLineId: order.lines[1].id,
          orderedQuantity: '10',
          receivedQuantity: '10',
          previouslyInvoicedQuantity: '0',
          orderUnitPrice: '2.5',
          result: 'matched',
          differences: [],
        },
      ],
      subtotal: '73.00',
      taxTotal: '7.30',
      total: '80.30',
      differences: [],
      tolerances: exactTolerances,
      note: 'Net 30',
      approvedAt: null,
      approvedBy: null,
      approvalNote: null,
      acceptedDifferences: [],
      disputedAt: null,
      disputeReason: null,
      version: 1,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect((await api(s, 'GET', `/supplier-invoices/${r.body.id}`)).body).toEqual(r.body);
    expect(await mismatchEvents(r.body.id)).toHaveLength(0);

    // by id too; absent taxTotal is the lines' tax
    const again = await receivedOrder();
    const byId = await record({ purchaseOrderId: again.id, lines: [billA('2', '24', '1.00'), billB('10')], total: '74.00' });
    expect(byId.body).toMatchObject({ status: 'matched', purchaseOrderId: again.id, taxTotal: '1.00', subtotal: '73.00', total: '74.00' });

    // supplier codes compare case-insensitively (as in catalogs, orders and receipts)
    const third = await receivedOrder();
    const lower = await record({ purchaseOrderId: third.id, lines: [{ ...billA('2'), supplierItemCode: std.codeA.toLowerCase() }, billB('10')], total: '73.00' });
    expect(lower.body.status).toBe('matched');
    expect(lower.body.lines[0]).toMatchObject({ supplierItemCode: std.codeA.toLowerCase(), purchaseOrderLineId: third.lines[0].id });
  });

  it('quantity billed over what was received: mismatched, with supplier_invoice.mismatch carrying the invoice', async () => {
    const order = await receivedOrder({ receivedA: '1' });
    const r = await record({ purchaseOrderId: order.id, lines: [billA('2'), billB('10')], total: '73.00' });
    expect(r.status).toBe(201);
    expect(r.body.status).toBe('mismatched');
    expect(r.body.lines[0]).toMatchObject({ result: 'mismatched', orderedQuantity: '2', receivedQuantity: '1' });
    expect(r.body.lines[0].differences).toEqual([
      { kind: 'quantity', expected: '1', invoiced: '2', difference: '1', tolerated: false, message: expect.stringContaining('(1 over') },
    ]);
    expect(r.body.lines[1]).toMatchObject({ result: 'matched', differences: [] });
    expect(r.body.differences).toEqual([]);

    const events = await mismatchEvents(r.body.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toEqual({
      id: expect.stringMatching(/^evt_/),
      type: 'supplier_invoice.mismatch',
      createdAt: r.body.createdAt,
      apiVersion: 'v1',
      actor: { type: 'user', id: 'usr_test' },
      locationId: nyc,
      data: { object: r.body },
    });
  });

  it('quantity billed under what was received: mismatched', async () => {
    const order = await receivedOrder();
    const r = await record({ purchaseOrderId: order.id, lines: [billA('2'), billB('8')], total: '68.00' });
    expect(r.body.status).toBe('mismatched');
    expect(r.body.lines[1].differences).toEqual([
      { kind: 'quantity', expected: '10', invoiced: '8', difference: '-2', tolerated: false, message: expect.stringContaining('(2 under') },
    ]);
  });

  it('price per pack different from the order’s: mismatched', async () => {
    const order = await receivedOrder();
    const r = await record({ purchaseOrderId: order.id, lines: [billA('2', '24.50'), billB('10')], total: '74.00' });
    expect(r.body.status).toBe('mismatched');
    expect(r.body.lines[0].differences).toEqual([
      { kind: 'price', expected: '24', invoiced: '24.5', difference: '0.5', tolerated: false, message: expect.stringContaining('(0.5 over') },
    ]);
    expect(r.body.lines[0]).toMatchObject({ amount: '49.00', orderUnitPrice: '24' });
  });

  it('a line of something not ordered (not_ordered) and an order line received but not billed (missing_line)', async () => {
    const order = await receivedOrder();
    const r = await record({
      purchaseOrderId: order.id,
      lines: [billA('2'), { supplierItemCode: 'FUEL', description: 'Fuel surcharge', quantity: '1', unitPrice: '5' }],
      total: '53.00',
    });
    expect(r.body.status).toBe('mismatched');
    expect(r.body.lines[1]).toMatchObject({
      supplierItemCode: 'FUEL',
      itemId: null,
      purchaseOrderLineId: null,
      orderedQuantity: null,
      receivedQuantity: null,
      previouslyInvoicedQuantity: null,
      orderUnitPrice: null,
      result: 'mismatched',
      differences: [{ kind: 'not_ordered', expected: null, invoiced: '1', difference: null, tolerated: false, message: expect.stringContaining('not ordered') }],
    });
    expect(r.body.differences).toEqual([
      { kind: 'missing_line', expected: '10', invoiced: null, difference: null, tolerated: false, message: expect.stringContaining(`Order line ${std.codeB}`) },
    ]);
  });

  it('checks the invoice’s own arithmetic: Σ line tax = taxTotal (tax), lines + tax = total (total), to the cent', async () => {
    const order = await receivedOrder();
    const tax = await record({ purchaseOrderId: order.id, lines: [billA('2', '24', '4.80'), billB('10', '2.50', '2.50')], taxTotal: '7.40', total: '80.40' });
    expect(tax.body.status).toBe('mismatched');
    expect(tax.body.differences).toEqual([{ kind: 'tax', expected: '7.30', invoiced: '7.40', difference: '0.10', tolerated: false, message: expect.any(String) }]);
    expect(tax.body.lines.every((l: any) => l.result === 'matched')).toBe(true);

    const order2 = await receivedOrder();
    const total = await record({ purchaseOrderId: order2.id, lines: [billA('2', '24', '4.80'), billB('10', '2.50', '2.50')], taxTotal: '7.30', total: '80.29' });
    expect(total.body.status).toBe('mismatched');
    expect(total.body.differences).toEqual([{ kind: 'total', expected: '80.30', invoiced: '80.29', difference: '-0.01', tolerated: false, message: expect.stringContaining('0.01 under') }]);
  });

  it('no matching order — none named, unknown, another supplier’s, not yet sent: mismatched, no location', async () => {
    const other = await standardSupplier(s);
    const othersOrder = await sentOrder(s, { supplierId: other.supplier.id, lines: [{ supplierItemCode: other.codeA, quantity: '1' }] });
    const draft = await draftOrder(s, { supplierId: std.supplier.id, lines: [{ supplierItemCode: std.codeA, quantity: '1' }] });
    const cases: Array<[Record<string, unknown>, string]> = [
      [{}, 'names no purchase order'],
      [{ purchaseOrderNumber: 'PO-999999' }, 'No purchase order PO-999999'],
      [{ purchaseOrderId: 'po_missing' }, 'No purchase order po_missing'],
      [{ purchaseOrderId: othersOrder.id }, 'another supplier'],
      [{ purchaseOrderNumber: draft.number }, 'only sent orders are billed'],
    ];
    for (const [ref, why] of cases) {
      const r = await record({ ...ref, lines: [billA('1')], total: '24.00' });
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({ status: 'mismatched', purchaseOrderId: null, locationId: null });
      expect(r.body.differences).toEqual([{ kind: 'no_matching_order', expected: null, invoiced: null, difference: null, tolerated: false, message: expect.stringContaining(why) }]);
      expect(kinds(r.body.lines[0].differences)).toEqual(['not_ordered']);
      const events = await mismatchEvents(r.body.id);
      expect(events).toHaveLength(1);
      expect(events[0].locationId).toBeNull();
    }

    // an id and a number naming different orders is a mistake in the request
    const order = await receivedOrder();
    const both = await record({ purchaseOrderId: order.id, purchaseOrderNumber: draft.number, lines: [billA('2')], total: '48.00' });
    expect(both.status).toBe(422);
    expect(both.body.errors).toEqual([{ path: 'purchaseOrderNumber', message: expect.stringContaining(order.number) }]);
  });

  it('refuses bad input (422 with paths) and an unknown supplier', async () => {
    const r = await record({ invoiceDate: '20-11-2026', lines: [{ supplierItemCode: 'X', quantity: '0', unitPrice: 1 }], total: '1.001' });
    expect(r.status).toBe(422);
    expect(r.body.errors.map((e: any) => e.path)).toEqual(expect.arrayContaining(['invoiceDate', 'lines[0].quantity', 'lines[0].unitPrice', 'total']));
    const none = await record({ lines: [], total: '0' });
    expect(none.body.errors.map((e: any) => e.path)).toEqual(['lines']);
    const unknown = await record({ supplierId: 'sup_missing', lines: [billA('1')], total: '24.00' });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors).toEqual([{ path: 'supplierId', message: 'No supplier sup_missing.' }]);
  });
});

describe('tolerances (company settings → invoiceMatchTolerances)', () => {
  afterEach(async () => {
    await setCompanySettings(s, { invoiceMatchTolerances: exactTolerances });
  });

  it('price 2%: exactly at the limit matches (tolerated difference shown), one step over mismatches; the tolerances are kept with the invoice', async () => {
    await setCompanySettings(s, { invoiceMatchTolerances: { pricePercent: '2' } });
    // 2% of 24 = 0.48
    const at = await record({ purchaseOrderId: (await receivedOrder()).id, lines: [billA('2', '24.48'), billB('10')], total: '73.96' });
    expect(at.body.status).toBe('matched');
    expect(at.body.tolerances).toEqual({ ...exactTolerances, pricePercent: '2' });
    expect(at.body.lines[0]).toMatchObject({ result: 'matched', differences: [{ kind: 'price', expected: '24', invoiced: '24.48', difference: '0.48', tolerated: true, message: expect.stringContaining('2% = 0.48') }] });
    expect(await mismatchEvents(at.body.id)).toHaveLength(0);

    const over = await record({ purchaseOrderId: (await receivedOrder()).id, lines: [billA('2', '24.4801'), billB('10')], total: '73.96' });
    expect(over.body.status).toBe('mismatched');
    expect(over.body.lines[0].differences).toEqual([expect.objectContaining({ kind: 'price', difference: '0.4801', tolerated: false })]);

    // under the order's price is a difference too, within the same limit
    const under = await record({ purchaseOrderId: (await receivedOrder()).id, lines: [billA('2', '23.52'), billB('10')], total: '72.04' });
    expect(under.body.status).toBe('matched');
  });

  it('price absolute 0.05 and quantity absolute 1: at the limit matches, one step over mismatches', async () => {
    await setCompanySettings(s, { invoiceMatchTolerances: { priceAbsolute: '0.05', quantityAbsolute: '1' } });
    const atPrice = await record({ purchaseOrderId: (await receivedOrder()).id, lines: [billA('2'), billB('10', '2.55')], total: '73.50' });
    expect(atPrice.body.status).toBe('matched');
    const overPrice = await record({ purchaseOrderId: (await receivedOrder()).id, lines: [billA('2'), billB('10', '2.5501')], total: '73.50' });
    expect(overPrice.body.status).toBe('mismatched');

    const atQty = await record({ purchaseOrderId: (await receivedOrder()).id, lines: [billA('2'), billB('11')], total: '75.50' });
    expect(atQty.body.status).toBe('matched');
    expect(atQty.body.lines[1].differences).toEqual([expect.objectContaining({ kind: 'quantity', expected: '10', invoiced: '11', difference: '1', tolerated: true })]);
    const overQty = await record({ purchaseOrderId: (await receivedOrder()).id, lines: [billA('2'), billB('11.001')], total: '75.50' });
    expect(overQty.body.status).toBe('mismatched');
    // a missing line of 1 pack is within 1 pack
    const missing = await record({ purchaseOrderId: (await receivedOrder({ b: '1' })).id, lines: [billA('2')], total: '48.00' });
    expect(missing.body.status).toBe('matched');
    expect(missing.body.differences).toEqual([expect.objectContaining({ kind: 'missing_line', expected: '1', tolerated: true })]);
  });

  it('quantity 10%: 10 received → 1 pack either way; both limits set → within both', async () => {
    await setCompanySettings(s, { invoiceMatchTolerances: { quantityPercent: '10' } });
    expect((await record({ purchaseOrderId: (await receivedOrder()).id, lines: [billA('2'), billB('9')], total: '70.50' })).body.status).toBe('matched');
    expect((await record({ purchaseOrderId: (await receivedOrder()).id, lines: [billA('2'), billB('8.999')], total: '70.50' })).body.status).toBe('mismatched');

    await setCompanySettings(s, { invoiceMatchTolerances: { quantityPercent: '10', quantityAbsolute: '0.5' } });
    expect((await record({ purchaseOrderId: (await receivedOrder()).id, lines: [billA('2'), billB('10.5')], total: '74.25' })).body.status).toBe('matched');
    expect((await record({ purchaseOrderId: (await receivedOrder()).id, lines: [billA('2'), billB('11')], total: '75.50' })).body.status).toBe('mismatched');
  });

  it('the tax and total arithmetic is never tolerated', async () => {
    await setCompanySettings(s, { invoiceMatchTolerances: { quantityPercent: '100', pricePercent: '100', quantityAbsolute: '1000', priceAbsolute: '1000' } });
    const r = await record({ purchaseOrderId: (await receivedOrder()).id, lines: [billA('2'), billB('10')], total: '73.01' });
    expect(r.body.status).toBe('mismatched');
    expect(r.body.differences).toEqual([expect.objectContaining({ kind: 'total', tolerated: false })]);
  });
});

describe('partial invoicing', () => {
  it('a second invoice for the rest matches: quantities of matched and approved invoices count as billed, mismatched ones do not', async () => {
    const order = await sentOrder(s, { supplierId: std.supplier.id, lines: [{ supplierItemCode: std.codeA, quantity: '4' }] });
    await orderAction(s, order.id, 'receive', { lines: [{ supplierItemCode: std.codeA, quantity: '2' }] });
    const first = await record({ purchaseOrderId: order.id, lines: [billA('2')], total: '48.00' });
    expect(first.body.status).toBe('matched');

    // a wrong invoice meanwhile: mismatched, billing nothing
    const wrong = await record({ purchaseOrderId: order.id, lines: [billA('2')], total: '48.00' });
    expect(wrong.body.status).toBe('mismatched');
    expect(wrong.body.lines[0]).toMatchObject({ previouslyInvoicedQuantity: '2', differences: [expect.objectContaining({ kind: 'quantity', expected: '0', invoiced: '2' })] });

    await orderAction(s, order.id, 'receive', { lines: [{ supplierItemCode: std.codeA, quantity: '2' }] });
    const second = await record({ purchaseOrderId: order.id, lines: [billA('2')], total: '48.00' });
    expect(second.body.status).toBe('matched');
    expect(second.body.lines[0]).toMatchObject({ receivedQuantity: '4', previouslyInvoicedQuantity: '2', differences: [] });

    // everything is billed now: approving the wrong one makes it count too
    const approved = await api(s, 'POST', `/supplier-invoices/${wrong.body.id}:approve`, {});
    expect(approved.body.status).toBe('approved');
    const third = await record({ purchaseOrderId: order.id, lines: [billA('1')], total: '24.00' });
    expect(third.body.status).toBe('mismatched');
    expect(third.body.lines[0]).toMatchObject({ previouslyInvoicedQuantity: '6' });
  });
});

describe('invoice numbers, approve and dispute', () => {
  it('an invoice number is unique per supplier (409 at invoiceNumber, case-insensitive); another supplier may use it', async () => {
    const order = await receivedOrder();
    const number = unique('INV-DUP').replace(/\s/g, '-');
    expect((await record({ invoiceNumber: number, purchaseOrderId: order.id, lines: [billA('2'), billB('10')], total: '73.00' })).status).toBe(201);
    const dup = await record({ invoiceNumber: number.toLowerCase(), lines: [billA('1')], total: '24.00' });
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe('conflict');
    expect(dup.body.errors).toEqual([{ path: 'invoiceNumber', message: 'Already recorded for this supplier.' }]);
    const other = await standardSupplier(s);
    expect((await record({ supplierId: other.supplier.id, invoiceNumber: number, lines: [billA('1')], total: '24.00' })).status).toBe(201);
  });

  it('approves matched, mismatched and disputed invoices, recording the differences accepted; approved is final', async () => {
    const matched = (await record({ purchaseOrderId: (await receivedOrder()).id, lines: [billA('2'), billB('10')], total: '73.00' })).body;
    const okd = await api(s, 'POST', `/supplier-invoices/${matched.id}:approve`, { note: 'Fine' });
    expect(okd.status).toBe(200);
    expect(okd.body).toMatchObject({ status: 'approved', approvedAt: expect.any(String), approvedBy: { type: 'user', id: 'usr_test' }, approvalNote: 'Fine', acceptedDifferences: [], version: 2 });

    const mismatched = (await record({ purchaseOrderId: (await receivedOrder()).id, lines: [billA('2', '25')], total: '50.00' })).body;
    expect(mismatched.status).toBe('mismatched');
    const stale = await api(s, 'POST', `/supplier-invoices/${mismatched.id}:approve`, {}, { ifMatch: 5 });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('version_mismatch');
    const accepted = await api(s, 'POST', `/supplier-invoices/${mismatched.id}:approve`, {}, { ifMatch: 1 });
    expect(accepted.status).toBe(200);
    expect(accepted.body.status).toBe('approved');
    expect(accepted.body.approvalNote).toBeNull();
    expect(accepted.body.acceptedDifferences).toEqual([
      { ...mismatched.lines[0].differences[0], line: 0 },
      { ...mismatched.differences[0], line: null },
    ]);
    expect(kinds(accepted.body.acceptedDifferences)).toEqual(['price', 'missing_line']);

    const disputed = (await record({ purchaseOrderId: (await receivedOrder()).id, lines: [billA('3'), billB('10')], total: '97.00' })).body;
    expect((await api(s, 'POST', `/supplier-invoices/${disputed.id}:dispute`, { reason: 'Only 2 cases came' })).body.status).toBe('disputed');
    const afterDispute = await api(s, 'POST', `/supplier-invoices/${disputed.id}:approve`, { note: 'Credit note agreed' });
    expect(afterDispute.body).toMatchObject({ status: 'approved', disputeReason: 'Only 2 cases came', acceptedDifferences: [expect.objectContaining({ kind: 'quantity', line: 0 })] });
    // a change event per decision (issue 41 item 3), data.object the invoice as the API returns it; the stale approval records none
    expect((await outboxPayloads(s.stack, 'purchasing', { type: 'supplier_invoice.approved', aggregateId: matched.id })).map((e) => e.data.object)).toEqual([okd.body]);
    expect((await outboxPayloads(s.stack, 'purchasing', { type: 'supplier_invoice.approved', aggregateId: mismatched.id })).map((e) => e.data.object)).toEqual([accepted.body]);
    expect((await outboxPayloads(s.stack, 'purchasing', { aggregateId: disputed.id })).map((e) => [e.type, e.data.object.status])).toEqual([
      ['supplier_invoice.mismatch', 'mismatched'],
      ['supplier_invoice.disputed', 'disputed'],
      ['supplier_invoice.approved', 'approved'],
    ]);

    for (const id of [matched.id, mismatched.id, disputed.id]) {
      const again = await api(s, 'POST', `/supplier-invoices/${id}:approve`, {});
      expect(again.status).toBe(409);
      expect(again.body.code).toBe('conflict');
      const dispute = await api(s, 'POST', `/supplier-invoices/${id}:dispute`, { reason: 'late' });
      expect(dispute.status).toBe(409);
    }
    expect((await api(s, 'POST', '/supplier-invoices/sin_missing:approve', {})).status).toBe(404);
  });

  it('disputes only a mismatched invoice (reason required); matched and disputed → 409', async () => {
    const mismatched = (await record({ purchaseOrderId: (await receivedOrder()).id, lines: [billA('1'), billB('10')], total: '49.00' })).body;
    expect((await api(s, 'POST', `/supplier-invoices/${mismatched.id}:dispute`, {})).status).toBe(422);
    const r = await api(s, 'POST', `/supplier-invoices/${mismatched.id}:dispute`, { reason: 'Short delivery billed in full' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'disputed', disputedAt: expect.any(String), disputeReason: 'Short delivery billed in full', version: 2 });
    const twice = await api(s, 'POST', `/supplier-invoices/${mismatched.id}:dispute`, { reason: 'again' });
    expect(twice.status).toBe(409);
    expect(twice.body.detail).toContain('disputed already');

    const matched = (await record({ purchaseOrderId: (await receivedOrder()).id, lines: [billA('2'), billB('10')], total: '73.00' })).body;
    const refused = await api(s, 'POST', `/supplier-invoices/${matched.id}:dispute`, { reason: 'no' });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('conflict');
    expect((await api(s, 'GET', `/supplier-invoices/${matched.id}`)).body.status).toBe('matched');
  });
});

describe('reads, lists and reach', () => {
  it('gets by id (404 unknown), lists with filters', async () => {
    const order = await receivedOrder({ locationId: ber });
    const matched = (await record({ purchaseOrderId: order.id, lines: [billA('2'), billB('10')], total: '73.00' })).body;
    const noOrder = (await record({ lines: [billA('1')], total: '24.00' })).body;
    expect((await api(s, 'GET', '/supplier-invoices/sin_missing')).status).toBe(404);
    const ids = async (q: string) => (await api(s, 'GET', `/supplier-invoices?limit=200&${q}`)).body.data.map((i: any) => i.id);
    expect(await ids(`purchaseOrderId=${order.id}`)).toEqual([matched.id]);
    expect(await ids(`locationId=${ber}`)).toEqual([matched.id]);
    const mism = await ids(`status=mismatched&supplierId=${std.supplier.id}`);
    expect(mism).toContain(noOrder.id);
    expect(mism).not.toContain(matched.id);
  });

  it('reach follows the order’s location; an invoice of no order needs reach Everyone', async () => {
    const nycOrder = await receivedOrder();
    const nycInvoice = (await record({ purchaseOrderId: nycOrder.id, lines: [billA('2'), billB('10')], total: '73.00' })).body;
    const noOrder = (await record({ lines: [billA('1')], total: '24.00' })).body;
    const nycPerson = personAt([nyc], ['purchasing.read', 'invoices.match']);
    const berPerson = personAt([ber], ['purchasing.read', 'invoices.match']);

    expect((await api(s, 'GET', `/supplier-invoices/${nycInvoice.id}`, undefined, { as: nycPerson })).status).toBe(200);
    const hidden = await api(s, 'GET', `/supplier-invoices/${noOrder.id}`, undefined, { as: nycPerson });
    expect(hidden.status).toBe(403);
    expect(hidden.body.code).toBe('out_of_reach');
    const listed = (await api(s, 'GET', '/supplier-invoices?limit=200', undefined, { as: nycPerson })).body.data;
    expect(listed.map((i: any) => i.id)).toContain(nycInvoice.id);
    expect(listed.every((i: any) => i.locationId === nyc)).toBe(true);

    for (const r of [
      await api(s, 'GET', `/supplier-invoices/${nycInvoice.id}`, undefined, { as: berPerson }),
      await api(s, 'GET', `/supplier-invoices?locationId=${nyc}`, undefined, { as: berPerson }),
      await api(s, 'POST', `/supplier-invoices/${nycInvoice.id}:approve`, {}, { as: berPerson }),
      await api(s, 'POST', `/supplier-invoices/${noOrder.id}:dispute`, { reason: 'x' }, { as: nycPerson }),
      await record({ purchaseOrderId: (await receivedOrder()).id, lines: [billA('2'), billB('10')], total: '73.00' }, berPerson),
      await record({ lines: [billA('1')], total: '24.00' }, nycPerson),
    ]) {
      expect(r.status).toBe(403);
      expect(r.body.code).toBe('out_of_reach');
    }
    expect((await api(s, 'GET', '/supplier-invoices?limit=200', undefined, { as: berPerson })).body.data.map((i: any) => i.id)).not.toContain(nycInvoice.id);

    const berOrder = await receivedOrder({ locationId: ber });
    const mine = await record({ purchaseOrderId: berOrder.id, lines: [billA('2'), billB('10')], total: '73.00' }, berPerson);
    expect(mine.status).toBe(201);
    expect(mine.body.locationId).toBe(ber);

    const denied = await api(s, 'GET', '/supplier-invoices', undefined, { as: person({ 'orders.create': [{ type: 'everyone' }] }) });
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe('forbidden');
  });
});

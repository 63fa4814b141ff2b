import { SalesOrderInput } from '@bop/contracts';
import { zodFieldErrors } from '@bop/shared';
import { cancelRefusal, checkOrder, decidePut, normalizeOrder, orderTotals, type StoredOrderState } from '../src/orders/order-rules';
import { newOrderBody } from './fixtures';

/** A valid order as an online store sends it (email in mixed case, as stores send it). */
const orderBody = (over: Record<string, unknown> = {}) => newOrderBody({ source: 'shop-1', locationExternalId: 'WH-1', customer: { externalId: 'C-1', name: 'Ada Lovelace', email: 'Ada@Example.com' }, ...over });
const parse = (body: unknown) => SalesOrderInput.parse(body);
const schemaErrors = (body: unknown) => {
  const r = SalesOrderInput.safeParse(body);
  return r.success ? [] : zodFieldErrors(r.error);
};
const paths = (errs: Array<{ path: string }>) => errs.map((e) => e.path).sort();

describe('SalesOrderInput (schema)', () => {
  it('accepts a valid order, defaults status to open and lower-cases the email', () => {
    const o = parse(orderBody());
    expect(o.status).toBe('open');
    expect(o.customer?.email).toBe('ada@example.com');
  });

  it('refuses unknown fields, numbers for decimals, bad currency and country, and no lines', () => {
    expect(paths(schemaErrors(orderBody({ total: '1.00' })))).toEqual(['total']);
    expect(schemaErrors(orderBody({ lines: [{ itemExternalId: 'X', quantity: 1, unitPrice: '1.00' }] }))).toEqual([{ path: 'lines[0].quantity', message: 'send decimals as strings' }]);
    expect(paths(schemaErrors(orderBody({ currency: 'usd' })))).toEqual(['currency']);
    expect(paths(schemaErrors(orderBody({ currency: 'XYZ' })))).toEqual(['currency']);
    expect(paths(schemaErrors(orderBody({ shipping: { method: 'post', amount: '1.00', address: { line1: 'a', city: 'b', country: 'XX' } } })))).toEqual(['shipping.address.country']);
    expect(paths(schemaErrors(orderBody({ lines: [] })))).toEqual(['lines']);
    expect(paths(schemaErrors(orderBody({ source: undefined })))).toEqual(['source']);
    expect(paths(schemaErrors(orderBody({ customer: {} })))).toEqual(['customer']);
    expect(paths(schemaErrors(orderBody({ customer: { email: 'not-an-email' } })))).toEqual(['customer.email']);
    expect(paths(schemaErrors(orderBody({ placedAt: '2026-11-21T09:30:00+01:00' })))).toEqual(['placedAt']);
  });

  it('takes exactly one location reference (spec: ingestion rule 2)', () => {
    expect(paths(schemaErrors(orderBody({ locationExternalId: undefined })))).toEqual(['locationExternalId']);
    expect(paths(schemaErrors(orderBody({ locationId: 'loc_1' })))).toEqual(['locationExternalId']);
    expect(schemaErrors(orderBody({ locationExternalId: undefined, locationId: 'loc_1' }))).toEqual([]);
  });

  it('accepts status open or cancelled only, and a cancelReason only when cancelled', () => {
    expect(paths(schemaErrors(orderBody({ status: 'shipped' })))).toEqual(['status']);
    expect(paths(schemaErrors(orderBody({ status: 'open', cancelReason: 'x' })))).toEqual(['cancelReason']);
    expect(schemaErrors(orderBody({ status: 'cancelled', cancelReason: 'customer asked' }))).toEqual([]);
  });
});

describe('checkOrder', () => {
  it('passes a valid order', () => {
    expect(checkOrder(parse(orderBody()))).toEqual([]);
  });

  it('wants quantities above zero, no negative prices and an item reference on each line', () => {
    const errors = checkOrder(parse(orderBody({
      lines: [
        { itemExternalId: 'A', quantity: '0', unitPrice: '1.00' },
        { itemSku: 'B', quantity: '-1', unitPrice: '-1.00' },
        { name: 'Mystery', quantity: '1', unitPrice: '1.00' },
      ],
    })));
    expect(paths(errors)).toEqual(['lines[0].quantity', 'lines[1].quantity', 'lines[1].unitPrice', 'lines[2].itemExternalId']);
  });

  it('keeps charged amounts in the currency’s minor units; unit prices may carry more', () => {
    expect(checkOrder(parse(orderBody({ currency: 'JPY', shipping: { method: 'post', amount: '500.5' }, lines: [{ itemSku: 'A', quantity: '3', unitPrice: '0.125' }] })))).toEqual([
      { path: 'shipping.amount', message: 'JPY amounts have at most 0 decimals.' },
    ]);
    expect(paths(checkOrder(parse(orderBody({ lines: [{ itemSku: 'A', quantity: '1', unitPrice: '5.00', tax: '0.125', discount: '-1' }] }))))).toEqual(['lines[0].discount', 'lines[0].tax']);
    expect(paths(checkOrder(parse(orderBody({ shipping: { method: 'post', amount: '-1.00' } }))))).toEqual(['shipping.amount']);
  });

  it('refuses a discount above the line and figures too large to store', () => {
    expect(checkOrder(parse(orderBody({ lines: [{ itemSku: 'A', quantity: '2', unitPrice: '1.00', discount: '2.01' }] })))).toEqual([
      { path: 'lines[0].discount', message: 'The discount is more than quantity × unitPrice (2.00).' },
    ]);
    expect(paths(checkOrder(parse(orderBody({ lines: [{ itemSku: 'A', quantity: '999999999', unitPrice: '999999999' }] }))))).toEqual(['lines[0]']);
    const half = { itemSku: 'A', quantity: '1', unitPrice: '600000000000' };
    expect(paths(checkOrder(parse(orderBody({ lines: [half, half] }))))).toEqual(['lines']);
  });
});

describe('order totals (spec: calculated by the service from lines and shipping)', () => {
  it('adds rounded line totals, line tax and shipping exactly', () => {
    const n = normalizeOrder(parse(orderBody()), 'loc_1');
    expect(n.lines.map((l) => l.lineTotal)).toEqual(['0.30', '12.00']);
    expect(n).toMatchObject({ subtotal: '12.30', taxTotal: '0.00', shippingTotal: '4.99', total: '17.29' });
  });

  it('rounds each line to the currency’s minor units, half away from zero (JPY: 0 decimals)', () => {
    const n = normalizeOrder(parse(orderBody({ currency: 'JPY', lines: [{ itemSku: 'A', quantity: '3', unitPrice: '0.5' }, { itemSku: 'B', quantity: '1', unitPrice: '1200' }], shipping: { method: 'post', amount: '500' } })), 'loc_1');
    expect(n.lines.map((l) => l.lineTotal)).toEqual(['2', '1200']);
    expect(n).toMatchObject({ subtotal: '1202', shippingTotal: '500', total: '1702' });
  });

  it('takes discounts and tax on top of the price; no shipping is zero', () => {
    const n = normalizeOrder(parse(orderBody({ shipping: undefined, lines: [{ itemSku: 'A', quantity: '2', unitPrice: '10.00', discount: '1.50', tax: '1.85' }] })), 'loc_1');
    expect(n.lines[0]).toMatchObject({ lineTotal: '18.50', discount: '1.50', tax: '1.85', itemId: null });
    expect(n).toMatchObject({ subtotal: '18.50', taxTotal: '1.85', shippingTotal: '0.00', total: '20.35' });
    expect(orderTotals([], null, 'KWD')).toEqual({ subtotal: '0.000', taxTotal: '0.000', shippingTotal: '0.000', total: '0.000' });
  });
});

describe('normalizeOrder (content hashes)', () => {
  it('hashes equal content equally whatever the spelling of decimals and key order', () => {
    const a = normalizeOrder(parse(orderBody()), 'loc_1');
    const b = normalizeOrder(parse(orderBody({ lines: [{ unitPrice: '0.1', quantity: '3.000', name: 'Pen', itemExternalId: 'SKU-PEN' }, { itemExternalId: 'SKU-BOOK', name: 'Book', quantity: '1', unitPrice: '12' }] })), 'loc_1');
    expect(b.contentHash).toBe(a.contentHash);
    expect(b.content.lines[0]).toEqual({ itemExternalId: 'SKU-PEN', itemSku: null, itemBarcode: null, name: 'Pen', quantity: '3', unitPrice: '0.10', discount: '0.00', tax: '0.00' });
  });

  it('keeps the core hash when only status, cancelReason or paymentStatus change', () => {
    const a = normalizeOrder(parse(orderBody()), 'loc_1');
    const b = normalizeOrder(parse(orderBody({ status: 'cancelled', cancelReason: 'fraud', paymentStatus: 'refunded' })), 'loc_1');
    expect(b.contentHash).not.toBe(a.contentHash);
    expect(b.coreHash).toBe(a.coreHash);
    expect(normalizeOrder(parse(orderBody()), 'loc_2').coreHash).not.toBe(a.coreHash);
    expect(normalizeOrder(parse(orderBody({ shipping: undefined })), 'loc_1').coreHash).not.toBe(a.coreHash);
  });
});

describe('decidePut (spec: ingested record and sales order states)', () => {
  const sent = (over: Record<string, unknown> = {}) => {
    const n = normalizeOrder(parse(orderBody(over)), 'loc_1');
    return { contentHash: n.contentHash, coreHash: n.coreHash, status: n.content.status, paymentStatus: n.content.paymentStatus };
  };
  const stored = (status: StoredOrderState['status'], over: Record<string, unknown> = {}): StoredOrderState => {
    const s = sent(over);
    return { status, contentHash: s.contentHash, coreHash: s.coreHash, paymentStatus: s.paymentStatus };
  };

  it('creates, keeps the same content unchanged and replaces an open or reserved order', () => {
    expect(decidePut(null, sent())).toEqual({ kind: 'create' });
    expect(decidePut(stored('open'), sent())).toEqual({ kind: 'unchanged' });
    expect(decidePut(stored('open'), sent({ paymentStatus: 'pending' }))).toEqual({ kind: 'replace', cancels: false });
    expect(decidePut(stored('reserved'), sent({ status: 'cancelled' }))).toEqual({ kind: 'replace', cancels: true });
  });

  it('leaves a final order as it is: same content is fine, a change is a conflict', () => {
    expect(decidePut(stored('cancelled', { status: 'cancelled' }), sent({ status: 'cancelled' }))).toEqual({ kind: 'unchanged' });
    expect(decidePut(stored('cancelled', { status: 'cancelled' }), sent({ status: 'cancelled', lines: [{ itemSku: 'A', quantity: '1', unitPrice: '1.00' }] }))).toMatchObject({ kind: 'conflict', detail: expect.stringMatching(/cancelled, a final state/) });
    // cancelled through :cancel while the source still says open
    expect(decidePut(stored('cancelled'), sent({ paymentStatus: 'refunded' }))).toMatchObject({ kind: 'conflict', detail: expect.stringMatching(/cannot be reopened/) });
    expect(decidePut(stored('shipped'), sent({ status: 'cancelled' }))).toMatchObject({ kind: 'conflict', detail: expect.stringMatching(/shipped/) });
  });

  it('lets paymentStatus of a final order move, and takes the source’s confirmation of a cancel', () => {
    expect(decidePut(stored('cancelled', { status: 'cancelled' }), sent({ status: 'cancelled', paymentStatus: 'refunded' }))).toEqual({ kind: 'payment', touch: false });
    expect(decidePut(stored('cancelled'), sent({ status: 'cancelled', cancelReason: 'customer asked' }))).toEqual({ kind: 'payment', touch: true });
    expect(decidePut(stored('shipped'), sent({ paymentStatus: 'refunded' }))).toEqual({ kind: 'payment', touch: false });
  });
});

describe('cancelRefusal', () => {
  it('cancels open and reserved orders only', () => {
    expect(cancelRefusal('open')).toBeNull();
    expect(cancelRefusal('reserved')).toBeNull();
    expect(cancelRefusal('cancelled')).toMatch(/already cancelled/);
    expect(cancelRefusal('shipped')).toMatch(/shipped/);
  });
});

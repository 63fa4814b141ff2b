import { CustomerInvoiceCreate, CustomerInvoicePay, CustomerInvoiceVoid } from '@bop/contracts';
import { zodFieldErrors } from '@bop/shared';
import {
  afterPayment, balanceDue, checkDueDate, checkLines, checkPaidAt, checkPaymentAmount, checkTotal, dueDateAt, invoiceLine, invoiceNumber, invoiceTotals,
  issueRefusal, linesFromOrder, paidAtInstant, payRefusal, voidRefusal, type InvoiceStatus,
} from '../src/invoices/invoice-rules';

const schemaErrors = (schema: { safeParse: (v: unknown) => any }, body: unknown) => {
  const r = schema.safeParse(body);
  return r.success ? [] : zodFieldErrors(r.error);
};
const line = (over: Record<string, string> = {}) => ({ description: 'Catering', quantity: '1', unitPrice: '10.00', ...over });

describe('CustomerInvoiceCreate (schema)', () => {
  it('accepts an invoice from lines or from an order', () => {
    expect(schemaErrors(CustomerInvoiceCreate, { customerId: 'cus_1', currency: 'USD', lines: [line()] })).toEqual([]);
    expect(schemaErrors(CustomerInvoiceCreate, { salesOrderId: 'sor_1', dueDate: '2030-01-31', notes: 'n', reference: 'PO-7' })).toEqual([]);
    expect(schemaErrors(CustomerInvoiceCreate, { salesOrderId: 'sor_1', customerId: 'cus_1' })).toEqual([]);
  });

  it('names what is missing, what does not go with salesOrderId, and bad fields', () => {
    expect(schemaErrors(CustomerInvoiceCreate, {})).toEqual([
      { path: 'customerId', message: 'Send customerId (or salesOrderId to invoice an online order).' },
      { path: 'currency', message: 'Send currency (or salesOrderId to invoice an online order).' },
      { path: 'lines', message: 'Send lines (or salesOrderId to invoice an online order).' },
    ]);
    expect(schemaErrors(CustomerInvoiceCreate, { salesOrderId: 'sor_1', currency: 'USD', lines: [line()] }).map((e) => e.path)).toEqual(['currency', 'lines']);
    expect(schemaErrors(CustomerInvoiceCreate, { customerId: 'c', currency: 'usd', lines: [], dueDate: '31/01/2030', total: '1' }).map((e) => e.path).sort()).toEqual(
      ['currency', 'dueDate', 'lines', 'total'],
    );
    expect(schemaErrors(CustomerInvoiceCreate, { customerId: 'c', currency: 'USD', lines: [{ description: ' ', quantity: 1, unitPrice: '1' }] })).toEqual([
      { path: 'lines[0].description', message: expect.any(String) },
      { path: 'lines[0].quantity', message: 'send decimals as strings' },
    ]);
    expect(schemaErrors(CustomerInvoiceCreate, { customerId: 'c', currency: 'USD', lines: [line({ tax: '1.00', taxRate: '5' })] })).toEqual([
      { path: 'lines[0].taxRate', message: 'Send tax or taxRate, not both.' },
    ]);
  });

  it(':pay needs amount, method and paidAt (a date or a UTC timestamp); :void needs a reason', () => {
    expect(schemaErrors(CustomerInvoicePay, { amount: '1.00', method: 'bank_transfer', paidAt: '2026-11-21' })).toEqual([]);
    expect(schemaErrors(CustomerInvoicePay, { amount: '1.00', method: 'card', paidAt: '2026-11-21T09:30:00Z', reference: 'r' })).toEqual([]);
    expect(schemaErrors(CustomerInvoicePay, { amount: 1, method: 'cheque', paidAt: 'yesterday' })).toEqual([
      { path: 'amount', message: 'send decimals as strings' },
      { path: 'method', message: 'Must be one of cash, card, bank_transfer, other.' },
      { path: 'paidAt', message: 'Must be a date such as 2026-11-21 or a UTC timestamp such as 2026-11-21T09:30:00Z.' },
    ]);
    expect(schemaErrors(CustomerInvoicePay, { amount: '1', method: 'cash', paidAt: '2026-11-21T09:30:00+02:00' })).toEqual([{ path: 'paidAt', message: 'Send paidAt in UTC (Z or +00:00).' }]);
    expect(schemaErrors(CustomerInvoiceVoid, {}).map((e) => e.path)).toEqual(['reason']);
  });
});

describe('checkLines', () => {
  it('accepts valid lines', () => {
    expect(checkLines([line({ discount: '1.00', tax: '0.90' }), line({ taxRate: '8.25', unitPrice: '0.125', quantity: '3' })], 'USD')).toEqual([]);
  });

  it('refuses zero quantities, negative money, too many decimals, big discounts, rates above 100 %', () => {
    expect(checkLines([line({ quantity: '0' }), line({ unitPrice: '-1' }), line({ discount: '0.001' }), line({ tax: '-0.10' }), line({ discount: '10.01' }), line({ taxRate: '101' })], 'USD')).toEqual([
      { path: 'lines[0].quantity', message: 'Must be greater than zero.' },
      { path: 'lines[1].unitPrice', message: 'Must be zero or more.' },
      { path: 'lines[2].discount', message: 'USD amounts have at most 2 decimals.' },
      { path: 'lines[3].tax', message: 'Must be zero or more.' },
      { path: 'lines[4].discount', message: 'The discount is more than quantity × unitPrice (10.00).' },
      { path: 'lines[5].taxRate', message: 'Must be a percentage from 0 to 100.' },
    ]);
    expect(checkLines([line({ tax: '1.5' })], 'JPY')).toEqual([{ path: 'lines[0].tax', message: 'JPY amounts have at most 0 decimals.' }]);
    expect(checkLines([line({ quantity: '999999999', unitPrice: '9999' })], 'USD')).toEqual([{ path: 'lines[0]', message: 'The line total is too large.' }]);
    expect(checkLines([line({ quantity: '600000', unitPrice: '999999' }), line({ quantity: '600000', unitPrice: '999999' })], 'USD')).toEqual([
      { path: 'lines', message: 'The invoice total is too large.' },
    ]);
  });
});

describe('invoiceLine and invoiceTotals', () => {
  it('rounds each line total half away from zero and sums exactly (USD)', () => {
    const lines = [
      invoiceLine(line({ quantity: '3', unitPrice: '0.125' }), 'USD'), // 0.375 → 0.38
      invoiceLine(line({ quantity: '1', unitPrice: '0.1' }), 'USD'),
      invoiceLine(line({ quantity: '2', unitPrice: '0.1', tax: '0.02' }), 'USD'),
    ];
    expect(lines[0]).toEqual({ description: 'Catering', itemId: null, quantity: '3', unitPrice: '0.125', discount: '0.00', taxRate: null, tax: '0.00', lineTotal: '0.38' });
    expect(invoiceTotals(lines, 'USD')).toEqual({ subtotal: '0.68', taxTotal: '0.02', total: '0.70' });
  });

  it('computes tax from a rate on the rounded line total', () => {
    const l = invoiceLine(line({ quantity: '1.5', unitPrice: '19.99', discount: '0.99', taxRate: '8.250', itemId: 'itm_1' }), 'USD');
    // 1.5 × 19.99 − 0.99 = 28.995 → 29.00; 8.25 % of 29.00 = 2.3925 → 2.39
    expect(l).toEqual({ description: 'Catering', itemId: 'itm_1', quantity: '1.5', unitPrice: '19.99', discount: '0.99', taxRate: '8.25', tax: '2.39', lineTotal: '29.00' });
    expect(invoiceTotals([l], 'USD')).toEqual({ subtotal: '29.00', taxTotal: '2.39', total: '31.39' });
  });

  it('has no minor units in JPY', () => {
    const lines = [invoiceLine(line({ quantity: '3', unitPrice: '333.5' }), 'JPY'), invoiceLine(line({ quantity: '1', unitPrice: '1000', taxRate: '10' }), 'JPY')];
    expect(lines.map((l) => [l.lineTotal, l.tax])).toEqual([['1001', '0'], ['1000', '100']]);
    expect(invoiceTotals(lines, 'JPY')).toEqual({ subtotal: '2001', taxTotal: '100', total: '2101' });
  });

  it('refuses a total of zero', () => {
    expect(checkTotal({ subtotal: '0.00', taxTotal: '0.00', total: '0.00' }, 'lines')).toEqual([{ path: 'lines', message: 'The invoice total is zero: there is nothing to invoice.' }]);
    expect(checkTotal({ subtotal: '0.00', taxTotal: '0.01', total: '0.01' }, 'lines')).toEqual([]);
  });
});

describe('linesFromOrder', () => {
  const orderLine = { itemExternalId: 'SKU-PEN', itemSku: null, itemBarcode: null, itemId: 'itm_pen', name: 'Pen', quantity: '3', unitPrice: '0.10', discount: '0.00', tax: '0.03', lineTotal: '0.30' };
  it('copies each line as totalled and adds shipping as a last line', () => {
    const lines = linesFromOrder([orderLine, { ...orderLine, name: null, itemId: null }], { method: 'standard', amount: '4.99', address: null }, 'USD');
    expect(lines).toEqual([
      { description: 'Pen', itemId: 'itm_pen', quantity: '3', unitPrice: '0.10', discount: '0.00', taxRate: null, tax: '0.03', lineTotal: '0.30' },
      { description: 'SKU-PEN', itemId: null, quantity: '3', unitPrice: '0.10', discount: '0.00', taxRate: null, tax: '0.03', lineTotal: '0.30' },
      { description: 'Shipping (standard)', itemId: null, quantity: '1', unitPrice: '4.99', discount: '0.00', taxRate: null, tax: '0.00', lineTotal: '4.99' },
    ]);
    expect(invoiceTotals(lines, 'USD')).toEqual({ subtotal: '5.59', taxTotal: '0.06', total: '5.65' });
  });
  it('leaves out free shipping', () => {
    expect(linesFromOrder([orderLine], { method: 'pickup', amount: '0.00', address: null }, 'USD')).toHaveLength(1);
    expect(linesFromOrder([orderLine], null, 'USD')).toHaveLength(1);
  });
});

describe('numbers and dates', () => {
  it('formats invoice numbers with six digits at least', () => {
    expect([invoiceNumber(1), invoiceNumber(42), invoiceNumber(1234567)]).toEqual(['INV-000001', 'INV-000042', 'INV-1234567']);
  });
  it('defaults the due date to the issue date (UTC) + 30 days, keeps a date sent', () => {
    expect(dueDateAt(new Date('2026-11-21T23:30:00Z'), null)).toBe('2026-12-21');
    expect(dueDateAt(new Date('2026-02-10T00:00:00Z'), null)).toBe('2026-03-12');
    expect(dueDateAt(new Date('2026-11-21T10:00:00Z'), '2026-11-30')).toBe('2026-11-30');
  });
  it('refuses a due date in the past', () => {
    const now = new Date('2026-11-21T10:00:00Z');
    expect(checkDueDate(undefined, now)).toEqual([]);
    expect(checkDueDate('2026-11-21', now)).toEqual([]);
    expect(checkDueDate('2026-11-20', now)).toEqual([{ path: 'dueDate', message: 'Must be today or later.' }]);
  });
  it('reads a payment date as 00:00 UTC and refuses future payments (14 hours of time-zone leeway)', () => {
    const now = new Date('2026-11-21T10:00:00Z');
    expect(paidAtInstant('2026-11-20').toISOString()).toBe('2026-11-20T00:00:00.000Z');
    expect(paidAtInstant('2026-11-20T08:15:00+00:00').toISOString()).toBe('2026-11-20T08:15:00.000Z');
    expect(checkPaidAt('2026-11-22', now)).toEqual([]);
    expect(checkPaidAt('2026-11-23', now)).toEqual([{ path: 'paidAt', message: 'Must not be in the future.' }]);
    expect(checkPaidAt('2026-11-22T00:00:00Z', now)).toEqual([]);
    expect(checkPaidAt('2026-11-22T00:00:01Z', now)).toEqual([{ path: 'paidAt', message: 'Must not be in the future.' }]);
  });
});

describe('state rules', () => {
  const all: InvoiceStatus[] = ['draft', 'issued', 'partially_paid', 'paid', 'void'];
  it(':issue only from draft', () => {
    expect(all.filter((s) => issueRefusal(s) === null)).toEqual(['draft']);
    expect(issueRefusal('void')).toMatch(/void, a final state/);
    expect(issueRefusal('paid')).toBe('The invoice is already issued (status paid).');
  });
  it(':pay only from issued or partially_paid', () => {
    expect(all.filter((s) => payRefusal(s) === null)).toEqual(['issued', 'partially_paid']);
    expect(payRefusal('draft')).toMatch(/issue it before/);
  });
  it(':void only a draft or an issued invoice with no payments', () => {
    expect(all.filter((s) => voidRefusal(s, 0) === null)).toEqual(['draft', 'issued']);
    expect(voidRefusal('issued', 1)).toMatch(/payments recorded/);
    expect(voidRefusal('void', 0)).toBe('The invoice is already void.');
  });
});

describe('payments', () => {
  it('checks the amount against the balance due, exactly', () => {
    expect(balanceDue('10.000000', '3.330000', 'USD')).toBe('6.67');
    expect(checkPaymentAmount('6.67', '6.67', 'USD')).toEqual([]);
    expect(checkPaymentAmount('6.68', '6.67', 'USD')).toEqual([{ path: 'amount', message: 'More than the balance due (6.67): overpayments are not recorded.' }]);
    expect(checkPaymentAmount('0', '6.67', 'USD')).toEqual([{ path: 'amount', message: 'Must be greater than zero.' }]);
    expect(checkPaymentAmount('-1', '6.67', 'USD')).toEqual([{ path: 'amount', message: 'Must be greater than zero.' }]);
    expect(checkPaymentAmount('1.001', '6.67', 'USD')).toEqual([{ path: 'amount', message: 'USD amounts have at most 2 decimals.' }]);
    expect(checkPaymentAmount('0.5', '100', 'JPY')).toEqual([{ path: 'amount', message: 'JPY amounts have at most 0 decimals.' }]);
  });
  it('moves to partially_paid, then paid when the balance is cleared (0.1 + 0.2 = 0.3 exactly)', () => {
    const first = afterPayment('0.30', '0', '0.1', 'USD');
    expect(first).toEqual({ amountPaid: '0.10', status: 'partially_paid', cleared: false });
    expect(afterPayment('0.30', first.amountPaid, '0.2', 'USD')).toEqual({ amountPaid: '0.30', status: 'paid', cleared: true });
  });
});

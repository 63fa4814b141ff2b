import Decimal from 'decimal.js';
import type { FieldError } from '@bop/shared';
import { formatMoney, formatQuantity, minorUnits, roundMoney } from '../transactions/money';
import type { OrderLine, OrderShipping } from '../orders/order-rules';

export type InvoiceStatus = 'draft' | 'issued' | 'partially_paid' | 'paid' | 'void';

/** supplement: Customer invoice states, `paid` and `void` are final (corrections go through new records). */
export const FINAL_STATUSES: ReadonlySet<InvoiceStatus> = new Set(['paid', 'void']);

/** An invoice line as stored and returned. */
export interface InvoiceLine {
  description: string;
  itemId: string | null;
  quantity: string;
  unitPrice: string;
  discount: string;
  taxRate: string | null;
  tax: string;
  lineTotal: string;
}

export interface InvoiceLineInput {
  description: string;
  itemId?: string;
  quantity: string;
  unitPrice: string;
  discount?: string;
  tax?: string;
  taxRate?: string;
}

export interface InvoiceTotals {
  subtotal: string;
  taxTotal: string;
  total: string;
}

/** When `dueDate` is not sent: the issue date + these days (no payment terms are kept per company or customer). */
export const DEFAULT_PAYMENT_DAYS = 30;

/** numeric(18,6): 12 integer digits. */
const MAX_AMOUNT = new Decimal('1e12');

const positive = (d: Decimal) => d.isPositive() && !d.isZero();
const negative = (d: Decimal) => d.isNegative() && !d.isZero();

/**
 * The rules of typed-in lines (already schema-valid): quantities above zero, no negative money,
 * discount and tax amounts in the currency's minor units, discount within the line, a tax rate of
 * 0 to 100 %, figures that fit the stored precision. unitPrice may carry more decimals.
 */
export function checkLines(lines: InvoiceLineInput[], currency: string): FieldError[] {
  const errors: FieldError[] = [];
  const minor = minorUnits(currency);
  const charged = (value: string | undefined, path: string) => {
    if (value === undefined) return;
    const d = new Decimal(value);
    if (negative(d)) errors.push({ path, message: 'Must be zero or more.' });
    else if (d.decimalPlaces() > minor) errors.push({ path, message: `${currency} amounts have at most ${minor} decimals.` });
  };
  let total = new Decimal(0);
  lines.forEach((line, i) => {
    const q = new Decimal(line.quantity);
    const price = new Decimal(line.unitPrice);
    if (!positive(q)) errors.push({ path: `lines[${i}].quantity`, message: 'Must be greater than zero.' });
    if (negative(price)) errors.push({ path: `lines[${i}].unitPrice`, message: 'Must be zero or more.' });
    charged(line.discount, `lines[${i}].discount`);
    charged(line.tax, `lines[${i}].tax`);
    if (line.taxRate !== undefined) {
      const rate = new Decimal(line.taxRate);
      if (negative(rate) || rate.greaterThan(100)) errors.push({ path: `lines[${i}].taxRate`, message: 'Must be a percentage from 0 to 100.' });
    }
    const gross = q.times(price);
    if (line.discount !== undefined && new Decimal(line.discount).greaterThan(gross)) {
      errors.push({ path: `lines[${i}].discount`, message: `The discount is more than quantity × unitPrice (${formatMoney(roundMoney(gross, currency), currency)}).` });
    }
    const lineTotal = gross.minus(line.discount ?? '0');
    if (lineTotal.abs().greaterThanOrEqualTo(MAX_AMOUNT)) errors.push({ path: `lines[${i}]`, message: 'The line total is too large.' });
    total = total.plus(lineTotal).plus(line.tax ?? '0').plus(line.taxRate === undefined ? 0 : lineTotal.times(line.taxRate).dividedBy(100));
  });
  if (errors.length === 0 && total.abs().greaterThanOrEqualTo(MAX_AMOUNT)) errors.push({ path: 'lines', message: 'The invoice total is too large.' });
  return errors;
}

/**
 * A checked line in canonical form: lineTotal = quantity × unitPrice − discount rounded to the
 * currency's minor units (half away from zero, as orders); tax = the amount sent, or lineTotal × taxRate / 100 rounded.
 */
export function invoiceLine(line: InvoiceLineInput, currency: string): InvoiceLine {
  const money = (d: Decimal.Value) => formatMoney(d, currency);
  const lineTotal = roundMoney(new Decimal(line.quantity).times(line.unitPrice).minus(line.discount ?? '0'), currency);
  const tax = line.taxRate === undefined ? new Decimal(line.tax ?? '0') : roundMoney(lineTotal.times(line.taxRate).dividedBy(100), currency);
  return {
    description: line.description,
    itemId: line.itemId ?? null,
    quantity: formatQuantity(line.quantity),
    unitPrice: money(line.unitPrice),
    discount: money(line.discount ?? '0'),
    taxRate: line.taxRate === undefined ? null : formatQuantity(line.taxRate),
    tax: money(tax),
    lineTotal: money(lineTotal),
  };
}

/**
 * The lines of an online order's invoice: each order line as it was totalled (same lineTotal and tax),
 * described by its name or item reference; shipping, when charged, as a last line without tax.
 */
export function linesFromOrder(lines: OrderLine[], shipping: OrderShipping | null, currency: string): InvoiceLine[] {
  const money = (v: string) => formatMoney(v, currency);
  const out: InvoiceLine[] = lines.map((l) => ({
    description: l.name ?? l.itemExternalId ?? l.itemSku ?? l.itemBarcode ?? 'Item',
    itemId: l.itemId,
    quantity: l.quantity,
    unitPrice: money(l.unitPrice),
    discount: money(l.discount),
    taxRate: null,
    tax: money(l.tax),
    lineTotal: money(l.lineTotal),
  }));
  if (shipping && !new Decimal(shipping.amount).isZero()) {
    const amount = money(shipping.amount);
    out.push({ description: `Shipping (${shipping.method})`, itemId: null, quantity: '1', unitPrice: amount, discount: money('0'), taxRate: null, tax: money('0'), lineTotal: amount });
  }
  return out;
}

/** subtotal = Σ line totals, taxTotal = Σ line tax, total = subtotal + taxTotal (exact: the parts are already rounded). */
export function invoiceTotals(lines: Array<Pick<InvoiceLine, 'lineTotal' | 'tax'>>, currency: string): InvoiceTotals {
  const subtotal = lines.reduce((s, l) => s.plus(l.lineTotal), new Decimal(0));
  const taxTotal = lines.reduce((s, l) => s.plus(l.tax), new Decimal(0));
  return { subtotal: formatMoney(subtotal, currency), taxTotal: formatMoney(taxTotal, currency), total: formatMoney(subtotal.plus(taxTotal), currency) };
}

/** `INV-000001`: six digits at least, more once past 999999. */
export function invoiceNumber(n: number): string {
  return `INV-${String(n).padStart(6, '0')}`;
}

/** The due date an `:issue` fixes: the one sent at creation, else the issue date (UTC) + 30 days. */
export function dueDateAt(issuedAt: Date, sent: string | null): string {
  if (sent !== null) return sent;
  const d = new Date(Date.UTC(issuedAt.getUTCFullYear(), issuedAt.getUTCMonth(), issuedAt.getUTCDate() + DEFAULT_PAYMENT_DAYS));
  return d.toISOString().slice(0, 10);
}

/** A dueDate sent at creation: not before today (UTC). */
export function checkDueDate(dueDate: string | undefined, now: Date): FieldError[] {
  if (dueDate === undefined || dueDate >= now.toISOString().slice(0, 10)) return [];
  return [{ path: 'dueDate', message: 'Must be today or later.' }];
}

/** Why `:issue` refuses an invoice, or null (supplement: `draft` → `issued`). */
export function issueRefusal(status: InvoiceStatus): string | null {
  if (status === 'draft') return null;
  if (status === 'void') return 'The invoice is void, a final state: it cannot be issued. Create a new invoice.';
  return `The invoice is already issued (status ${status}).`;
}

/** Why `:pay` refuses an invoice, or null (supplement: `issued` or `partially_paid` → `partially_paid` or `paid`). */
export function payRefusal(status: InvoiceStatus): string | null {
  if (status === 'issued' || status === 'partially_paid') return null;
  if (status === 'draft') return 'The invoice is a draft: issue it before recording payments.';
  if (status === 'paid') return 'The invoice is paid, a final state: its balance is zero.';
  return 'The invoice is void, a final state: it takes no payments.';
}

/** Why `:void` refuses an invoice, or null (supplement: `draft` or `issued` → `void` when no payments are recorded). */
export function voidRefusal(status: InvoiceStatus, payments: number): string | null {
  if (status === 'void') return 'The invoice is already void.';
  if (status === 'paid' || status === 'partially_paid' || payments > 0) {
    return `The invoice has payments recorded (status ${status}): it cannot be voided.`;
  }
  return null;
}

/** total − amountPaid */
export function balanceDue(total: Decimal.Value, amountPaid: Decimal.Value, currency: string): string {
  return formatMoney(new Decimal(total).minus(amountPaid), currency);
}

/** A payment's amount against the balance due: above zero, in minor units, not more than the balance (no overpayment). */
export function checkPaymentAmount(amount: string, balance: string, currency: string): FieldError[] {
  const d = new Decimal(amount);
  const minor = minorUnits(currency);
  if (!positive(d)) return [{ path: 'amount', message: 'Must be greater than zero.' }];
  if (d.decimalPlaces() > minor) return [{ path: 'amount', message: `${currency} amounts have at most ${minor} decimals.` }];
  if (d.greaterThan(balance)) return [{ path: 'amount', message: `More than the balance due (${formatMoney(balance, currency)}): overpayments are not recorded.` }];
  return [];
}

/** A date is read as 00:00 UTC; a timestamp as sent (the schema has checked it is UTC). */
export function paidAtInstant(paidAt: string): Date {
  return new Date(/^\d{4}-\d{2}-\d{2}$/.test(paidAt) ? `${paidAt}T00:00:00Z` : paidAt);
}

/** Time zones run up to 14 hours ahead of UTC: a payment dated "today" there is still accepted. */
const FUTURE_LEEWAY_MS = 14 * 3600 * 1000;

/** A payment is recorded once received: paidAt not in the future. */
export function checkPaidAt(paidAt: string, now: Date): FieldError[] {
  if (paidAtInstant(paidAt).getTime() <= now.getTime() + FUTURE_LEEWAY_MS) return [];
  return [{ path: 'paidAt', message: 'Must not be in the future.' }];
}

/** The state after a checked payment: `paid` when it clears the balance, else `partially_paid`. */
export function afterPayment(total: string, amountPaid: string, amount: string, currency: string): { amountPaid: string; status: InvoiceStatus; cleared: boolean } {
  const paid = new Decimal(amountPaid).plus(amount);
  const cleared = paid.greaterThanOrEqualTo(total);
  return { amountPaid: formatMoney(paid, currency), status: cleared ? 'paid' : 'partially_paid', cleared };
}

/** An invoice asks for money: a total of zero has nothing to collect and could never reach `paid`. */
export function checkTotal(totals: InvoiceTotals, path: string): FieldError[] {
  return new Decimal(totals.total).isZero() ? [{ path, message: 'The invoice total is zero: there is nothing to invoice.' }] : [];
}

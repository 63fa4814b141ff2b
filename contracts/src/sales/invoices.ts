import { z } from '../zod';
import { IdParam, ListQuery, listEnvelope, Timestamp } from '../common';
import { SalesCurrency, SalesDecimal } from './transactions';
import { SalesOrderAddress } from './orders';

/** supplement: Customer invoice states; `paid` and `void` are final. */
export const CustomerInvoiceStatus = z.enum(['draft', 'issued', 'partially_paid', 'paid', 'void']);
export const InvoicePaymentMethod = z.enum(['cash', 'card', 'bank_transfer', 'other'], { error: 'Must be one of cash, card, bank_transfer, other.' });

const text = (max: number) => z.string().trim().min(1).max(max);
const IsoDate = z.iso.date({ error: 'Must be a date such as 2026-12-31.' }).openapi({ example: '2026-12-31' });
const RecordId = z.string().min(1).max(64);

const Rfc3339 = z.iso.datetime({ offset: true });
const DateOnly = z.iso.date();

/** A payment's date (`2026-11-21`, read as 00:00 UTC) or instant in UTC (`Z` or `+00:00`). */
export const InvoicePaidAt = z
  .string()
  .superRefine((value, ctx) => {
    if (DateOnly.safeParse(value).success) return;
    if (!Rfc3339.safeParse(value).success) ctx.addIssue({ code: 'custom', message: 'Must be a date such as 2026-11-21 or a UTC timestamp such as 2026-11-21T09:30:00Z.' });
    else if (!/(Z|\+00:00)$/i.test(value)) ctx.addIssue({ code: 'custom', message: 'Send paidAt in UTC (Z or +00:00).' });
  })
  .openapi({ example: '2026-11-21' });

/**
 * A line typed in. Tax is charged on top of the line total: send either `tax` (the amount, in the
 * currency's minor units) or `taxRate` (a percentage of the line total, rounded half away from zero).
 */
export const CustomerInvoiceLineInput = z
  .strictObject({
    description: text(500).openapi({ example: 'Catering, 40 guests' }),
    /** an item of the catalogue (`itm_…`), optional */
    itemId: RecordId.optional(),
    /** greater than zero */
    quantity: SalesDecimal,
    /** price per unit before tax; more decimals than the currency's are fine (the line total is rounded) */
    unitPrice: SalesDecimal,
    /** amount off the line (not per unit); default 0 */
    discount: SalesDecimal.optional(),
    /** the line's tax amount; default 0 */
    tax: SalesDecimal.optional(),
    /** percent of the line total, 0 to 100, e.g. "8.25" */
    taxRate: SalesDecimal.optional(),
  })
  .superRefine((l, ctx) => {
    if (l.tax !== undefined && l.taxRate !== undefined) ctx.addIssue({ code: 'custom', path: ['taxRate'], message: 'Send tax or taxRate, not both.' });
  });

/**
 * Body of `POST /customer-invoices`: a draft either from an online order (`salesOrderId`: customer,
 * currency, lines and shipping are copied; `customerId` only when the order is linked to none) or
 * from lines (`customerId`, `currency`, `lines`). A draft cannot be edited: void it and create another.
 */
export const CustomerInvoiceCreate = z
  .strictObject({
    salesOrderId: RecordId.optional(),
    customerId: RecordId.optional(),
    currency: SalesCurrency.optional(),
    lines: z.array(CustomerInvoiceLineInput).min(1, 'An invoice has at least one line.').max(1000).optional(),
    /** default: the issue date + 30 days */
    dueDate: IsoDate.optional(),
    notes: text(2000).optional(),
    /** the customer's purchase-order number or any reference printed on the invoice */
    reference: text(200).optional(),
  })
  .superRefine((b, ctx) => {
    if (b.salesOrderId !== undefined) {
      if (b.currency !== undefined) ctx.addIssue({ code: 'custom', path: ['currency'], message: "The order's currency is used: leave currency out with salesOrderId." });
      if (b.lines !== undefined) ctx.addIssue({ code: 'custom', path: ['lines'], message: "The order's lines are used: leave lines out with salesOrderId." });
      return;
    }
    if (b.customerId === undefined) ctx.addIssue({ code: 'custom', path: ['customerId'], message: 'Send customerId (or salesOrderId to invoice an online order).' });
    if (b.currency === undefined) ctx.addIssue({ code: 'custom', path: ['currency'], message: 'Send currency (or salesOrderId to invoice an online order).' });
    if (b.lines === undefined) ctx.addIssue({ code: 'custom', path: ['lines'], message: 'Send lines (or salesOrderId to invoice an online order).' });
  })
  .openapi('CustomerInvoiceCreate');
export type CustomerInvoiceCreate = z.output<typeof CustomerInvoiceCreate>;

export const CustomerInvoicePay = z
  .strictObject({
    /** greater than zero, at most the balance due, in the currency's minor units */
    amount: SalesDecimal,
    method: InvoicePaymentMethod,
    paidAt: InvoicePaidAt,
    reference: text(200).optional(),
  })
  .openapi('CustomerInvoicePay');
export type CustomerInvoicePay = z.output<typeof CustomerInvoicePay>;

export const CustomerInvoiceVoid = z.strictObject({ reason: text(500) }).openapi('CustomerInvoiceVoid');

export const CustomerInvoiceIssue = z.strictObject({}).openapi('CustomerInvoiceIssue');

export const CustomerInvoiceLine = z.object({
  description: z.string(),
  itemId: z.string().nullable(),
  quantity: z.string(),
  unitPrice: z.string(),
  discount: z.string(),
  /** the percentage sent, null when the tax amount was sent */
  taxRate: z.string().nullable(),
  tax: z.string(),
  /** quantity × unitPrice − discount, rounded to the currency's minor units (before tax) */
  lineTotal: z.string(),
});

export const InvoicePayment = z.object({
  id: z.string().openapi({ example: 'cip_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
  amount: z.string(),
  method: InvoicePaymentMethod,
  /** a date sent is read as 00:00 UTC */
  paidAt: z.string(),
  reference: z.string().nullable(),
  recordedAt: z.string(),
});

export const CustomerInvoice = z
  .object({
    id: z.string().openapi({ example: 'cin_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
    /** `INV-000001`, gapless, assigned by `:issue`; kept by a voided invoice, never reused */
    number: z.string().nullable(),
    status: CustomerInvoiceStatus,
    customerId: z.string(),
    /** the online order invoiced, null for an invoice made from lines */
    salesOrderId: z.string().nullable(),
    currency: z.string(),
    lines: z.array(CustomerInvoiceLine),
    /** sum of the line totals */
    subtotal: z.string(),
    /** sum of the lines' tax */
    taxTotal: z.string(),
    /** subtotal + taxTotal */
    total: z.string(),
    amountPaid: z.string(),
    /** total − amountPaid */
    balanceDue: z.string(),
    payments: z.array(InvoicePayment),
    /** null on a draft without one until `:issue` sets the default */
    dueDate: z.string().nullable(),
    notes: z.string().nullable(),
    reference: z.string().nullable(),
    /** the customer as billed, fixed by `:issue` (null on a draft) */
    billTo: z.object({ name: z.string(), email: z.string().nullable(), taxId: z.string().nullable(), address: SalesOrderAddress.nullable() }).nullable(),
    issuedAt: z.string().nullable(),
    /**
     * where and when `:issue` sent the invoice: the customer's email (null when the customer has none).
     * Delivery itself is left to a webhook subscriber of `invoice.issued`.
     */
    sentTo: z.string().nullable(),
    sentAt: z.string().nullable(),
    /** when the balance reached zero */
    paidAt: z.string().nullable(),
    voidedAt: z.string().nullable(),
    voidReason: z.string().nullable(),
    version: z.number().int(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('CustomerInvoice');
export type CustomerInvoice = z.output<typeof CustomerInvoice>;

export const CustomerInvoiceListQuery = ListQuery.extend({
  status: CustomerInvoiceStatus.optional(),
  customerId: RecordId.optional(),
  /** outstanding invoices (issued or partially_paid) due before this date */
  dueBefore: IsoDate.optional(),
  updatedSince: Timestamp.optional(),
});

/** Customer invoices: GET/POST /customer-invoices, GET /customer-invoices/{id}, :issue, :pay, :void */
export const salesInvoiceOperations = {
  'GET /customer-invoices': { query: CustomerInvoiceListQuery, response: listEnvelope(CustomerInvoice) },
  'POST /customer-invoices': { body: CustomerInvoiceCreate, response: CustomerInvoice, status: 201 },
  'GET /customer-invoices/{id}': { params: IdParam, response: CustomerInvoice },
  'POST /customer-invoices/{id}:issue': { params: IdParam, body: CustomerInvoiceIssue, response: CustomerInvoice },
  'POST /customer-invoices/{id}:pay': { params: IdParam, body: CustomerInvoicePay, response: CustomerInvoice },
  'POST /customer-invoices/{id}:void': { params: IdParam, body: CustomerInvoiceVoid, response: CustomerInvoice },
};

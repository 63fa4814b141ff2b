import { z } from '../zod';
import { IdParam, ListQuery, Timestamp, listEnvelope } from '../common';
import { Amount, PackQuantity, RecordRef, SupplierItemCode, UnitPrice, text } from './common';

/**
 * Supplier invoices (supplement: Supplier invoice states): `POST /supplier-invoices` records and
 * matches at once — `matched` when every line agrees with the order and its receipts within the
 * company's tolerances (`GET /company-settings` → `invoiceMatchTolerances`), else `mismatched`
 * (`supplier_invoice.mismatch`); `matched` | `mismatched` | `disputed` → `:approve` → `approved`
 * (final; the differences accepted are recorded); `mismatched` → `:dispute` → `disputed`.
 *
 * Three-way match, per invoice line (matched to an order line by supplier code or item):
 * - quantity: the packs billed against what was received and not yet billed by another matched or
 *   approved invoice of the order (you pay for what arrived, once);
 * - price: the price per pack against the order line's;
 * - a line of an item not on the order (`not_ordered`), an order line received but not billed
 *   (`missing_line`), and the invoice's own arithmetic: Σ line tax = `taxTotal` (`tax`) and
 *   Σ line amounts + tax = `total` (`total`), to the cent;
 * - no order (none named, unknown, another supplier's, or not yet sent): `no_matching_order`.
 */
export const SupplierInvoiceStatus = z.enum(['matched', 'mismatched', 'approved', 'disputed']);
export type SupplierInvoiceStatus = z.output<typeof SupplierInvoiceStatus>;

export const SUPPLIER_INVOICE_MAX_LINES = 500;

export const SupplierInvoiceLineInput = z.strictObject({
  /** which order line it bills: the supplier's code or our item (at least one) */
  supplierItemCode: SupplierItemCode.optional(),
  itemId: RecordRef.optional(),
  description: text(300).nullable().optional(),
  /** packs billed */
  quantity: PackQuantity,
  /** price per pack billed */
  unitPrice: UnitPrice,
  /** tax on this line (default 0) */
  taxAmount: Amount.optional(),
});

/** Body of `POST /supplier-invoices`: the invoice number is unique per supplier. */
export const SupplierInvoiceCreate = z
  .strictObject({
    supplierId: RecordRef.openapi({ example: 'sup_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
    invoiceNumber: text(100).openapi({ example: 'INV-2026-118842' }),
    invoiceDate: z.iso.date(),
    dueDate: z.iso.date().nullable().optional(),
    /** the order billed: our id or its number (PO-000042) as printed on the invoice */
    purchaseOrderId: RecordRef.nullable().optional(),
    purchaseOrderNumber: text(40).nullable().optional(),
    lines: z
      .array(SupplierInvoiceLineInput)
      .min(1, { error: 'An invoice has at least one line.' })
      .max(SUPPLIER_INVOICE_MAX_LINES, { error: `At most ${SUPPLIER_INVOICE_MAX_LINES} lines per invoice.` }),
    /** the tax total printed (absent: Σ line tax) */
    taxTotal: Amount.optional(),
    /** the total printed on the invoice, tax included */
    total: Amount,
    note: text(2000).nullable().optional(),
  })
  .openapi('SupplierInvoiceCreate');
export type SupplierInvoiceCreate = z.output<typeof SupplierInvoiceCreate>;

export const MatchDifferenceKind = z.enum(['quantity', 'price', 'not_ordered', 'missing_line', 'tax', 'total', 'no_matching_order']);
export type MatchDifferenceKind = z.output<typeof MatchDifferenceKind>;

/** One difference found by matching; `tolerated` ones leave the invoice matched. */
export const MatchDifference = z
  .object({
    kind: MatchDifferenceKind,
    /** what the order and receipts lead us to expect (null when nothing is) */
    expected: z.string().nullable(),
    /** what the invoice says (null when it says nothing: a missing line) */
    invoiced: z.string().nullable(),
    /** invoiced − expected (null when either is null) */
    difference: z.string().nullable(),
    tolerated: z.boolean(),
    message: z.string(),
  })
  .openapi('MatchDifference');
export type MatchDifference = z.output<typeof MatchDifference>;

export const SupplierInvoiceLine = z
  .object({
    supplierItemCode: z.string().nullable(),
    itemId: z.string().nullable(),
    description: z.string().nullable(),
    quantity: z.string(),
    unitPrice: z.string(),
    /** quantity × unitPrice, to the cent */
    amount: z.string(),
    taxAmount: z.string(),
    /** the order line it was matched to, or null */
    purchaseOrderLineId: z.string().nullable(),
    /** packs ordered, received, and billed before by other matched or approved invoices (null without an order line) */
    orderedQuantity: z.string().nullable(),
    receivedQuantity: z.string().nullable(),
    previouslyInvoicedQuantity: z.string().nullable(),
    orderUnitPrice: z.string().nullable(),
    result: z.enum(['matched', 'mismatched']),
    differences: z.array(MatchDifference),
  })
  .openapi('SupplierInvoiceLine');
export type SupplierInvoiceLine = z.output<typeof SupplierInvoiceLine>;

const Actor = z.object({ type: z.string(), id: z.string().nullable() });

export const SupplierInvoice = z
  .object({
    id: z.string().openapi({ example: 'sin_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
    supplierId: z.string(),
    invoiceNumber: z.string(),
    invoiceDate: z.string(),
    dueDate: z.string().nullable(),
    /** the order it was matched to (null: no matching order) */
    purchaseOrderId: z.string().nullable(),
    /** the location of that order */
    locationId: z.string().nullable(),
    status: SupplierInvoiceStatus,
    lines: z.array(SupplierInvoiceLine),
    /** Σ line amounts */
    subtotal: z.string(),
    taxTotal: z.string(),
    /** as printed */
    total: z.string(),
    /** invoice-level differences: no matching order, missing lines, tax and total arithmetic */
    differences: z.array(MatchDifference),
    /** the tolerances applied (the company's at recording) */
    tolerances: z.object({
      quantityAbsolute: z.string().nullable(),
      quantityPercent: z.string().nullable(),
      priceAbsolute: z.string().nullable(),
      pricePercent: z.string().nullable(),
    }),
    note: z.string().nullable(),
    approvedAt: z.string().nullable(),
    approvedBy: Actor.nullable(),
    approvalNote: z.string().nullable(),
    /** the differences accepted at approval (those not tolerated), as they were */
    acceptedDifferences: z.array(MatchDifference.extend({ line: z.number().int().nullable() })),
    disputedAt: z.string().nullable(),
    disputeReason: z.string().nullable(),
    version: z.number().int(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('SupplierInvoice');
export type SupplierInvoice = z.output<typeof SupplierInvoice>;

export const SupplierInvoiceListQuery = ListQuery.extend({
  status: SupplierInvoiceStatus.optional(),
  supplierId: RecordRef.optional(),
  purchaseOrderId: RecordRef.optional(),
  locationId: RecordRef.optional(),
  updatedSince: Timestamp.optional(),
});

export const SupplierInvoiceApprove = z.strictObject({ note: text(2000).nullable().optional() }).openapi('SupplierInvoiceApprove');
export const SupplierInvoiceDispute = z.strictObject({ reason: text(2000) }).openapi('SupplierInvoiceDispute');

export const purchasingInvoicesOperations = {
  'GET /supplier-invoices': { query: SupplierInvoiceListQuery, response: listEnvelope(SupplierInvoice) },
  'POST /supplier-invoices': { body: SupplierInvoiceCreate, response: SupplierInvoice, status: 201 },
  'GET /supplier-invoices/{id}': { params: IdParam, response: SupplierInvoice },
  'POST /supplier-invoices/{id}:approve': { params: IdParam, body: SupplierInvoiceApprove, response: SupplierInvoice },
  'POST /supplier-invoices/{id}:dispute': { params: IdParam, body: SupplierInvoiceDispute, response: SupplierInvoice },
};

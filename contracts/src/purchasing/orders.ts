import { z } from '../zod';
import { IdParam, ListQuery, Timestamp, listEnvelope } from '../common';
import { NonNegativePackQuantity, PackQuantity, RecordRef, SupplierItemCode, UnitPrice, text } from './common';

/**
 * Purchase orders (supplement: Purchase order states): (none) → `draft`; `draft` → `:approve` →
 * `approved`; `draft` → `:send` → `sent` only when the total is within the company's purchase-order
 * approval threshold (else 409), `approved` → `:send` → `sent`; `sent` | `partially_received` →
 * `:receive` → `partially_received` while something is outstanding, `received` (final) when all
 * arrived or the receipt says `final`; `draft` | `approved` | `sent` → `:cancel` → `cancelled`
 * (final) while nothing was received. Quantities are packs of the supplier's catalog line.
 */
export const PurchaseOrderStatus = z.enum(['draft', 'approved', 'sent', 'partially_received', 'received', 'cancelled']);
export type PurchaseOrderStatus = z.output<typeof PurchaseOrderStatus>;

export const PURCHASE_ORDER_MAX_LINES = 500;

/** A line names the catalog line by `supplierItemCode` or `itemId` (both: they must agree). */
export const PurchaseOrderLineInput = z.strictObject({
  supplierItemCode: SupplierItemCode.optional(),
  itemId: RecordRef.optional(),
  /** packs */
  quantity: PackQuantity,
  /** price per pack agreed for this order (absent: the catalog's) */
  unitPrice: UnitPrice.optional(),
});

/** Body of `POST /purchase-orders`: each catalog line once. */
export const PurchaseOrderCreate = z
  .strictObject({
    supplierId: RecordRef.openapi({ example: 'sup_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
    locationId: RecordRef.openapi({ example: 'loc_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
    expectedDeliveryDate: z.iso.date().nullable().optional(),
    note: text(2000).nullable().optional(),
    lines: z
      .array(PurchaseOrderLineInput)
      .min(1, { error: 'Order at least one line.' })
      .max(PURCHASE_ORDER_MAX_LINES, { error: `At most ${PURCHASE_ORDER_MAX_LINES} lines per order.` }),
  })
  .openapi('PurchaseOrderCreate');
export type PurchaseOrderCreate = z.output<typeof PurchaseOrderCreate>;

/** Body of `:approve` (optional): the approver's note. */
export const PurchaseOrderApprove = z.strictObject({ note: text(2000).nullable().optional() }).openapi('PurchaseOrderApprove');
/** Body of `:send`: none (an empty object may be sent). */
export const PurchaseOrderSend = z.strictObject({}).openapi('PurchaseOrderSend');
/** Body of `:cancel` (optional). */
export const PurchaseOrderCancel = z.strictObject({ reason: text(2000).nullable().optional() }).openapi('PurchaseOrderCancel');

/** One line of a delivery: what arrived of an order line, in packs, and the price actually charged. */
export const ReceiptLineInput = z.strictObject({
  /** the order line (`lines[].id`), or its supplier code or item */
  lineId: RecordRef.optional(),
  supplierItemCode: SupplierItemCode.optional(),
  itemId: RecordRef.optional(),
  /** packs that arrived (0: nothing of it) */
  quantity: NonNegativePackQuantity,
  /** actual price per pack (absent: the order's) */
  unitPrice: UnitPrice.optional(),
});

/**
 * Body of `POST /purchase-orders/{id}:receive`: the lines that arrived (each order line at most once);
 * `final` closes the order even if something is outstanding (the rest will not come). At least one
 * line with a quantity, unless `final`.
 */
export const PurchaseOrderReceive = z
  .strictObject({
    receivedAt: Timestamp.optional(),
    /** the delivery note number or a remark */
    note: text(2000).nullable().optional(),
    final: z.boolean().optional(),
    lines: z.array(ReceiptLineInput).max(PURCHASE_ORDER_MAX_LINES).optional(),
  })
  .openapi('PurchaseOrderReceive');
export type PurchaseOrderReceive = z.output<typeof PurchaseOrderReceive>;

export const PurchaseOrderLine = z
  .object({
    id: z.string().openapi({ example: 'pol_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
    supplierItemCode: z.string(),
    itemId: z.string(),
    description: z.string().nullable(),
    packSize: z.string(),
    unitId: z.string().nullable(),
    baseQuantityPerPack: z.string(),
    /** packs ordered */
    quantity: z.string(),
    /** price per pack */
    unitPrice: z.string(),
    /** quantity × unitPrice, to the cent */
    amount: z.string(),
    /** packs received so far */
    receivedQuantity: z.string(),
    /** quantity − received, never below zero */
    outstandingQuantity: z.string(),
    /** what the receipts cost (Σ received × actual price), to the cent */
    receivedAmount: z.string(),
  })
  .openapi('PurchaseOrderLine');
export type PurchaseOrderLine = z.output<typeof PurchaseOrderLine>;

export const ReceiptLine = z.object({
  lineId: z.string(),
  itemId: z.string(),
  /** packs */
  quantity: z.string(),
  /** actual price per pack */
  unitPrice: z.string(),
  amount: z.string(),
  /** base units booked into stock */
  baseQuantity: z.string(),
  /** actual price per base unit (six decimals), the cost of the receipt movement */
  unitCost: z.string(),
});

export const PurchaseOrderReceipt = z
  .object({
    id: z.string().openapi({ example: 'prc_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
    receivedAt: z.string(),
    note: z.string().nullable(),
    final: z.boolean(),
    lines: z.array(ReceiptLine),
    actor: z.object({ type: z.string(), id: z.string().nullable() }),
  })
  .openapi('PurchaseOrderReceipt');
export type PurchaseOrderReceipt = z.output<typeof PurchaseOrderReceipt>;

const Actor = z.object({ type: z.string(), id: z.string().nullable() });

export const PurchaseOrder = z
  .object({
    id: z.string().openapi({ example: 'po_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
    /** the order number the supplier sees (PO-000042), unique */
    number: z.string(),
    supplierId: z.string(),
    locationId: z.string(),
    status: PurchaseOrderStatus,
    expectedDeliveryDate: z.string().nullable(),
    note: z.string().nullable(),
    lines: z.array(PurchaseOrderLine),
    /** Σ line amounts */
    total: z.string(),
    receipts: z.array(PurchaseOrderReceipt),
    createdBy: Actor,
    approvedAt: z.string().nullable(),
    approvedBy: Actor.nullable(),
    approvalNote: z.string().nullable(),
    sentAt: z.string().nullable(),
    receivedAt: z.string().nullable(),
    cancelledAt: z.string().nullable(),
    cancelReason: z.string().nullable(),
    version: z.number().int(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('PurchaseOrder');
export type PurchaseOrder = z.output<typeof PurchaseOrder>;

export const PurchaseOrderListQuery = ListQuery.extend({
  status: PurchaseOrderStatus.optional(),
  supplierId: RecordRef.optional(),
  locationId: RecordRef.optional(),
  number: z.string().min(1).max(40).optional(),
  updatedSince: Timestamp.optional(),
});

export const purchasingOrdersOperations = {
  'GET /purchase-orders': { query: PurchaseOrderListQuery, response: listEnvelope(PurchaseOrder) },
  'POST /purchase-orders': { body: PurchaseOrderCreate, response: PurchaseOrder, status: 201 },
  'GET /purchase-orders/{id}': { params: IdParam, response: PurchaseOrder },
  'POST /purchase-orders/{id}:approve': { params: IdParam, body: PurchaseOrderApprove, response: PurchaseOrder },
  'POST /purchase-orders/{id}:send': { params: IdParam, body: PurchaseOrderSend, response: PurchaseOrder },
  'POST /purchase-orders/{id}:receive': { params: IdParam, body: PurchaseOrderReceive, response: PurchaseOrder },
  'POST /purchase-orders/{id}:cancel': { params: IdParam, body: PurchaseOrderCancel, response: PurchaseOrder },
};

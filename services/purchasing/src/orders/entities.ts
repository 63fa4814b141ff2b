import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { PurchaseOrderLine, PurchaseOrderReceipt } from '@bop/contracts';

type ActorRef = { type: string; id: string | null };

/** An order line as stored (outstanding is derived). */
export type StoredOrderLine = Omit<PurchaseOrderLine, 'outstandingQuantity'>;

/** A purchase order with its lines and receipts (supplement: Purchase order states). */
export const PurchaseOrderEntity = defineEntity({
  name: 'PurchaseOrderEntity',
  tableName: 'purchase_orders',
  properties: {
    id: p.string().primary(),
    number: p.string(),
    supplierId: p.string(),
    locationId: p.string(),
    status: p.string(),
    expectedDeliveryDate: p.string().columnType('date').nullable(),
    note: p.string().nullable(),
    lines: p.json<StoredOrderLine[]>(),
    total: p.decimal('string'),
    receipts: p.json<PurchaseOrderReceipt[]>(),
    createdBy: p.json<ActorRef>(),
    approvedAt: p.datetime().nullable(),
    approvedBy: p.json<ActorRef>().nullable(),
    approvalNote: p.string().nullable(),
    sentAt: p.datetime().nullable(),
    receivedAt: p.datetime().nullable(),
    cancelledAt: p.datetime().nullable(),
    cancelReason: p.string().nullable(),
    version: p.integer(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type PurchaseOrderEntity = InferEntity<typeof PurchaseOrderEntity>;

export const ordersEntities = [PurchaseOrderEntity] as const;

import Decimal from 'decimal.js';
import type { PurchaseOrder, PurchaseOrderStatus } from '@bop/contracts';
import { fmtAmount, fmtQuantity } from '@bop/shared';
import type { PurchaseOrderEntity } from './entities';

/** The purchase order as the API returns it (and `data.object` of its events). */
export function purchaseOrderDto(o: PurchaseOrderEntity): PurchaseOrder {
  return {
    id: o.id,
    number: o.number,
    supplierId: o.supplierId,
    locationId: o.locationId,
    status: o.status as PurchaseOrderStatus,
    expectedDeliveryDate: o.expectedDeliveryDate ?? null,
    note: o.note ?? null,
    lines: o.lines.map((l) => ({ ...l, outstandingQuantity: fmtQuantity(Decimal.max(0, new Decimal(l.quantity).minus(l.receivedQuantity))) })),
    total: fmtAmount(o.total),
    receipts: o.receipts,
    createdBy: o.createdBy,
    approvedAt: o.approvedAt ? o.approvedAt.toISOString() : null,
    approvedBy: o.approvedBy ?? null,
    approvalNote: o.approvalNote ?? null,
    sentAt: o.sentAt ? o.sentAt.toISOString() : null,
    receivedAt: o.receivedAt ? o.receivedAt.toISOString() : null,
    cancelledAt: o.cancelledAt ? o.cancelledAt.toISOString() : null,
    cancelReason: o.cancelReason ?? null,
    version: o.version,
    createdAt: o.createdAt.toISOString(),
    updatedAt: o.updatedAt.toISOString(),
  };
}

import type { SupplierInvoice, SupplierInvoiceStatus } from '@bop/contracts';
import { fmtAmount } from '@bop/shared';
import type { SupplierInvoiceEntity } from './entities';

/** The supplier invoice as the API returns it (and `data.object` of `supplier_invoice.mismatch`). */
export function supplierInvoiceDto(i: SupplierInvoiceEntity): SupplierInvoice {
  return {
    id: i.id,
    supplierId: i.supplierId,
    invoiceNumber: i.invoiceNumber,
    invoiceDate: i.invoiceDate,
    dueDate: i.dueDate ?? null,
    purchaseOrderId: i.purchaseOrderId ?? null,
    locationId: i.locationId ?? null,
    status: i.status as SupplierInvoiceStatus,
    lines: i.lines,
    subtotal: fmtAmount(i.subtotal),
    taxTotal: fmtAmount(i.taxTotal),
    total: fmtAmount(i.total),
    differences: i.differences,
    tolerances: i.tolerances,
    note: i.note ?? null,
    approvedAt: i.approvedAt ? i.approvedAt.toISOString() : null,
    approvedBy: i.approvedBy ?? null,
    approvalNote: i.approvalNote ?? null,
    acceptedDifferences: i.acceptedDifferences,
    disputedAt: i.disputedAt ? i.disputedAt.toISOString() : null,
    disputeReason: i.disputeReason ?? null,
    version: i.version,
    createdAt: i.createdAt.toISOString(),
    updatedAt: i.updatedAt.toISOString(),
  };
}

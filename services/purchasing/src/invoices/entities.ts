import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { MatchDifference, SupplierInvoice, SupplierInvoiceLine } from '@bop/contracts';

type ActorRef = { type: string; id: string | null };

/** A supplier invoice with its match results (supplement: Supplier invoice states). */
export const SupplierInvoiceEntity = defineEntity({
  name: 'SupplierInvoiceEntity',
  tableName: 'supplier_invoices',
  properties: {
    id: p.string().primary(),
    supplierId: p.string(),
    invoiceNumber: p.string(),
    invoiceDate: p.string().columnType('date'),
    dueDate: p.string().columnType('date').nullable(),
    purchaseOrderId: p.string().nullable(),
    locationId: p.string().nullable(),
    status: p.string(),
    lines: p.json<SupplierInvoiceLine[]>(),
    subtotal: p.decimal('string'),
    taxTotal: p.decimal('string'),
    total: p.decimal('string'),
    differences: p.json<MatchDifference[]>(),
    tolerances: p.json<SupplierInvoice['tolerances']>(),
    note: p.string().nullable(),
    approvedAt: p.datetime().nullable(),
    approvedBy: p.json<ActorRef>().nullable(),
    approvalNote: p.string().nullable(),
    acceptedDifferences: p.json<SupplierInvoice['acceptedDifferences']>(),
    disputedAt: p.datetime().nullable(),
    disputeReason: p.string().nullable(),
    version: p.integer(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
    actor: p.json<ActorRef>(),
  },
});
export type SupplierInvoiceEntity = InferEntity<typeof SupplierInvoiceEntity>;

export const invoicesEntities = [SupplierInvoiceEntity] as const;

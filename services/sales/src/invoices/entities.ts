import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { CustomerAddress } from '../customers/customer-fields';
import type { InvoiceLine } from './invoice-rules';

/** The customer as billed, fixed when the invoice is issued. */
export interface BillTo {
  name: string;
  email: string | null;
  taxId: string | null;
  address: CustomerAddress | null;
}

/** A customer invoice (supplement: /customer-invoices); lines and totals fixed at creation, number at :issue. */
export const CustomerInvoice = defineEntity({
  name: 'CustomerInvoice',
  tableName: 'invoices',
  properties: {
    id: p.string().primary(),
    number: p.string().nullable(),
    status: p.string(),
    customerId: p.string(),
    salesOrderId: p.string().nullable(),
    /** the order's coreHash when the draft was made: :issue refuses a draft whose order has changed since */
    salesOrderCoreHash: p.string().nullable(),
    currency: p.string(),
    lines: p.json<InvoiceLine[]>(),
    subtotal: p.decimal(),
    taxTotal: p.decimal(),
    total: p.decimal(),
    amountPaid: p.decimal(),
    /** ISO date */
    dueDate: p.date().nullable(),
    notes: p.string().nullable(),
    reference: p.string().nullable(),
    billTo: p.json<BillTo>().nullable(),
    issuedAt: p.datetime().nullable(),
    sentTo: p.string().nullable(),
    sentAt: p.datetime().nullable(),
    paidAt: p.datetime().nullable(),
    voidedAt: p.datetime().nullable(),
    voidReason: p.string().nullable(),
    version: p.integer(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type CustomerInvoice = InferEntity<typeof CustomerInvoice>;

/** A payment recorded against an issued invoice (never changed nor removed). */
export const InvoicePayment = defineEntity({
  name: 'InvoicePayment',
  tableName: 'invoice_payments',
  properties: {
    id: p.string().primary(),
    invoiceId: p.string(),
    amount: p.decimal(),
    method: p.string(),
    paidAt: p.datetime(),
    reference: p.string().nullable(),
    recordedAt: p.datetime(),
  },
});
export type InvoicePayment = InferEntity<typeof InvoicePayment>;

/** The counter of an invoice-number series (`INV`): the last number issued (gapless; the row is locked while a number is taken). */
export const InvoiceNumberCounter = defineEntity({
  name: 'InvoiceNumberCounter',
  tableName: 'invoice_numbers',
  properties: {
    series: p.string().primary(),
    lastNumber: p.integer(),
  },
});
export type InvoiceNumberCounter = InferEntity<typeof InvoiceNumberCounter>;

// invoices: entities of this area, added to the service's list in ../index.ts
export const invoicesEntities = [CustomerInvoice, InvoicePayment, InvoiceNumberCounter] as const;

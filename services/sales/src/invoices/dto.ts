import type { CustomerInvoice as CustomerInvoiceDto } from '@bop/contracts';
import { formatMoney } from '../transactions/money';
import { address } from '../customers/customer-fields';
import { balanceDue } from './invoice-rules';
import type { CustomerInvoice, InvoicePayment } from './entities';

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

/** The invoice record with its payments (API and `data.object` of its events). */
export function invoiceDto(i: CustomerInvoice, payments: InvoicePayment[]): CustomerInvoiceDto {
  // numeric(18,6) reads back as "12.500000"
  const money = (v: string) => formatMoney(v, i.currency);
  return {
    id: i.id,
    number: i.number ?? null,
    status: i.status as CustomerInvoiceDto['status'],
    customerId: i.customerId,
    salesOrderId: i.salesOrderId ?? null,
    currency: i.currency,
    lines: i.lines.map((l) => ({ description: l.description, itemId: l.itemId, quantity: l.quantity, unitPrice: l.unitPrice, discount: l.discount, taxRate: l.taxRate, tax: l.tax, lineTotal: l.lineTotal })),
    subtotal: money(i.subtotal),
    taxTotal: money(i.taxTotal),
    total: money(i.total),
    amountPaid: money(i.amountPaid),
    balanceDue: i.status === 'void' ? money('0') : balanceDue(i.total, i.amountPaid, i.currency),
    payments: payments.map((p) => ({
      id: p.id,
      amount: money(p.amount),
      method: p.method as CustomerInvoiceDto['payments'][number]['method'],
      paidAt: p.paidAt.toISOString(),
      reference: p.reference ?? null,
      recordedAt: p.recordedAt.toISOString(),
    })),
    dueDate: i.dueDate ?? null,
    notes: i.notes ?? null,
    reference: i.reference ?? null,
    billTo: i.billTo ? { name: i.billTo.name, email: i.billTo.email, taxId: i.billTo.taxId, address: address(i.billTo.address) } : null,
    issuedAt: iso(i.issuedAt),
    sentTo: i.sentTo ?? null,
    sentAt: iso(i.sentAt),
    paidAt: iso(i.paidAt),
    voidedAt: iso(i.voidedAt),
    voidReason: i.voidReason ?? null,
    version: i.version,
    createdAt: i.createdAt.toISOString(),
    updatedAt: i.updatedAt.toISOString(),
  };
}

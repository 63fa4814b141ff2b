import Decimal from 'decimal.js';
import { lockForTransaction, type Work } from '@bop/shared';
import { purchasingService } from '@svc/purchasing';
import { PurchasingSupplier } from '@svc/purchasing/dist/suppliers/entities';
import { PurchaseOrderEntity } from '@svc/purchasing/dist/orders/entities';
import { SupplierInvoiceEntity } from '@svc/purchasing/dist/invoices/entities';
import { billedBefore } from '@svc/purchasing/dist/invoices/store';
import { nextOrderNumber } from '@svc/purchasing/dist/orders/store';
import type { SqlCase } from './case';

/**
 * A year of purchasing at 200 locations: 300 suppliers (100 archived), 20,000 purchase orders of 12
 * lines (two a week a location, from 50 suppliers: 400 each) and an invoice for each; the busiest
 * order (30 lines) is billed in three invoices, two matched and one mismatched.
 */
const SUPPLIERS = 300;
const ACTIVE = 200;
const ORDERS = 20_000;
const ORDERING = 50;
const LINES = 12;
const sup = (i: number) => `sup_bench${String(i).padStart(4, '0')}`;
const po = (i: number) => `po_bench${String(i).padStart(6, '0')}`;
const pol = (o: number, l: number) => `pol_bench${String(o).padStart(6, '0')}_${l}`;
const BUSY = 12_345;
const actor = { type: 'user', id: 'usr_bench' };
const tolerances = { quantityAbsolute: '0', quantityPercent: null, priceAbsolute: '0.05', pricePercent: null, totalAbsolute: '1.00' } as never;

function orderLines(o: number, n: number) {
  return Array.from({ length: n }, (_, l) => ({
    id: pol(o, l),
    supplierItemCode: `SKU-${l}`,
    itemId: `itm_bench${String(l).padStart(4, '0')}`,
    description: `Item ${l}`,
    packSize: 'case of 12',
    unitId: null,
    baseQuantityPerPack: '12',
    quantity: '10.000',
    unitPrice: '18.5000',
    amount: '185.00',
    receivedQuantity: '10.000',
    receivedAmount: '185.00',
  }));
}

function invoiceLines(o: number, n: number, quantity: string) {
  return Array.from({ length: n }, (_, l) => ({
    supplierItemCode: `SKU-${l}`,
    itemId: `itm_bench${String(l).padStart(4, '0')}`,
    description: `Item ${l}`,
    quantity,
    unitPrice: '18.5000',
    amount: new Decimal(quantity).times('18.5').toFixed(2),
    taxAmount: '0.00',
    purchaseOrderLineId: pol(o, l),
    orderedQuantity: '10.000',
    receivedQuantity: '10.000',
    previouslyInvoicedQuantity: '0',
    orderUnitPrice: '18.5000',
    result: 'matched' as const,
    differences: [],
  }));
}

let seeding: Promise<void> | null = null;

async function seedAll(write: <T>(fn: (w: Work) => Promise<T>) => Promise<T>): Promise<void> {
  await write((w) =>
    w.em.insertMany(
      PurchasingSupplier,
      Array.from({ length: SUPPLIERS }, (_, i) => ({
        id: sup(i),
        externalId: `ext-${i}`,
        name: `Supplier ${i} Foods`,
        accountNumber: null,
        email: null,
        phone: null,
        locationIds: [],
        defaultLeadTimeDays: 2,
        note: null,
        status: i < ACTIVE ? 'active' : 'archived',
        archivedAt: i < ACTIVE ? null : w.now,
        version: 1,
        createdAt: w.now,
        updatedAt: w.now,
        actor,
      })),
    ),
  );
  for (let from = 0; from < ORDERS; from += 1_000) {
    await write(async (w) => {
      const ids = Array.from({ length: 1_000 }, (_, k) => from + k);
      await w.em.insertMany(
        PurchaseOrderEntity,
        ids.map((o) => ({
          id: po(o),
          number: `PO-${String(o + 1).padStart(6, '0')}`,
          supplierId: sup(o % ORDERING),
          locationId: `loc_bench${String(o % 200).padStart(4, '0')}`,
          status: 'received',
          expectedDeliveryDate: null,
          note: null,
          lines: orderLines(o, o === BUSY ? 30 : LINES),
          total: o === BUSY ? '5550.00' : '2220.00',
          receipts: [],
          createdBy: actor,
          approvedAt: null,
          approvedBy: null,
          approvalNote: null,
          sentAt: w.now,
          receivedAt: w.now,
          cancelledAt: null,
          cancelReason: null,
          version: 3,
          createdAt: w.now,
          updatedAt: w.now,
        })),
      );
      const invoice = (o: number, k: number, status: string, lines: ReturnType<typeof invoiceLines>) => ({
        id: `inv_bench${String(o).padStart(6, '0')}_${k}`,
        supplierId: sup(o % ORDERING),
        invoiceNumber: `INV-${o}-${k}`,
        invoiceDate: '2026-11-20',
        dueDate: null,
        purchaseOrderId: po(o),
        locationId: `loc_bench${String(o % 200).padStart(4, '0')}`,
        status,
        lines,
        subtotal: lines.reduce((s, l) => s.plus(l.amount), new Decimal(0)).toFixed(2),
        taxTotal: '0.00',
        total: lines.reduce((s, l) => s.plus(l.amount), new Decimal(0)).toFixed(2),
        differences: [],
        tolerances,
        note: null,
        approvedAt: null,
        approvedBy: null,
        approvalNote: null,
        acceptedDifferences: [],
        disputedAt: null,
        disputeReason: null,
        version: 1,
        createdAt: w.now,
        updatedAt: w.now,
        actor,
      });
      await w.em.insertMany(
        SupplierInvoiceEntity,
        ids.flatMap((o) =>
          o === BUSY
            ? [invoice(o, 1, 'matched', invoiceLines(o, 30, '4.000')), invoice(o, 2, 'approved', invoiceLines(o, 30, '3.500')), invoice(o, 3, 'mismatched', invoiceLines(o, 30, '9.000'))]
            : [invoice(o, 1, o % 3 ? 'approved' : 'matched', invoiceLines(o, LINES, '10.000'))],
        ),
      );
    });
  }
  // the sequence stands where 20,000 orders left it
  await write((w) => w.em.getConnection().execute(`select setval('"${w.schema}"."purchase_order_number_seq"', ${ORDERS})`));
}

const seed: SqlCase['seed'] = (write) => (seeding ??= seedAll(write));

const entries = (m: Map<string, Decimal>) => [...m].map(([k, v]) => [k, v.toFixed()] as const).sort(([a], [b]) => a.localeCompare(b));

export const purchasingCases: SqlCase[] = [
  {
    name: 'purchasing.billed-before',
    what: 'packs of each order line billed by the order\'s matched and approved invoices (3 invoices of 30 lines)',
    service: purchasingService,
    seed,
    raw: async (w) => entries(await billedBefore(w, po(BUSY))),
    async orm(w) {
      const invoices = await w.em.find(SupplierInvoiceEntity, { purchaseOrderId: po(BUSY), status: { $in: ['matched', 'approved'] } }, { fields: ['lines'] });
      const billed = new Map<string, Decimal>();
      for (const inv of invoices) {
        for (const l of inv.lines) if (l.purchaseOrderLineId !== null) billed.set(l.purchaseOrderLineId, (billed.get(l.purchaseOrderLineId) ?? new Decimal(0)).plus(l.quantity));
      }
      return entries(billed);
    },
  },
  {
    name: 'purchasing.next-order-number',
    what: 'the next purchase order number (a sequence; the ORM form: the highest number read under a lock)',
    service: purchasingService,
    seed,
    raw: (w) => nextOrderNumber(w),
    async orm(w) {
      await lockForTransaction(w.em, `${w.schema}.purchase_order_number`);
      const [last] = await w.em.find(PurchaseOrderEntity, {}, { orderBy: { number: 'desc' }, limit: 1, fields: ['number'] });
      return `PO-${String(Number(last?.number.slice(3) ?? 0) + 1).padStart(6, '0')}`;
    },
  },
];

import Decimal from 'decimal.js';
import { LockMode } from '@mikro-orm/core';
import type { Work } from '@bop/shared';
import { salesService } from '@svc/sales';
import { SalesLocation } from '@svc/sales/dist/locations/entities';
import { SalesTransaction } from '@svc/sales/dist/transactions/entities';
import type { StoredLine } from '@svc/sales/dist/transactions/normalize';
import { SalesItem, SalesUnmappedItem } from '@svc/sales/dist/items/entities';
import { SalesClosedDay, SalesReviewItemEntity } from '@svc/sales/dist/review/entities';
import { SalesSourceMode, SalesSummaryEntity, SalesSummaryRebuild } from '@svc/sales/dist/summaries/entities';
import { SalesOrder } from '@svc/sales/dist/orders/entities';
import { SalesCustomer } from '@svc/sales/dist/customers/entities';
import { InvoiceNumberCounter } from '@svc/sales/dist/invoices/entities';
import { nextInvoiceNumber } from '@svc/sales/dist/invoices/store';
import { saveClosedDay } from '@svc/sales/dist/review/store';
import { upsertItems } from '@svc/sales/dist/items/replica-store';
import { claimSourceModes } from '@svc/sales/dist/summaries/source-modes-store';
import { holdPossible, knownTransactions, lockStates, savePendingItems, type HeldAnswer, type LockState, type PendingItemWrite } from '@svc/sales/dist/review/transaction-holds-store';
import { closedDaysAmong, summaryStates, type StoredState } from '@svc/sales/dist/review/summary-holds-store';
import { builtSummariesOf, insertMarks, takeMarks, upsertBuiltSummaries } from '@svc/sales/dist/summaries/rebuild-store';
import { builtSummaryKey } from '@svc/sales/dist/summaries/summary-rules';
import { lookup, posItemKey, recalculateOrders, recordUnmatched, unmatchedPosItems, SAMPLE_NAMES, type Change, type ItemRef, type UnmatchedRecord } from '@svc/sales/dist/items/store';
import { linkOrders } from '@svc/sales/dist/customers/store';
import { unmappedItemDto } from '@svc/sales/dist/items/dto';
import type { SqlCase } from './case';

/*
 * One busy company, seeded once for every sales case: 200 locations; a POS source sending
 * transactions (5 days × 50 a location-day: 50,000, three lines each); a source sending day summaries
 * (a location-year: 73,000); a location-year of closed business days (73,000); a 5,000-item replica;
 * 2,000 POS items in the unmapped queue; 2,000 online orders; a few records held for review.
 */
const SOURCE = 'pos';
const SUMMARY_SOURCE = 'pos-s';
const HELD_SOURCE = 'pos-h';
const ORDER_SOURCE = 'web';
const LOCATIONS = 200;
const DAYS = ['2026-11-01', '2026-11-02', '2026-11-03', '2026-11-04', '2026-11-05'];
/** the last closed business day (the two after it are still open) */
const LAST_CLOSED = '2026-11-03';
const PER_DAY = 50;
const ITEMS = 5000;
const UNMAPPED = 2000;
const ORDERS = 2000;
const T0 = new Date('2026-11-05T18:00:00.000Z');

const loc = (i: number) => `loc_bench${String(i).padStart(4, '0')}`;
const itemId = (i: number) => `itm_bench${String(i).padStart(5, '0')}`;
const barcode = (i: number) => `400${String(i).padStart(9, '0')}`;
const txExt = (l: number, d: number, k: number) => `T${l}-${d}-${k}`;
const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00.000Z`) + n * 86_400_000).toISOString().slice(0, 10);
/** a date column as the ORM answers it (YYYY-MM-DD) */
const dayOf = (v: unknown) =>
  typeof v === 'string' ? v.slice(0, 10) : v instanceof Date ? `${v.getFullYear()}-${String(v.getMonth() + 1).padStart(2, '0')}-${String(v.getDate()).padStart(2, '0')}` : String(v);
const iso = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string).toISOString());
const sorted = <T>(xs: T[], key: (x: T) => string) => [...xs].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
const sameJson = (a: unknown, b: unknown) => {
  const ok = JSON.stringify(a) === JSON.stringify(b);
  if (!ok && process.env.SALES_SQL_DEBUG) console.error('raw:', JSON.stringify(a).slice(0, 3000), '\norm:', JSON.stringify(b).slice(0, 3000));
  return ok;
};

function lines(l: number, d: number, k: number, sign: 1 | -1): StoredLine[] {
  const q = sign === 1 ? '1' : '-1';
  const money = (v: string) => (sign === 1 ? v : `-${v}`);
  const sku = (l * PER_DAY + k) % ITEMS;
  const ext = (l + k * 7) % ITEMS;
  return [
    { itemSku: `SKU-${sku}`, itemBarcode: null, itemExternalId: null, itemId: itemId(sku), name: 'Latte', quantity: q, unitPrice: '4.50', discount: '0.00', tax: money('0.36'), lineTotal: money('4.50') },
    { itemSku: null, itemBarcode: null, itemExternalId: `ITEM-${ext}`, itemId: itemId(ext), name: 'Croissant', quantity: q, unitPrice: '3.25', discount: '0.25', tax: money('0.24'), lineTotal: money('3.00') },
    { itemSku: `UNK-${(l * PER_DAY + d * 7 + k) % UNMAPPED}`, itemBarcode: null, itemExternalId: null, itemId: null, name: 'Special', quantity: q, unitPrice: '6.00', discount: '0.00', tax: money('0.48'), lineTotal: money('6.00') },
  ];
}

async function inChunks<T>(write: <R>(fn: (w: Work) => Promise<R>) => Promise<R>, rows: T[], insert: (w: Work, chunk: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += 2000) {
    const chunk = rows.slice(i, i + 2000);
    await write((w) => insert(w, chunk));
  }
}

async function seedAll(write: <R>(fn: (w: Work) => Promise<R>) => Promise<R>): Promise<void> {
  const at = T0;
  const locations = Array.from({ length: LOCATIONS }, (_, l) => ({
    id: loc(l), externalId: null, timezone: 'America/Chicago', businessDayCutoff: '04:00', status: 'active', orgUnitId: null, updatedAt: at,
  }));
  await inChunks(write, locations, (w, c) => w.em.insertMany(SalesLocation, c));

  const tx: Array<Record<string, unknown>> = [];
  for (let l = 0; l < LOCATIONS; l++) {
    for (let d = 0; d < DAYS.length; d++) {
      for (let k = 0; k < PER_DAY; k++) {
        const refund = k % 10 === 9;
        const sign = refund ? -1 : 1;
        const m = (v: string) => (refund ? `-${v}` : v);
        tx.push({
          id: `stx_bench_${l}_${d}_${k}`, source: SOURCE, externalId: txExt(l, d, k), locationId: loc(l),
          occurredAt: new Date(Date.parse(`${DAYS[d]}T14:00:00.000Z`) + k * 60_000), businessDay: DAYS[d],
          type: refund ? 'refund' : 'sale', status: k % 25 === 7 ? 'voided' : 'completed', channel: k % 3 === 0 ? 'online' : 'in_store',
          registerId: 'R1', employeeExternalId: null, subtotal: m('13.500000'), tax: m('1.080000'), total: m('14.580000'), currency: 'USD',
          refundOf: refund ? txExt(l, d, k - 1) : null, lines: lines(l, d, k, sign), tenders: [{ type: 'card', amount: m('14.58'), change: null, platform: null }],
          contentHash: `h-${l}-${d}-${k}`, version: 1, createdAt: at, updatedAt: at,
        });
      }
    }
  }
  await inChunks(write, tx, (w, c) => w.em.insertMany(SalesTransaction, c as any[]));

  const closed: Array<Record<string, unknown>> = [];
  for (let l = 0; l < LOCATIONS; l++) {
    for (let i = 0; i < 365; i++) {
      closed.push({ locationId: loc(l), businessDay: addDays(LAST_CLOSED, -i), status: 'closed', closedAt: at, reopenedAt: null, updatedAt: at });
    }
  }
  await inChunks(write, closed, (w, c) => w.em.insertMany(SalesClosedDay, c as any[]));

  const summaries: Array<Record<string, unknown>> = [];
  for (let l = 0; l < LOCATIONS; l++) {
    for (let i = 0; i < 365; i++) {
      const day = addDays('2026-11-05', -i);
      summaries.push({
        id: `ssm_bench_${l}_${i}`, source: SUMMARY_SOURCE, externalId: `S${l}-${day}`, origin: 'ingested', locationId: loc(l), businessDay: null,
        periodStart: new Date(`${day}T10:00:00.000Z`), periodEnd: new Date(`${addDays(day, 1)}T10:00:00.000Z`), currency: 'USD',
        grossSales: '5400.00', discounts: '40.00', netSales: '5360.00', tax: '428.80', transactions: 400, guests: null,
        byChannel: [{ channel: 'in_store', netSales: '5360.00', transactions: 400 }], contentHash: `sh-${l}-${i}`, version: 1, createdAt: at, updatedAt: at,
      });
    }
    for (const day of DAYS) {
      summaries.push({
        id: `ssm_built_${l}_${day}`, source: SOURCE, externalId: builtSummaryKey(loc(l), day, 'USD'), origin: 'built', locationId: loc(l), businessDay: day,
        periodStart: new Date(`${day}T10:00:00.000Z`), periodEnd: new Date(`${addDays(day, 1)}T10:00:00.000Z`), currency: 'USD',
        grossSales: '603.00', discounts: '11.25', netSales: '591.75', tax: '47.52', transactions: 44, guests: null,
        byChannel: [{ channel: 'in_store', netSales: '394.50', transactions: 29 }, { channel: 'online', netSales: '197.25', transactions: 15 }],
        contentHash: `bh-${l}-${day}`, version: 3, createdAt: at, updatedAt: at,
      });
    }
  }
  await inChunks(write, summaries, (w, c) => w.em.insertMany(SalesSummaryEntity, c as any[]));

  const items = Array.from({ length: ITEMS }, (_, i) => ({
    id: itemId(i), sku: `SKU-${i}`, barcodes: [barcode(i)], externalId: `ITEM-${i}`, name: `Item ${i}`, status: i % 50 === 0 ? 'archived' : 'active', updatedAt: at,
  }));
  await inChunks(write, items, (w, c) => w.em.insertMany(SalesItem, c));

  const entry = (i: number, refValue: string, status: string, mapped: string | null) => ({
    id: `umi_bench_${refValue}`, source: SOURCE, refField: 'itemSku', refValue, itemExternalId: null, itemSku: refValue, itemBarcode: null,
    sampleNames: ['Special'], transactionCount: 25, firstSeenAt: new Date('2026-11-01T14:00:00.000Z'), lastSeenAt: new Date('2026-11-05T14:49:00.000Z'),
    locationIds: [loc(i % LOCATIONS), loc((i + 1) % LOCATIONS)].sort(), status, itemId: mapped, mappedAt: mapped ? at : null,
    mappedBy: mapped ? { type: 'user' as const, id: 'usr_bench' } : null, version: 1, createdAt: at, updatedAt: at,
  });
  const entries = [
    ...Array.from({ length: UNMAPPED }, (_, i) => entry(i, `UNK-${i}`, 'open', null)),
    ...Array.from({ length: 100 }, (_, i) => entry(i, `MAP-${i}`, 'mapped', itemId(i * 3))),
    ...Array.from({ length: 500 }, (_, i) => ({ ...entry(i, `WEB-${i}`, 'open', null), id: `umi_bench_web_${i}`, source: ORDER_SOURCE })),
  ];
  await inChunks(write, entries, (w, c) => w.em.insertMany(SalesUnmappedItem, c));

  const modes = Array.from({ length: LOCATIONS }, (_, l) => [
    { locationId: loc(l), source: SOURCE, mode: 'transactions' as const, claimedAt: at },
    { locationId: loc(l), source: SUMMARY_SOURCE, mode: 'summaries' as const, claimedAt: at },
  ]).flat();
  await inChunks(write, modes, (w, c) => w.em.insertMany(SalesSourceMode, c));

  // the rebuild queue: the marks of the last three batches (20 location-days each, the same days)
  const marks = Array.from({ length: 3 }, () => Array.from({ length: 20 }, (_, l) => ({ locationId: loc(l), source: SOURCE, businessDay: '2026-11-05', requestedAt: at }))).flat();
  await inChunks(write, marks, (w, c) => w.em.insertMany(SalesSummaryRebuild, c as any[]));

  // held for review: transactions of another source re-sent to a closed day, and summaries
  const held = [
    ...Array.from({ length: 100 }, (_, i) => ({
      id: `rvi_bench_t${i}`, source: HELD_SOURCE, externalId: `H${i}`, recordKind: 'transaction' as const, recordId: `stx_held_${i}`, locationId: loc(i % 20),
      businessDay: '2026-11-02', previousBusinessDay: null, businessDays: ['2026-11-02'], kind: 'new',
      row: { location_id: loc(i % 20), business_day: '2026-11-02', type: 'sale', status: 'completed', total: '14.58', currency: 'USD', refund_of: null } as any,
      contentHash: `held-1-${i}`, status: 'pending', reason: 'Business day 2026-11-02 is closed in cash.', warnings: [], version: 1, createdAt: at, updatedAt: at,
      decidedAt: null, decidedBy: null, decisionNote: null,
    })),
    ...Array.from({ length: 20 }, (_, i) => ({
      id: `rvi_bench_s${i}`, source: SUMMARY_SOURCE, externalId: `S-held-${i}`, recordKind: 'summary' as const, recordId: `ssm_held_${i}`, locationId: loc(i * 10),
      businessDay: '2026-11-03', previousBusinessDay: null, businessDays: ['2026-11-03'], kind: 'new',
      row: { location_id: loc(i * 10), period_start: '2026-11-05T12:00:00.000Z', period_end: '2026-11-05T13:00:00.000Z' } as any,
      contentHash: `sheld-${i}`, status: 'pending', reason: 'Business day 2026-11-03 is closed in cash.', warnings: [], version: 1, createdAt: at, updatedAt: at,
      decidedAt: null, decidedBy: null, decisionNote: null,
    })),
  ];
  await inChunks(write, held, (w, c) => w.em.insertMany(SalesReviewItemEntity, c));

  const orders = Array.from({ length: ORDERS }, (_, i) => {
    const late = i < 3; // the customers of the others are not synced yet either (no customer row)
    return {
      id: `sor_bench_${i}`, source: ORDER_SOURCE, externalId: `W${i}`, locationId: loc(i % LOCATIONS),
      customer: { externalId: late ? 'C-late' : `C-${i % 500}`, name: 'A customer', email: null }, customerId: null,
      placedAt: at,
      lines: [
        { itemSku: `SKU-${i % ITEMS}`, itemBarcode: null, itemExternalId: null, itemId: itemId(i % ITEMS), name: 'Beans', quantity: '2', unitPrice: '12.00', discount: '0.00', tax: '1.92', lineTotal: '24.00' },
        { itemSku: `WEB-${i % 500}`, itemBarcode: null, itemExternalId: null, itemId: null, name: 'Gift box', quantity: '1', unitPrice: '8.00', discount: '0.00', tax: '0.64', lineTotal: '8.00' },
      ],
      shipping: null, paymentStatus: 'paid', status: 'open', currency: 'USD', subtotal: '32.00', taxTotal: '2.56', shippingTotal: '0.00', total: '34.56',
      reservations: [], reservedAt: null, shipment: null, cancelledAt: null, cancelReason: null, contentHash: `oh-${i}`, coreHash: `oc-${i}`, version: 1, createdAt: at, updatedAt: at,
    };
  });
  await inChunks(write, orders, (w, c) => w.em.insertMany(SalesOrder, c));
  // the customer the late orders name, as its sync has just created it (linkOrders runs right after, in the same unit)
  await write((w) =>
    w.em.insertMany(SalesCustomer, [{
      id: 'cus_late', externalId: 'C-late', name: 'A customer', email: null, phone: null, billingAddress: null, shippingAddress: null, taxId: null, notes: null,
      status: 'active', archivedAt: null, version: 1, createdAt: at, updatedAt: at,
    }]),
  );
}

let seeded: Promise<void> | undefined;
/** every case's seed: the company above, written once */
const seed = (write: <R>(fn: (w: Work) => Promise<R>) => Promise<R>) => (seeded ??= seedAll(write));

// ---- the cases' inputs ----------------------------------------------------------------------------

/** a batch's locations: a POS source's batch of 1,000 names about 20 */
const batchLocations = Array.from({ length: 20 }, (_, i) => loc(i * 10));

/** a batch of 1,000 with 100 refunds of stored sales: the externalIds looked up, and the originals named */
const refundBatch = (() => {
  const originals = Array.from({ length: 100 }, (_, i) => txExt(i, 4, 8));
  const keys = [...Array.from({ length: 900 }, (_, i) => `N-${i}`), ...Array.from({ length: 100 }, (_, i) => `R-${i}`), ...originals];
  return { keys, originals };
})();

/** a late re-send of a closed day's batch: 1,000 stored transactions of 20 locations */
const resendRecords = Array.from({ length: 1000 }, (_, n) => {
  const l = Math.floor(n / PER_DAY);
  const k = n % PER_DAY;
  return { i: n, externalId: txExt(l, 2, k), locationId: loc(l), businessDay: DAYS[2] };
});

/** today's batch: its (location, day) pairs */
const todaysDays = batchLocations.map((id) => ({ location_id: id, business_day: DAYS[4] }));

/** 200 records held at once (a backfill into a closed day): half replace the items waiting, half are new */
const heldWrites = (): PendingItemWrite[] =>
  Array.from({ length: 200 }, (_, i) => ({
    id: `rvi_bench_new_${i}`, external_id: `H${i}`, record_id: `stx_held_${i}`, location_id: loc(i % 20), business_day: '2026-11-02',
    previous_business_day: null, business_days: ['2026-11-02'], kind: 'new',
    row: { location_id: loc(i % 20), business_day: '2026-11-02', type: 'sale', status: 'completed', total: '15.58', currency: 'USD', refund_of: null },
    content_hash: `held-2-${i}`, reason: 'Business day 2026-11-02 is closed in cash.', warnings: [],
  }));

/** a day-summary batch of 200 (a location each): 100 re-sends of stored summaries, 90 new, 10 waiting in the review queue */
const summaryRecords = Array.from({ length: 200 }, (_, i) => ({
  i,
  external_id: i < 100 ? `S${i}-2026-11-05` : i < 190 ? `S${i}-2026-11-06` : `S-held-${i - 190}`,
}));

/** the (location, day) pairs of such a batch: yesterday everywhere, and a closed day at 20 locations */
const summaryPairs = [
  ...Array.from({ length: LOCATIONS }, (_, l) => ({ location_id: loc(l), business_day: DAYS[3] })),
  ...Array.from({ length: 20 }, (_, l) => ({ location_id: loc(l), business_day: LAST_CLOSED })),
];

/** the days of the rebuild queue's marks */
const markedDays = Array.from({ length: 20 }, (_, l) => ({ location_id: loc(l), source: SOURCE, business_day: DAYS[4] }));

/** the changed built summaries of one rebuild (20 days) */
const changedSummaries = () =>
  markedDays.map((d, l) => ({
    id: `ssm_built_${l}_${d.business_day}`, source: SOURCE, external_id: builtSummaryKey(d.location_id, d.business_day, 'USD'), location_id: d.location_id,
    business_day: d.business_day, period_start: `${d.business_day}T10:00:00.000Z`, period_end: `${addDays(d.business_day, 1)}T10:00:00.000Z`, currency: 'USD',
    gross_sales: '620.50', discounts: '11.25', net_sales: '609.25', tax: '48.60', transactions: 45,
    by_channel: [{ channel: 'in_store', netSales: '412.00', transactions: 30 }, { channel: 'online', netSales: '197.25', transactions: 15 }], content_hash: `bh2-${l}`,
  }));

/** the lines of a POS batch of 1,000 (3 each), every tenth unmatched line naming a mapped POS item */
const batchRefs: ItemRef[] = Array.from({ length: 1000 }, (_, n) => {
  const l = Math.floor(n / PER_DAY);
  const k = n % PER_DAY;
  const [a, b, c] = lines(l, 4, k, 1);
  return [a, b, n % 10 === 0 ? { ...c, itemSku: `MAP-${n % 100}` } : c];
}).flat();

/** a batch of 1,000 new sales, one unmatched line each: 900 name POS items in the queue, 100 ten new ones */
const unmatchedRecords: UnmatchedRecord[] = Array.from({ length: 1000 }, (_, n) => ({
  recordId: `stx_new_${n}`, locationId: loc(n % LOCATIONS), seenAt: new Date(T0.getTime() + n * 1000).toISOString(),
  lines: [{ itemSku: n % 10 === 0 ? `NEW-${n % 100}` : `UNK-${n % UNMAPPED}`, itemBarcode: null, itemExternalId: null, name: 'Special' }], before: null,
}));

/** one POS item mapped (`:map`): the sales naming it get the item */
const orderChange: Change[] = [{ source: ORDER_SOURCE, ref_field: 'itemSku', ref_value: 'WEB-5', item_id: itemId(78), old_item_id: null }];
const lineNames = (l: StoredLine, c: Change) => {
  const key = posItemKey(l);
  return key !== null && key.refField === c.ref_field && key.refValue === c.ref_value && (l.itemId === null || l.itemId === c.old_item_id);
};

/** the exact text Postgres gives a sum of numeric values (its scale: the largest of the terms'; 0 when there is none) */
const scaleOf = (v: string) => (v.includes('.') ? v.length - v.indexOf('.') - 1 : 0);
class ExactSum {
  sum = new Decimal(0);
  scale = 0;
  n = 0;
  add(v: Decimal, scale: number) {
    this.sum = this.sum.plus(v);
    this.scale = Math.max(this.scale, scale);
    this.n++;
  }
  text() {
    return this.n === 0 ? '0' : this.sum.toFixed(this.scale);
  }
}

export const salesCases: SqlCase[] = [
  {
    name: 'sales.invoice-number',
    what: 'the next invoice number: the series counter bumped and read',
    service: salesService,
    seed,
    raw: (w) => nextInvoiceNumber(w),
    async orm(w) {
      const c = await w.em.findOneOrFail(InvoiceNumberCounter, { series: 'INV' }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      c.lastNumber += 1;
      await w.em.flush();
      return c.lastNumber;
    },
  },
  {
    name: 'sales.closed-day',
    what: "cash's business_day_closed replicated (a new closed day among a location-year each of 200)",
    service: salesService,
    seed,
    raw: (w) => saveClosedDay(w, { locationId: loc(7), businessDay: DAYS[4], status: 'closed', closedAt: w.now, reopenedAt: null, updatedAt: w.now }),
    async orm(w) {
      const d = { locationId: loc(7), businessDay: DAYS[4], status: 'closed', closedAt: w.now, reopenedAt: null, updatedAt: w.now };
      const row = await w.em.findOne(SalesClosedDay, { locationId: d.locationId, businessDay: d.businessDay }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!row) w.em.create(SalesClosedDay, d);
      else if (row.updatedAt <= d.updatedAt) Object.assign(row, { status: d.status, closedAt: d.closedAt ?? row.closedAt, reopenedAt: d.reopenedAt ?? row.reopenedAt, updatedAt: d.updatedAt });
      await w.em.flush();
    },
  },
  {
    name: 'sales.item-replica',
    what: "inventory's item.updated replicated into the 5,000-item replica",
    service: salesService,
    seed,
    raw: (w) => upsertItems(w.em, w.schema, [{ id: itemId(42), sku: 'SKU-42', barcodes: [barcode(42)], externalId: 'ITEM-42', name: 'Item 42 (new name)', status: 'active', updatedAt: '2026-11-05T19:00:00.000Z' }]),
    async orm(w) {
      for (const o of [{ id: itemId(42), sku: 'SKU-42', barcodes: [barcode(42)], externalId: 'ITEM-42', name: 'Item 42 (new name)', status: 'active', updatedAt: '2026-11-05T19:00:00.000Z' }]) {
        const at = new Date(o.updatedAt);
        const row = await w.em.findOne(SalesItem, { id: o.id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
        const state = { sku: o.sku, barcodes: [...new Set(o.barcodes)], externalId: o.externalId, name: o.name, status: o.status, updatedAt: at };
        if (!row) w.em.create(SalesItem, { id: o.id, ...state });
        else if (row.updatedAt <= at) Object.assign(row, state);
      }
      await w.em.flush();
    },
  },
  {
    name: 'sales.source-modes',
    what: "a transaction batch's (location, source) modes, all claimed (20 locations of 200 × 2 sources)",
    service: salesService,
    seed,
    raw: async (w) => [...(await claimSourceModes(w, SOURCE, batchLocations, 'transactions'))],
    async orm(w) {
      const rows = await w.em
        .createQueryBuilder(SalesSourceMode)
        .select(['locationId', 'mode'])
        .where({ source: SOURCE, locationId: { $in: [...new Set(batchLocations)].sort() } })
        .orderBy({ locationId: 'asc' })
        .execute<Array<{ locationId: string; mode: string }>>('all', true);
      return rows.map((r) => [r.locationId, r.mode]);
    },
  },
  {
    name: 'sales.known-transactions',
    what: 'a batch of 1,000 with 100 refunds: stored transactions, refunded sums and held records (50,000 stored)',
    service: salesService,
    seed,
    raw: (w) => knownTransactions(w, SOURCE, refundBatch.keys, refundBatch.originals),
    async orm(w) {
      const { keys, originals } = refundBatch;
      const stored = await w.em
        .createQueryBuilder(SalesTransaction)
        .select(['externalId', 'type', 'status', 'total', 'currency', 'refundOf'])
        .where({ source: SOURCE, externalId: { $in: keys } })
        .execute<Array<Pick<SalesTransaction, 'externalId' | 'type' | 'status' | 'total' | 'currency' | 'refundOf'>>>('all', true);
      const named = stored.map((t) => t.externalId).filter((id) => originals.includes(id));
      const refunds = named.length === 0 ? [] : await w.em
        .createQueryBuilder(SalesTransaction)
        .select(['refundOf', 'total'])
        .where({ source: SOURCE, refundOf: { $in: named }, type: 'refund', status: 'completed' })
        .execute<Array<{ refundOf: string; total: string }>>('all', true);
      const sums = new Map<string, ExactSum>();
      for (const r of refunds) {
        const s = sums.get(r.refundOf) ?? new ExactSum();
        s.add(new Decimal(r.total), scaleOf(r.total));
        sums.set(r.refundOf, s);
      }
      const held = await w.em
        .createQueryBuilder(SalesReviewItemEntity)
        .select(['externalId', 'row'])
        .where({ source: SOURCE, status: 'pending', recordKind: 'transaction', kind: 'new', externalId: { $in: keys } })
        .execute<Array<{ externalId: string; row: Record<string, any> }>>('all', true);
      return [
        ...stored.map((t) => ({
          external_id: t.externalId, type: t.type, status: t.status, total: t.total, currency: t.currency, refund_of: t.refundOf, stored: true,
          refunded: originals.includes(t.externalId) ? (sums.get(t.externalId) ?? new ExactSum()).text() : null,
        })),
        ...held.map((i) => ({
          external_id: i.externalId, type: i.row.type ?? null, status: i.row.status ?? null, total: i.row.total ?? null, currency: i.row.currency ?? null,
          refund_of: i.row.refund_of ?? null, stored: false, refunded: null,
        })),
      ];
    },
    same: (raw, orm) => sameJson(sorted(raw as any[], (r) => `${r.external_id}|${r.stored}`), sorted(orm as any[], (r) => `${r.external_id}|${r.stored}`)),
  },
  {
    name: 'sales.lock-states',
    what: "a closed day's batch re-sent (1,000 stored): stored rows, closed days, held items",
    service: salesService,
    seed,
    raw: async (w) => [...(await lockStates(w, SOURCE, resendRecords)).values()],
    async orm(w) {
      const exts = resendRecords.map((r) => r.externalId);
      const stored = await w.em
        .createQueryBuilder(SalesTransaction)
        .select(['id', 'externalId', 'contentHash', 'locationId', 'businessDay'])
        .where({ source: SOURCE, externalId: { $in: exts } })
        .execute<Array<{ id: string; externalId: string; contentHash: string; locationId: string; businessDay: unknown }>>('all', true);
      const byExt = new Map(stored.map((t) => [t.externalId, { ...t, businessDay: dayOf(t.businessDay) }]));
      const pairs = new Map<string, { locationId: string; businessDay: string }>();
      for (const r of resendRecords) pairs.set(`${r.locationId}|${r.businessDay}`, { locationId: r.locationId, businessDay: r.businessDay });
      for (const t of byExt.values()) pairs.set(`${t.locationId}|${t.businessDay}`, { locationId: t.locationId, businessDay: t.businessDay });
      const closed = await w.em
        .createQueryBuilder(SalesClosedDay)
        .select(['locationId', 'businessDay'])
        .where({ status: 'closed', $or: [...pairs.values()] })
        .execute<Array<{ locationId: string; businessDay: unknown }>>('all', true);
      const isClosed = new Set(closed.map((d) => `${d.locationId}|${dayOf(d.businessDay)}`));
      const pending = await w.em
        .createQueryBuilder(SalesReviewItemEntity)
        .select(['id', 'externalId', 'contentHash', 'recordId', 'reason'])
        .where({ source: SOURCE, recordKind: 'transaction', status: 'pending', externalId: { $in: exts } })
        .execute<Array<{ id: string; externalId: string; contentHash: string; recordId: string; reason: string }>>('all', true);
      const pendingOf = new Map(pending.map((p) => [p.externalId, p]));
      return resendRecords.map((r): LockState => {
        const t = byExt.get(r.externalId);
        const p = pendingOf.get(r.externalId);
        return {
          i: r.i, stored_id: t?.id ?? null, stored_hash: t?.contentHash ?? null, stored_location_id: t?.locationId ?? null, stored_day: t?.businessDay ?? null,
          day_closed: isClosed.has(`${r.locationId}|${r.businessDay}`), stored_day_closed: t ? isClosed.has(`${t.locationId}|${t.businessDay}`) : false,
          pending_id: p?.id ?? null, pending_hash: p?.contentHash ?? null, pending_record_id: p?.recordId ?? null, pending_reason: p?.reason ?? null,
        };
      });
    },
    same: (raw, orm) => sameJson(sorted(raw as LockState[], (r) => String(r.i).padStart(5, '0')), orm),
  },
  {
    name: 'sales.hold-possible',
    what: "today's batch (20 location-days): any closed among a location-year of days, or anything held",
    service: salesService,
    seed,
    raw: (w) => holdPossible(w, SOURCE, todaysDays),
    async orm(w) {
      const closed = await w.em
        .createQueryBuilder(SalesClosedDay)
        .select('locationId')
        .where({ status: 'closed', $or: todaysDays.map((d) => ({ locationId: d.location_id, businessDay: d.business_day })) })
        .limit(1)
        .execute('get');
      if (closed) return true;
      const held = await w.em.createQueryBuilder(SalesReviewItemEntity).select('id').where({ source: SOURCE, recordKind: 'transaction', status: 'pending' }).limit(1).execute('get');
      return held !== undefined && held !== null;
    },
  },
  {
    name: 'sales.pending-items',
    what: '200 records held at once: 100 replace the items waiting, 100 new',
    service: salesService,
    seed,
    raw: (w) => {
      const writes = heldWrites();
      return savePendingItems(w, HELD_SOURCE, 'transaction', writes, writes.map((x) => x.external_id), writes.map((x) => ({ status: 'created', id: x.record_id })));
    },
    async orm(w) {
      const writes = heldWrites();
      const externalIds = writes.map((x) => x.external_id);
      const answers: HeldAnswer[] = writes.map((x) => ({ status: 'created', id: x.record_id }));
      const existing = await w.em.find(
        SalesReviewItemEntity,
        { source: HELD_SOURCE, recordKind: 'transaction', status: 'pending', externalId: { $in: externalIds } },
        { lockMode: LockMode.PESSIMISTIC_WRITE, orderBy: { externalId: 'asc' } },
      );
      const byExt = new Map(existing.map((e) => [e.externalId, e]));
      const got = new Map<string, { inserted: boolean; recordId: string } | null>();
      for (const x of sorted(writes, (y) => y.external_id)) {
        const e = byExt.get(x.external_id);
        const fields = {
          locationId: x.location_id, businessDay: x.business_day, previousBusinessDay: x.previous_business_day, businessDays: x.business_days, kind: x.kind,
          row: x.row as any, contentHash: x.content_hash, reason: x.reason, warnings: x.warnings,
        };
        if (!e) {
          w.em.create(SalesReviewItemEntity, {
            id: x.id, source: HELD_SOURCE, recordKind: 'transaction', externalId: x.external_id, recordId: x.record_id, status: 'pending', version: 1,
            createdAt: w.now, updatedAt: w.now, decidedAt: null, decidedBy: null, decisionNote: null, ...fields,
          });
          got.set(x.external_id, { inserted: true, recordId: x.record_id });
        } else if (e.contentHash !== x.content_hash) {
          Object.assign(e, fields, { recordId: x.kind === 'change' ? x.record_id : e.recordId, version: e.version + 1, updatedAt: w.now });
          got.set(x.external_id, { inserted: false, recordId: e.recordId });
        } else got.set(x.external_id, null);
      }
      await w.em.flush();
      externalIds.forEach((id, i) => {
        const g = got.get(id);
        if (answers[i].status === 'unchanged' || g === undefined) return;
        answers[i] = g ? { status: g.inserted ? 'created' : 'updated', id: g.recordId } : { status: 'unchanged', id: byExt.get(id)!.recordId };
      });
      return answers;
    },
  },
  {
    name: 'sales.summary-states',
    what: 'a day-summary batch of 200: stored summaries (73,000), their locations, held items',
    service: salesService,
    seed,
    raw: (w) => summaryStates(w, SUMMARY_SOURCE, summaryRecords),
    async orm(w) {
      const exts = summaryRecords.map((r) => r.external_id);
      const stored = await w.em
        .createQueryBuilder(SalesSummaryEntity)
        .select(['id', 'externalId', 'contentHash', 'locationId', 'periodStart', 'periodEnd'])
        .where({ source: SUMMARY_SOURCE, origin: 'ingested', externalId: { $in: exts } })
        .execute<Array<{ id: string; externalId: string; contentHash: string; locationId: string; periodStart: Date; periodEnd: Date }>>('all', true);
      const locIds = [...new Set(stored.map((s) => s.locationId))];
      const locations = locIds.length === 0 ? [] : await w.em
        .createQueryBuilder(SalesLocation)
        .select(['id', 'timezone', 'businessDayCutoff'])
        .where({ id: { $in: locIds } })
        .execute<Array<{ id: string; timezone: string; businessDayCutoff: string }>>('all', true);
      const pending = await w.em
        .createQueryBuilder(SalesReviewItemEntity)
        .select(['id', 'externalId', 'contentHash', 'recordId', 'reason'])
        .where({ source: SUMMARY_SOURCE, recordKind: 'summary', status: 'pending', externalId: { $in: exts } })
        .execute<Array<{ id: string; externalId: string; contentHash: string; recordId: string; reason: string }>>('all', true);
      const storedOf = new Map(stored.map((s) => [s.externalId, s]));
      const locOf = new Map(locations.map((l) => [l.id, l]));
      const pendingOf = new Map(pending.map((p) => [p.externalId, p]));
      return summaryRecords.map((r): StoredState => {
        const s = storedOf.get(r.external_id);
        const l = s ? locOf.get(s.locationId) : undefined;
        const p = pendingOf.get(r.external_id);
        return {
          i: r.i, stored_id: s?.id ?? null, stored_hash: s?.contentHash ?? null, stored_location_id: s?.locationId ?? null,
          stored_period_start: s ? iso(s.periodStart) : null, stored_period_end: s ? iso(s.periodEnd) : null,
          timezone: l?.timezone ?? null, business_day_cutoff: l?.businessDayCutoff ?? null,
          pending_id: p?.id ?? null, pending_hash: p?.contentHash ?? null, pending_record_id: p?.recordId ?? null, pending_reason: p?.reason ?? null,
        };
      });
    },
    same: (raw, orm) => sameJson(sorted(raw as StoredState[], (r) => String(r.i).padStart(5, '0')), orm),
  },
  {
    name: 'sales.closed-days-among',
    what: "a summary batch's 220 (location, day) pairs against a location-year of closed days each",
    service: salesService,
    seed,
    raw: (w) => closedDaysAmong(w, summaryPairs),
    async orm(w) {
      const rows = await w.em
        .createQueryBuilder(SalesClosedDay)
        .select(['locationId', 'businessDay'])
        .where({ status: 'closed', $or: summaryPairs.map((p) => ({ locationId: p.location_id, businessDay: p.business_day })) })
        .execute<Array<{ locationId: string; businessDay: unknown }>>('all', true);
      return rows.map((r) => ({ location_id: r.locationId, business_day: dayOf(r.businessDay) }));
    },
    same: (raw, orm) => sameJson(sorted(raw as any[], (r) => `${r.location_id}|${r.business_day}`), sorted(orm as any[], (r) => `${r.location_id}|${r.business_day}`)),
  },
  {
    name: 'sales.rebuild-take',
    what: 'the rebuild worker takes the queue (the marks of three batches: 60)',
    service: salesService,
    seed,
    raw: (w) => takeMarks(w, 2000),
    async orm(w) {
      const rows = await w.em
        .createQueryBuilder(SalesSummaryRebuild)
        .select(['id', 'locationId', 'source', 'businessDay'])
        .orderBy({ id: 'asc' })
        .limit(2000)
        .setLockMode(LockMode.PESSIMISTIC_PARTIAL_WRITE)
        .execute<Array<{ id: string; locationId: string; source: string; businessDay: unknown }>>('all', true);
      if (rows.length > 0) await w.em.nativeDelete(SalesSummaryRebuild, { id: { $in: rows.map((r) => r.id) } });
      return rows.map((r) => ({ location_id: r.locationId, source: r.source, business_day: dayOf(r.businessDay) }));
    },
    same: (raw, orm) => sameJson(sorted(raw as any[], (r) => `${r.location_id}|${r.business_day}`), sorted(orm as any[], (r) => `${r.location_id}|${r.business_day}`)),
  },
  {
    name: 'sales.rebuild-existing',
    what: 'the built summaries of 20 marked days (1,000 built, 73,000 ingested)',
    service: salesService,
    seed,
    raw: (w) => builtSummariesOf(w, JSON.stringify(markedDays)),
    orm: (w) =>
      w.em
        .createQueryBuilder(SalesSummaryEntity)
        .select('*')
        .where({ origin: 'built', $or: markedDays.map((d) => ({ locationId: d.location_id, source: d.source, businessDay: d.business_day })) })
        .execute<Array<Record<string, any>>>('all', false),
    same: (raw, orm) => sameJson(sorted(raw as any[], (r) => r.id), sorted(orm as any[], (r) => r.id)),
  },
  {
    name: 'sales.rebuild-upsert',
    what: 'the changed built summaries of a rebuild written (20 of 1,000)',
    service: salesService,
    seed,
    raw: (w) => upsertBuiltSummaries(w, changedSummaries()),
    async orm(w) {
      const rows = sorted(changedSummaries(), (r) => `${r.source}|${r.external_id}`);
      const existing = await w.em.find(SalesSummaryEntity, { source: { $in: [...new Set(rows.map((r) => r.source))] }, externalId: { $in: rows.map((r) => r.external_id) } });
      const byKey = new Map(existing.map((e) => [`${e.source}|${e.externalId}`, e]));
      for (const r of rows) {
        const figures = {
          periodStart: new Date(r.period_start), periodEnd: new Date(r.period_end), grossSales: r.gross_sales, discounts: r.discounts, netSales: r.net_sales, tax: r.tax,
          transactions: r.transactions, byChannel: r.by_channel, contentHash: r.content_hash,
        };
        const e = byKey.get(`${r.source}|${r.external_id}`);
        if (!e) {
          w.em.create(SalesSummaryEntity, {
            id: r.id, source: r.source, externalId: r.external_id, origin: 'built', locationId: r.location_id, businessDay: r.business_day, currency: r.currency,
            guests: null, version: 1, createdAt: w.now, updatedAt: w.now, ...figures,
          });
        } else if (e.contentHash !== r.content_hash) Object.assign(e, figures, { version: e.version + 1, updatedAt: w.now });
      }
      await w.em.flush();
    },
  },
  {
    name: 'sales.rebuild-marks',
    what: "a batch's 20 day marks queued for the rebuild",
    service: salesService,
    seed,
    raw: (w) => insertMarks(w, SOURCE, todaysDays),
    async orm(w) {
      await w.em.insertMany(SalesSummaryRebuild, todaysDays.map((d) => ({ locationId: d.location_id, source: SOURCE, businessDay: d.business_day, requestedAt: w.now })) as any[]);
    },
  },
  {
    name: 'sales.item-lookup',
    what: "a batch's 3,000 line refs matched: mappings (2,100 queued), then 5,000 items by externalId, SKU, barcode",
    service: salesService,
    seed,
    raw: (w) => lookup(w, SOURCE, batchRefs),
    async orm(w) {
      const slot = new Map<string, number>();
      const distinct: Array<{ field: string; value: string; ext: string | null; sku: string | null; barcode: string | null }> = [];
      const at = batchRefs.map((r) => {
        const key = posItemKey(r);
        if (!key) return -1;
        const k = JSON.stringify([r.itemExternalId ?? null, r.itemSku ?? null, r.itemBarcode ?? null]);
        let i = slot.get(k);
        if (i === undefined) {
          i = distinct.length;
          slot.set(k, i);
          distinct.push({ field: key.refField, value: key.refValue, ext: r.itemExternalId ?? null, sku: r.itemSku ?? null, barcode: r.itemBarcode ?? null });
        }
        return i;
      });
      const mapped = await w.em
        .createQueryBuilder(SalesUnmappedItem)
        .select(['refField', 'refValue', 'itemId'])
        .where({ source: SOURCE, status: 'mapped', refValue: { $in: [...new Set(distinct.map((d) => d.value))] } })
        .execute<Array<{ refField: string; refValue: string; itemId: string }>>('all', true);
      const mappedOf = new Map(mapped.map((m) => [`${m.refField}\u0000${m.refValue}`, m.itemId]));
      const exts = [...new Set(distinct.flatMap((d) => d.ext ?? []))];
      const skus = [...new Set(distinct.flatMap((d) => d.sku ?? []))];
      const codes = [...new Set(distinct.flatMap((d) => d.barcode ?? []))];
      const fields = ['id', 'externalId', 'sku', 'barcodes', 'status', 'updatedAt'] as const;
      type Row = { id: string; externalId: string | null; sku: string | null; barcodes: string[]; status: string; updatedAt: Date };
      const items = [
        ...(exts.length ? await w.em.createQueryBuilder(SalesItem).select([...fields]).where({ externalId: { $in: exts } }).execute<Row[]>('all', true) : []),
        ...(skus.length ? await w.em.createQueryBuilder(SalesItem).select([...fields]).where({ sku: { $in: skus } }).execute<Row[]>('all', true) : []),
        ...(codes.length ? await w.em.createQueryBuilder(SalesItem).select([...fields]).where({ barcodes: { $overlap: codes } }).execute<Row[]>('all', true) : []),
      ];
      // active before archived, then the latest state, then the id
      const pick = (rows: Row[]) =>
        rows.sort((a, b) => (a.status === 'active' ? 0 : 1) - (b.status === 'active' ? 0 : 1) || b.updatedAt.getTime() - a.updatedAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))[0]?.id ?? null;
      const found = distinct.map(
        (d) =>
          mappedOf.get(`${d.field}\u0000${d.value}`) ??
          (d.ext !== null ? pick(items.filter((it) => it.externalId === d.ext)) : null) ??
          (d.sku !== null ? pick(items.filter((it) => it.sku === d.sku)) : null) ??
          (d.barcode !== null ? pick(items.filter((it) => it.barcodes.includes(d.barcode!))) : null),
      );
      return at.map((i) => (i < 0 ? null : found[i]));
    },
  },
  {
    name: 'sales.remap-orders',
    what: "one POS item mapped: the lines of its 4 orders among the source's 2,000 get the item",
    service: salesService,
    seed,
    raw: (w) => recalculateOrders(w, orderChange),
    async orm(w) {
      const c = orderChange[0];
      const all = await w.em
        .createQueryBuilder(SalesOrder)
        .select(['id', 'lines'])
        .where({ source: { $in: [...new Set(orderChange.map((x) => x.source))] } })
        .execute<Array<{ id: string; lines: StoredLine[] }>>('all', true);
      const hit = all.filter((o) => o.lines.some((l) => lineNames(l, c))).map((o) => o.id);
      if (hit.length === 0) return 0;
      const rows = await w.em.find(SalesOrder, { id: { $in: hit } }, { lockMode: LockMode.PESSIMISTIC_WRITE, orderBy: { source: 'asc', externalId: 'asc' } });
      for (const o of rows) {
        o.lines = o.lines.map((l) => (lineNames(l, c) ? { ...l, itemId: c.item_id } : l));
        o.version += 1;
        o.updatedAt = w.now;
      }
      await w.em.flush();
      return rows.length;
    },
  },
  {
    name: 'sales.link-orders',
    what: "a customer synced late: its 3 orders (of 2,000) get the customer",
    service: salesService,
    seed,
    raw: (w) => linkOrders(w.em, 'cus_late', 'C-late', w.now),
    async orm(w) {
      const orders = await w.em.find(SalesOrder, { customerId: null, customer: { externalId: 'C-late' } });
      for (const o of orders) Object.assign(o, { customerId: 'cus_late', version: o.version + 1, updatedAt: w.now });
      await w.em.flush();
    },
  },
  {
    name: 'sales.unmatched-upsert',
    what: "a batch of 1,000 new sales' unmatched POS items into the queue (2,600 entries; 10 new)",
    service: salesService,
    seed,
    raw: (w) => recordUnmatched(w, SOURCE, unmatchedRecords),
    async orm(w) {
      const rows = unmatchedPosItems(unmatchedRecords);
      if (rows.length === 0) return [];
      const existing = await w.em.find(
        SalesUnmappedItem,
        { source: SOURCE, refValue: { $in: [...new Set(rows.map((s) => s.key.refValue))] } },
        { lockMode: LockMode.PESSIMISTIC_WRITE, orderBy: { refField: 'asc', refValue: 'asc' } },
      );
      const byKey = new Map(existing.map((e) => [`${e.refField}\u0000${e.refValue}`, e]));
      const created: SalesUnmappedItem[] = [];
      for (const s of rows) {
        const e = byKey.get(`${s.key.refField}\u0000${s.key.refValue}`);
        if (!e) {
          if (s.now <= 0) continue;
          created.push(
            w.em.create(SalesUnmappedItem, {
              id: `umi_${created.length}_${s.key.refValue}`, source: SOURCE, refField: s.key.refField, refValue: s.key.refValue, itemExternalId: s.ext, itemSku: s.sku,
              itemBarcode: s.barcode, sampleNames: s.names, transactionCount: s.now, firstSeenAt: new Date(s.firstSeen!), lastSeenAt: new Date(s.lastSeen!),
              locationIds: [...s.locations].sort(), status: 'open', itemId: null, mappedAt: null, mappedBy: null, version: 1, createdAt: w.now, updatedAt: w.now,
            }),
          );
        } else if (e.status === 'open') {
          e.transactionCount = Math.max(0, e.transactionCount + s.delta);
          if (s.firstSeen !== null && Date.parse(s.firstSeen) < e.firstSeenAt.getTime()) e.firstSeenAt = new Date(s.firstSeen);
          if (s.lastSeen !== null && Date.parse(s.lastSeen) > e.lastSeenAt.getTime()) e.lastSeenAt = new Date(s.lastSeen);
          e.sampleNames = [...new Set([...e.sampleNames, ...s.names])].slice(0, SAMPLE_NAMES);
          e.locationIds = [...new Set([...e.locationIds, ...s.locations])].sort();
          e.itemExternalId ??= s.ext;
          e.itemSku ??= s.sku;
          e.itemBarcode ??= s.barcode;
          e.version += 1;
          e.updatedAt = w.now;
        }
      }
      await w.em.flush();
      const firstLocation = new Map(rows.map((s) => [`${s.key.refField}\u0000${s.key.refValue}`, s.locations[0] ?? null]));
      return created.map((e) => ({
        type: 'sales.unmapped_item', aggregateType: 'sales_unmapped_item', aggregateId: e.id,
        locationId: firstLocation.get(`${e.refField}\u0000${e.refValue}`) ?? e.locationIds[0] ?? null, object: unmappedItemDto(e) as unknown as Record<string, unknown>,
      }));
    },
    // the new entries' ids are drawn fresh by each form, their times are each unit's instant: compare the events without them
    same: (raw, orm) => {
      const norm = (events: any[]) =>
        sorted(events.map((e) => ({ ...e, aggregateId: undefined, object: { ...e.object, id: undefined, createdAt: undefined, updatedAt: undefined } })), (e) => JSON.stringify(e));
      return sameJson(norm(raw as any[]), norm(orm as any[]));
    },
  },];

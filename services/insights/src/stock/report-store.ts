import Decimal from 'decimal.js';
import { findPlain, type ListPage, type Work } from '@bop/shared';
import { dayOf } from '../kpis/store';
import { reportPage, type ReportParams } from './report-page';
import { StockFlow, StockItem, StockOnHand } from './entities';
import type { Flow } from './usage';
import { USED } from './usage';

const money = (d: Decimal) => d.toFixed(2, Decimal.ROUND_HALF_UP);
const qty = (d: Decimal) => d.toDecimalPlaces(6, Decimal.ROUND_HALF_UP).toFixed();
const pct = (n: Decimal, d: Decimal) => (d.isZero() ? null : n.times(100).div(d).toFixed(2, Decimal.ROUND_HALF_UP));

async function itemNames(w: Work, ids: string[]): Promise<Map<string, { name: string; baseUnit: string }>> {
  if (ids.length === 0) return new Map();
  const rows = await findPlain(w.em, StockItem, { id: { $in: ids } });
  return new Map(rows.map((r) => [r.id, { name: r.name, baseUnit: r.baseUnit }]));
}

/** A row of the actual-versus-theoretical usage report: one item at one location over the days asked. */
export interface UsageVarianceRow {
  locationId: string;
  itemId: string;
  itemName: string | null;
  baseUnit: string | null;
  /** what the sales should have used by their recipes (base units) and its cost */
  theoreticalQuantity: string;
  theoreticalCost: string;
  /** what was used: sales + waste + count variances + adjustments (opening stock + receipts ± transfers − closing stock) */
  actualQuantity: string;
  actualCost: string;
  /** actual − theoretical (positive: more used than the sales explain) */
  varianceQuantity: string;
  varianceCost: string;
  /** varianceCost ÷ theoreticalCost × 100 (null when nothing theoretical) */
  variancePercent: string | null;
  /** the parts of actual usage besides the sales: waste, count variances (missing: positive), other adjustments */
  wasteCost: string;
  countVarianceCost: string;
  adjustmentCost: string;
}

/** The exact usage sums of each (location, item) over `from`..`to`, from the stock flows (changes of on hand, negated: used). */
export async function usageSums(w: Work, p: Pick<ReportParams, 'locationIds' | 'from' | 'to'>) {
  const sums = new Map<string, { locationId: string; itemId: string; q: Record<Flow, Decimal>; v: Record<Flow, Decimal> }>();
  if (p.locationIds.length === 0) return sums;
  const flows = await findPlain(w.em, StockFlow, { locationId: { $in: p.locationIds }, businessDay: { $gte: p.from, $lte: p.to }, flow: { $in: [...USED] } });
  for (const f of flows) {
    const k = `${f.locationId}|${f.itemId}`;
    let s = sums.get(k);
    if (!s) sums.set(k, (s = { locationId: f.locationId, itemId: f.itemId, q: zeroes(), v: zeroes() }));
    const flow = f.flow as Flow;
    s.q[flow] = s.q[flow].minus(f.quantity);
    s.v[flow] = s.v[flow].minus(f.value);
  }
  return sums;
}

const zeroes = () => Object.fromEntries(['sale', 'waste', 'count', 'adjustment', 'opening', 'receipt', 'transfer_in', 'transfer_out', 'shipment'].map((f) => [f, new Decimal(0)])) as Record<Flow, Decimal>;
const used = (r: Record<Flow, Decimal>) => [...USED].reduce((t, f) => t.plus(r[f]), new Decimal(0));

/**
 * Actual versus theoretical usage by item: per location and item over business days `from`..`to`,
 * what the sales should have used (their recipes) against what was used, in base units and at cost,
 * ordered by location and item.
 */
export async function usageVarianceReport(w: Work, p: ReportParams): Promise<ListPage<UsageVarianceRow>> {
  const sums = await usageSums(w, p);
  const names = await itemNames(w, [...new Set([...sums.values()].map((s) => s.itemId))]);
  return reportPage(
    [...sums].map(([key, s]) => {
      const actualQ = used(s.q);
      const actualV = used(s.v);
      const item = names.get(s.itemId);
      return {
        key,
        row: {
          locationId: s.locationId,
          itemId: s.itemId,
          itemName: item?.name ?? null,
          baseUnit: item?.baseUnit ?? null,
          theoreticalQuantity: qty(s.q.sale),
          theoreticalCost: money(s.v.sale),
          actualQuantity: qty(actualQ),
          actualCost: money(actualV),
          varianceQuantity: qty(actualQ.minus(s.q.sale)),
          varianceCost: money(actualV.minus(s.v.sale)),
          variancePercent: pct(actualV.minus(s.v.sale), s.v.sale),
          wasteCost: money(s.v.waste),
          countVarianceCost: money(s.v.count),
          adjustmentCost: money(s.v.adjustment),
        },
      };
    }),
    p,
  );
}

/** A row of the inventory valuation: one item at one location, its stock and value at the start and at the end of the days asked. */
export interface ValuationRow {
  locationId: string;
  itemId: string;
  itemName: string | null;
  baseUnit: string | null;
  openingQuantity: string;
  openingValue: string;
  closingQuantity: string;
  closingValue: string;
  /** closingValue ÷ closingQuantity (null when nothing is on hand) */
  averageCost: string | null;
}

/**
 * Inventory valuation: per location and item, the stock and its value at the end of business day `to`
 * and at the start of `from` — the level inventory reports now (on hand × average cost) less every
 * flow booked after that day. Items without a level (never moved) are not listed.
 */
export async function inventoryValuationReport(w: Work, p: ReportParams): Promise<ListPage<ValuationRow>> {
  if (p.locationIds.length === 0) return { data: [], nextCursor: null, hasMore: false };
  const levels = await findPlain(w.em, StockOnHand, { locationId: { $in: p.locationIds } });
  const later = await findPlain(w.em, StockFlow, { locationId: { $in: p.locationIds }, businessDay: { $gte: p.from } });
  const after = new Map<string, { toQ: Decimal; toV: Decimal; fromQ: Decimal; fromV: Decimal }>();
  for (const f of later) {
    const k = `${f.locationId}|${f.itemId}`;
    const a = after.get(k) ?? { toQ: new Decimal(0), toV: new Decimal(0), fromQ: new Decimal(0), fromV: new Decimal(0) };
    a.fromQ = a.fromQ.plus(f.quantity);
    a.fromV = a.fromV.plus(f.value);
    if (dayOf(f.businessDay) > p.to) {
      a.toQ = a.toQ.plus(f.quantity);
      a.toV = a.toV.plus(f.value);
    }
    after.set(k, a);
  }
  const names = await itemNames(w, [...new Set(levels.map((l) => l.itemId))]);
  return reportPage(
    levels.map((l) => {
      const key = `${l.locationId}|${l.itemId}`;
      const a = after.get(key);
      const onHand = new Decimal(l.onHand);
      const value = new Decimal(l.value ?? 0);
      const closingQ = a ? onHand.minus(a.toQ) : onHand;
      const closingV = a ? value.minus(a.toV) : value;
      const item = names.get(l.itemId);
      return {
        key,
        row: {
          locationId: l.locationId,
          itemId: l.itemId,
          itemName: item?.name ?? null,
          baseUnit: item?.baseUnit ?? null,
          openingQuantity: qty(a ? onHand.minus(a.fromQ) : onHand),
          openingValue: money(a ? value.minus(a.fromV) : value),
          closingQuantity: qty(closingQ),
          closingValue: money(closingV),
          averageCost: closingQ.gt(0) ? closingV.div(closingQ).toFixed(6, Decimal.ROUND_HALF_UP) : null,
        },
      };
    }),
    p,
  );
}

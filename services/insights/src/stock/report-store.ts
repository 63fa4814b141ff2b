import Decimal from 'decimal.js';
import { ReportRangeParams } from '@bop/contracts';
import { findPlain, type Work } from '@bop/shared';
import { dayOf } from '../kpis/store';
import { defineReport, pageRows, type ReportColumn } from '../reports/registry';
import { StockFlow, StockItem, StockOnHand } from './entities';
import type { Flow } from './usage';
import { USED } from './usage';

const money = (d: Decimal) => d.toFixed(2, Decimal.ROUND_HALF_UP);
const qty = (d: Decimal) => d.toDecimalPlaces(6, Decimal.ROUND_HALF_UP).toFixed();
const pct = (n: Decimal, d: Decimal) => (d.isZero() ? null : n.times(100).div(d).toFixed(2, Decimal.ROUND_HALF_UP));

/** The locations and business days a food report covers (resolved within the caller's reach by the route). */
interface RangeScope {
  locationIds: string[];
  from: string;
  to: string;
}

/** The item columns every food report by item starts with. */
export const ITEM_COLUMNS: ReportColumn[] = [
  { name: 'itemId', type: 'text', unit: null, description: "inventory's item" },
  { name: 'itemName', type: 'text', unit: null, description: "the item's name at inventory (null until insights has read it)" },
];
const LOCATION: ReportColumn = { name: 'locationId', type: 'text', unit: null, description: 'the location' };
const BASE_UNIT: ReportColumn = { name: 'baseUnit', type: 'text', unit: null, description: "the item's base unit, the unit of its quantities" };
/** A quantity of an item in its base unit: exact, up to six decimals (as inventory keeps it), not rounded to two. */
const quantity = (name: string, description: string): ReportColumn => ({ name, type: 'decimal', unit: null, description: `${description}, in base units (up to six decimals)` });
const cost = (name: string, description: string): ReportColumn => ({ name, type: 'money', unit: 'money', description });

async function itemNames(w: Work, ids: string[]): Promise<Map<string, { name: string; baseUnit: string }>> {
  if (ids.length === 0) return new Map();
  const rows = await findPlain(w.em, StockItem, { id: { $in: ids } });
  return new Map(rows.map((r) => [r.id, { name: r.name, baseUnit: r.baseUnit }]));
}

/** The exact usage sums of each (location, item) over `from`..`to`, from the stock flows (changes of on hand, negated: used). */
export async function usageSums(w: Work, p: RangeScope) {
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
export const usageVariance = defineReport({
  key: 'usage-actual-vs-theoretical',
  title: 'Actual vs theoretical usage by item',
  description:
    "Per location and item: what the sales should have used by their recipes (theoretical) against what was used (actual: opening stock + receipts ± transfers − closing stock, i.e. the sales, the waste, the counts' variances and the other adjustments), in base units and at cost, from inventory's stock ledger. The costs add up to `GET /kpis` theoreticalFoodCost and actualFoodCost for the same scope.",
  params: ReportRangeParams,
  columns: [
    LOCATION,
    ...ITEM_COLUMNS,
    BASE_UNIT,
    quantity('theoreticalQuantity', 'what the sales should have used by their recipes'),
    cost('theoreticalCost', 'its cost, as the ledger valued the depletion of sales'),
    quantity('actualQuantity', 'what was used'),
    cost('actualCost', 'its cost'),
    quantity('varianceQuantity', 'actual − theoretical (positive: more used than the sales explain)'),
    cost('varianceCost', 'actualCost − theoreticalCost'),
    { name: 'variancePercent', type: 'decimal', unit: '%', description: 'varianceCost ÷ theoreticalCost × 100 (null when nothing theoretical)' },
    cost('wasteCost', 'the waste within actual usage'),
    cost('countVarianceCost', 'what the counts found missing (negative: in excess)'),
    cost('adjustmentCost', 'other adjustments (lost, damaged, found; not opening balances)'),
  ],
  async run(w, p, page) {
    const sums = await usageSums(w, p);
    const names = await itemNames(w, [...new Set([...sums.values()].map((s) => s.itemId))]);
    return pageRows([...sums], page, ([key]) => key, ([, s]) => {
      const actualQ = used(s.q);
      const actualV = used(s.v);
      const item = names.get(s.itemId);
      return {
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
      };
    });
  },
});

/**
 * Inventory valuation: per location and item, the stock and its value at the end of business day `to`
 * and at the start of `from` — the level inventory reports now (on hand × average cost) less every
 * flow booked after that day. Items without a level (never moved) are not listed.
 */
export const inventoryValuation = defineReport({
  key: 'inventory-valuation',
  title: 'Inventory valuation',
  description:
    "Per location and item with a stock level: the quantity on hand and its value at the start of `from` and at the end of `to`, and the average cost then. This is inventory's level now (on hand × average cost) less each stock flow booked after that day.",
  params: ReportRangeParams,
  columns: [
    LOCATION,
    ...ITEM_COLUMNS,
    BASE_UNIT,
    quantity('openingQuantity', 'on hand at the start of `from`'),
    cost('openingValue', 'its value'),
    quantity('closingQuantity', 'on hand at the end of `to`'),
    cost('closingValue', 'its value'),
    { name: 'averageCost', type: 'decimal', unit: 'money', description: 'closingValue ÷ closingQuantity per base unit, to six decimals (null when nothing is on hand)' },
  ],
  async run(w, p, page) {
    if (p.locationIds.length === 0) return { rows: [], nextCursor: null };
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
    return pageRows(levels, page, (l) => `${l.locationId}|${l.itemId}`, (l) => {
      const a = after.get(`${l.locationId}|${l.itemId}`);
      const onHand = new Decimal(l.onHand);
      const value = new Decimal(l.value ?? 0);
      const closingQ = a ? onHand.minus(a.toQ) : onHand;
      const closingV = a ? value.minus(a.toV) : value;
      const item = names.get(l.itemId);
      return {
        locationId: l.locationId,
        itemId: l.itemId,
        itemName: item?.name ?? null,
        baseUnit: item?.baseUnit ?? null,
        openingQuantity: qty(a ? onHand.minus(a.fromQ) : onHand),
        openingValue: money(a ? value.minus(a.fromV) : value),
        closingQuantity: qty(closingQ),
        closingValue: money(closingV),
        averageCost: closingQ.gt(0) ? closingV.div(closingQ).toFixed(6, Decimal.ROUND_HALF_UP) : null,
      };
    });
  },
});

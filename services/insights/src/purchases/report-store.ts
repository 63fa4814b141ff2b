import Decimal from 'decimal.js';
import { findPlain, type ListPage, type Work } from '@bop/shared';
import { reportPage, type ReportParams } from '../stock/report-page';
import { StockItem } from '../stock/entities';
import { PurchasePrice } from './entities';

/** A row of the purchase price variance: one item bought from one supplier (at the locations asked) over the days asked. */
export interface PriceVarianceRow {
  supplierId: string;
  itemId: string;
  itemName: string | null;
  /** receipt lines in the period */
  receipts: number;
  /** base units received and what they cost */
  quantity: string;
  spend: string;
  /** the price per base unit to compare with: the last one paid before `from`, else the first in the period */
  baselineUnitCost: string;
  averageUnitCost: string;
  minUnitCost: string;
  maxUnitCost: string;
  lastUnitCost: string;
  /** (lastUnitCost − baselineUnitCost) ÷ baselineUnitCost × 100 (null with a baseline of zero) */
  changePercent: string | null;
  /** spend − quantity × baselineUnitCost: what the price changes cost (negative: saved) */
  varianceValue: string;
}

const cost = (d: Decimal.Value) => new Decimal(d).toFixed(6, Decimal.ROUND_HALF_UP);

/**
 * Purchase price variance by supplier and item: the receipts at `locationIds` on business days
 * `from`..`to` (purchasing's receipts, the price actually paid per base unit), each supplier and item
 * against its baseline price, ordered by supplier and item.
 */
export async function purchasePriceVarianceReport(w: Work, p: ReportParams): Promise<ListPage<PriceVarianceRow>> {
  if (p.locationIds.length === 0) return { data: [], nextCursor: null, hasMore: false };
  const lines = await findPlain(w.em, PurchasePrice, { locationId: { $in: p.locationIds }, businessDay: { $gte: p.from, $lte: p.to } }, { orderBy: { receivedAt: 'asc', id: 'asc' } });
  const groups = new Map<string, typeof lines>();
  for (const l of lines) {
    const k = `${l.supplierId}|${l.itemId}`;
    groups.set(k, [...(groups.get(k) ?? []), l]);
  }
  const rows = [];
  const names = new Map((await findPlain(w.em, StockItem, { id: { $in: [...new Set(lines.map((l) => l.itemId))] } })).map((i) => [i.id, i.name]));
  for (const [key, g] of groups) {
    const first = g[0];
    const [before] = await findPlain(
      w.em,
      PurchasePrice,
      { supplierId: first.supplierId, itemId: first.itemId, locationId: { $in: p.locationIds }, businessDay: { $lt: p.from } },
      { orderBy: { receivedAt: 'desc', id: 'desc' }, limit: 1 },
    );
    const baseline = new Decimal((before ?? first).unitCost);
    const quantity = g.reduce((t, l) => t.plus(l.quantity), new Decimal(0));
    const spend = g.reduce((t, l) => t.plus(l.value), new Decimal(0));
    const costs = g.map((l) => new Decimal(l.unitCost));
    const last = costs[costs.length - 1];
    rows.push({
      key,
      row: {
        supplierId: first.supplierId,
        itemId: first.itemId,
        itemName: names.get(first.itemId) ?? null,
        receipts: g.length,
        quantity: quantity.toFixed(),
        spend: spend.toFixed(2, Decimal.ROUND_HALF_UP),
        baselineUnitCost: cost(baseline),
        averageUnitCost: quantity.isZero() ? cost(last) : cost(spend.div(quantity)),
        minUnitCost: cost(Decimal.min(...costs)),
        maxUnitCost: cost(Decimal.max(...costs)),
        lastUnitCost: cost(last),
        changePercent: baseline.isZero() ? null : last.minus(baseline).times(100).div(baseline).toFixed(2, Decimal.ROUND_HALF_UP),
        varianceValue: spend.minus(quantity.times(baseline)).toFixed(2, Decimal.ROUND_HALF_UP),
      },
    });
  }
  return reportPage(rows, p);
}

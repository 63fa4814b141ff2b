import Decimal from 'decimal.js';
import { ReportRangeParams } from '@bop/contracts';
import { findPlain } from '@bop/shared';
import { defineReport, pageRows, type ReportColumn, type ReportRow } from '../reports/registry';
import { ITEM_COLUMNS } from '../stock/report-store';
import { StockItem } from '../stock/entities';
import { PurchasePrice } from './entities';

const cost = (d: Decimal.Value) => new Decimal(d).toFixed(6, Decimal.ROUND_HALF_UP);
/** A price per base unit: a decimal string to six decimals (sub-cent prices are common per gram or per piece). */
const unitCost = (name: string, description: string): ReportColumn => ({ name, type: 'decimal', unit: 'money', description: `${description}, per base unit, to six decimals` });

/**
 * Purchase price variance by supplier and item: the receipts at `locationIds` on business days
 * `from`..`to` (purchasing's receipts, the price actually paid per base unit), each supplier and item
 * against its baseline price, ordered by supplier and item.
 */
export const purchasePriceVariance = defineReport({
  key: 'purchase-price-variance',
  title: 'Purchase price variance by supplier and item',
  description:
    "Per supplier and item received at the locations on those business days (purchasing's receipts, the price actually paid per base unit): receipts, quantity and spend, each price against the baseline (the last one paid before `from`, else the first in the period), and what the changes cost.",
  params: ReportRangeParams,
  columns: [
    { name: 'supplierId', type: 'text', unit: null, description: "purchasing's supplier" },
    ...ITEM_COLUMNS,
    { name: 'receipts', type: 'integer', unit: null, description: 'receipt lines in the period' },
    { name: 'quantity', type: 'decimal', unit: null, description: 'base units received (up to six decimals)' },
    { name: 'spend', type: 'money', unit: 'money', description: 'what they cost' },
    unitCost('baselineUnitCost', 'the price to compare with: the last one paid before `from`, else the first in the period'),
    unitCost('averageUnitCost', 'spend ÷ quantity'),
    unitCost('minUnitCost', 'the lowest price paid in the period'),
    unitCost('maxUnitCost', 'the highest price paid in the period'),
    unitCost('lastUnitCost', 'the last price paid in the period'),
    { name: 'changePercent', type: 'decimal', unit: '%', description: '(lastUnitCost − baselineUnitCost) ÷ baselineUnitCost × 100 (null with a baseline of zero)' },
    { name: 'varianceValue', type: 'money', unit: 'money', description: 'spend − quantity × baselineUnitCost: what the price changes cost (negative: saved)' },
  ],
  async run(w, p, page) {
    if (p.locationIds.length === 0) return { rows: [], nextCursor: null };
    const lines = await findPlain(w.em, PurchasePrice, { locationId: { $in: p.locationIds }, businessDay: { $gte: p.from, $lte: p.to } }, { orderBy: { receivedAt: 'asc', id: 'asc' } });
    const groups = new Map<string, typeof lines>();
    for (const l of lines) {
      const k = `${l.supplierId}|${l.itemId}`;
      groups.set(k, [...(groups.get(k) ?? []), l]);
    }
    const rows: Array<{ key: string; row: ReportRow }> = [];
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
    return pageRows(rows, page, (r) => r.key, (r) => r.row);
  },
});

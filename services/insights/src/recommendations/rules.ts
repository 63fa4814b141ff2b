import Decimal from 'decimal.js';
import { DateTime } from 'luxon';
import type { RecommendationKind } from '@bop/contracts';

/** A recommendation the rules found: its situation's key, subject, reasoning and figures. */
export interface Found {
  key: string;
  kind: RecommendationKind;
  locationId: string;
  itemId: string | null;
  supplierId: string | null;
  reasoning: string;
  figures: Record<string, string | null>;
}

export interface RuleSettings {
  usageDays: number;
  leadDays: number;
  priceRisePercent: number;
  varianceItems: number;
}

const q = (d: Decimal) => d.toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed();
const pct = (d: Decimal) => d.toFixed(2, Decimal.ROUND_HALF_UP);
const cost = (d: Decimal.Value) => new Decimal(d).toFixed(6, Decimal.ROUND_HALF_UP).replace(/\.?0+$/, '');
const daysBetween = (from: string, to: string) => Math.round(DateTime.fromISO(to, { zone: 'UTC' }).diff(DateTime.fromISO(from, { zone: 'UTC' }), 'days').days);

/**
 * Reorder: stock that runs out before the next delivery. The usage rate is the actual usage of the
 * last `usageDays` complete days ÷ `usageDays`; the next delivery is the earliest expected delivery
 * date (today or later) of an open purchase order that still brings the item, else today + the lead
 * time. Recommended when on hand < rate × days until then; the shortfall is what is missing until then.
 */
export function reorder(
  s: RuleSettings,
  today: string,
  x: { locationId: string; itemId: string; itemName: string | null; onHand: string; used: Decimal; nextDelivery: { date: string; orderId: string } | null },
): Found | null {
  const rate = x.used.div(s.usageDays);
  if (!rate.gt(0)) return null;
  const onHand = new Decimal(x.onHand);
  const until = x.nextDelivery ? daysBetween(today, x.nextDelivery.date) : s.leadDays;
  const needed = rate.times(until);
  if (!onHand.lt(needed)) return null;
  const daysOfStock = onHand.gt(0) ? onHand.div(rate) : new Decimal(0);
  const shortfall = needed.minus(Decimal.max(onHand, 0));
  const name = x.itemName ?? x.itemId;
  const when = x.nextDelivery ? `the next delivery (purchase order ${x.nextDelivery.orderId}) is expected on ${x.nextDelivery.date}, in ${until} days` : `no open purchase order brings it; an order placed today arrives in ${until} days (lead time)`;
  return {
    key: `reorder|${x.locationId}|${x.itemId}`,
    kind: 'reorder',
    locationId: x.locationId,
    itemId: x.itemId,
    supplierId: null,
    reasoning: `${name}: ${q(onHand)} on hand, ${q(rate)} a day used over the last ${s.usageDays} days: ${q(daysOfStock)} days of stock; ${when}. Order at least ${q(shortfall)} more.`,
    figures: {
      onHand: onHand.toFixed(),
      usedInWindow: x.used.toFixed(),
      usageDays: String(s.usageDays),
      dailyUsage: rate.toDecimalPlaces(6, Decimal.ROUND_HALF_UP).toFixed(),
      daysOfStock: q(daysOfStock),
      nextDeliveryDate: x.nextDelivery?.date ?? null,
      purchaseOrderId: x.nextDelivery?.orderId ?? null,
      leadTimeDays: x.nextDelivery ? null : String(s.leadDays),
      daysUntilDelivery: String(until),
      shortfall: shortfall.toDecimalPlaces(6, Decimal.ROUND_UP).toFixed(),
    },
  };
}

/** Supplier price rise: the last price paid per base unit against the one paid before it, beyond `priceRisePercent`. */
export function priceRise(
  s: RuleSettings,
  x: { locationId: string; supplierId: string; itemId: string; itemName: string | null; previous: { unitCost: string; receiptId: string; day: string }; last: { unitCost: string; receiptId: string; day: string } },
): Found | null {
  const before = new Decimal(x.previous.unitCost);
  const now = new Decimal(x.last.unitCost);
  if (!before.gt(0)) return null;
  const rise = now.minus(before).times(100).div(before);
  if (!rise.gt(s.priceRisePercent)) return null;
  const name = x.itemName ?? x.itemId;
  return {
    key: `supplier_price_rise|${x.locationId}|${x.supplierId}|${x.itemId}|${x.last.receiptId}`,
    kind: 'supplier_price_rise',
    locationId: x.locationId,
    itemId: x.itemId,
    supplierId: x.supplierId,
    reasoning: `${name} from supplier ${x.supplierId}: ${cost(now)} per base unit on ${x.last.day}, up ${pct(rise)}% from ${cost(before)} on ${x.previous.day} (the threshold is ${s.priceRisePercent}%). Check the price with the supplier or compare other suppliers.`,
    figures: {
      previousUnitCost: cost(before),
      previousReceiptId: x.previous.receiptId,
      previousDay: x.previous.day,
      lastUnitCost: cost(now),
      lastReceiptId: x.last.receiptId,
      lastDay: x.last.day,
      risePercent: pct(rise),
      thresholdPercent: String(s.priceRisePercent),
    },
  };
}

/** Usage variance: the `varianceItems` items of a location whose actual usage cost departs most (either way) from what the sales explain. */
export function largestVariances(
  s: RuleSettings,
  window: { from: string; to: string },
  items: Array<{ locationId: string; itemId: string; itemName: string | null; theoreticalCost: Decimal; actualCost: Decimal }>,
): Found[] {
  return items
    .map((x) => ({ ...x, variance: x.actualCost.minus(x.theoreticalCost).toDecimalPlaces(2, Decimal.ROUND_HALF_UP) }))
    .filter((x) => !x.variance.isZero())
    .sort((a, b) => b.variance.abs().comparedTo(a.variance.abs()) || (a.itemId < b.itemId ? -1 : 1))
    .slice(0, s.varianceItems)
    .map((x) => {
      const name = x.itemName ?? x.itemId;
      const more = x.variance.gt(0);
      return {
        key: `usage_variance|${x.locationId}|${x.itemId}`,
        kind: 'usage_variance' as const,
        locationId: x.locationId,
        itemId: x.itemId,
        supplierId: null,
        reasoning: `${name}: ${x.actualCost.toFixed(2, Decimal.ROUND_HALF_UP)} used from ${window.from} to ${window.to} against ${x.theoreticalCost.toFixed(2, Decimal.ROUND_HALF_UP)} the sales explain by their recipes: ${x.variance.abs().toFixed(2)} ${more ? 'more' : 'less'}, among the largest variances at this location. ${more ? 'Check waste, portioning, theft and the recipe.' : 'Check the recipe and the counts.'}`,
        figures: {
          from: window.from,
          to: window.to,
          theoreticalCost: x.theoreticalCost.toFixed(2, Decimal.ROUND_HALF_UP),
          actualCost: x.actualCost.toFixed(2, Decimal.ROUND_HALF_UP),
          varianceCost: x.variance.toFixed(2),
        },
      };
    });
}

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
  /** staffing against the forecast: net sales a labor hour should bring (unset: no staffing recommendations) */
  targetSplh?: string | null;
  /** the business days from today the staffing is checked for */
  staffingDays?: number;
  /** hours under- or over-staffed, in percent of the hours needed, beyond which a day is recommended for action */
  staffingTolerancePercent?: number;
}

const q = (d: Decimal) => d.toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed();
/** hours to two decimals, half up */
const h2 = (d: Decimal) => d.toFixed(2, Decimal.ROUND_HALF_UP);
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

/** A published shift as staffing places it in the hours: its paid hours spread evenly over its span. */
export interface PlacedShift {
  startsAt: Date | null;
  endsAt: Date | null;
  paidHours: string;
}

const HOUR_MS = 3_600_000;

/**
 * Staffing against the forecast, for one location and business day to come: per hour of the day the
 * hours needed (the forecast net sales of the hour ÷ the target sales per labor hour) against the
 * hours scheduled (each published shift's paid hours spread evenly over its span, so they add up to
 * its paid hours). Recommended when the hours under-staffed (Σ needed − scheduled where short) or
 * over-staffed (Σ scheduled − needed where in excess) exceed `staffingTolerancePercent` of the hours
 * needed. A day with no published shift is not scheduled yet: nothing is recommended for it.
 */
export function staffing(
  s: RuleSettings,
  x: { locationId: string; day: string; zone: string; forecast: { start: Date; hours: Decimal[]; total: Decimal; fittedAt: Date }; shifts: PlacedShift[] },
): Found | null {
  if (!s.targetSplh || x.shifts.length === 0) return null;
  const splh = new Decimal(s.targetSplh);
  if (!splh.gt(0)) return null;
  const tolerance = s.staffingTolerancePercent ?? 10;
  const dayStart = x.forecast.start.getTime();
  const scheduled = x.forecast.hours.map(() => new Decimal(0));
  let unplaced = new Decimal(0);
  for (const sh of x.shifts) {
    const from = sh.startsAt?.getTime();
    const to = sh.endsAt?.getTime();
    if (from === undefined || to === undefined || !(to > from)) {
      unplaced = unplaced.plus(sh.paidHours);
      continue;
    }
    for (let i = 0; i < scheduled.length; i++) {
      const overlap = Math.min(to, dayStart + (i + 1) * HOUR_MS) - Math.max(from, dayStart + i * HOUR_MS);
      if (overlap > 0) scheduled[i] = scheduled[i].plus(new Decimal(sh.paidHours).times(overlap).div(to - from));
    }
  }
  const needed = x.forecast.hours.map((h) => h.div(splh));
  const neededTotal = needed.reduce((t, n) => t.plus(n), new Decimal(0));
  const scheduledTotal = scheduled.reduce((t, n) => t.plus(n), new Decimal(0)).plus(unplaced);
  let under = new Decimal(0);
  let over = new Decimal(0);
  const underAt: string[] = [];
  const overAt: string[] = [];
  const label = (i: number) => DateTime.fromMillis(dayStart + i * HOUR_MS, { zone: x.zone }).toFormat('HH:00');
  needed.forEach((n, i) => {
    const diff = scheduled[i].minus(n).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
    if (diff.lt(0)) {
      under = under.minus(diff);
      underAt.push(label(i));
    } else if (diff.gt(0)) {
      over = over.plus(diff);
      overAt.push(label(i));
    }
  });
  const limit = neededTotal.times(tolerance).div(100);
  if (!under.gt(limit) && !over.gt(limit)) return null;
  const lines = [
    under.gt(limit) ? `under-staffed by ${h2(under)} hours (at ${underAt.join(', ')}): schedule more in those hours` : null,
    over.gt(limit) ? `over-staffed by ${h2(over)} hours (at ${overAt.join(', ')}): cut or move hours there` : null,
  ].filter((l) => l !== null);
  return {
    key: `staffing|${x.locationId}|${x.day}`,
    kind: 'staffing',
    locationId: x.locationId,
    itemId: null,
    supplierId: null,
    reasoning: `${x.day}: the forecast is ${x.forecast.total.toFixed(2, Decimal.ROUND_HALF_UP)} net sales, which needs ${h2(neededTotal)} labor hours at ${s.targetSplh} sales per labor hour; ${h2(scheduledTotal)} are scheduled. By the hour, ${lines.join('; ')} (the tolerance is ${tolerance}% of the hours needed).`,
    figures: {
      date: x.day,
      forecastNetSales: x.forecast.total.toFixed(2, Decimal.ROUND_HALF_UP),
      forecastFittedAt: x.forecast.fittedAt.toISOString(),
      targetSalesPerLaborHour: s.targetSplh,
      neededHours: h2(neededTotal),
      scheduledHours: h2(scheduledTotal),
      unplacedHours: unplaced.isZero() ? null : h2(unplaced),
      underStaffedHours: h2(under),
      overStaffedHours: h2(over),
      underStaffedAt: underAt.length ? underAt.join(',') : null,
      overStaffedAt: overAt.length ? overAt.join(',') : null,
      tolerancePercent: String(tolerance),
    },
  };
}

import Decimal from 'decimal.js';
import type { CatalogLine, SuggestedOrderLine } from '@bop/contracts';
import { fmtAmount, fmtQuantity } from '@bop/shared';

/**
 * One line of a suggested order (pure, no I/O), as contracts/src/purchasing/suggested.ts states it:
 *   need = par − available − on order + expected usage until delivery (base units),
 *   expected usage = average daily usage over the window × lead time (days),
 *   packs = ⌈need ÷ base units per pack⌉, at least the minimum order (0 when need ≤ 0).
 *
 * Formats (the kit's money.ts): base quantities (averages, expected usage, need) rounded half-up to six
 * decimals; quantities, packs and prices without trailing zeros ("12.5", "3"); amounts with two
 * decimals ("56.85").
 */

const D = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP });
const ZERO = new D(0);

const round6 = (v: Decimal.Value) => new D(v).toDecimalPlaces(6, D.ROUND_HALF_UP);
/** Prices per pack print like quantities: no trailing zeros ("10.2"). */
const fmtPrice = fmtQuantity;

export interface SuggestInput {
  line: CatalogLine;
  level: { onHand: string; reserved: string; available: string; parLevel: string | null; usage: string };
  /** base units still expected from open orders */
  onOrder: string;
  usageDays: number;
}

const packs = (q: Decimal.Value) => `${fmtQuantity(q)} ${new D(q).equals(1) ? 'pack' : 'packs'}`;
const days = (n: number) => `${n} ${n === 1 ? 'day' : 'days'}`;

/** The pack quotient as shown: two decimals, more when two would hide that it is not whole. */
function showQuotient(q: Decimal): string {
  if (q.isInteger()) return q.toFixed();
  const two = q.toDecimalPlaces(2, D.ROUND_HALF_UP);
  return two.isInteger() ? fmtQuantity(q) : two.toFixed();
}

/** spec: suggested orders (contracts/src/purchasing/suggested.ts), one catalog line. */
export function suggestLine(input: SuggestInput): SuggestedOrderLine {
  const { line, level, usageDays } = input;
  const unit = line.baseUnit;
  const withUnit = (v: Decimal.Value) => `${fmtQuantity(v)} ${unit}`;
  const usage = new D(level.usage);
  // refunds exceeding sales in the window are no negative usage
  const counted = D.max(ZERO, usage);
  const averageDailyUsage = round6(counted.dividedBy(usageDays));
  const leadTimeDays = line.leadTimeDays ?? 0;
  const expectedUsage = round6(averageDailyUsage.times(leadTimeDays));
  const perPack = new D(line.baseQuantityPerPack);
  const minimum = new D(line.minimumOrderQuantity);
  const price = new D(line.price);

  const usageWords = usage.isNegative()
    ? `usage ${withUnit(usage)} over the last ${days(usageDays)} counts as 0: refunds exceeded sales`
    : `usage ${withUnit(usage)} over the last ${days(usageDays)} = ${fmtQuantity(averageDailyUsage)}/day`;
  const leadWords = line.leadTimeDays === null ? `0 days: no lead time set on the catalog line or the supplier` : days(leadTimeDays);

  const common = {
    supplierItemCode: line.supplierItemCode,
    itemId: line.itemId,
    itemName: line.itemName,
    baseUnit: unit,
    parLevel: level.parLevel === null ? null : fmtQuantity(level.parLevel),
    onHand: fmtQuantity(level.onHand),
    reserved: fmtQuantity(level.reserved),
    available: fmtQuantity(level.available),
    onOrder: fmtQuantity(input.onOrder),
    usageInWindow: fmtQuantity(usage),
    averageDailyUsage: fmtQuantity(averageDailyUsage),
    leadTimeDays,
    expectedUsage: fmtQuantity(expectedUsage),
    baseQuantityPerPack: fmtQuantity(perPack),
    minimumOrderQuantity: fmtQuantity(minimum),
    price: fmtPrice(price),
  };

  if (level.parLevel === null) {
    return {
      ...common,
      need: '0',
      quantity: '0',
      amount: fmtAmount(0),
      explanation: `No par level for ${line.itemName} at this location, so nothing is suggested: configure one with POST /stock-levels:configure. (Available ${withUnit(level.available)}, on order ${withUnit(input.onOrder)}; ${usageWords}.)`,
    };
  }

  const par = new D(level.parLevel);
  const available = new D(level.available);
  const onOrder = new D(input.onOrder);
  const need = round6(par.minus(available).minus(onOrder).plus(expectedUsage));

  const reserved = new D(level.reserved);
  const availableWords = reserved.isZero() ? fmtQuantity(available) : `${fmtQuantity(available)} (on hand ${fmtQuantity(level.onHand)} − reserved ${fmtQuantity(reserved)})`;
  const arithmetic =
    `par ${fmtQuantity(par)} − available ${availableWords} − on order ${fmtQuantity(onOrder)}` +
    ` + expected usage ${fmtQuantity(expectedUsage)} (${fmtQuantity(averageDailyUsage)}/day × ${leadWords}) = ${withUnit(need)}`;

  let quantity = ZERO;
  let packWords: string;
  if (!need.greaterThan(0)) {
    packWords = 'nothing to order';
  } else {
    const quotient = need.dividedBy(perPack);
    const whole = quotient.ceil();
    quantity = D.max(whole, minimum);
    const perPackWords = unit === 'each' ? `${fmtQuantity(perPack)} per pack` : `${withUnit(perPack)} per pack`;
    packWords = `${fmtQuantity(need)} ÷ ${perPackWords} = ${showQuotient(quotient)} → ${packs(whole)}`;
    if (quantity.greaterThan(whole)) packWords += `, raised to the minimum order of ${packs(minimum)}`;
  }
  const amount = quantity.times(price);

  return {
    ...common,
    need: fmtQuantity(need),
    quantity: fmtQuantity(quantity),
    amount: fmtAmount(amount),
    explanation: `${arithmetic}; ${packWords}. (${capitalize(usageWords)}.)`,
  };
}

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

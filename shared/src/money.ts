import Decimal from 'decimal.js';

/**
 * Company-currency money and six-decimal quantities (purchasing, cash): amounts to the cent,
 * quantities and costs to six decimals, half away from zero; strings without trailing zeros except
 * amounts, which always carry two decimals ("120.50").
 */
export const round2 = (v: Decimal.Value): Decimal => new Decimal(v).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
export const round6 = (v: Decimal.Value): Decimal => new Decimal(v).toDecimalPlaces(6, Decimal.ROUND_HALF_UP);

/** A quantity, price or cost: at most six decimals, no trailing zeros, no negative zero. */
export function fmtQuantity(v: Decimal.Value): string {
  const d = round6(v);
  return d.isZero() ? '0' : d.toFixed();
}

/** An amount: two decimals. */
export function fmtAmount(v: Decimal.Value): string {
  const d = round2(v);
  return (d.isZero() ? new Decimal(0) : d).toFixed(2);
}

import Decimal from 'decimal.js';

/** Quantities and costs are numeric(20,6): six decimals, half away from zero. */
export const SCALE = 6;

export const dec = (v: Decimal.Value): Decimal => new Decimal(v);

/** Rounds to the ledger's six decimals. */
export const round6 = (v: Decimal.Value): Decimal => new Decimal(v).toDecimalPlaces(SCALE, Decimal.ROUND_HALF_UP);

/**
 * The canonical string of a stored quantity or cost: no trailing zeros ("12.500000" → "12.5",
 * "3.000000" → "3"), no negative zero. Postgres prints numeric(20,6) with all six decimals.
 */
export function formatQuantity(v: Decimal.Value | null): string {
  if (v === null) return '0';
  const d = round6(v);
  return d.isZero() ? '0' : d.toFixed();
}

export function formatNullable(v: Decimal.Value | null | undefined): string | null {
  return v === null || v === undefined ? null : formatQuantity(v);
}

/** A quantity in a unit of measure (`factor` base units each) as base units. */
export function toBase(quantity: Decimal.Value, factor: Decimal.Value): Decimal {
  return round6(new Decimal(quantity).times(factor));
}

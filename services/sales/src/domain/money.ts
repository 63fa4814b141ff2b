import Decimal from 'decimal.js';

const minorUnitsCache = new Map<string, number>();

/** Digits after the decimal point of a currency (2 for USD/EUR, 0 for JPY, 3 for KWD). */
export function minorUnits(currency: string): number {
  let n = minorUnitsCache.get(currency);
  if (n === undefined) {
    n = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
    minorUnitsCache.set(currency, n);
  }
  return n;
}

/** Rounds to the currency's minor units, half away from zero (how tills round). */
export function roundMoney(value: Decimal.Value, currency: string): Decimal {
  return new Decimal(value).toDecimalPlaces(minorUnits(currency), Decimal.ROUND_HALF_UP);
}

function noNegativeZero(d: Decimal): Decimal {
  return d.isZero() ? new Decimal(0) : d;
}

/** Canonical money string: at least the currency's minor units, more only when sent ("10.5" → "10.50", "1.2345" stays). */
export function formatMoney(value: Decimal.Value, currency: string): string {
  const d = noNegativeZero(new Decimal(value));
  const minor = minorUnits(currency);
  return d.decimalPlaces() <= minor ? d.toFixed(minor) : d.toFixed();
}

/** Canonical quantity string: no trailing zeros ("2.000" → "2", "1.50" → "1.5"). */
export function formatQuantity(value: Decimal.Value): string {
  return noNegativeZero(new Decimal(value)).toFixed();
}

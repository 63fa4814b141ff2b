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

const canonicalMoney = new Map<number, RegExp>();

/** Canonical money string: at least the currency's minor units, more only when sent ("10.5" → "10.50", "1.2345" stays). */
export function formatMoney(value: Decimal.Value, currency: string): string {
  const minorDigits = minorUnits(currency);
  // hot path: most sources already send "8.50"; no Decimal needed (negative zero and leading zeros excepted)
  if (typeof value === 'string') {
    let re = canonicalMoney.get(minorDigits);
    if (!re) {
      re = minorDigits === 0 ? /^-?(0|[1-9]\d*)$/ : new RegExp(`^-?(0|[1-9]\\d*)\\.\\d{${minorDigits}}$`);
      canonicalMoney.set(minorDigits, re);
    }
    if (re.test(value) && !(value.charCodeAt(0) === 45 && /^-0(\.0*)?$/.test(value))) return value;
  }
  const d = noNegativeZero(new Decimal(value));
  const minor = minorUnits(currency);
  return d.decimalPlaces() <= minor ? d.toFixed(minor) : d.toFixed();
}

/** Canonical quantity string: no trailing zeros ("2.000" → "2", "1.50" → "1.5"). */
export function formatQuantity(value: Decimal.Value): string {
  if (typeof value === 'string' && /^(0|-?[1-9]\d*)$/.test(value)) return value;
  return noNegativeZero(new Decimal(value)).toFixed();
}

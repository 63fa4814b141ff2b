/**
 * Exact fixed-point arithmetic for the per-record checks of ingestion (the hot path): the schema's
 * decimal strings (at most 15 integer digits and 6 decimals, `SalesDecimal`) as BigInt integers
 * scaled by 10^12, so sums and quantity × price are exact without an object per operation.
 * decimal.js stays the money type everywhere else; this is integer arithmetic, never floats.
 */
const SCALE = 12;
const POW10: bigint[] = Array.from({ length: 2 * SCALE + 1 }, (_, i) => 10n ** BigInt(i));
const ONE = POW10[SCALE];

/** A decimal string (`-?\d+(\.\d+)?`, at most 12 decimals) as an integer scaled by 10^12. */
export function toScaled(value: string): bigint {
  const negative = value.charCodeAt(0) === 45;
  const body = negative ? value.slice(1) : value;
  const dot = body.indexOf('.');
  const whole = dot < 0 ? body : body.slice(0, dot);
  const fraction = dot < 0 ? '' : body.slice(dot + 1);
  if (fraction.length > SCALE) throw new Error(`toScaled: more than ${SCALE} decimals in ${value}`);
  const digits = whole + fraction;
  // most figures have few digits: an exact safe integer times a power of ten beats parsing a 13+ digit BigInt
  const scaled = digits.length <= 15 ? BigInt(Number(digits)) * POW10[SCALE - fraction.length] : BigInt(digits + '0'.repeat(SCALE - fraction.length));
  return negative ? -scaled : scaled;
}

/** a × b of two scaled values (exact when their decimals add up to at most 12, as the schema's do). */
export function mulScaled(a: bigint, b: bigint): bigint {
  const product = a * b;
  if (product % ONE !== 0n) throw new Error('mulScaled: the product has more than 12 decimals');
  return product / ONE;
}

/** Rounded half away from zero to `digits` decimals, still scaled by 10^12 (how tills round). */
export function roundScaled(value: bigint, digits: number): bigint {
  const unit = POW10[SCALE - digits];
  const quotient = value / unit;
  const rest = value % unit;
  const away = (rest < 0n ? -rest : rest) * 2n >= unit ? (value < 0n ? -1n : 1n) : 0n;
  return (quotient + away) * unit;
}

/** Canonical money string of a scaled value: at least `minor` decimals, more only when they are significant ("8.5" → "8.50"). */
export function formatScaledMoney(value: bigint, minor: number): string {
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(SCALE + 1, '0');
  const whole = digits.slice(0, digits.length - SCALE);
  let fraction = digits.slice(digits.length - SCALE).replace(/0+$/, '');
  if (fraction.length < minor) fraction = fraction.padEnd(minor, '0');
  const text = fraction.length > 0 ? `${whole}.${fraction}` : whole;
  return negative && /[1-9]/.test(text) ? `-${text}` : text;
}

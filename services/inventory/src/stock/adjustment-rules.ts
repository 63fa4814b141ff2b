import Decimal from 'decimal.js';
import type { AdjustmentReason, StockAdjustmentCreate } from '@bop/contracts';
import type { FieldError } from '@bop/shared';
import { round6 } from '../ledger/quantity';

/** Clock skew tolerated on `occurredAt` (a till a few minutes ahead is still "now"). */
export const FUTURE_TOLERANCE_MS = 5 * 60_000;

/** numeric(20,6): at most 14 integer digits for quantities, costs and values. */
const LEDGER_LIMIT = new Decimal('1e14');

/** The sign each adjustment reason allows (`any`: either). */
export const ADJUSTMENT_SIGN: Record<AdjustmentReason, 'positive' | 'negative' | 'any'> = {
  found: 'positive',
  opening_balance: 'positive',
  lost: 'negative',
  damaged: 'negative',
  correction: 'any',
  other: 'any',
};

/** Field errors of a document's header: `other` needs a note; occurredAt not in the future. */
export function headerErrors(body: { reason: string; note?: string | null; occurredAt?: string }, now: Date): FieldError[] {
  const errors: FieldError[] = [];
  if (body.reason === 'other' && !body.note) errors.push({ path: 'note', message: 'Say what happened: a note is required with reason other.' });
  if (body.occurredAt !== undefined && Date.parse(body.occurredAt) > now.getTime() + FUTURE_TOLERANCE_MS) {
    errors.push({ path: 'occurredAt', message: 'Must not be in the future.' });
  }
  return errors;
}

/** The line count against the configured maximum (spec: Limits, records per batch). */
export function lineCountErrors(lines: unknown[], max: number): FieldError[] {
  return lines.length > max ? [{ path: 'lines', message: `At most ${max} lines per document; send the rest in another.` }] : [];
}

/** Field errors of adjustment lines that need no database: the sign the reason allows, a cost only on stock that arrives. */
export function adjustmentLineErrors(body: Pick<StockAdjustmentCreate, 'reason' | 'lines'>): FieldError[] {
  const errors: FieldError[] = [];
  const sign = ADJUSTMENT_SIGN[body.reason];
  body.lines.forEach((l, i) => {
    const negative = l.quantity.startsWith('-');
    if (sign === 'positive' && negative) errors.push({ path: `lines[${i}].quantity`, message: `Reason ${body.reason} adds stock: the quantity must be positive.` });
    if (sign === 'negative' && !negative) errors.push({ path: `lines[${i}].quantity`, message: `Reason ${body.reason} removes stock: the quantity must be negative.` });
    if (negative && l.unitCost !== undefined && l.unitCost !== null) {
      errors.push({ path: `lines[${i}].unitCost`, message: 'Only stock that arrives (a positive quantity) carries a cost; stock that leaves is valued at the average cost.' });
    }
  });
  return errors;
}

/** A base-unit quantity (and its value at `unitCost`) the ledger can hold, else the line's error. */
export function baseQuantityError(index: number, base: Decimal, unitCost: Decimal.Value | null | undefined): FieldError | null {
  if (base.isZero()) return { path: `lines[${index}].quantity`, message: 'Rounds to zero in the item\u2019s base unit (six decimals).' };
  if (base.abs().gte(LEDGER_LIMIT)) return { path: `lines[${index}].quantity`, message: 'Too large: at most 14 digits before the decimal point in the item\u2019s base unit.' };
  if (unitCost !== undefined && unitCost !== null && round6(base.times(unitCost)).abs().gte(LEDGER_LIMIT)) {
    return { path: `lines[${index}].unitCost`, message: 'The line\u2019s value (quantity × cost) is too large: at most 14 digits.' };
  }
  return null;
}

/** Field errors sorted by line (header fields first), each line's in field order as found. */
export function sortErrors(errors: FieldError[]): FieldError[] {
  const lineOf = (p: string) => {
    const m = /^lines\[(\d+)\]/.exec(p);
    return m ? Number(m[1]) : -1;
  };
  return errors
    .map((e, n) => ({ e, n }))
    .sort((a, b) => lineOf(a.e.path) - lineOf(b.e.path) || a.n - b.n)
    .map(({ e }) => e);
}

/** Sum of the values known (null: a line without a cost counts nothing). */
export function totalValue(values: Array<Decimal.Value | null>): Decimal {
  return values.reduce<Decimal>((sum, v) => (v === null ? sum : sum.plus(v)), new Decimal(0));
}


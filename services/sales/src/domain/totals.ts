import Decimal from 'decimal.js';
import type { SalesTransactionInput } from '@bop/contracts';
import type { FieldError } from '@bop/shared';
import { formatMoney, minorUnits, roundMoney } from './money';

/** quantity × unitPrice − discount (line tax is kept apart). */
/** Digits after the point of a schema-valid decimal string. */
function decimalsOf(v: string): number {
  const dot = v.indexOf('.');
  return dot < 0 ? 0 : v.length - dot - 1;
}

/** "0", "-0.00", "0.000" … (a schema-valid decimal string that is zero). */
export function isZeroString(v: string): boolean {
  return /^-?0(\.0*)?$/.test(v);
}

export function lineTotal(line: { quantity: string; unitPrice: string; discount?: string }): Decimal {
  const gross = new Decimal(line.quantity).times(line.unitPrice);
  // most lines carry no discount ("0", "0.00"): no third Decimal
  return line.discount === undefined || isZeroString(line.discount) ? gross : gross.minus(line.discount);
}

/**
 * The arithmetic and sign rules of one transaction as sent (already schema-valid). Voided records
 * are checked too: a void re-sends the original (spec: ingestion rule 6).
 *
 * Tolerance: none beyond the currency's minor units. Each figure (what we compute and what was sent)
 * is rounded half away from zero to the currency's minor units (Intl: 2 for USD, 0 for JPY, 3 for KWD)
 * and the two must then be equal; sub-cent line prices are fine as long as the sums round alike.
 */
export function checkTransaction(input: SalesTransactionInput, lineTotalsOut?: Decimal[]): FieldError[] {
  const errors: FieldError[] = [];
  const cur = input.currency;
  const minor = minorUnits(cur);
  // a sent figure with at most the currency's digits is its own rounding (the usual case): no second Decimal
  const rounded = (v: Decimal | string) => (typeof v === 'string' && decimalsOf(v) <= minor ? new Decimal(v) : roundMoney(v, cur));
  const same = (a: Decimal | string, b: Decimal | string) => rounded(a).equals(rounded(b));
  const show = (v: Decimal.Value) => formatMoney(roundMoney(v, cur), cur);
  const refund = input.type === 'refund';

  let subtotal = new Decimal(0);
  let lineTax = new Decimal(0);
  let linesCarryTax = false;
  input.lines.forEach((line, i) => {
    // signs read off the decimal strings (schema-valid: -?digits[.digits]); no Decimal needed
    const zero = isZeroString(line.quantity);
    const negative = !zero && line.quantity.charCodeAt(0) === 45;
    // spec: ingestion rule 6, refunds carry negative quantities
    if (refund && !negative) errors.push({ path: `lines[${i}].quantity`, message: 'A refund has negative quantities.' });
    if (!refund && (negative || zero)) errors.push({ path: `lines[${i}].quantity`, message: 'A sale has positive quantities; send a refund for returns.' });
    const total = lineTotal(line);
    lineTotalsOut?.push(total);
    subtotal = subtotal.plus(total);
    if (line.tax !== undefined && !isZeroString(line.tax)) {
      linesCarryTax = true;
      lineTax = lineTax.plus(line.tax);
    }
  });

  if (input.lines.length > 0 && !same(subtotal, input.subtotal)) {
    errors.push({ path: 'subtotal', message: `subtotal is ${show(input.subtotal)} but the lines add up to ${show(subtotal)} (quantity × unitPrice − discount).` });
  }
  // line tax is authoritative when lines carry it; else tax computed on the whole ticket is taken as sent
  if (linesCarryTax && !same(lineTax, input.tax)) {
    errors.push({ path: 'tax', message: `tax is ${show(input.tax)} but the lines' tax adds up to ${show(lineTax)}.` });
  }
  const expectedTotal = new Decimal(input.subtotal).plus(input.tax);
  if (!same(expectedTotal, input.total)) {
    errors.push({ path: 'total', message: `total is ${show(input.total)} but subtotal + tax is ${show(expectedTotal)}.` });
  }
  if (refund && new Decimal(input.total).isPositive() && !new Decimal(input.total).isZero()) {
    errors.push({ path: 'total', message: 'A refund has a negative or zero total.' });
  }
  if (!refund && input.refundOf !== undefined) {
    errors.push({ path: 'refundOf', message: 'Only a refund names the transaction it refunds.' });
  }

  let paid = new Decimal(0);
  input.tenders.forEach((tender, i) => {
    paid = paid.plus(tender.amount);
    if (tender.change === undefined) return;
    const change = new Decimal(tender.change);
    if (tender.type !== 'cash') errors.push({ path: `tenders[${i}].change`, message: 'Only a cash tender gives change.' });
    else if (change.isNegative() && !change.isZero()) errors.push({ path: `tenders[${i}].change`, message: 'Change is zero or positive.' });
    else paid = paid.minus(change);
  });
  // spec: Sales transaction rule, tenders that do not add up to the total reject the record
  if (!same(paid, input.total)) {
    errors.push({ path: 'tenders', message: `The tenders add up to ${show(paid)} (amounts less cash change) but total is ${show(input.total)}.` });
  }
  return errors;
}

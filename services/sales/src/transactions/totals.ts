import type { SalesTransactionInput } from '@bop/contracts';
import type { FieldError } from '@bop/shared';
import { minorUnits } from './money';
import { formatScaledMoney, mulScaled, roundScaled, toScaled } from './exact';

/** "0", "-0.00", "0.000" … (a schema-valid decimal string that is zero). */
export function isZeroString(v: string): boolean {
  return /^-?0(\.0*)?$/.test(v);
}

/** quantity × unitPrice − discount (line tax is kept apart), exact, scaled by 10^12 (see exact.ts). */
export function lineTotalScaled(line: { quantity: string; unitPrice: string; discount?: string }): bigint {
  const gross = mulScaled(toScaled(line.quantity), toScaled(line.unitPrice));
  return line.discount === undefined || isZeroString(line.discount) ? gross : gross - toScaled(line.discount);
}

/** quantity × unitPrice − discount as canonical money of the currency ("8.50"; sub-cent digits kept). */
export function lineTotal(line: { quantity: string; unitPrice: string; discount?: string }, currency: string): string {
  return formatScaledMoney(lineTotalScaled(line), minorUnits(currency));
}

/**
 * The arithmetic and sign rules of one transaction as sent (already schema-valid). Voided records
 * are checked too: a void re-sends the original (spec: ingestion rule 6).
 *
 * Tolerance: none beyond the currency's minor units. Each figure (what we compute and what was sent)
 * is rounded half away from zero to the currency's minor units (Intl: 2 for USD, 0 for JPY, 3 for KWD)
 * and the two must then be equal; sub-cent line prices are fine as long as the sums round alike.
 */
export function checkTransaction(input: SalesTransactionInput, lineTotalsOut?: string[]): FieldError[] {
  const errors: FieldError[] = [];
  const cur = input.currency;
  const minor = minorUnits(cur);
  // exact integer arithmetic (exact.ts): this runs for every ingested record
  const same = (a: bigint, b: bigint) => roundScaled(a, minor) === roundScaled(b, minor);
  const show = (v: bigint) => formatScaledMoney(roundScaled(v, minor), minor);
  const refund = input.type === 'refund';

  let subtotal = 0n;
  let lineTax = 0n;
  let linesCarryTax = false;
  input.lines.forEach((line, i) => {
    // signs read off the decimal strings (schema-valid: -?digits[.digits])
    const zero = isZeroString(line.quantity);
    const negative = !zero && line.quantity.charCodeAt(0) === 45;
    // spec: ingestion rule 6, refunds carry negative quantities
    if (refund && !negative) errors.push({ path: `lines[${i}].quantity`, message: 'A refund has negative quantities.' });
    if (!refund && (negative || zero)) errors.push({ path: `lines[${i}].quantity`, message: 'A sale has positive quantities; send a refund for returns.' });
    const total = lineTotalScaled(line);
    lineTotalsOut?.push(formatScaledMoney(total, minor));
    subtotal += total;
    if (line.tax !== undefined && !isZeroString(line.tax)) {
      linesCarryTax = true;
      lineTax += toScaled(line.tax);
    }
  });

  const sentSubtotal = toScaled(input.subtotal);
  const sentTax = toScaled(input.tax);
  const sentTotal = toScaled(input.total);
  if (input.lines.length > 0 && !same(subtotal, sentSubtotal)) {
    errors.push({ path: 'subtotal', message: `subtotal is ${show(sentSubtotal)} but the lines add up to ${show(subtotal)} (quantity × unitPrice − discount).` });
  }
  // line tax is authoritative when lines carry it; else tax computed on the whole ticket is taken as sent
  if (linesCarryTax && !same(lineTax, sentTax)) {
    errors.push({ path: 'tax', message: `tax is ${show(sentTax)} but the lines' tax adds up to ${show(lineTax)}.` });
  }
  const expectedTotal = sentSubtotal + sentTax;
  if (!same(expectedTotal, sentTotal)) {
    errors.push({ path: 'total', message: `total is ${show(sentTotal)} but subtotal + tax is ${show(expectedTotal)}.` });
  }
  if (refund && sentTotal > 0n) {
    errors.push({ path: 'total', message: 'A refund has a negative or zero total.' });
  }
  if (!refund && input.refundOf !== undefined) {
    errors.push({ path: 'refundOf', message: 'Only a refund names the transaction it refunds.' });
  }

  let paid = 0n;
  input.tenders.forEach((tender, i) => {
    paid += toScaled(tender.amount);
    if (tender.change === undefined) return;
    const change = toScaled(tender.change);
    if (tender.type !== 'cash') errors.push({ path: `tenders[${i}].change`, message: 'Only a cash tender gives change.' });
    else if (change < 0n) errors.push({ path: `tenders[${i}].change`, message: 'Change is zero or positive.' });
    else paid -= change;
  });
  // spec: Sales transaction rule, tenders that do not add up to the total reject the record
  if (!same(paid, sentTotal)) {
    errors.push({ path: 'tenders', message: `The tenders add up to ${show(paid)} (amounts less cash change) but total is ${show(sentTotal)}.` });
  }
  return errors;
}

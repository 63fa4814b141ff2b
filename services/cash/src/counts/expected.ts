import Decimal from 'decimal.js';
import { fmtAmount } from '@bop/shared';

/**
 * What a count should have found (contracts/cash/counts.ts), with the arithmetic spelled out for the
 * person checking it. The sums are pure; the loaders (expected-store.ts) gather their inputs.
 */
export interface Expectation {
  expected: Decimal;
  explanation: string;
}

/** A sum of records and how many there were. */
export interface Tally {
  total: Decimal;
  count: number;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Drawer: opening float + the drawer's cash tenders of the day (net of change) − its skims of the day before this count. */
export function drawerExpectation(i: { drawerId: string; businessDay: string; openingFloat: Decimal; cashTenders: Decimal; skims: Tally }): Expectation {
  const expected = i.openingFloat.plus(i.cashTenders).minus(i.skims.total);
  return {
    expected,
    explanation:
      `opening float ${fmtAmount(i.openingFloat)} + cash tenders of drawer ${i.drawerId} on ${i.businessDay}, net of change, ${fmtAmount(i.cashTenders)}` +
      ` − ${plural(i.skims.count, 'skim')} before this count ${fmtAmount(i.skims.total)} = ${fmtAmount(expected)}`,
  };
}

/**
 * Safe: the last safe count before (0 when none) + skims since + what drawer counts since left for the
 * safe (counted − opening float) − deposits since, up to this count.
 */
export function safeExpectation(i: { previous: { id: string; amount: Decimal; countedAt: Date } | null; skims: Tally; drawerDrops: Tally; deposits: Tally }): Expectation {
  const start = i.previous?.amount ?? new Decimal(0);
  const expected = start.plus(i.skims.total).plus(i.drawerDrops.total).minus(i.deposits.total);
  const since = i.previous ? 'since' : 'so far';
  const opening = i.previous ? `last safe count ${i.previous.id} at ${i.previous.countedAt.toISOString()} ${fmtAmount(start)}` : `no safe count before 0.00`;
  return {
    expected,
    explanation:
      `${opening} + ${plural(i.skims.count, 'skim')} ${since} ${fmtAmount(i.skims.total)}` +
      ` + ${plural(i.drawerDrops.count, 'drawer count')} ${since}, counted less opening float, ${fmtAmount(i.drawerDrops.total)}` +
      ` − ${plural(i.deposits.count, 'deposit')} ${since} ${fmtAmount(i.deposits.total)} = ${fmtAmount(expected)}`,
  };
}

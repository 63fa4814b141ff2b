import Decimal from 'decimal.js';

export interface DatedRate {
  id: string;
  type: 'hourly' | 'salary';
  amount: string;
  position: string | null;
  effectiveDate: string;
}

/**
 * The rate in force on `date` (a local date) for work in `position`: the newest rate of that position
 * effective on or before the date; without one, the newest general rate (no position). Two rates
 * from the same date: the one recorded later (ids are time-ordered). null: nothing was in force yet.
 */
export function rateInForce<R extends DatedRate>(rates: readonly R[], date: string, position?: string | null): R | null {
  const newest = (candidates: R[]) =>
    candidates.filter((r) => r.effectiveDate <= date).sort((a, b) => (a.effectiveDate === b.effectiveDate ? (a.id < b.id ? 1 : -1) : a.effectiveDate < b.effectiveDate ? 1 : -1))[0] ?? null;
  if (position) {
    const own = newest(rates.filter((r) => r.position !== null && r.position.toLowerCase() === position.toLowerCase()));
    if (own) return own;
  }
  return newest(rates.filter((r) => r.position === null));
}

/** A rate's amount on the wire: two decimals at least, four at most ("18.50", "18.375", "52000.00"). */
export function formatRate(amount: Decimal.Value): string {
  const d = new Decimal(amount).toDecimalPlaces(4, Decimal.ROUND_HALF_UP);
  const four = d.toFixed(4);
  return four.replace(/(\.\d\d\d?)0+$/, '$1').replace(/(\.\d\d)0$/, '$1');
}

/** Whether two rates say the same (the HR feed re-sending a rate adds nothing). */
export function sameRate(a: Omit<DatedRate, 'id'>, b: Omit<DatedRate, 'id'>): boolean {
  return a.type === b.type && a.effectiveDate === b.effectiveDate && (a.position ?? '').toLowerCase() === (b.position ?? '').toLowerCase() && new Decimal(a.amount).equals(b.amount);
}

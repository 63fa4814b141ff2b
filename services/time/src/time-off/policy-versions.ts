import Decimal from 'decimal.js';
import { balanceAsOf, type AccrualPolicy, type Balance, type LedgerEntry } from './accrual';

/** Accrual terms in force from `effectiveFrom` (a local date; null: from the start) until the next version's. */
export interface TermsVersion {
  effectiveFrom: string | null;
  terms: AccrualPolicy;
}

const DAY_MS = 86_400_000;
const dayBefore = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) - DAY_MS).toISOString().slice(0, 10);
const show = (d: Decimal): string => (d.isZero() ? '0' : d.toFixed());

/**
 * A balance as of `asOf` under a policy whose terms changed over time (spec: a policy change
 * recalculates balances from the change date): the ledger is replayed with each version's terms over
 * the dates it was in force, the balance at the end of one stretch carried into the next. The carried
 * balance enters the next stretch the day before it begins, so a policy-year boundary on the change
 * date itself still forfeits under the new terms. A taken entry and its restore share a date, so they
 * never fall into different stretches. Versions in order of `effectiveFrom`; those after `asOf` play
 * no part.
 */
export function balanceOverVersions(versions: readonly TermsVersion[], entries: readonly LedgerEntry[], asOf: string): Balance {
  const inForce = versions.filter((v, i) => i === 0 || v.effectiveFrom === null || v.effectiveFrom <= asOf);
  if (inForce.length <= 1) return balanceAsOf(inForce[0]?.terms ?? { accrual: { kind: 'none' }, cap: null, carryOver: null }, entries, asOf);

  let carried = new Decimal(0);
  const totals = { accrued: new Decimal(0), taken: new Decimal(0), adjusted: new Decimal(0), forfeited: new Decimal(0) };
  const movements: Balance['movements'] = [];
  inForce.forEach((v, i) => {
    const from = i === 0 ? null : v.effectiveFrom;
    const to = i + 1 < inForce.length ? dayBefore(inForce[i + 1].effectiveFrom!) : asOf;
    const stretch = entries.filter((e) => (from === null || e.date >= from) && e.date <= to);
    const opening = from !== null && !carried.isZero();
    const b = balanceAsOf(v.terms, opening ? [{ kind: 'adjustment', date: dayBefore(from), hours: show(carried), reason: 'carried from the earlier terms' }, ...stretch] : stretch, to);
    totals.accrued = totals.accrued.plus(b.accrued);
    totals.taken = totals.taken.plus(b.taken);
    totals.adjusted = totals.adjusted.plus(b.adjusted).minus(opening ? carried : 0);
    totals.forfeited = totals.forfeited.plus(b.forfeited);
    movements.push(...(opening ? b.movements.slice(1) : b.movements));
    carried = new Decimal(b.balance);
  });
  return {
    balance: show(carried),
    accrued: show(totals.accrued),
    taken: show(totals.taken),
    adjusted: show(totals.adjusted),
    forfeited: show(totals.forfeited),
    movements,
  };
}

import Decimal from 'decimal.js';
import { DEPOSIT_MATCH_WINDOW_DAYS, type DepositMatchStatus } from '@bop/contracts';
import { addDays } from '@bop/shared';

/**
 * Matching deposits with the bank's credits (contracts/src/cash/deposits.ts), as pure rules: by
 * reference first, else by the one amount; the pair is made only when both sides choose each other,
 * so the answer does not depend on which of them arrived second.
 */
export interface DepositFacts {
  id: string;
  amount: string;
  /** the UTC date of depositedAt: the window starts there */
  depositedOn: string;
  reference: string | null;
}

export interface CreditFacts {
  id: string;
  amount: string;
  bookedOn: string;
  reference: string | null;
  description: string | null;
}

export type MatchedBy = 'reference' | 'amount';


/** The last booking date a deposit's window takes. */
export const windowEnd = (depositedOn: string): string => addDays(depositedOn, DEPOSIT_MATCH_WINDOW_DAYS);

/** Booked from the deposit's day (UTC) to DEPOSIT_MATCH_WINDOW_DAYS after. */
export const inWindow = (d: DepositFacts, c: CreditFacts): boolean => c.bookedOn >= d.depositedOn && c.bookedOn <= windowEnd(d.depositedOn);

export const isCredit = (amount: Decimal.Value): boolean => new Decimal(amount).gt(0);

/** The bank's reference or description contains the deposit's reference (case-insensitive). */
export function byReference(d: DepositFacts, c: CreditFacts): boolean {
  if (!d.reference) return false;
  const ref = d.reference.toLowerCase();
  return [c.reference, c.description].some((text) => text !== null && text.toLowerCase().includes(ref));
}

export const byAmount = (d: DepositFacts, c: CreditFacts): boolean => new Decimal(d.amount).eq(c.amount);

/** One side's choice: the one candidate by reference, else the one by amount; none when two or more tie. */
function choose<T>(candidates: T[], ref: (t: T) => boolean, amount: (t: T) => boolean): { other: T; by: MatchedBy } | null {
  const refs = candidates.filter(ref);
  if (refs.length === 1) return { other: refs[0], by: 'reference' };
  const amounts = candidates.filter(amount);
  return amounts.length === 1 ? { other: amounts[0], by: 'amount' } : null;
}

/** The credit a deposit would take among unmatched ones. */
export function creditFor(d: DepositFacts, credits: CreditFacts[]): { other: CreditFacts; by: MatchedBy } | null {
  const open = credits.filter((c) => isCredit(c.amount) && inWindow(d, c));
  return choose(open, (c) => byReference(d, c), (c) => byAmount(d, c));
}

/** The deposit a credit would go to among unmatched ones. */
export function depositFor(c: CreditFacts, deposits: DepositFacts[]): { other: DepositFacts; by: MatchedBy } | null {
  if (!isCredit(c.amount)) return null;
  const open = deposits.filter((d) => inWindow(d, c));
  return choose(open, (d) => byReference(d, c), (d) => byAmount(d, c));
}

/** The credit of a deposit, when that credit's own choice among the unmatched deposits (`rivals`) is this deposit too. */
export function pairOfDeposit(d: DepositFacts, credits: CreditFacts[], rivals: DepositFacts[]): { credit: CreditFacts; by: MatchedBy } | null {
  const choice = creditFor(d, credits);
  if (!choice) return null;
  const back = depositFor(choice.other, [d, ...rivals.filter((r) => r.id !== d.id)]);
  return back?.other.id === d.id ? { credit: choice.other, by: choice.by } : null;
}

/** The deposit of a credit, when that deposit's own choice among the unmatched credits (`rivals`) is this credit too. */
export function pairOfCredit(c: CreditFacts, deposits: DepositFacts[], rivals: CreditFacts[]): { deposit: DepositFacts; by: MatchedBy } | null {
  const choice = depositFor(c, deposits);
  if (!choice) return null;
  const back = creditFor(choice.other, [c, ...rivals.filter((r) => r.id !== c.id)]);
  return back?.other.id === c.id ? { deposit: choice.other, by: choice.by } : null;
}

/** A pair that agrees is `matched`; amounts that differ (a reference match) are `mismatched`. */
export const pairStatus = (depositAmount: Decimal.Value, bankAmount: Decimal.Value): Exclude<DepositMatchStatus, 'unmatched'> =>
  new Decimal(depositAmount).eq(bankAmount) ? 'matched' : 'mismatched';

/** spec: a recorded time may run ahead of the server's clock by this much, no more */
export const FUTURE_TOLERANCE_MS = 5 * 60_000;

/**
 * Field errors of a new deposit's times: depositedAt not in the future; each business day once and
 * begun at the location (`today` = its current business day).
 */
export function depositFieldErrors(input: { depositedAt: Date; businessDays?: string[] }, now: Date, today: string): Array<{ path: string; message: string }> {
  const errors: Array<{ path: string; message: string }> = [];
  if (input.depositedAt.getTime() > now.getTime() + FUTURE_TOLERANCE_MS) errors.push({ path: 'depositedAt', message: `Must not be in the future (now is ${now.toISOString()}).` });
  const seen = new Set<string>();
  (input.businessDays ?? []).forEach((day, i) => {
    if (seen.has(day)) errors.push({ path: `businessDays[${i}]`, message: `Business day ${day} is listed twice.` });
    else if (day > today) errors.push({ path: `businessDays[${i}]`, message: `Business day ${day} has not begun at this location (its current business day is ${today}).` });
    seen.add(day);
  });
  return errors;
}

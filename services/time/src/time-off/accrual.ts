import Decimal from 'decimal.js';

/**
 * Time-off balances as a pure replay of an accrual ledger (spec: time off — policies with accrual per
 * hour worked or per pay period, cap, carry-over at the year boundary; balances as of any date computed
 * from the ledger, adjustable with a reason; approved requests deduct the balance).
 *
 * No clock and no I/O: every date is a local calendar date `YYYY-MM-DD` given by the caller, every
 * quantity a decimal string in hours, and all arithmetic is decimal.js. Results are plain decimal
 * strings without trailing zeros ("12.5", "0", "-3"; never "-0", never exponent notation).
 *
 * Eligibility (location, department, position) and whether a type is paid are decided by the caller
 * before it hands a policy and a ledger here.
 */

export interface AccrualPolicy {
  accrual:
    | { kind: 'per_hour_worked'; hours: string; per: string } // `hours` earned per `per` hours worked, e.g. 1 per 30
    | { kind: 'per_pay_period'; hours: string } // earned at each pay period end, e.g. 3.08
    | { kind: 'none' };
  /** the balance never accrues above this (hours); null: no cap */
  cap: string | null;
  /** at the year boundary at most this many hours carry into the new policy year (the rest is forfeited); null: all carry over */
  carryOver: string | null;
  /** the month-day a policy year starts, 'MM-DD' (not '02-29'); default '01-01' */
  yearStart?: string;
}

/** A ledger entry: what happened to a balance on a local date. */
export type LedgerEntry =
  /** hours worked that day (from timesheets); accrues under per_hour_worked */
  | { kind: 'worked'; date: string; hours: string }
  /** a pay period ended that day; accrues under per_pay_period */
  | { kind: 'period_end'; date: string }
  /** approved time off, deducted on its date */
  | { kind: 'taken'; date: string; hours: string; requestId: string }
  /** a cancelled approved request given back; dated like the 'taken' entry it reverses */
  | { kind: 'restored'; date: string; hours: string; requestId: string }
  /** signed hours with a reason, e.g. an opening balance "+40" or a correction "-2.5" */
  | { kind: 'adjustment'; date: string; hours: string; reason: string };

export interface BalanceMovement {
  date: string;
  kind: 'accrued' | 'taken' | 'restored' | 'adjustment' | 'forfeited';
  /** the signed change to the balance: accrued/restored > 0, taken/forfeited < 0, adjustment either */
  hours: string;
  balanceAfter: string;
  /** adjustments only */
  reason?: string;
  /** taken and restored only */
  requestId?: string;
}

export interface Balance {
  /** hours; balance = accrued − taken + adjusted − forfeited */
  balance: string;
  /** hours accrued (after the cap), ≥ 0 */
  accrued: string;
  /** hours taken net of hours restored */
  taken: string;
  /** signed sum of adjustments */
  adjusted: string;
  /** hours lost at year boundaries, ≥ 0 */
  forfeited: string;
  /** in replay order; accruals and forfeitures that change nothing are left out */
  movements: BalanceMovement[];
}

/** Bad input to a time-off rule; `path` names the field (`policy.cap`, `entries[3].hours`) for a 422. */
export class TimeOffInputError extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(`${path}: ${message}`);
    this.name = 'TimeOffInputError';
  }
}

/** Ledger amounts keep at most this many decimals; accruals are rounded half up to it. */
const SCALE = 4;
const DECIMAL = /^[+-]?\d+(\.\d+)?$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const MONTH_DAY = /^(\d{2})-(\d{2})$/;
const ZERO = new Decimal(0);

const show = (d: Decimal): string => (d.isZero() ? '0' : d.toFixed());

function parseDecimal(value: unknown, path: string, sign: 'any' | 'nonNegative' | 'positive', maxDecimals?: number): Decimal {
  if (typeof value !== 'string' || !DECIMAL.test(value)) throw new TimeOffInputError(path, `expected a decimal string of hours, got ${JSON.stringify(value)}`);
  const d = new Decimal(value);
  if (sign === 'nonNegative' && d.isNegative() && !d.isZero()) throw new TimeOffInputError(path, `must not be negative, got ${value}`);
  if (sign === 'positive' && d.lte(0)) throw new TimeOffInputError(path, `must be greater than 0, got ${value}`);
  if (maxDecimals !== undefined && d.decimalPlaces() > maxDecimals) throw new TimeOffInputError(path, `at most ${maxDecimals} decimals, got ${value}`);
  return d;
}

const daysInMonth = (year: number, month: number): number =>
  month === 2 ? (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;

function parseDate(value: unknown, path: string): { year: number; month: number; day: number } {
  const m = typeof value === 'string' ? DATE.exec(value) : null;
  const year = m ? Number(m[1]) : 0;
  const month = m ? Number(m[2]) : 0;
  const day = m ? Number(m[3]) : 0;
  if (!m || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
    throw new TimeOffInputError(path, `expected a calendar date YYYY-MM-DD, got ${JSON.stringify(value)}`);
  }
  return { year, month, day };
}

function parseYearStart(value: unknown): string {
  if (value === undefined) return '01-01';
  const m = typeof value === 'string' ? MONTH_DAY.exec(value) : null;
  const month = m ? Number(m[1]) : 0;
  const day = m ? Number(m[2]) : 0;
  // a year must start on a day every year has, so '02-29' is refused
  if (!m || month < 1 || month > 12 || day < 1 || day > daysInMonth(2001, month)) {
    throw new TimeOffInputError('policy.yearStart', `expected a month-day MM-DD that exists every year, got ${JSON.stringify(value)}`);
  }
  return value as string;
}

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil), so no Date is needed. */
function dayNumber({ year, month, day }: { year: number; month: number; day: number }): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

interface CheckedPolicy {
  accrual: { kind: 'per_hour_worked'; hours: Decimal; per: Decimal } | { kind: 'per_pay_period'; hours: Decimal } | { kind: 'none' };
  cap: Decimal | null;
  carryOver: Decimal | null;
  yearStart: string;
}

function checkPolicy(policy: AccrualPolicy): CheckedPolicy {
  const a = policy?.accrual;
  let accrual: CheckedPolicy['accrual'];
  if (a?.kind === 'per_hour_worked') {
    accrual = { kind: a.kind, hours: parseDecimal(a.hours, 'policy.accrual.hours', 'nonNegative'), per: parseDecimal(a.per, 'policy.accrual.per', 'positive') };
  } else if (a?.kind === 'per_pay_period') {
    accrual = { kind: a.kind, hours: parseDecimal(a.hours, 'policy.accrual.hours', 'nonNegative', SCALE) };
  } else if (a?.kind === 'none') {
    accrual = { kind: 'none' };
  } else {
    throw new TimeOffInputError('policy.accrual.kind', `expected per_hour_worked, per_pay_period or none, got ${JSON.stringify((a as { kind?: unknown } | undefined)?.kind)}`);
  }
  return {
    accrual,
    cap: policy.cap === null ? null : parseDecimal(policy.cap, 'policy.cap', 'nonNegative', SCALE),
    carryOver: policy.carryOver === null ? null : parseDecimal(policy.carryOver, 'policy.carryOver', 'nonNegative', SCALE),
    yearStart: parseYearStart(policy.yearStart),
  };
}

type Checked =
  | { kind: 'worked'; date: string; hours: Decimal }
  | { kind: 'period_end'; date: string }
  | { kind: 'taken' | 'restored'; date: string; hours: Decimal; requestId: string }
  | { kind: 'adjustment'; date: string; hours: Decimal; reason: string };

function checkEntry(e: LedgerEntry, i: number): Checked {
  const at = `entries[${i}]`;
  parseDate(e?.date, `${at}.date`);
  switch (e.kind) {
    case 'worked':
      return { kind: e.kind, date: e.date, hours: parseDecimal(e.hours, `${at}.hours`, 'nonNegative') };
    case 'period_end':
      return { kind: e.kind, date: e.date };
    case 'taken':
    case 'restored':
      if (typeof e.requestId !== 'string' || e.requestId.trim() === '') throw new TimeOffInputError(`${at}.requestId`, 'a taken or restored entry names its request');
      return { kind: e.kind, date: e.date, hours: parseDecimal(e.hours, `${at}.hours`, 'nonNegative', SCALE), requestId: e.requestId };
    case 'adjustment':
      // spec: balances are adjustable with a reason
      if (typeof e.reason !== 'string' || e.reason.trim() === '') throw new TimeOffInputError(`${at}.reason`, 'an adjustment needs a reason');
      return { kind: e.kind, date: e.date, hours: parseDecimal(e.hours, `${at}.hours`, 'any', SCALE), reason: e.reason };
    default:
      throw new TimeOffInputError(`${at}.kind`, `unknown ledger entry kind ${JSON.stringify((e as { kind?: unknown }).kind)}`);
  }
}

/** Order within one date: adjustments, then accruals, then taken, then restored (so a same-day restore finds its taken hours). */
const RANK: Record<Checked['kind'], number> = { adjustment: 0, worked: 1, period_end: 1, taken: 2, restored: 3 };

/**
 * Replays the ledger up to and including `asOf` and returns the balance and its movements.
 *
 * - Entries are taken in date order; within one date adjustments first, then accruals (worked,
 *   period_end), then taken, then restored; entries of the same date and rank keep their input order.
 * - per_hour_worked accrues hours × worked / per at each 'worked' entry, per_pay_period accrues its
 *   hours at each 'period_end', 'none' never accrues; each accrual is rounded half up to 4 decimals.
 * - The cap stops accrual: an accrual that would pass it adds only up to it, and a balance already at
 *   or above it (after an adjustment) accrues nothing and loses nothing. Taken hours and adjustments
 *   are not limited by the cap.
 * - Each policy-year start (`yearStart`) after the first entry's policy year and on or before the date
 *   being replayed is a boundary, applied before that day's entries: a positive balance above
 *   `carryOver` is cut down to it and the cut is a 'forfeited' movement dated the boundary; a negative
 *   balance carries as is. A boundary between the last entry and `asOf` applies too, so a balance as
 *   of a date does not depend on whether anything happened in the new year yet.
 * - A restore may not give back more hours than were taken for its request so far.
 *
 * Every entry is validated, including those after `asOf`; bad input throws a TimeOffInputError.
 */
export function balanceAsOf(policy: AccrualPolicy, entries: readonly LedgerEntry[], asOf: string): Balance {
  const p = checkPolicy(policy);
  parseDate(asOf, 'asOf');
  if (!Array.isArray(entries)) throw new TimeOffInputError('entries', 'expected an array of ledger entries');
  const ledger = entries
    .map((e, i) => ({ e: checkEntry(e, i), i }))
    .filter(({ e }) => e.date <= asOf)
    .sort((a, b) => (a.e.date < b.e.date ? -1 : a.e.date > b.e.date ? 1 : RANK[a.e.kind] - RANK[b.e.kind] || a.i - b.i));

  let balance = ZERO;
  let accrued = ZERO;
  let taken = ZERO;
  let adjusted = ZERO;
  let forfeited = ZERO;
  const movements: BalanceMovement[] = [];
  const takenByRequest = new Map<string, Decimal>();
  const move = (date: string, kind: BalanceMovement['kind'], hours: Decimal, extra: Pick<BalanceMovement, 'reason' | 'requestId'> = {}) => {
    balance = balance.plus(hours);
    movements.push({ date, kind, hours: show(hours), balanceAfter: show(balance), ...extra });
  };

  const policyYear = (date: string): number => (date.slice(5) >= p.yearStart ? Number(date.slice(0, 4)) : Number(date.slice(0, 4)) - 1);
  let year: number | null = null;
  // spec: carry-over at the year boundary
  const crossBoundariesUpTo = (date: string) => {
    const target = policyYear(date);
    if (year === null) year = target;
    while (year < target) {
      year += 1;
      if (p.carryOver !== null && balance.gt(p.carryOver)) {
        const lost = balance.minus(p.carryOver);
        forfeited = forfeited.plus(lost);
        move(`${String(year).padStart(4, '0')}-${p.yearStart}`, 'forfeited', lost.neg());
      }
    }
  };

  const accrue = (date: string, amount: Decimal) => {
    const rounded = amount.toDecimalPlaces(SCALE, Decimal.ROUND_HALF_UP);
    const room = p.cap === null ? rounded : Decimal.max(ZERO, p.cap.minus(balance));
    const add = Decimal.min(rounded, room);
    if (add.lte(0)) return;
    accrued = accrued.plus(add);
    move(date, 'accrued', add);
  };

  for (const { e, i } of ledger) {
    crossBoundariesUpTo(e.date);
    switch (e.kind) {
      case 'adjustment':
        adjusted = adjusted.plus(e.hours);
        move(e.date, 'adjustment', e.hours, { reason: e.reason });
        break;
      case 'worked':
        if (p.accrual.kind === 'per_hour_worked') accrue(e.date, p.accrual.hours.times(e.hours).div(p.accrual.per));
        break;
      case 'period_end':
        if (p.accrual.kind === 'per_pay_period') accrue(e.date, p.accrual.hours);
        break;
      case 'taken':
        takenByRequest.set(e.requestId, (takenByRequest.get(e.requestId) ?? ZERO).plus(e.hours));
        taken = taken.plus(e.hours);
        move(e.date, 'taken', e.hours.neg(), { requestId: e.requestId });
        break;
      case 'restored': {
        const open = takenByRequest.get(e.requestId) ?? ZERO;
        if (e.hours.gt(open)) throw new TimeOffInputError(`entries[${i}].hours`, `restores ${show(e.hours)} h of ${e.requestId}, which has ${show(open)} h taken on or before ${e.date}`);
        takenByRequest.set(e.requestId, open.minus(e.hours));
        taken = taken.minus(e.hours);
        move(e.date, 'restored', e.hours, { requestId: e.requestId });
        break;
      }
    }
  }
  if (ledger.length > 0) crossBoundariesUpTo(asOf);

  return { balance: show(balance), accrued: show(accrued), taken: show(taken), adjusted: show(adjusted), forfeited: show(forfeited), movements };
}

/**
 * Whether a request of `hours` fits a balance (spec: a request needs the balance to suffice, or a type
 * that allows a negative balance). Pass the balance as of the request's first day.
 */
export function requestFits(balance: string, hours: string, allowNegative: boolean): boolean {
  const b = parseDecimal(balance, 'balance', 'any');
  const h = parseDecimal(hours, 'hours', 'nonNegative');
  return allowNegative || b.minus(h).gte(0);
}

/**
 * Hours of a time-off request: the workdays from `startDate` to `endDate` (both included) times
 * `hoursPerDay`; or, for a partial day (start and end the same date), `partialHours` as given.
 * `workdays` are ISO weekdays (1 Monday … 7 Sunday), Monday to Friday unless the caller knows the
 * employee's own working week (a restaurant's may include the weekend).
 */
export function requestHours(startDate: string, endDate: string, hoursPerDay: string, partialHours?: string | null, workdays: readonly number[] = [1, 2, 3, 4, 5]): string {
  const start = dayNumber(parseDate(startDate, 'startDate'));
  const end = dayNumber(parseDate(endDate, 'endDate'));
  if (end < start) throw new TimeOffInputError('endDate', `${endDate} is before startDate ${startDate}`);
  const perDay = parseDecimal(hoursPerDay, 'hoursPerDay', 'positive', SCALE);
  if (partialHours !== undefined && partialHours !== null) {
    if (end !== start) throw new TimeOffInputError('partialHours', 'partial-day hours need startDate and endDate to be the same day');
    return show(parseDecimal(partialHours, 'partialHours', 'positive', SCALE));
  }
  if (!Array.isArray(workdays) || workdays.some((d) => !Number.isInteger(d) || d < 1 || d > 7)) {
    throw new TimeOffInputError('workdays', `expected ISO weekdays 1–7, got ${JSON.stringify(workdays)}`);
  }
  const working = new Set(workdays);
  let count = 0;
  for (let n = start; n <= end; n++) {
    // 1970-01-01 (day 0) was a Thursday, ISO weekday 4
    if (working.has((((n % 7) + 7 + 3) % 7) + 1)) count += 1;
  }
  return show(perDay.times(count));
}

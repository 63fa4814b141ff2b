import { IANAZone } from 'luxon';

/** How often a company's pay periods repeat (spec: pay-period frequency). */
export type PayPeriodFrequency = 'weekly' | 'biweekly' | 'semimonthly' | 'monthly';

/** A pay period as inclusive local calendar dates (YYYY-MM-DD) in the company time zone. */
export interface PeriodDates {
  start: string;
  end: string;
}

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

/**
 * The pay period containing the local date `date`.
 *
 * weekly / biweekly: 7- or 14-day periods, one of which starts on `anchorDate`; semimonthly: the
 * 1st–15th and the 16th–last day of each month (the anchor is only validated); monthly: periods
 * start on the anchor's day of month, or on the month's last day when that day does not exist.
 * Constant time whatever the distance from the anchor: it runs for every ingested punch.
 */
export function periodContaining(date: string, frequency: PayPeriodFrequency, anchorDate: string): PeriodDates {
  const day = parseDate(date, 'date');
  return toDates(containing(day, frequency, parseDate(anchorDate, 'anchorDate')));
}

/** Every pay period overlapping the local dates `from`..`to` (inclusive), in order. */
export function periodsOverlapping(from: string, to: string, frequency: PayPeriodFrequency, anchorDate: string): PeriodDates[] {
  const first = parseDate(from, 'from');
  const last = parseDate(to, 'to');
  if (first > last) throw new Error(`pay periods: from ${from} is after to ${to}`);
  const anchor = parseDate(anchorDate, 'anchorDate');
  const periods: PeriodDates[] = [];
  for (let p = containing(first, frequency, anchor); p[0] <= last; p = containing(p[1] + 1, frequency, anchor)) {
    periods.push(toDates(p));
  }
  return periods;
}

/** The pay period right after `p`; throws when `p` is not a period of this calendar. */
export function nextPeriod(p: PeriodDates, frequency: PayPeriodFrequency, anchorDate: string): PeriodDates {
  const [, end] = checkPeriod(p, frequency, anchorDate);
  return toDates(containing(end + 1, frequency, parseDate(anchorDate, 'anchorDate')));
}

/** The pay period right before `p`; throws when `p` is not a period of this calendar. */
export function previousPeriod(p: PeriodDates, frequency: PayPeriodFrequency, anchorDate: string): PeriodDates {
  const [start] = checkPeriod(p, frequency, anchorDate);
  return toDates(containing(start - 1, frequency, parseDate(anchorDate, 'anchorDate')));
}

/** The local calendar date (YYYY-MM-DD) of the UTC instant `instant` in the IANA time zone `timezone`. */
export function localDateOf(instant: Date, timezone: string): string {
  const ms = instantMs(instant);
  return formatDay(Math.floor((ms + zoneOf(timezone).offset(ms) * MINUTE_MS) / DAY_MS));
}

/**
 * 'open' while the local date in `timezone` at `now` is on or before the period's end, 'ended'
 * after it. Locked is stored state and never computed here.
 */
export function periodPhase(p: PeriodDates, now: Date, timezone: string): 'open' | 'ended' {
  const [, end] = parsePeriod(p);
  const today = parseDate(localDateOf(now, timezone), 'now');
  return today <= end ? 'open' : 'ended';
}

/**
 * The UTC instants bounding the local dates of `p` in `timezone`: `from` is the first instant of
 * `p.start` and `to` the first instant of the day after `p.end` (exclusive), so a period spanning a
 * DST change is an hour shorter or longer, and an instant lies in [from, to) exactly when its
 * `localDateOf` lies in the period.
 */
export function periodBounds(p: PeriodDates, timezone: string): { from: Date; to: Date } {
  const [start, end] = parsePeriod(p);
  const zone = zoneOf(timezone);
  return { from: new Date(startOfLocalDay(start, zone)), to: new Date(startOfLocalDay(end + 1, zone)) };
}

/** [start, end] of the period containing `day`, as epoch days (days since 1970-01-01). */
function containing(day: number, frequency: PayPeriodFrequency, anchor: number): [number, number] {
  switch (frequency) {
    case 'weekly':
      return fixedLength(day, anchor, 7);
    case 'biweekly':
      return fixedLength(day, anchor, 14);
    case 'semimonthly':
      return semimonthly(day);
    case 'monthly':
      return monthly(day, anchor);
    default:
      throw new Error(`pay periods: unknown frequency ${JSON.stringify(frequency)} (weekly, biweekly, semimonthly or monthly)`);
  }
}

function fixedLength(day: number, anchor: number, length: number): [number, number] {
  const start = anchor + Math.floor((day - anchor) / length) * length;
  return [start, start + length - 1];
}

function semimonthly(day: number): [number, number] {
  const { year, month, dayOfMonth } = civil(day);
  return dayOfMonth <= 15
    ? [day - dayOfMonth + 1, day - dayOfMonth + 15]
    : [day - dayOfMonth + 16, day - dayOfMonth + daysInMonth(year, month)];
}

function monthly(day: number, anchor: number): [number, number] {
  const anchorDay = civil(anchor).dayOfMonth;
  const { year, month } = civil(day);
  const index = year * 12 + month - 1;
  const thisStart = monthlyStart(index, anchorDay);
  return day >= thisStart
    ? [thisStart, monthlyStart(index + 1, anchorDay) - 1]
    : [monthlyStart(index - 1, anchorDay), thisStart - 1];
}

/** The epoch day a monthly period starts in the month `index` (year * 12 + zero-based month). */
function monthlyStart(index: number, anchorDay: number): number {
  const year = Math.floor(index / 12);
  const month = index - year * 12 + 1;
  return epochDay(year, month, Math.min(anchorDay, daysInMonth(year, month)));
}

/** The first instant (ms) whose local date in `zone` is the epoch day `day`. */
function startOfLocalDay(day: number, zone: IANAZone): number {
  const wallMidnight = day * DAY_MS;
  // every real offset lies in UTC−12..UTC+14, so local midnight falls in this window; sample both ends
  const offsets = [zone.offset(wallMidnight - 14 * 3_600_000), zone.offset(wallMidnight + 12 * 3_600_000)];
  const midnights = offsets.map((o) => wallMidnight - o * MINUTE_MS).filter((t) => zone.offset(t) * MINUTE_MS === wallMidnight - t);
  // a repeated midnight (America/Havana in November) starts the day at its first pass
  if (midnights.length > 0) return Math.min(...midnights);
  // midnight skipped by a forward change (America/Santiago in September): the day begins at the change
  let before = wallMidnight - Math.max(...offsets) * MINUTE_MS;
  let after = wallMidnight - Math.min(...offsets) * MINUTE_MS;
  while (after - before > 1) {
    const mid = Math.floor((before + after) / 2);
    if (mid + zone.offset(mid) * MINUTE_MS >= wallMidnight) after = mid;
    else before = mid;
  }
  return after;
}

function checkPeriod(p: PeriodDates, frequency: PayPeriodFrequency, anchorDate: string): [number, number] {
  const [start, end] = parsePeriod(p);
  const actual = containing(start, frequency, parseDate(anchorDate, 'anchorDate'));
  if (actual[0] !== start || actual[1] !== end) {
    throw new Error(`pay periods: ${p.start}..${p.end} is not a ${frequency} period for anchor ${anchorDate}`);
  }
  return actual;
}

function parsePeriod(p: PeriodDates): [number, number] {
  const start = parseDate(p?.start, 'period start');
  const end = parseDate(p?.end, 'period end');
  if (start > end) throw new Error(`pay periods: period start ${p.start} is after its end ${p.end}`);
  return [start, end];
}

function parseDate(value: string, name: string): number {
  const m = typeof value === 'string' ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(value) : null;
  const year = m ? Number(m[1]) : 0;
  const month = m ? Number(m[2]) : 0;
  const day = m ? Number(m[3]) : 0;
  if (!m || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
    throw new Error(`pay periods: ${name} must be a calendar date YYYY-MM-DD, got ${JSON.stringify(value)}`);
  }
  return epochDay(year, month, day);
}

function instantMs(instant: Date): number {
  const ms = instant instanceof Date ? instant.getTime() : NaN;
  if (Number.isNaN(ms)) throw new Error(`pay periods: invalid instant ${String(instant)}`);
  return ms;
}

function zoneOf(timezone: string): IANAZone {
  const zone = IANAZone.create(timezone);
  if (!zone.isValid) throw new Error(`pay periods: unknown time zone ${JSON.stringify(timezone)}`);
  return zone;
}

function toDates([start, end]: [number, number]): PeriodDates {
  return { start: formatDay(start), end: formatDay(end) };
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

// days-from-civil and civil-from-days (H. Hinnant): integer-only, proleptic Gregorian, any year
function epochDay(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

function civil(epoch: number): { year: number; month: number; dayOfMonth: number } {
  const z = epoch + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const mp = Math.floor((5 * dayOfYear + 2) / 153);
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, dayOfMonth: dayOfYear - Math.floor((153 * mp + 2) / 5) + 1 };
}

function formatDay(epoch: number): string {
  const { year, month, dayOfMonth } = civil(epoch);
  if (year < 0 || year > 9999) throw new Error('pay periods: date outside years 0000–9999');
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(dayOfMonth).padStart(2, '0')}`;
}

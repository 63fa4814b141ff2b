/**
 * Demand forecast for one location per 15-minute interval: a pure model (no I/O, no clock of its own).
 *
 * Everything is in the location's local time (IANA zone, luxon): a local day is split into wall-clock
 * slots of 15 minutes (96 slots; a 23-hour day has 92 intervals and a 25-hour day 100, the repeated
 * hour getting its slots twice). The forecast of an interval is a multiplicative decomposition
 *
 *   value = dayTotal(date) × share(weekday, slot) × special(date) × adjustment(date)
 *
 * 1. History. Points are summed into their local day and slot. A day with data is open and its missing
 *    intervals count as zero; a day without data (or with a zero total) is closed or unknown and left
 *    out of training. Listed special days are left out too (and, for an unnamed one, the same month
 *    and day in other years). Only complete days before `from` (and before the local day of `asOf`)
 *    are used. At least 8 weeks are required (`InsufficientHistory` otherwise). A weekday without
 *    data on most of its last 8 occurrences is regularly closed and forecasts 0.
 * 2. Daily totals, in logs, by a robust regression (weighted least squares, Huber weights by IRLS, time
 *    weights halving with age) on one level per weekday:
 *    - with a yearly season, i.e. when history covers the forecast dates and 8 weeks of the window
 *      one year (364 days: same weekday) or two years back: over the last 26 weeks (half-life 13),
 *      the offset of each day being the log of that year's level around the same date (median of
 *      the weekday-adjusted totals of ±7 days, which keeps a step such as the week after Christmas
 *      sharp; the mean over both years when both exist). The
 *      season (holiday ramp, summer, January) is carried over, the regression measuring this
 *      year's ratio to it, taken as constant over the horizon: last year's own change over the
 *      coming weeks is the trend (a slope on the ratio would extrapolate noise);
 *    - without: over the last 12 weeks (half-life 8) with a linear trend whose slope is shrunk by
 *      b²/(b² + se²) (se from weekly means of the residuals), so an insignificant slope is not
 *      extrapolated, and extrapolated 8 weeks at most.
 * 3. Intraday profile: the share of the day total in each slot, per weekday, the weighted mean over
 *    the open normal 24-hour days of the last 16 weeks (weights halving every 8 weeks); each day
 *    is normalised by its total so day-level swings (weather) do not distort it.
 * 4. Special days: `closed` forecasts 0. A lift or dip takes `expectedPercent` when given, else the
 *    ratio (geometric mean) of its past occurrences in history (same name, or same month and day
 *    when unnamed) to the normal day expected then (the weekday-adjusted level of ±7 days around
 *    it × the weekday factor), else +20 % / −20 %. Past occurrences also reshape the day hour by
 *    hour (an early close, an evening rush) by the ratio of their hourly shares to the profile.
 * 5. Adjustments: each {date, percent} multiplies that local day by 1 + percent/100 (compounding).
 *
 * Interval values are non-negative; `bucketForecast` sums them into local hours or days.
 */
import { DateTime, IANAZone } from 'luxon';

export interface DemandPoint {
  /** ISO instant of the start of the 15-minute interval (a point inside an interval counts for it) */
  start: string;
  value: number;
}

export type SpecialDayKind = 'closed' | 'lift' | 'dip';

export interface SpecialDay {
  /** local date yyyy-mm-dd */
  date: string;
  kind: SpecialDayKind;
  /** e.g. +30 or −20; learned from past occurrences when absent */
  expectedPercent?: number;
  /** occurrences with the same name (in any year) are the same special day */
  name?: string;
}

export interface DemandAdjustment {
  /** local date yyyy-mm-dd */
  date: string;
  percent: number;
}

export interface ForecastInput {
  history: DemandPoint[];
  /** IANA zone of the location */
  zone: string;
  /** first local date to forecast, yyyy-mm-dd (history on or after it is ignored) */
  from: string;
  /** last local date to forecast, yyyy-mm-dd, inclusive */
  to: string;
  /** the clock: history from the local day of this instant on is ignored (that day is incomplete) */
  asOf?: string;
  /** the company's special days, past and future */
  specialDays?: SpecialDay[];
  adjustments?: DemandAdjustment[];
}

export interface ForecastPoint {
  /** ISO UTC instant of the start of the interval */
  start: string;
  value: number;
}

export interface ForecastDaySpecial {
  kind: SpecialDayKind;
  name?: string;
  /** the percent applied to the normal day total (−100 when closed) */
  percent: number;
  source: 'closed' | 'given' | 'learned' | 'default';
}

export interface ForecastDay {
  date: string;
  /** forecast of the day: the sum of its intervals */
  total: number;
  /** the normal day total before special day and adjustments (0 on a regularly closed weekday) */
  baseline: number;
  intervals: number;
  special?: ForecastDaySpecial;
  /** the compounded adjustment percent */
  adjustmentPercent: number;
}

export interface ForecastResult {
  points: ForecastPoint[];
  days: ForecastDay[];
  /** whole weeks from the first day with data to the last training day */
  weeksOfHistory: number;
  /** the last local date used for training */
  trainedThrough: string;
  /** the lags (days) whose yearly season was carried over: [], [364], [728] or [364, 728] */
  yearlyLags: number[];
  /** the trend of the normal day total on top of the yearly season, in percent per week (0 with a yearly season) */
  trendPercentPerWeek: number;
}

export type ForecastBucketSize = '15m' | '1h' | '1d';

export interface ForecastBucket {
  /** ISO UTC instant of the local start of the bucket */
  start: string;
  /** ISO UTC instant of the end of the bucket (exclusive) */
  end: string;
  value: number;
}

export const FORECAST_MIN_WEEKS = 8;

/** Fewer than 8 weeks of history before the forecast: the caller answers 422. */
export class InsufficientHistory extends Error {
  readonly weeksAvailable: number;
  readonly weeksRequired = FORECAST_MIN_WEEKS;
  constructor(weeksAvailable: number) {
    super(`a forecast needs ${FORECAST_MIN_WEEKS} weeks of history; ${weeksAvailable} available`);
    this.name = 'InsufficientHistory';
    this.weeksAvailable = weeksAvailable;
  }
}

/** Malformed input (zone, dates, instants, values): the caller answers 422. */
export class ForecastInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ForecastInputError';
  }
}

const SLOT_MS = 15 * 60_000;
const SLOTS = 96;
const DAY_MS = 86_400_000;
const MAX_FORECAST_DAYS = 732;
const PROFILE_DAYS = 112;
const PROFILE_HALF_LIFE = 56;
interface FitOptions {
  days: number;
  halfLife: number;
  trend: boolean;
}
const TREND_FIT: FitOptions = { days: 84, halfLife: 56, trend: true };
const YEARLY_FIT: FitOptions = { days: 182, halfLife: 91, trend: false };
const MIN_FIT_DAYS = 14;
const TREND_HORIZON_DAYS = 56;
const MIN_YEARLY_DAYS = 56;
const LEVEL_RADIUS = [7, 14];
const CLOSED_CHECK_DAYS = 56;
const YEAR_LAGS = [364, 728];
const DEFAULT_LIFT = 0.2;
const DEFAULT_DIP = -0.2;

interface Calendar {
  zone: IANAZone;
  /** local day number (days since 1970-01-01 of the local date) of index 0 */
  first: number;
  /** UTC instant of the start of each local day, one more than the days */
  starts: Float64Array;
}

interface History {
  cal: Calendar;
  days: number;
  values: Float64Array;
  totals: Float64Array;
  open: Uint8Array;
  normalLength: Uint8Array;
  special: Uint8Array;
}

interface DailyFit {
  /** log level per weekday 0..6 (Monday..Sunday); NaN when the weekday had no usable day */
  level: Float64Array;
  slopePerDay: number;
}

interface SpecialEffect {
  factor: number;
  source: ForecastDaySpecial['source'];
  hourly: Float64Array | null;
}

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
// an instant names its offset: Date.parse would read a bare local time in the process's zone
const INSTANT_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

function parseInstant(value: string, what: string): number {
  const ms = INSTANT_RE.test(value) ? Date.parse(value) : NaN;
  if (Number.isNaN(ms)) throw new ForecastInputError(`${what}: expected an ISO instant with an offset, got ${JSON.stringify(value)}`);
  return ms;
}

function parseLocalDate(date: string, what: string): number {
  const m = DATE_RE.exec(date);
  if (!m) throw new ForecastInputError(`${what}: expected a date yyyy-mm-dd, got ${JSON.stringify(date)}`);
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const ms = Date.UTC(y, mo - 1, d);
  if (formatDayNumber(ms / DAY_MS) !== date) throw new ForecastInputError(`${what}: no such date ${date}`);
  return ms / DAY_MS;
}

// Howard Hinnant's civil_from_days: dates and instants are formatted without a Date object
function civil(dayNumber: number): [number, number, number] {
  const z = dayNumber + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  return [yoe + era * 400 + (m <= 2 ? 1 : 0), m, d];
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

function formatDayNumber(dayNumber: number): string {
  const [y, m, d] = civil(dayNumber);
  return `${pad(y, 4)}-${pad(m)}-${pad(d)}`;
}

function formatInstant(ms: number): string {
  const day = Math.floor(ms / DAY_MS);
  const rest = ms - day * DAY_MS;
  const h = Math.floor(rest / 3_600_000);
  const mi = Math.floor((rest % 3_600_000) / 60_000);
  const s = Math.floor((rest % 60_000) / 1000);
  return `${formatDayNumber(day)}T${pad(h)}:${pad(mi)}:${pad(s)}.${pad(rest % 1000, 3)}Z`;
}

/** Monday 0 .. Sunday 6 */
const weekdayOf = (dayNumber: number) => (((dayNumber + 3) % 7) + 7) % 7;

const monthDayOf = (dayNumber: number) => formatDayNumber(dayNumber).slice(5);

function localDayNumber(ms: number, zone: IANAZone): number {
  return Math.floor((ms + zone.offset(ms) * 60_000) / DAY_MS);
}

function dayStart(dayNumber: number, zone: IANAZone): number {
  const [year, month, day] = civil(dayNumber);
  return DateTime.fromObject({ year, month, day }, { zone }).toMillis();
}

function buildCalendar(zone: IANAZone, first: number, days: number): Calendar {
  const starts = new Float64Array(days + 1);
  for (let i = 0; i <= days; i++) starts[i] = dayStart(first + i, zone);
  return { zone, first, starts };
}

/** wall-clock slot of each interval of a day whose length is not 24 hours */
function wallSlots(start: number, intervals: number, zone: IANAZone): Int32Array {
  const slots = new Int32Array(intervals);
  for (let k = 0; k < intervals; k++) {
    const ms = start + k * SLOT_MS;
    const local = ms + zone.offset(ms) * 60_000;
    const inDay = ((local % DAY_MS) + DAY_MS) % DAY_MS;
    slots[k] = Math.min(SLOTS - 1, Math.floor(inDay / SLOT_MS));
  }
  return slots;
}

function findDay(starts: Float64Array, ms: number): number {
  let lo = 0;
  let hi = starts.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= ms) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

interface SpecialIndex {
  byDay: Map<number, SpecialDay>;
  /** day numbers of each key's listed occurrences */
  occurrences: Map<string, number[]>;
  /** month-days of unnamed entries: the same month-day is special in every year */
  unnamedMonthDays: Set<string>;
}

const specialKey = (s: SpecialDay, dayNumber: number) => {
  const name = s.name?.trim().toLowerCase();
  return name ? `name:${name}` : `md:${monthDayOf(dayNumber)}`;
};

const KIND_RANK: Record<SpecialDayKind, number> = { closed: 0, dip: 1, lift: 2 };

function indexSpecialDays(list: SpecialDay[]): SpecialIndex {
  const byDay = new Map<number, SpecialDay>();
  const occurrences = new Map<string, number[]>();
  const unnamedMonthDays = new Set<string>();
  for (const s of list) {
    const n = parseLocalDate(s.date, 'specialDays.date');
    if (!(s.kind in KIND_RANK)) throw new ForecastInputError(`specialDays.kind: ${String(s.kind)}`);
    if (s.expectedPercent !== undefined && !(Number.isFinite(s.expectedPercent) && s.expectedPercent >= -100)) {
      throw new ForecastInputError(`specialDays.expectedPercent: ${s.expectedPercent}`);
    }
    const held = byDay.get(n);
    // two entries on one date: closed wins over a dip, a dip over a lift
    if (!held || KIND_RANK[s.kind] < KIND_RANK[held.kind]) byDay.set(n, s);
    const key = specialKey(s, n);
    const seen = occurrences.get(key);
    if (seen) seen.push(n);
    else occurrences.set(key, [n]);
    if (!s.name?.trim()) unnamedMonthDays.add(monthDayOf(n));
  }
  return { byDay, occurrences, unnamedMonthDays };
}

function foldHistory(points: DemandPoint[], zone: IANAZone, trainEnd: number, specials: SpecialIndex): History | null {
  const instants = new Float64Array(points.length);
  let min = Infinity;
  for (let i = 0; i < points.length; i++) {
    const p = points[i];
    const ms = parseInstant(p.start, `history[${i}].start`);
    if (typeof p.value !== 'number' || !Number.isFinite(p.value)) throw new ForecastInputError(`history[${i}].value: not a number`);
    instants[i] = ms;
    if (ms < min) min = ms;
  }
  if (min === Infinity) return null;
  const first = localDayNumber(min, zone);
  if (first > trainEnd) return null;
  const days = trainEnd - first + 1;
  const cal = buildCalendar(zone, first, days);
  const values = new Float64Array(days * SLOTS);
  const open = new Uint8Array(days);
  const normalLength = new Uint8Array(days);
  const maps: (Int32Array | null)[] = new Array(days).fill(null);
  for (let d = 0; d < days; d++) {
    const intervals = Math.round((cal.starts[d + 1] - cal.starts[d]) / SLOT_MS);
    if (intervals === SLOTS) normalLength[d] = 1;
    else maps[d] = wallSlots(cal.starts[d], intervals, zone);
  }
  const end = cal.starts[days];
  for (let i = 0; i < points.length; i++) {
    const ms = instants[i];
    if (ms >= end) continue;
    const d = findDay(cal.starts, ms);
    const k = Math.floor((ms - cal.starts[d]) / SLOT_MS);
    const map = maps[d];
    const slot = map ? map[Math.min(k, map.length - 1)] : k;
    values[d * SLOTS + slot] += points[i].value;
    open[d] = 1;
  }
  const totals = new Float64Array(days);
  const special = new Uint8Array(days);
  for (let d = 0; d < days; d++) {
    let total = 0;
    for (let s = d * SLOTS; s < (d + 1) * SLOTS; s++) {
      // refunds can make an interval negative: demand is not
      if (values[s] < 0) values[s] = 0;
      total += values[s];
    }
    totals[d] = total;
    if (total <= 0) open[d] = 0;
    const n = first + d;
    if (specials.byDay.has(n) || specials.unnamedMonthDays.has(monthDayOf(n))) special[d] = 1;
  }
  return { cal, days, values, totals, open, normalLength, special };
}

const usable = (h: History, d: number) => h.open[d] === 1 && h.special[d] === 0;

function recentOpenDays(h: History): number {
  let n = 0;
  for (let d = Math.max(0, h.days - TREND_FIT.days); d < h.days; d++) n += h.open[d];
  return n;
}

function regularlyClosed(h: History): boolean[] {
  const seen = new Array(7).fill(0);
  const opened = new Array(7).fill(0);
  for (let d = Math.max(0, h.days - CLOSED_CHECK_DAYS); d < h.days; d++) {
    if (h.special[d]) continue;
    const w = weekdayOf(h.cal.first + d);
    seen[w]++;
    opened[w] += h.open[d];
  }
  return seen.map((n, w) => n > 0 && opened[w] * 2 < n);
}

function solve(a: Float64Array[], b: Float64Array): Float64Array | null {
  const n = b.length;
  const m = a.map((row, i) => Float64Array.from([...row, b[i]]));
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r][c]) > Math.abs(m[p][c])) p = r;
    if (Math.abs(m[p][c]) < 1e-12) return null;
    [m[c], m[p]] = [m[p], m[c]];
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = m[r][c] / m[c][c];
      if (f !== 0) for (let k = c; k <= n; k++) m[r][k] -= f * m[c][k];
    }
  }
  return Float64Array.from({ length: n }, (_, i) => m[i][n] / m[i][i]);
}

function median(values: number[]): number {
  const s = [...values].sort((x, y) => x - y);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

interface DailyRow {
  w: number;
  /** weeks from the last training day (≤ 0) */
  t: number;
  y: number;
  tw: number;
}

interface RobustFit {
  beta: Float64Array;
  weights: Float64Array;
  xtx: Float64Array[];
}

/**
 * IRLS with Huber weights (c = 1.345 σ, σ from the MAD) of y on one level per weekday (columns in
 * `col`) and, unless `slope` is given, a slope per week as the last column.
 */
function robustFit(rows: DailyRow[], col: Map<number, number>, slope: number | null): RobustFit | null {
  const p = col.size + (slope === null ? 1 : 0);
  const robust = new Float64Array(rows.length).fill(1);
  const predict = (beta: Float64Array, r: DailyRow) => beta[col.get(r.w)!] + (slope === null ? beta[p - 1] : slope) * r.t;
  let fit: RobustFit | null = null;
  for (let iter = 0; iter < 6; iter++) {
    const xtx = Array.from({ length: p }, () => new Float64Array(p));
    const xty = new Float64Array(p);
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i];
      const wt = r.tw * robust[i];
      const c = col.get(r.w)!;
      const y = slope === null ? r.y : r.y - slope * r.t;
      xtx[c][c] += wt;
      xty[c] += wt * y;
      if (slope === null) {
        xtx[c][p - 1] += wt * r.t;
        xtx[p - 1][c] += wt * r.t;
        xtx[p - 1][p - 1] += wt * r.t * r.t;
        xty[p - 1] += wt * r.t * y;
      }
    }
    // a tiny ridge keeps a window of one weekday (no spread of t within it) solvable
    xtx[p - 1][p - 1] += 1e-9;
    const beta = solve(xtx, xty);
    if (!beta) return fit;
    fit = { beta, weights: Float64Array.from(rows, (r, i) => r.tw * robust[i]), xtx };
    const res = rows.map((r) => r.y - predict(beta, r));
    const scale = 1.4826 * median(res.map(Math.abs));
    if (scale < 1e-9) break;
    const c = 1.345 * scale;
    res.forEach((e, i) => (robust[i] = Math.abs(e) <= c ? 1 : c / Math.abs(e)));
  }
  return fit;
}

/**
 * Variance of the fitted slope from weekly means of the residuals: day-level swings persist over
 * days (weather), so daily residuals are not independent and would understate it.
 */
function slopeVariance(rows: DailyRow[], col: Map<number, number>, fit: RobustFit): number {
  const p = col.size + 1;
  const weeks = new Map<number, { w: number; e: number; t: number }>();
  rows.forEach((r, i) => {
    const key = Math.floor(-r.t + 1e-9);
    const e = r.y - fit.beta[col.get(r.w)!] - fit.beta[p - 1] * r.t;
    const acc = weeks.get(key) ?? { w: 0, e: 0, t: 0 };
    acc.w += fit.weights[i];
    acc.e += fit.weights[i] * e;
    acc.t += fit.weights[i] * r.t;
    weeks.set(key, acc);
  });
  const blocks = [...weeks.values()].filter((b) => b.w > 0).map((b) => ({ w: b.w, e: b.e / b.w, t: b.t / b.w }));
  if (blocks.length < 4) return Infinity;
  const sw = blocks.reduce((a, b) => a + b.w, 0);
  const tMean = blocks.reduce((a, b) => a + b.w * b.t, 0) / sw;
  const stt = blocks.reduce((a, b) => a + b.w * (b.t - tMean) ** 2, 0);
  // residual variance of a block of average weight, with the slope and the level spent
  const s2 = (blocks.reduce((a, b) => a + b.w * b.e * b.e, 0) / sw) * (blocks.length / (blocks.length - 2));
  return stt > 0 ? (s2 * (sw / blocks.length)) / stt : Infinity;
}

/**
 * Log daily totals (minus an offset per day) of the last `days` on weekday levels and, with
 * `trend`, a linear trend whose slope is shrunk by b²/(b² + se²), the levels refitted under it.
 */
function fitDaily(h: History, offset: (d: number) => number, options: FitOptions): DailyFit | null {
  const rows: DailyRow[] = [];
  for (let d = Math.max(0, h.days - options.days); d < h.days; d++) {
    if (!usable(h, d)) continue;
    const o = offset(d);
    if (!Number.isFinite(o)) continue;
    const age = h.days - 1 - d;
    rows.push({ w: weekdayOf(h.cal.first + d), t: -age / 7, y: Math.log(h.totals[d]) - o, tw: Math.pow(0.5, age / options.halfLife) });
  }
  const present = [...new Set(rows.map((r) => r.w))].sort((a, b) => a - b);
  if (rows.length < MIN_FIT_DAYS) return null;
  const col = new Map(present.map((w, i) => [w, i]));
  let slope = 0;
  if (options.trend) {
    const free = robustFit(rows, col, null);
    if (!free) return null;
    const b = free.beta[col.size];
    const se2 = slopeVariance(rows, col, free);
    slope = Number.isFinite(se2) && b * b + se2 > 0 ? (b * b * b) / (b * b + se2) : 0;
  }
  const fixed = robustFit(rows, col, slope);
  if (!fixed) return null;
  const level = new Float64Array(7).fill(NaN);
  for (const w of present) level[w] = fixed.beta[col.get(w)!];
  return { level, slopePerDay: slope / 7 };
}

/** weekday factors (mean 1 over the weekdays with a level) of a fit */
function weekdayFactors(fit: DailyFit): Float64Array {
  const known = [...fit.level].filter(Number.isFinite);
  const mean = known.reduce((a, b) => a + b, 0) / known.length;
  return fit.level.map((l) => (Number.isFinite(l) ? Math.exp(l - mean) : 1));
}

/**
 * Weekday-adjusted level around each history day: the running median of total / weekday factor over
 * the usable days within ±7 days (±14 when fewer than 7 are usable), NaN when still too few.
 */
function smoothedLevels(h: History, factors: Float64Array): Float64Array {
  const adjusted = new Float64Array(h.days).fill(NaN);
  for (let d = 0; d < h.days; d++) if (usable(h, d)) adjusted[d] = h.totals[d] / factors[weekdayOf(h.cal.first + d)];
  const out = new Float64Array(h.days).fill(NaN);
  const window: number[] = [];
  for (let d = 0; d < h.days; d++) {
    for (const radius of LEVEL_RADIUS) {
      window.length = 0;
      for (let k = Math.max(0, d - radius); k <= Math.min(h.days - 1, d + radius); k++) if (!Number.isNaN(adjusted[k])) window.push(adjusted[k]);
      if (window.length < radius) continue;
      window.sort((a, b) => a - b);
      const mid = window.length >> 1;
      out[d] = window.length % 2 ? window[mid] : (window[mid - 1] + window[mid]) / 2;
      break;
    }
  }
  return out;
}

/** log level of `day` (any day number) from the smoothed levels, the nearest known within 7 days */
function levelNear(levels: Float64Array, first: number, day: number): number {
  for (let k = 0; k <= 7; k++) {
    for (const dd of k === 0 ? [day] : [day - k, day + k]) {
      const i = dd - first;
      if (i >= 0 && i < levels.length && !Number.isNaN(levels[i])) return Math.log(levels[i]);
    }
  }
  return NaN;
}

/** the lags whose level is known for every target day and for at least 8 weeks of the regression window */
function chooseYearLags(h: History, levels: Float64Array, targets: number[]): number[] {
  const regressionDays: number[] = [];
  for (let d = Math.max(0, h.days - YEARLY_FIT.days); d < h.days; d++) if (usable(h, d)) regressionDays.push(h.cal.first + d);
  return YEAR_LAGS.filter((lag) => {
    if (targets.some((t) => Number.isNaN(levelNear(levels, h.cal.first, t - lag)))) return false;
    return regressionDays.filter((d) => !Number.isNaN(levelNear(levels, h.cal.first, d - lag))).length >= MIN_YEARLY_DAYS;
  });
}

function yearlyOffset(levels: Float64Array, first: number, lags: number[], day: number): number {
  if (lags.length === 0) return 0;
  let sum = 0;
  for (const lag of lags) sum += levelNear(levels, first, day - lag);
  return sum / lags.length;
}

function estimateProfiles(h: History, closed: boolean[]): Float64Array[] {
  const sums = Array.from({ length: 7 }, () => new Float64Array(SLOTS));
  const weights = new Float64Array(7);
  const pooled = new Float64Array(SLOTS);
  let pooledWeight = 0;
  for (let d = Math.max(0, h.days - PROFILE_DAYS); d < h.days; d++) {
    if (!usable(h, d) || !h.normalLength[d]) continue;
    const w = weekdayOf(h.cal.first + d);
    if (closed[w]) continue;
    const wt = Math.pow(0.5, (h.days - 1 - d) / PROFILE_HALF_LIFE) / h.totals[d];
    for (let s = 0; s < SLOTS; s++) {
      const v = h.values[d * SLOTS + s] * wt;
      sums[w][s] += v;
      pooled[s] += v;
    }
    weights[w] += wt * h.totals[d];
    pooledWeight += wt * h.totals[d];
  }
  return sums.map((sum, w) => {
    const src = weights[w] > 0 ? sum : pooled;
    const total = weights[w] > 0 ? weights[w] : pooledWeight;
    return src.map((v) => (total > 0 ? v / total : 1 / SLOTS));
  });
}

function learnSpecial(
  h: History,
  special: SpecialDay,
  target: number,
  trainEnd: number,
  specials: SpecialIndex,
  localLevels: Float64Array,
  factors: Float64Array,
  profiles: Float64Array[],
): SpecialEffect {
  if (special.kind === 'closed') return { factor: 0, source: 'closed', hourly: null };
  const key = specialKey(special, target);
  const past: number[] = [];
  // an unnamed special day is a fixed date: every earlier year's same month and day is an occurrence
  if (key.startsWith('md:')) {
    const md = monthDayOf(target);
    for (let d = 0; d < h.days; d++) if (monthDayOf(h.cal.first + d) === md) past.push(h.cal.first + d);
  } else {
    for (const n of specials.occurrences.get(key) ?? []) if (n <= trainEnd) past.push(n);
  }
  let logSum = 0;
  let count = 0;
  const pastHours = new Float64Array(24);
  const normalHours = new Float64Array(24);
  for (const n of past) {
    const d = n - h.cal.first;
    if (d < 0 || d >= h.days || !h.open[d]) continue;
    const w = weekdayOf(n);
    const level = levelNear(localLevels, h.cal.first, n);
    if (Number.isNaN(level)) continue;
    logSum += Math.log(h.totals[d] / (Math.exp(level) * factors[w]));
    count++;
    if (!h.normalLength[d]) continue;
    for (let s = 0; s < SLOTS; s++) {
      pastHours[s >> 2] += h.values[d * SLOTS + s] / h.totals[d];
      normalHours[s >> 2] += profiles[w][s];
    }
  }
  const hourly = normalHours.some((v) => v > 0) ? normalHours.map((v, hr) => (v > 1e-9 ? pastHours[hr] / v : 1)) : null;
  if (special.expectedPercent !== undefined) return { factor: 1 + special.expectedPercent / 100, source: 'given', hourly };
  if (count > 0) return { factor: Math.exp(logSum / count), source: 'learned', hourly };
  return { factor: 1 + (special.kind === 'lift' ? DEFAULT_LIFT : DEFAULT_DIP), source: 'default', hourly: null };
}

/**
 * Forecasts each 15-minute interval of the local dates `from`..`to` (see the method at the top of
 * this file). Throws `InsufficientHistory` with fewer than 8 weeks of history before `from`, and
 * `ForecastInputError` on malformed input.
 */
export function forecastDemand(input: ForecastInput): ForecastResult {
  const zone = IANAZone.create(input.zone);
  if (!zone.isValid) throw new ForecastInputError(`zone: unknown time zone ${JSON.stringify(input.zone)}`);
  const from = parseLocalDate(input.from, 'from');
  const to = parseLocalDate(input.to, 'to');
  if (to < from) throw new ForecastInputError('to: before from');
  if (to - from + 1 > MAX_FORECAST_DAYS) throw new ForecastInputError(`a forecast covers at most ${MAX_FORECAST_DAYS} days`);
  let trainEnd = from - 1;
  if (input.asOf !== undefined) {
    const asOf = parseInstant(input.asOf, 'asOf');
    trainEnd = Math.min(trainEnd, localDayNumber(asOf, zone) - 1);
  }
  const specials = indexSpecialDays(input.specialDays ?? []);
  const adjustments = new Map<number, number>();
  for (const a of input.adjustments ?? []) {
    if (!Number.isFinite(a.percent)) throw new ForecastInputError('adjustments.percent: not a number');
    const n = parseLocalDate(a.date, 'adjustments.date');
    adjustments.set(n, (adjustments.get(n) ?? 1) * Math.max(0, 1 + a.percent / 100));
  }

  const h = foldHistory(input.history, zone, trainEnd, specials);
  if (!h) throw new InsufficientHistory(0);
  let firstData = 0;
  while (firstData < h.days && !h.open[firstData]) firstData++;
  const weeksOfHistory = firstData < h.days ? Math.floor((h.days - firstData) / 7) : 0;
  if (weeksOfHistory < FORECAST_MIN_WEEKS) throw new InsufficientHistory(weeksOfHistory);

  const closed = regularlyClosed(h);
  const targets = Array.from({ length: to - from + 1 }, (_, i) => from + i);
  const plain = fitDaily(h, () => 0, TREND_FIT);
  // data long ago but (almost) none in the last 12 weeks: what counts is the recent history
  if (!plain) throw new InsufficientHistory(Math.floor(recentOpenDays(h) / 7));
  const factors = weekdayFactors(plain);
  const levels = smoothedLevels(h, factors);
  const lags = chooseYearLags(h, levels, targets);
  const fit = (lags.length > 0 && fitDaily(h, (d) => yearlyOffset(levels, h.cal.first, lags, h.cal.first + d), YEARLY_FIT)) || plain;
  const usedLags = fit === plain ? [] : lags;
  const meanLevel = [...fit.level].filter(Number.isFinite).reduce((a, b, _, all) => a + b / all.length, 0);
  const profiles = estimateProfiles(h, closed);

  const starts = buildCalendar(zone, from, targets.length).starts;
  const points: ForecastPoint[] = [];
  const days: ForecastDay[] = [];
  targets.forEach((n, i) => {
    const w = weekdayOf(n);
    const intervals = Math.round((starts[i + 1] - starts[i]) / SLOT_MS);
    const level = Number.isFinite(fit.level[w]) ? fit.level[w] : meanLevel;
    const offset = yearlyOffset(levels, h.cal.first, usedLags, n);
    const baseline = closed[w] ? 0 : Math.exp(level + fit.slopePerDay * Math.min(n - trainEnd, TREND_HORIZON_DAYS) + offset);
    const special = specials.byDay.get(n);
    const effect = special ? learnSpecial(h, special, n, trainEnd, specials, levels, factors, profiles) : null;
    let profile = profiles[w];
    if (effect?.hourly) {
      const hourly = effect.hourly;
      const reshaped = profile.map((v, s) => v * hourly[s >> 2]);
      const sum = reshaped.reduce((a, b) => a + b, 0);
      if (sum > 0) profile = reshaped.map((v) => v / sum);
    }
    const adjustment = adjustments.get(n) ?? 1;
    const dayTotal = baseline * Math.max(0, effect ? effect.factor : 1) * adjustment;
    const map = intervals === SLOTS ? null : wallSlots(starts[i], intervals, zone);
    let total = 0;
    for (let k = 0; k < intervals; k++) {
      const value = dayTotal * profile[map ? map[k] : k];
      total += value;
      points.push({ start: formatInstant(starts[i] + k * SLOT_MS), value });
    }
    days.push({
      date: formatDayNumber(n),
      total,
      baseline,
      intervals,
      adjustmentPercent: (adjustment - 1) * 100,
      ...(special && effect
        ? { special: { kind: special.kind, ...(special.name ? { name: special.name } : {}), percent: (effect.factor - 1) * 100, source: effect.source } }
        : {}),
    });
  });
  return {
    points,
    days,
    weeksOfHistory,
    trainedThrough: formatDayNumber(trainEnd),
    yearlyLags: usedLags,
    trendPercentPerWeek: (Math.exp(fit.slopePerDay * 7) - 1) * 100,
  };
}

/** The 15-minute points of `forecastDemand`. */
export function forecastSeries(input: ForecastInput): ForecastPoint[] {
  return forecastDemand(input).points;
}

/** Sums 15-minute forecast points into local 15-minute, hourly or daily buckets (in order of time). */
export function bucketForecast(points: ForecastPoint[], bucket: ForecastBucketSize, zone: string): ForecastBucket[] {
  const z = IANAZone.create(zone);
  if (!z.isValid) throw new ForecastInputError(`zone: unknown time zone ${JSON.stringify(zone)}`);
  const sums = new Map<number, { end: number; value: number }>();
  const dayBounds = new Map<number, [number, number]>();
  points.forEach((p, i) => {
    const ms = parseInstant(p.start, `points[${i}].start`);
    let start: number;
    let end: number;
    if (bucket === '15m') {
      start = ms - (((ms % SLOT_MS) + SLOT_MS) % SLOT_MS);
      end = start + SLOT_MS;
    } else if (bucket === '1h') {
      // from the offset at the instant, not a local wall time: the repeated hour of a fall-back day stays two buckets
      const local = ms + z.offset(ms) * 60_000;
      start = ms - (((local % 3_600_000) + 3_600_000) % 3_600_000);
      end = start + 3_600_000;
    } else {
      const n = localDayNumber(ms, z);
      let bounds = dayBounds.get(n);
      if (!bounds) {
        bounds = [dayStart(n, z), dayStart(n + 1, z)];
        dayBounds.set(n, bounds);
      }
      [start, end] = bounds;
    }
    const held = sums.get(start);
    if (held) held.value += p.value;
    else sums.set(start, { end, value: p.value });
  });
  return [...sums.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([start, { end, value }]) => ({ start: formatInstant(start), end: formatInstant(end), value }));
}

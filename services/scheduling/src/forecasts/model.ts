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
 *    are used. Without any day of data there is no forecast (`InsufficientHistory`). A weekday without
 *    data on most of its last 8 occurrences is regularly closed and forecasts 0.
 *    Method `full` from 8 weeks; with fewer (cold start), `similar_locations` (similar-locations.ts:
 *    the normal days of the company's nearest locations scaled to this one) when `peers` give any,
 *    else `own_profile`: the steps below on the weeks there are (no yearly season; under 14 usable
 *    days the weekday levels are plain mean logs). Each result carries its confidence.
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
import { IANAZone } from 'luxon';
import { buildCalendar, dayStart, formatDayNumber, formatInstant, localDayNumber, parseInstant, parseLocalDate, SLOT_MS, SLOTS, wallSlots, weekdayOf } from './calendar';
import { foldHistory, type DemandPoint } from './history';
import { ForecastInputError } from './input-error';
import { FULL_WEEKS, fitNormal, historySpan, specialEffectAt } from './normal';
import { recentOpenDays } from './regression';
import { confidenceOf, fromSimilarLocations, rankPeers, type ForecastConfidence, type ForecastMethod, type PeerHistory, type PeerScore, type SimilarLocationUsed } from './similar-locations';
import { indexSpecialDays, type ForecastDaySpecial, type SpecialDay, type SpecialIndex } from './special-days';

// declared with the rules that read them; this file stays the model's one entry (index.ts, store.ts)
export type { DemandPoint } from './history';
export type { ForecastDaySpecial, SpecialDay, SpecialDayKind } from './special-days';
export { ForecastInputError } from './input-error';
export type { ForecastConfidence, ForecastMethod, PeerHistory, PeerScore, SimilarLocationUsed } from './similar-locations';

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
  /** the location forecast: its own special days (`locationId` set) override the company's on their date */
  locationId?: string;
  /** the company's special days and the location's own, past and future */
  specialDays?: SpecialDay[];
  /**
   * Histories of the company's other locations (their ids and zones): with fewer than 8 weeks of
   * its own, the location is forecast from the most similar of them (see similar-locations.ts).
   */
  peers?: PeerHistory[];
  /** the days of own history under which `peers` are used (default 56; the accuracy bench sets others) */
  similarUntilDays?: number;
  adjustments?: DemandAdjustment[];
}

export interface ForecastPoint {
  /** ISO UTC instant of the start of the interval */
  start: string;
  value: number;
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
  method: ForecastMethod;
  confidence: ForecastConfidence;
  /** whole weeks from the first day with data to the last training day */
  weeksOfHistory: number;
  /** days from the first day with data to the last training day */
  daysOfHistory: number;
  /** with `similar_locations`: the locations used, their weight and the scale to this location */
  similarLocations?: SimilarLocationUsed[];
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

/** Weeks of history from which the full method applies (ingestion rule 10 recommends 8). */
export const FORECAST_MIN_WEEKS = FULL_WEEKS;
/**
 * Days of its own history under which a location is forecast from its similar locations when there
 * are any: 8 weeks, as they beat its own profile at every cut bench:forecast-cold measures (1 to 6 weeks).
 */
export const SIMILAR_UNTIL_DAYS = FULL_WEEKS * 7;
/** Open days in the last 12 weeks under which the confidence is `low` whatever the method (old levels). */
const OWN_FIT_MIN_DAYS = 14;


/** No sales (or driver values) at all before the forecast: the caller answers 422. */
export class InsufficientHistory extends Error {
  readonly weeksAvailable: number;
  readonly weeksRecommended = FORECAST_MIN_WEEKS;
  constructor(weeksAvailable: number) {
    super(`a forecast needs some history; ${weeksAvailable} weeks available`);
    this.name = 'InsufficientHistory';
    this.weeksAvailable = weeksAvailable;
  }
}

const MAX_FORECAST_DAYS = 732;

interface Prepared {
  zone: IANAZone;
  from: number;
  trainEnd: number;
  targets: number[];
  specials: SpecialIndex;
  adjustments: Map<number, number>;
  asOf?: number;
}

function prepare(input: ForecastInput): Prepared {
  const zone = IANAZone.create(input.zone);
  if (!zone.isValid) throw new ForecastInputError(`zone: unknown time zone ${JSON.stringify(input.zone)}`);
  const from = parseLocalDate(input.from, 'from');
  const to = parseLocalDate(input.to, 'to');
  if (to < from) throw new ForecastInputError('to: before from');
  if (to - from + 1 > MAX_FORECAST_DAYS) throw new ForecastInputError(`a forecast covers at most ${MAX_FORECAST_DAYS} days`);
  let trainEnd = from - 1;
  const asOf = input.asOf === undefined ? undefined : parseInstant(input.asOf, 'asOf');
  if (asOf !== undefined) trainEnd = Math.min(trainEnd, localDayNumber(asOf, zone) - 1);
  const specials = indexSpecialDays(input.specialDays ?? [], input.locationId);
  const adjustments = new Map<number, number>();
  for (const a of input.adjustments ?? []) {
    if (!Number.isFinite(a.percent)) throw new ForecastInputError('adjustments.percent: not a number');
    const n = parseLocalDate(a.date, 'adjustments.date');
    adjustments.set(n, (adjustments.get(n) ?? 1) * Math.max(0, 1 + a.percent / 100));
  }
  return { zone, from, trainEnd, asOf, targets: Array.from({ length: to - from + 1 }, (_, i) => from + i), specials, adjustments };
}

/**
 * Forecasts each 15-minute interval of the local dates `from`..`to` (see the method at the top of
 * this file). Throws `InsufficientHistory` when there is no history at all before `from`, and
 * `ForecastInputError` on malformed input.
 */
export function forecastDemand(input: ForecastInput): ForecastResult {
  const p = prepare(input);
  const h = foldHistory(input.history, p.zone, p.trainEnd, p.specials);
  if (!h) throw new InsufficientHistory(0);
  const span = historySpan(h);
  const own = fitNormal(h, p.targets, p.trainEnd);
  if (!own) throw new InsufficientHistory(span.weeks);
  const similar =
    span.days < (input.similarUntilDays ?? SIMILAR_UNTIL_DAYS) && input.peers?.length
      ? fromSimilarLocations(own, input.peers, p.targets, { from: p.from, asOf: p.asOf, specialDays: input.specialDays ?? [] })
      : null;
  const method: ForecastMethod = similar ? 'similar_locations' : span.weeks >= FORECAST_MIN_WEEKS ? 'full' : 'own_profile';
  const baseline = similar ? similar.baseline : own.baseline;
  const profileOf = (w: number) => (similar ? similar.profiles[w] : own.profiles[w]);
  const effectOf = (special: SpecialDay, n: number) => (similar ? similar.effect(special, n) : specialEffectAt(own, special, n, p.trainEnd, p.specials));

  const starts = buildCalendar(p.zone, p.from, p.targets.length).starts;
  const points: ForecastPoint[] = [];
  const days: ForecastDay[] = [];
  p.targets.forEach((n, i) => {
    const w = weekdayOf(n);
    const intervals = Math.round((starts[i + 1] - starts[i]) / SLOT_MS);
    const base = baseline(n);
    const special = p.specials.byDay.get(n);
    const effect = special ? effectOf(special, n) : null;
    let profile = profileOf(w);
    if (effect?.hourly) {
      const hourly = effect.hourly;
      const reshaped = profile.map((v, s) => v * hourly[s >> 2]);
      const sum = reshaped.reduce((a, b) => a + b, 0);
      if (sum > 0) profile = reshaped.map((v) => v / sum);
    }
    const adjustment = p.adjustments.get(n) ?? 1;
    const dayTotal = base * Math.max(0, effect ? effect.factor : 1) * adjustment;
    const map = intervals === SLOTS ? null : wallSlots(starts[i], intervals, p.zone);
    let total = 0;
    for (let k = 0; k < intervals; k++) {
      const value = dayTotal * profile[map ? map[k] : k];
      total += value;
      points.push({ start: formatInstant(starts[i] + k * SLOT_MS), value });
    }
    days.push({
      date: formatDayNumber(n),
      total,
      baseline: base,
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
    method,
    // data long ago but (almost) none in the last 12 weeks: the levels are old
    confidence: recentOpenDays(h) < OWN_FIT_MIN_DAYS ? { ...confidenceOf(method, span.days), level: 'low' } : confidenceOf(method, span.days),
    weeksOfHistory: span.weeks,
    daysOfHistory: span.days,
    trainedThrough: formatDayNumber(p.trainEnd),
    yearlyLags: similar ? [] : own.yearlyLags,
    trendPercentPerWeek: similar ? 0 : (Math.exp(own.slopePerDay * 7) - 1) * 100,
    ...(similar ? { similarLocations: similar.used } : {}),
  };
}

/** Days from the first day with data to the last training day (0 without data). */
export function daysOfHistory(input: ForecastInput): number {
  const p = prepare(input);
  const h = foldHistory(input.history, p.zone, p.trainEnd, p.specials);
  return h ? historySpan(h).days : 0;
}

/** The `peers` nearest to the location over the days it has, nearest first (similar-locations.ts). */
export function rankSimilar(input: ForecastInput, peers: PeerHistory[]): PeerScore[] {
  const p = prepare(input);
  const h = foldHistory(input.history, p.zone, p.trainEnd, p.specials);
  return h ? rankPeers(h, peers, { from: p.from, asOf: p.asOf, specialDays: input.specialDays ?? [] }) : [];
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

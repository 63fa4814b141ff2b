/**
 * Forecasts fitted ahead and stored: what a fit keeps of the model's answer, when a stored fit answers
 * a request (and whether it is behind the data), the stored days with the adjustments of the moment,
 * and when a location's fit is due again (debounced after a burst of changes, and each new local day).
 */
import Decimal from 'decimal.js';
import { formatDayNumber, formatInstant, parseInstant, parseLocalDate, SLOT_MS } from './calendar';
import type { ForecastDay, ForecastPoint, ForecastResult } from './model';

/** Days stored from the first day after training: the longest range `GET /forecasts` answers (63 days). */
export const FIT_HORIZON_DAYS = 63;

/** What a fit stores: the model's answer for the days from the day after training through the horizon, before adjustments. */
export interface StoredForecast {
  timezone: string;
  historySource: 'feed' | 'sales';
  method: ForecastResult['method'];
  confidence: ForecastResult['confidence'];
  similarLocations?: ForecastResult['similarLocations'];
  weeksOfHistory: number;
  daysOfHistory: number;
  trainedThrough: string;
  trendPercentPerWeek: number;
  yearlyLags: number[];
  /** first and last local date stored */
  from: string;
  to: string;
  days: StoredForecastDay[];
}

export interface StoredForecastDay {
  date: string;
  baseline: number;
  special: ForecastDay['special'] | null;
  /** ISO instant of the day's first interval (the others follow every 15 minutes) */
  start: string;
  /** the day's 15-minute values (92, 96 or 100) */
  values: number[];
}

/** The model's answer (made without adjustments) as a fit stores it. */
export function storedForecast(result: ForecastResult, meta: { timezone: string; historySource: 'feed' | 'sales'; from: string; to: string }): StoredForecast {
  let k = 0;
  const days = result.days.map((d) => {
    const points = result.points.slice(k, k + d.intervals);
    k += d.intervals;
    return { date: d.date, baseline: d.baseline, special: d.special ?? null, start: points[0].start, values: points.map((p) => p.value) };
  });
  return {
    timezone: meta.timezone,
    historySource: meta.historySource,
    method: result.method,
    confidence: result.confidence,
    ...(result.similarLocations ? { similarLocations: result.similarLocations } : {}),
    weeksOfHistory: result.weeksOfHistory,
    daysOfHistory: result.daysOfHistory,
    trainedThrough: result.trainedThrough,
    trendPercentPerWeek: result.trendPercentPerWeek,
    yearlyLags: result.yearlyLags,
    from: meta.from,
    to: meta.to,
    days,
  };
}

/**
 * Whether a stored fit answers the local days [from, to] asked on local day `today`: the model would
 * train through the day before `from` or before today, whichever is earlier. `current`: the stored
 * fit trained through that day; `behind`: through an earlier one (a day has ended since the fit);
 * null: it does not cover the days, or trained on days the request must not see (a past `from`).
 */
export function storedCoverage(stored: StoredForecast, q: { from: string; to: string }, today: string): 'current' | 'behind' | null {
  if (q.from < stored.from || q.to > stored.to) return null;
  const trainEnd = Math.min(parseLocalDate(q.from, 'from'), parseLocalDate(today, 'today')) - 1;
  const trained = parseLocalDate(stored.trainedThrough, 'trainedThrough');
  if (trainEnd < trained) return null;
  return trainEnd === trained ? 'current' : 'behind';
}

/**
 * The stored days [from, to] as the model answers them with `adjustments` ({date, percent}, compounding
 * per day, as the model applies them): each day's intervals × (1 + percent/100).
 */
export function storedDays(stored: StoredForecast, from: string, to: string, adjustments: { date: string; percent: number }[]): Pick<ForecastResult, 'points' | 'days'> {
  const factors = new Map<string, number>();
  for (const a of adjustments) factors.set(a.date, (factors.get(a.date) ?? 1) * Math.max(0, 1 + a.percent / 100));
  const points: ForecastPoint[] = [];
  const days: ForecastDay[] = [];
  for (const d of stored.days) {
    if (d.date < from || d.date > to) continue;
    const factor = factors.get(d.date) ?? 1;
    const start = parseInstant(d.start, 'start');
    let total = 0;
    d.values.forEach((v, k) => {
      const value = factor === 1 ? v : v * factor;
      total += value;
      points.push({ start: formatInstant(start + k * SLOT_MS), value });
    });
    days.push({ date: d.date, total, baseline: d.baseline, intervals: d.values.length, adjustmentPercent: (factor - 1) * 100, ...(d.special ? { special: d.special } : {}) });
  }
  return { points, days };
}

/** The last local date a fit made on local day `today` stores. */
export const horizonEnd = (today: string) => formatDayNumber(parseLocalDate(today, 'today') + FIT_HORIZON_DAYS - 1);

export interface FitState {
  generation: number;
  fittedGeneration: number;
  staleSince: Date | null;
  changedAt: Date;
  /** the location's local date of the last fit (null before one) */
  fittedOn: string | null;
}

export interface FitTiming {
  /** a quiet spell after the last change before a fit (a burst of writes gives one fit) */
  quietMs: number;
  /** the longest a change waits while changes keep coming */
  maxWaitMs: number;
}

/**
 * When a fit is due: 0 now; the ms until it is (a change inside the quiet spell); null when the stored
 * fit is current. A series is fitted again each new local day (`today` is the location's), as the day
 * that ended becomes training data (and a history too short yesterday may suffice today).
 */
export function fitDueIn(s: FitState, now: Date, today: string, t: FitTiming): number | null {
  if (s.generation > s.fittedGeneration) {
    const quiet = s.changedAt.getTime() + t.quietMs - now.getTime();
    const waited = (s.staleSince ?? s.changedAt).getTime() + t.maxWaitMs - now.getTime();
    return Math.max(0, Math.min(quiet, waited));
  }
  if (s.fittedOn !== null && s.fittedOn < today) return 0;
  return null;
}

/** A day of scheduling's internal `scheduling.forecast.fitted`: the day's total and its hours, decimal strings to two places. */
export interface FittedEventDay {
  date: string;
  /** ISO instant of the day's first hour (the others follow every hour) */
  start: string;
  /** the sum of `hours` */
  total: string;
  /** per hour of the day from `start`: 23, 24 or 25 (four 15-minute intervals each) */
  hours: string[];
}

/**
 * The object of the internal `scheduling.forecast.fitted` a stored fit announces (insights' read model
 * of forecasts): per day the hour sums of the model's 15-minute values (before adjustments, which
 * `forecast.updated` carries), each rounded half up to two decimals, and the day's total their sum.
 * Hours, not intervals: 63 days × 24 hours is ~16 KB of JSON where 63 × 96 intervals would be ~60 KB,
 * and staffing and accuracy are read per hour and per day.
 */
export function fittedEventObject(series: { locationId: string; driver: string }, stored: StoredForecast, fittedAt: Date) {
  const days: FittedEventDay[] = stored.days.map((d) => {
    const hours: string[] = [];
    for (let k = 0; k < d.values.length; k += 4) {
      hours.push(new Decimal(d.values.slice(k, k + 4).reduce((s, v) => s + v, 0)).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2));
    }
    const total = hours.reduce((s, h) => s.plus(h), new Decimal(0)).toFixed(2);
    return { date: d.date, start: d.start, total, hours };
  });
  return {
    locationId: series.locationId,
    driver: series.driver,
    fittedAt: fittedAt.toISOString(),
    timezone: stored.timezone,
    trainedThrough: stored.trainedThrough,
    method: stored.method,
    from: stored.from,
    to: stored.to,
    days,
  };
}

/**
 * What shapes a normal day: weekday factors, the weekday-adjusted level around each day, the yearly
 * lags and offsets carried over from it, and the intraday profile of each weekday.
 */
import { SLOTS, weekdayOf } from './calendar';
import { usable, type History } from './history';
import { YEARLY_FIT, type DailyFit } from './regression';

const PROFILE_DAYS = 112;
const PROFILE_HALF_LIFE = 56;
const MIN_YEARLY_DAYS = 56;
const LEVEL_RADIUS = [7, 14];
const YEAR_LAGS = [364, 728];

/** weekday factors (mean 1 over the weekdays with a level) of a fit */
export function weekdayFactors(fit: DailyFit): Float64Array {
  const known = [...fit.level].filter(Number.isFinite);
  const mean = known.reduce((a, b) => a + b, 0) / known.length;
  return fit.level.map((l) => (Number.isFinite(l) ? Math.exp(l - mean) : 1));
}

/**
 * Weekday-adjusted level around each history day: the running median of total / weekday factor over
 * the usable days within ±7 days (±14 when fewer than 7 are usable), NaN when still too few.
 */
export function smoothedLevels(h: History, factors: Float64Array): Float64Array {
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
export function levelNear(levels: Float64Array, first: number, day: number): number {
  for (let k = 0; k <= 7; k++) {
    for (const dd of k === 0 ? [day] : [day - k, day + k]) {
      const i = dd - first;
      if (i >= 0 && i < levels.length && !Number.isNaN(levels[i])) return Math.log(levels[i]);
    }
  }
  return NaN;
}

/** the lags whose level is known for every target day and for at least 8 weeks of the regression window */
export function chooseYearLags(h: History, levels: Float64Array, targets: number[]): number[] {
  const regressionDays: number[] = [];
  for (let d = Math.max(0, h.days - YEARLY_FIT.days); d < h.days; d++) if (usable(h, d)) regressionDays.push(h.cal.first + d);
  return YEAR_LAGS.filter((lag) => {
    if (targets.some((t) => Number.isNaN(levelNear(levels, h.cal.first, t - lag)))) return false;
    return regressionDays.filter((d) => !Number.isNaN(levelNear(levels, h.cal.first, d - lag))).length >= MIN_YEARLY_DAYS;
  });
}

export function yearlyOffset(levels: Float64Array, first: number, lags: number[], day: number): number {
  if (lags.length === 0) return 0;
  let sum = 0;
  for (const lag of lags) sum += levelNear(levels, first, day - lag);
  return sum / lags.length;
}

export function estimateProfiles(h: History, closed: boolean[]): Float64Array[] {
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

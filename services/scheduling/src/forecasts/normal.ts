/**
 * The normal day of a location: its daily fit (weekday levels, trend, yearly season), its intraday
 * profiles and its regularly closed weekdays, from a folded history of any length with a usable day.
 */
import { weekdayOf } from './calendar';
import { regularlyClosed, usable, type History } from './history';
import { chooseYearLags, estimateProfiles, smoothedLevels, weekdayFactors, yearlyOffset } from './profiles';
import { fitDaily, TREND_FIT, YEARLY_FIT, type DailyFit } from './regression';
import type { SpecialDay, SpecialIndex } from './special-days';
import { learnSpecial, type SpecialEffect } from './special-effects';

const TREND_HORIZON_DAYS = 56;
/** Weeks of history from which the full method applies (ingestion rule 10 recommends 8). */
export const FULL_WEEKS = 8;

/** whole weeks and days from the first day with data to the last training day */
export function historySpan(h: History): { days: number; weeks: number } {
  let firstData = 0;
  while (firstData < h.days && !h.open[firstData]) firstData++;
  const days = firstData < h.days ? h.days - firstData : 0;
  return { days, weeks: Math.floor(days / 7) };
}

/** What makes the normal day of a location: the daily fit (with its yearly season) and the intraday profiles. */
export interface NormalModel {
  h: History;
  closed: boolean[];
  factors: Float64Array;
  levels: Float64Array;
  profiles: Float64Array[];
  yearlyLags: number[];
  slopePerDay: number;
  /** the normal day total of a day number (0 on a regularly closed weekday) */
  baseline: (n: number) => number;
}

/**
 * Log level per weekday from the mean log total of its usable days (the last 12 weeks, else all):
 * the fit of a history too short for the robust regression (fewer than 14 usable days).
 */
function meanLevels(h: History): DailyFit | null {
  const sums = new Float64Array(7);
  const counts = new Float64Array(7);
  for (const recentOnly of [true, false]) {
    for (let d = recentOnly ? Math.max(0, h.days - TREND_FIT.days) : 0; d < h.days; d++) {
      if (!usable(h, d)) continue;
      const w = weekdayOf(h.cal.first + d);
      sums[w] += Math.log(h.totals[d]);
      counts[w]++;
    }
    if (counts.some((c) => c > 0)) break;
  }
  if (!counts.some((c) => c > 0)) return null;
  return { level: sums.map((s, w) => (counts[w] > 0 ? s / counts[w] : NaN)), slopePerDay: 0 };
}

/** Fits the normal day of a folded history; null when it has no usable day. */
export function fitNormal(h: History, targets: number[], trainEnd: number): NormalModel | null {
  const closed = regularlyClosed(h);
  const plain = fitDaily(h, () => 0, TREND_FIT) ?? meanLevels(h);
  if (!plain) return null;
  const factors = weekdayFactors(plain);
  const levels = smoothedLevels(h, factors);
  const lags = chooseYearLags(h, levels, targets);
  const fit = (lags.length > 0 && fitDaily(h, (d) => yearlyOffset(levels, h.cal.first, lags, h.cal.first + d), YEARLY_FIT)) || plain;
  const usedLags = fit === plain ? [] : lags;
  const known = [...fit.level].filter(Number.isFinite);
  const meanLevel = known.reduce((a, b) => a + b, 0) / known.length;
  const profiles = estimateProfiles(h, closed);
  const baseline = (n: number) => {
    const w = weekdayOf(n);
    if (closed[w]) return 0;
    const level = Number.isFinite(fit.level[w]) ? fit.level[w] : meanLevel;
    return Math.exp(level + fit.slopePerDay * Math.min(n - trainEnd, TREND_HORIZON_DAYS) + yearlyOffset(levels, h.cal.first, usedLags, n));
  };
  return { h, closed, factors, levels, profiles, yearlyLags: usedLags, slopePerDay: fit.slopePerDay, baseline };
}

/** The effect of a special day at a location, from its own history (see special-effects.ts). */
export function specialEffectAt(m: NormalModel, special: SpecialDay, n: number, trainEnd: number, specials: SpecialIndex): SpecialEffect {
  return learnSpecial(m.h, special, n, trainEnd, specials, m.levels, m.factors, m.profiles);
}


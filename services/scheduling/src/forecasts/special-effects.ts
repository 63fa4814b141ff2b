/**
 * The effect of a special day on its day total (given, learned from its past occurrences against the
 * normal day then, or a default) and its hour-by-hour reshaping of the profile.
 */
import { monthDayOf, SLOTS, weekdayOf } from './calendar';
import type { History } from './history';
import { levelNear } from './profiles';
import { specialKey, type ForecastDaySpecial, type SpecialDay, type SpecialIndex } from './special-days';

const DEFAULT_LIFT = 0.2;
const DEFAULT_DIP = -0.2;

export interface SpecialEffect {
  factor: number;
  source: ForecastDaySpecial['source'];
  hourly: Float64Array | null;
}

export function learnSpecial(
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

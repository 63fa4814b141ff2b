/**
 * Daily totals, in logs, by a robust regression on one level per weekday: a small linear solve,
 * Huber weights by IRLS, the variance of the slope from weekly residuals, and the daily fit with
 * its windows (the trend fit of the last 12 weeks, the yearly fit of the last 26).
 */
import { weekdayOf } from './calendar';
import { usable, type History } from './history';

export interface FitOptions {
  days: number;
  halfLife: number;
  trend: boolean;
}
export const TREND_FIT: FitOptions = { days: 84, halfLife: 56, trend: true };
export const YEARLY_FIT: FitOptions = { days: 182, halfLife: 91, trend: false };
const MIN_FIT_DAYS = 14;

export interface DailyFit {
  /** log level per weekday 0..6 (Monday..Sunday); NaN when the weekday had no usable day */
  level: Float64Array;
  slopePerDay: number;
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
export function fitDaily(h: History, offset: (d: number) => number, options: FitOptions): DailyFit | null {
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

export function recentOpenDays(h: History): number {
  let n = 0;
  for (let d = Math.max(0, h.days - TREND_FIT.days); d < h.days; d++) n += h.open[d];
  return n;
}

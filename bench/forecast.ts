/**
 * Demand forecast: accuracy of the scheduling forecast model against two simple baselines, and its time.
 * Two years (2024-01-01 .. 2025-12-31) of 15-minute net sales are generated for 20 locations of three
 * kinds (morning-, lunch- and dinner-led; four US zones, so DST days are in the history): weekly and
 * daily seasonality per kind and location (the evening later and busier in summer), a trend and a
 * slow random drift of the level, a yearly season (January dip, summer, a Nov–Dec holiday ramp, the
 * week after Christmas), special days known to the model as a list without percentages (Valentine's,
 * Mother's Day, July 4, a city festival, Thanksgiving closed, Black Friday, a winter market,
 * Christmas Eve with an early close, Christmas closed, New Year's Eve and Day), random unannounced
 * closures, two dinner places closed on Mondays, day-level swings (weather: AR(1) log-normal, σ 15 %),
 * hour-level swings (σ 10 %), and interval noise (Poisson checks × gamma ticket sizes, now and then a
 * group order). Every open day reports all its intervals (about 66,000 points a location).
 * The model trains on everything before 2025-12-04 and forecasts the last four weeks (2025-12-04 ..
 * 2025-12-31: a winter market, Christmas Eve, Christmas closed, New Year's Eve). Printed, per kind and
 * overall, the WAPE over 15-minute intervals (Σ|actual − forecast| / Σ actual) of the model, of
 * seasonal-naive (the last week before the window, repeated) and of the mean of the same weekly
 * interval over the last four weeks; the model's change against each (targets: ≤ −25 % vs
 * seasonal-naive, ≤ −10 % vs the four-week mean) and the mean's against seasonal-naive (about −25 %
 * on such data, says the issue); the WAPE of the generator's own expectation (a floor: it knows the
 * closures, not the swings) and that of the model without the special-day list (Christmas is then
 * learned from nothing: a day without data is not known to be closed); and the time to forecast one
 * location-week from the full history, median and max over locations (target < 200 ms).
 * Then, through the API (gateway, compiled runtime in a child process, embedded Postgres): the last
 * 100 weeks of each location sent as net sales with POST /demand-drivers, the background fits waited
 * for, and GET /forecasts p50/p95 of a location-week in 15-minute buckets (target p95 < 100 ms), one
 * day, and a week in daily buckets, served from the stored fits, against the same week fitted for
 * the request (past the stored days) as the baseline.
 *
 *   npm run bench:forecast          (BENCH_SEED=1 changes the generated data, BENCH_LOCATIONS=20;
 *                                    BENCH_API=0 skips the API part, BENCH_API_WEEKS=100, BENCH_API_ROUNDS=10)
 */
import { DateTime } from 'luxon';
import { forecastDemand, type DemandPoint, type SpecialDay } from '@svc/scheduling';
import { seededRandom } from './seeded-random';
import { runBench } from './entry';
import { benchRequest, benchSession, startRuntimeProcess } from './runtime-process';

export const SEED = Number(process.env.BENCH_SEED ?? 1);
/** BENCH_API=0 skips the part through the API */
const API = process.env.BENCH_API !== '0';
const API_WEEKS = Number(process.env.BENCH_API_WEEKS ?? 100);
const API_ROUNDS = Number(process.env.BENCH_API_ROUNDS ?? 10);
export const LOCATIONS = Number(process.env.BENCH_LOCATIONS ?? 20);
export const FIRST = '2024-01-01';
export const LAST = '2025-12-31';
export const WINDOW_FROM = '2025-12-04';
export const WINDOW_DAYS = 28;
const SLOTS = 96;
const SLOT_MS = 900_000;
const ZONES = ['America/New_York', 'America/Chicago', 'America/Denver', 'America/Los_Angeles'];

export type Kind = 'morning' | 'lunch' | 'dinner';

export class Random {
  private readonly next: () => number;
  private spare: number | null = null;
  constructor(seed: number) {
    this.next = seededRandom(seed);
  }
  uniform(lo = 0, hi = 1): number {
    return lo + (hi - lo) * this.next();
  }
  normal(): number {
    if (this.spare !== null) {
      const s = this.spare;
      this.spare = null;
      return s;
    }
    const u = Math.max(this.next(), 1e-12);
    const v = this.next();
    const r = Math.sqrt(-2 * Math.log(u));
    this.spare = r * Math.sin(2 * Math.PI * v);
    return r * Math.cos(2 * Math.PI * v);
  }
  poisson(lambda: number): number {
    if (lambda <= 0) return 0;
    if (lambda > 40) return Math.max(0, Math.round(lambda + Math.sqrt(lambda) * this.normal()));
    const limit = Math.exp(-lambda);
    let k = 0;
    let p = this.next();
    while (p > limit) {
      k++;
      p *= this.next();
    }
    return k;
  }
  // Marsaglia–Tsang
  gamma(shape: number): number {
    if (shape <= 0) return 0;
    if (shape < 1) return this.gamma(shape + 1) * Math.pow(Math.max(this.next(), 1e-12), 1 / shape);
    const d = shape - 1 / 3;
    const c = 1 / Math.sqrt(9 * d);
    while (true) {
      let x: number;
      let v: number;
      do {
        x = this.normal();
        v = 1 + c * x;
      } while (v <= 0);
      v = v * v * v;
      const u = this.next();
      if (u < 1 - 0.0331 * x ** 4 || Math.log(u) < 0.5 * x * x + d * (1 - v + Math.log(v))) return d * v;
    }
  }
}

interface Peak {
  at: number;
  width: number;
  weight: number;
}

export interface Location {
  id: number;
  kind: Kind;
  zone: string;
  /** opening hours [open, close) in local hours, per weekday Monday..Sunday; null when closed */
  hours: ([number, number] | null)[];
  peaks: { weekday: Peak[]; weekend: Peak[] };
  weekday: number[];
  base: number;
  growth: number;
  ticket: number;
  festival: boolean;
  market: boolean;
}

export interface Special {
  name: string;
  kind: SpecialDay['kind'];
  /** day multiplier per location kind */
  factor: Record<Kind, number>;
  /** local hour after which the location is closed that day */
  closeAt?: Partial<Record<Kind, number>>;
  /** extra weight on the evening (after 17:00) */
  evening?: Partial<Record<Kind, number>>;
  only?: 'festival' | 'market';
}

export const dayNumber = (date: string) => Date.parse(`${date}T00:00:00Z`) / 86_400_000;
export const dateOf = (n: number) => new Date(n * 86_400_000).toISOString().slice(0, 10);
const weekdayOf = (n: number) => (n + 3) % 7;

function nthWeekday(year: number, month: number, weekday: number, nth: number): string {
  const first = dayNumber(`${year}-${String(month).padStart(2, '0')}-01`);
  const offset = (weekday - weekdayOf(first) + 7) % 7;
  return dateOf(first + offset + 7 * (nth - 1));
}

export function specialCalendar(): Map<string, Special> {
  const all = (v: number): Record<Kind, number> => ({ morning: v, lunch: v, dinner: v });
  const days = new Map<string, Special>();
  for (const year of [2024, 2025]) {
    const thanksgiving = nthWeekday(year, 11, 3, 4);
    days.set(`${year}-02-14`, { name: "Valentine's Day", kind: 'lift', factor: { morning: 1.1, lunch: 1.05, dinner: 1.45 }, evening: { dinner: 1.3, lunch: 1.3 } });
    days.set(nthWeekday(year, 5, 6, 2), { name: "Mother's Day", kind: 'lift', factor: { morning: 1.5, lunch: 0.9, dinner: 1.3 } });
    days.set(`${year}-07-04`, { name: 'Independence Day', kind: 'dip', factor: { morning: 0.7, lunch: 0.6, dinner: 0.65 } });
    days.set(year === 2024 ? '2024-10-12' : '2025-10-11', { name: 'City festival', kind: 'lift', factor: { morning: 1.25, lunch: 1.4, dinner: 1.25 }, only: 'festival' });
    days.set(thanksgiving, { name: 'Thanksgiving', kind: 'closed', factor: all(0) });
    days.set(dateOf(dayNumber(thanksgiving) + 1), { name: 'Black Friday', kind: 'lift', factor: { morning: 1.1, lunch: 1.25, dinner: 1.05 } });
    days.set(year === 2024 ? '2024-12-14' : '2025-12-13', { name: 'Winter market', kind: 'lift', factor: { morning: 1.3, lunch: 1.35, dinner: 1.2 }, only: 'market' });
    days.set(`${year}-12-24`, { name: 'Christmas Eve', kind: 'dip', factor: { morning: 0.85, lunch: 0.8, dinner: 0.9 }, closeAt: { morning: 13, lunch: 15, dinner: 20 } });
    days.set(`${year}-12-25`, { name: 'Christmas Day', kind: 'closed', factor: all(0) });
    days.set(`${year}-12-31`, { name: "New Year's Eve", kind: 'lift', factor: { morning: 0.8, lunch: 0.75, dinner: 1.3 }, closeAt: { morning: 14, lunch: 18 }, evening: { dinner: 1.4 } });
    days.set(`${year}-01-01`, { name: "New Year's Day", kind: 'dip', factor: { morning: 0.7, lunch: 0.6, dinner: 0.8 } });
  }
  return days;
}

export function makeLocation(id: number, rnd: Random): Location {
  const kind: Kind = (['lunch', 'dinner', 'morning'] as const)[id % 3];
  const jitter = (x: number, by: number) => x + rnd.uniform(-by, by);
  const scale = (xs: number[], by: number) => xs.map((x) => x * Math.exp(rnd.uniform(-by, by)));
  const shift = rnd.uniform(-0.5, 0.5);
  const common = { id, kind, zone: ZONES[id % ZONES.length], growth: rnd.uniform(-0.06, 0.15), festival: id % 2 === 0, market: id % 4 < 2 };
  if (kind === 'morning') {
    const h: [number, number] = [6.5, 15];
    return {
      ...common,
      hours: [h, h, h, h, h, [7, 15], [7.5, 14.5]],
      peaks: {
        weekday: [{ at: 8 + shift, width: 0.9, weight: jitter(0.55, 0.1) }, { at: 12.25 + shift / 2, width: 0.8, weight: jitter(0.3, 0.08) }],
        weekend: [{ at: 10 + shift, width: 1.5, weight: 0.75 }, { at: 13, width: 1, weight: 0.1 }],
      },
      weekday: scale([0.95, 1, 1, 1.02, 1.08, 1.15, 0.95], 0.05),
      base: rnd.uniform(2500, 4500),
      ticket: 9,
    };
  }
  if (kind === 'lunch') {
    const h: [number, number] = [10.5, 21];
    return {
      ...common,
      hours: [h, h, h, h, h, [11, 21], [11, 20]],
      peaks: {
        weekday: [{ at: 12.25 + shift / 2, width: 0.7, weight: jitter(0.55, 0.1) }, { at: 18 + shift, width: 1, weight: jitter(0.3, 0.1) }],
        weekend: [{ at: 13 + shift, width: 1.5, weight: 0.5 }, { at: 18, width: 1.2, weight: 0.35 }],
      },
      weekday: scale([1, 1.05, 1.05, 1.05, 1.1, 0.8, 0.65], 0.08),
      base: rnd.uniform(5000, 9000),
      ticket: 14,
    };
  }
  const closedMondays = id === 1 || id === 10;
  const late: [number, number] = [16.5, 23.5];
  return {
    ...common,
    hours: [closedMondays ? null : [16.5, 23], [16.5, 23], [16.5, 23], [16.5, 23], late, [11.5, 23.5], [11.5, 22]],
    peaks: {
      weekday: [{ at: 19.5 + shift, width: 1, weight: 0.85 }],
      weekend: [{ at: 12.75, width: 1, weight: 0.25 }, { at: 19.5 + shift, width: 1.1, weight: 0.65 }],
    },
    weekday: scale([0.7, 0.8, 0.85, 0.95, 1.35, 1.5, 1], 0.08),
    base: rnd.uniform(7000, 14000),
    ticket: 48,
  };
}

/** yearly season of a kind on a date: January dip, summer, the holiday ramp and the week after Christmas */
function season(kind: Kind, n: number): number {
  const date = dateOf(n);
  const month = Number(date.slice(5, 7));
  const day = Number(date.slice(8, 10));
  const doy = n - dayNumber(`${date.slice(0, 4)}-01-01`);
  const summer = { morning: -0.04, lunch: 0.05, dinner: 0.06 }[kind];
  let f = 1 + summer * Math.cos((2 * Math.PI * (doy - 190)) / 365);
  if (month === 1) f *= 0.9 + (0.1 * (day - 1)) / 30;
  const peak = { morning: 0.18, lunch: 0.28, dinner: 0.32 }[kind];
  const rampStart = dayNumber(`${date.slice(0, 4)}-11-08`);
  const rampTop = dayNumber(`${date.slice(0, 4)}-12-21`);
  if (n >= rampStart && n <= rampTop) f *= 1 + (peak * (n - rampStart)) / (rampTop - rampStart);
  if (month === 12 && day > 21 && day < 26) f *= 1 + peak;
  if (month === 12 && day >= 26) f *= { morning: 0.9, lunch: 0.8, dinner: 1.12 }[kind];
  return f;
}

/** demand density at a local hour; `sway` (−1 in January .. 1 in July) moves the evening later and busier in summer */
function shape(loc: Location, w: number, hourOfDay: number, sway: number): number {
  const hours = loc.hours[w];
  if (!hours || hourOfDay < hours[0] || hourOfDay >= hours[1]) return 0;
  const peaks = w >= 5 ? loc.peaks.weekend : loc.peaks.weekday;
  let v = 0.12;
  for (const p of peaks) {
    const evening = p.at >= 17;
    const at = evening ? p.at + 0.3 * sway : p.at;
    const weight = evening ? p.weight * (1 + 0.12 * sway) : p.weight;
    v += (weight / p.width) * Math.exp(-0.5 * ((hourOfDay - at) / p.width) ** 2);
  }
  return v;
}

export interface Generated {
  points: DemandPoint[];
  /** actual per window day × wall slot */
  grid: Float64Array;
  /** the generator's expectation without the day's and the hour's swings (a floor no forecast reaches) */
  expected: Float64Array;
  /** first day number of the grid */
  gridFirst: number;
}

export function generate(loc: Location, specials: Map<string, Special>, rnd: Random): Generated {
  const first = dayNumber(FIRST);
  const last = dayNumber(LAST);
  const gridFirst = dayNumber(WINDOW_FROM) - 28;
  const grid = new Float64Array((last - gridFirst + 1) * SLOTS);
  const expectedGrid = new Float64Array((last - gridFirst + 1) * SLOTS);
  const points: DemandPoint[] = [];
  const closures = new Set<number>();
  for (let n = first; n <= last; n++) if (rnd.uniform() < 1.5 / 365) closures.add(n);
  let weather = 0;
  let drift = 0;
  for (let n = first; n <= last; n++) {
    weather = 0.5 * weather + 0.15 * Math.sqrt(0.75) * rnd.normal();
    drift += 0.004 * rnd.normal();
    const date = dateOf(n);
    const w = weekdayOf(n);
    const special = specials.get(date);
    const applies = special && (!special.only || (special.only === 'festival' ? loc.festival : loc.market));
    if (closures.has(n) || !loc.hours[w] || (applies && special.kind === 'closed')) continue;
    const years = (n - first) / 365;
    let level = loc.base * loc.weekday[w] * (1 + loc.growth * years) * season(loc.kind, n) * Math.exp(drift);
    if (applies) level *= special.factor[loc.kind];
    const sway = Math.cos((2 * Math.PI * (n - dayNumber(`${date.slice(0, 4)}-07-10`))) / 365);
    let norm = 0;
    for (let s = 0; s < SLOTS; s++) norm += shape(loc, w, (s + 0.5) / 4, sway);
    const start = DateTime.fromISO(date, { zone: loc.zone }).toMillis();
    const end = DateTime.fromISO(dateOf(n + 1), { zone: loc.zone }).toMillis();
    const hourNoise = Array.from({ length: 24 }, () => Math.exp(0.1 * rnd.normal()));
    const closeAt = applies ? special.closeAt?.[loc.kind] : undefined;
    const evening = applies ? (special.evening?.[loc.kind] ?? 1) : 1;
    const normalDay = end - start === SLOTS * SLOT_MS;
    for (let ms = start; ms < end; ms += SLOT_MS) {
      // wall-clock slot: a 23- or 25-hour day skips or repeats an hour
      const local = normalDay ? null : DateTime.fromMillis(ms, { zone: loc.zone });
      const slot = local ? local.hour * 4 + Math.floor(local.minute / 15) : (ms - start) / SLOT_MS;
      const hourOfDay = (slot + 0.5) / 4;
      let expected = (level * shape(loc, w, hourOfDay, sway)) / norm;
      if (closeAt !== undefined && hourOfDay >= closeAt) expected = 0;
      if (hourOfDay >= 17) expected *= evening;
      if (n >= gridFirst) expectedGrid[(n - gridFirst) * SLOTS + slot] += expected;
      expected *= hourNoise[slot >> 2] * Math.exp(weather);
      const checks = rnd.poisson(expected / loc.ticket);
      let value = rnd.gamma(checks * 2) * (loc.ticket / 2);
      // now and then a group or catering order of 5 to 20 checks
      if (expected > 0 && rnd.uniform() < 0.006) value += rnd.gamma(3) * loc.ticket * rnd.uniform(5, 20) / 3;
      value = Math.round(value * 100) / 100;
      points.push({ start: new Date(ms).toISOString(), value });
      if (n >= gridFirst) grid[(n - gridFirst) * SLOTS + slot] += value;
    }
  }
  return { points, grid, expected: expectedGrid, gridFirst };
}

export function specialList(loc: Location, specials: Map<string, Special>): SpecialDay[] {
  return [...specials.entries()]
    .filter(([, s]) => !s.only || (s.only === 'festival' ? loc.festival : loc.market))
    .map(([date, s]) => ({ date, kind: s.kind, name: s.name }));
}

interface Tally {
  actual: number;
  model: number;
  /** the model without the special-day list */
  blind: number;
  naive: number;
  mean4: number;
  floor: number;
}

const pct = (x: number) => `${(100 * x).toFixed(1)} %`;

/** A location's last BENCH_API_WEEKS weeks of history, kept for the part through the API. */
interface KeptHistory {
  zone: string;
  starts: Float64Array;
  values: Float64Array;
}

function keepHistory(loc: Location, history: DemandPoint[]): KeptHistory {
  const last = Date.parse(history[history.length - 1].start);
  const recent = history.filter((p) => Date.parse(p.start) > last - API_WEEKS * 7 * 86_400_000);
  return { zone: loc.zone, starts: Float64Array.from(recent, (p) => Date.parse(p.start)), values: Float64Array.from(recent, (p) => p.value) };
}

const quantile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))];
};

/**
 * GET /forecasts through the gateway of the compiled runtime (all services, embedded Postgres): the
 * kept histories sent as net sales with POST /demand-drivers (shifted by whole days so the last day is
 * two days ago), the fits waited for, then location-weeks and days read from the stored fits, against
 * the same location-week fitted for the request (a range past the 63 stored days) as the baseline.
 */
async function apiLatency(kept: KeptHistory[]): Promise<void> {
  const rt = await startRuntimeProcess({ API_INGEST_RATE_LIMIT_PER_MIN: '100000000', API_RATE_LIMIT_PER_MIN: '100000000', LOG_LEVEL: 'warn' });
  try {
    const session = await benchSession(rt.base);
    const reg = await benchRequest(rt.base, 'POST', '/api/v1/integrations', { manifest: { name: 'Bench sales feed', version: '1.0.0', description: 'bench', scopes: ['scheduling:write', 'scheduling:read'], webhooks: [] } }, session);
    const key: string = reg.apiKey;
    const lastMs = Math.max(...kept.map((k) => k.starts[k.starts.length - 1]));
    const shift = (Math.floor(Date.now() / 86_400_000) - 2 - Math.floor(lastMs / 86_400_000)) * 86_400_000;
    const ids: string[] = [];
    for (const [i, k] of kept.entries()) ids.push((await benchRequest(rt.base, 'POST', '/api/v1/locations', { name: `Bench forecast ${i}`, timezone: k.zone, externalId: `BENCH-F${i}` }, session)).id);

    const jobs: Array<[number, number]> = [];
    for (const [i, k] of kept.entries()) for (let o = 0; o < k.starts.length; o += 1000) jobs.push([i, o]);
    let next = 0;
    let sent = 0;
    const loadStarted = performance.now();
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next < jobs.length) {
          const [i, o] = jobs[next++];
          const k = kept[i];
          const drivers = [];
          for (let j = o; j < Math.min(o + 1000, k.starts.length); j++) {
            const at = new Date(k.starts[j] + shift).toISOString();
            drivers.push({ externalId: `ns-${i}-${at}`, locationId: ids[i], driver: 'net_sales', intervalStart: at, value: k.values[j].toFixed(2) });
          }
          const answer = await benchRequest(rt.base, 'POST', '/api/v1/demand-drivers', { source: 'bench-sales', drivers }, key);
          if (answer.rejected) throw new Error(`demand drivers rejected: ${JSON.stringify(answer.results.find((r: { errors?: unknown }) => r.errors))}`);
          sent += drivers.length;
        }
      }),
    );
    const loadSeconds = (performance.now() - loadStarted) / 1000;

    const day = (zone: string, plus: number) => DateTime.now().setZone(zone).plus({ days: plus }).toISODate()!;
    const path = (i: number, from: number, to: number, bucket: string) => `/api/v1/forecasts?locationId=${ids[i]}&driver=net_sales&from=${day(kept[i].zone, from)}&to=${day(kept[i].zone, to)}&bucket=${bucket}`;
    const get = async (p: string) => {
      const t0 = performance.now();
      const res = await fetch(`${rt.base}${p}`, { headers: { authorization: `Bearer ${session}` } });
      const body = (await res.json()) as { fit: string; stale: boolean; buckets: unknown[]; weeksOfHistory: number };
      const ms = performance.now() - t0;
      if (res.status !== 200) throw new Error(`GET ${p}: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
      return { ms, body };
    };
    // the fits: each location's week answered from a stored fit that has every batch in it
    const fitStarted = performance.now();
    const waiting = new Set(ids.keys());
    while (waiting.size > 0) {
      if (performance.now() - fitStarted > 30 * 60_000) throw new Error(`${waiting.size} locations not fitted after 30 minutes`);
      for (const i of [...waiting]) {
        const { body } = await get(path(i, 1, 7, '1d'));
        if (body.fit === 'stored' && !body.stale) waiting.delete(i);
      }
      if (waiting.size > 0) await new Promise((r) => setTimeout(r, 1000));
    }
    const fitSeconds = (performance.now() - fitStarted) / 1000;
    console.log(
      `through the API (gateway, runtime process, embedded Postgres): ${sent} net-sales intervals of ${kept.length} locations (${API_WEEKS} weeks each) sent in ${loadSeconds.toFixed(1)} s; all fitted ${fitSeconds.toFixed(1)} s after the last batch`,
    );
    const cases: Array<[string, (i: number) => string, number, string, number]> = [
      ['location-week, 15-minute buckets', (i) => path(i, 1, 7, '15m'), API_ROUNDS, 'stored', 7 * 96],
      ['one day, 15-minute buckets', (i) => path(i, 1, 1, '15m'), API_ROUNDS, 'stored', 96],
      ['location-week, daily buckets', (i) => path(i, 1, 7, '1d'), API_ROUNDS, 'stored', 7],
      ['baseline: location-week, 15-minute, fitted per request', (i) => path(i, 70, 76, '15m'), 1, 'on_demand', 7 * 96],
    ];
    console.log(`GET /forecasts${'p50'.padStart(44)}${'p95'.padStart(10)}${'max'.padStart(10)}  requests`);
    for (const [name, of, rounds, fit, buckets] of cases) {
      const times: number[] = [];
      for (let r = 0; r < rounds; r++) {
        for (let i = 0; i < ids.length; i++) {
          const { ms, body } = await get(of(i));
          // a day with a clock change has 92 or 100 intervals
          if (body.fit !== fit || Math.abs(body.buckets.length - buckets) > 8) throw new Error(`${name}: fit ${body.fit}, ${body.buckets.length} buckets`);
          times.push(ms);
        }
      }
      console.log(`  ${name.padEnd(55)}${quantile(times, 0.5).toFixed(1).padStart(8)} ms${quantile(times, 0.95).toFixed(1).padStart(7)} ms${Math.max(...times).toFixed(1).padStart(7)} ms  ${times.length}`);
    }
    console.log('target: location-week in 15-minute buckets p95 < 100 ms through the gateway');
  } finally {
    await rt.stop();
  }
}

async function main(): Promise<void> {
  const rnd = new Random(SEED);
  const specials = specialCalendar();
  const windowFirst = dayNumber(WINDOW_FROM);
  const tallies = new Map<string, Tally>();
  const weekMs: number[] = [];
  const windowMs: number[] = [];
  let pointCount = 0;
  const kept: KeptHistory[] = [];
  const started = performance.now();
  for (let id = 0; id < LOCATIONS; id++) {
    const loc = makeLocation(id, rnd);
    const { points, grid, expected, gridFirst } = generate(loc, specials, rnd);
    const windowStart = DateTime.fromISO(WINDOW_FROM, { zone: loc.zone }).toMillis();
    const history = points.filter((p) => Date.parse(p.start) < windowStart);
    pointCount += history.length;
    if (API) kept.push(keepHistory(loc, history));
    const list = specialList(loc, specials);
    const to = dateOf(windowFirst + WINDOW_DAYS - 1);

    let t0 = performance.now();
    const forecast = forecastDemand({ history, zone: loc.zone, from: WINDOW_FROM, to, specialDays: list });
    windowMs.push(performance.now() - t0);
    t0 = performance.now();
    forecastDemand({ history, zone: loc.zone, from: WINDOW_FROM, to: dateOf(windowFirst + 6), specialDays: list });
    weekMs.push(performance.now() - t0);
    if (forecast.points.length !== WINDOW_DAYS * SLOTS) throw new Error(`location ${id}: ${forecast.points.length} points, expected ${WINDOW_DAYS * SLOTS}`);
    const blind = forecastDemand({ history, zone: loc.zone, from: WINDOW_FROM, to });

    const tally = tallies.get(loc.kind) ?? { actual: 0, model: 0, blind: 0, naive: 0, mean4: 0, floor: 0 };
    const base = (windowFirst - gridFirst) * SLOTS;
    for (let i = 0; i < WINDOW_DAYS * SLOTS; i++) {
      const actual = grid[base + i];
      const week = i % (7 * SLOTS);
      const naive = grid[base - 7 * SLOTS + week];
      let mean4 = 0;
      for (let k = 1; k <= 4; k++) mean4 += grid[base - 7 * k * SLOTS + week] / 4;
      tally.actual += actual;
      tally.model += Math.abs(actual - forecast.points[i].value);
      tally.blind += Math.abs(actual - blind.points[i].value);
      tally.naive += Math.abs(actual - naive);
      tally.mean4 += Math.abs(actual - mean4);
      tally.floor += Math.abs(actual - expected[base + i]);
    }
    tallies.set(loc.kind, tally);
  }
  const overall: Tally = { actual: 0, model: 0, blind: 0, naive: 0, mean4: 0, floor: 0 };
  for (const t of tallies.values()) for (const k of Object.keys(overall) as (keyof Tally)[]) overall[k] += t[k];

  console.log(`forecast bench: ${LOCATIONS} locations, seed ${SEED}, ${Math.round(pointCount / LOCATIONS)} history points per location (${FIRST} .. ${dateOf(windowFirst - 1)}), window ${WINDOW_FROM} .. ${dateOf(windowFirst + WINDOW_DAYS - 1)} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
  console.log('WAPE over 15-minute intervals of the window');
  console.log(`${'kind'.padEnd(10)}${'model'.padStart(10)}${'naive'.padStart(10)}${'4-wk mean'.padStart(11)}${'model vs naive'.padStart(16)}${'model vs mean'.padStart(15)}${'mean vs naive'.padStart(15)}${'floor'.padStart(9)}${'no list'.padStart(9)}`);
  const rows: [string, Tally][] = [...[...tallies.entries()].sort(), ['overall', overall]];
  for (const [kind, t] of rows) {
    const [model, naive, mean4] = [t.model / t.actual, t.naive / t.actual, t.mean4 / t.actual];
    console.log(
      `${kind.padEnd(10)}${pct(model).padStart(10)}${pct(naive).padStart(10)}${pct(mean4).padStart(11)}${`${pct(model / naive - 1)}`.padStart(16)}${`${pct(model / mean4 - 1)}`.padStart(15)}${`${pct(mean4 / naive - 1)}`.padStart(15)}${pct(t.floor / t.actual).padStart(9)}${pct(t.blind / t.actual).padStart(9)}`,
    );
  }
  console.log("targets: model vs naive ≤ −25 %, model vs four-week mean ≤ −10 %; floor: the generator's own expectation (it knows the closures, not the swings); no list: the model without the special-day list");
  const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
  const median = (xs: number[]) => sorted(xs)[Math.floor(xs.length / 2)];
  const max = (xs: number[]) => sorted(xs)[xs.length - 1];
  console.log(`time per location-week forecast (672 intervals): median ${median(weekMs).toFixed(1)} ms, max ${max(weekMs).toFixed(1)} ms (target < 200 ms)`);
  console.log(`time per four-week forecast: median ${median(windowMs).toFixed(1)} ms, max ${max(windowMs).toFixed(1)} ms (the first includes warm-up)`);
  if (API) await apiLatency(kept);
}

// bench/forecast-cold.ts reads the generator from here
if (require.main === module) runBench(main);

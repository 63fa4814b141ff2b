/**
 * Cold-start forecast accuracy (issue 38, item 2): how well a location with little history is
 * forecast by each method. The data are bench/forecast.ts's (20 generated locations of three kinds,
 * two years of 15-minute net sales, the window 2025-12-04 .. 2025-12-31 held out). Each location in
 * turn is made new: its history is cut to the last 1, 2, 4 or 6 weeks before the window, and the
 * window is forecast
 * - `own_profile`: from its own cut history alone (its weekday levels and profiles);
 * - `similar_locations`: from the 3 other locations nearest to it over the days it has (their full
 *   histories, each scaled to its level);
 * - `chosen`: what the service answers (similar locations under 2 weeks, its own profile from 2);
 * - seasonal-naive on the cut history (its last week repeated), for scale;
 * and `full`, the model on the whole two years, as the reference. Printed: WAPE over the 15-minute
 * intervals of the window, all locations together (Σ|actual − forecast| / Σ actual). The figures are
 * the `expectedErrorPercent` of the forecast's confidence (similar-locations.ts).
 *
 *   npm run bench:forecast-cold     (BENCH_SEED, BENCH_LOCATIONS as bench:forecast)
 */
import { DateTime } from 'luxon';
import { forecastDemand, type DemandPoint, type ForecastInput } from '@svc/scheduling';
import { dateOf, dayNumber, generate, LOCATIONS, makeLocation, Random, SEED, specialCalendar, specialList, WINDOW_DAYS, WINDOW_FROM, type Location } from './forecast';

const SLOTS = 96;
const CUTS = [1, 2, 4, 6];
const pct = (x: number) => `${(100 * x).toFixed(1)} %`;

interface Made {
  loc: Location;
  history: DemandPoint[];
  actual: Float64Array;
}

function main(): void {
  const rnd = new Random(SEED);
  const specials = specialCalendar();
  const windowFirst = dayNumber(WINDOW_FROM);
  const to = dateOf(windowFirst + WINDOW_DAYS - 1);
  const made: Made[] = [];
  const started = performance.now();
  for (let id = 0; id < LOCATIONS; id++) {
    const loc = makeLocation(id, rnd);
    const { points, grid, gridFirst } = generate(loc, specials, rnd);
    const windowStart = DateTime.fromISO(WINDOW_FROM, { zone: loc.zone }).toMillis();
    const base = (windowFirst - gridFirst) * SLOTS;
    made.push({ loc, history: points.filter((p) => Date.parse(p.start) < windowStart), actual: grid.slice(base, base + WINDOW_DAYS * SLOTS) });
  }
  // errors summed over locations: [method][cut]
  const errors = new Map<string, number[]>();
  let actualSum = 0;
  const add = (method: string, cut: number, e: number) => {
    const row = errors.get(method) ?? new Array(CUTS.length + 1).fill(0);
    row[cut] += e;
    errors.set(method, row);
  };
  const methodsChosen = new Map<string, number>();
  for (const [i, m] of made.entries()) {
    const list = specialList(m.loc, specials);
    const base: ForecastInput = { history: m.history, zone: m.loc.zone, from: WINDOW_FROM, to, specialDays: list };
    const wape = (values: ArrayLike<number>) => m.actual.reduce((acc, a, k) => acc + Math.abs(a - values[k]), 0);
    actualSum += m.actual.reduce((a, b) => a + b, 0);
    const full = forecastDemand(base).points.map((p) => p.value);
    add('full (2 years)', CUTS.length, wape(full));
    const peers = made.filter((_, k) => k !== i).map((o) => ({ locationId: `loc_${o.loc.id}`, zone: o.loc.zone, history: o.history }));
    CUTS.forEach((weeks, c) => {
      const cutStart = DateTime.fromISO(WINDOW_FROM, { zone: m.loc.zone }).minus({ weeks }).toMillis();
      const history = m.history.filter((p) => Date.parse(p.start) >= cutStart);
      const cut = { ...base, history };
      add('own_profile', c, wape(forecastDemand(cut).points.map((p) => p.value)));
      const similar = forecastDemand({ ...cut, peers, similarUntilDays: Infinity });
      if (similar.method !== 'similar_locations') throw new Error(`location ${m.loc.id}: no similar locations`);
      add('similar_locations', c, wape(similar.points.map((p) => p.value)));
      const chosen = forecastDemand({ ...cut, peers });
      methodsChosen.set(`${weeks} wk: ${chosen.method}`, (methodsChosen.get(`${weeks} wk: ${chosen.method}`) ?? 0) + 1);
      add('chosen', c, wape(chosen.points.map((p) => p.value)));
      // seasonal-naive: the last week of the cut history, repeated
      const lastWeek = new Float64Array(7 * SLOTS);
      const weekStart = DateTime.fromISO(WINDOW_FROM, { zone: m.loc.zone }).minus({ weeks: 1 });
      for (const p of history) {
        const local = DateTime.fromMillis(Date.parse(p.start), { zone: m.loc.zone });
        const day = Math.floor(local.diff(weekStart, 'days').days);
        if (day >= 0 && day < 7) lastWeek[day * SLOTS + Math.min(SLOTS - 1, local.hour * 4 + Math.floor(local.minute / 15))] += p.value;
      }
      add('seasonal-naive', c, wape(Float64Array.from(m.actual, (_, k) => lastWeek[k % (7 * SLOTS)])));
    });
  }
  console.log(`cold-start forecast bench: ${LOCATIONS} locations, seed ${SEED}, window ${WINDOW_FROM} .. ${to} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
  console.log('WAPE over 15-minute intervals of the window, history cut to the last n weeks');
  console.log(`${'method'.padEnd(20)}${CUTS.map((w) => `${w} wk`.padStart(9)).join('')}${'2 years'.padStart(9)}`);
  for (const [method, row] of errors) console.log(`${method.padEnd(20)}${row.map((e, c) => (method.startsWith('full') === (c === CUTS.length) ? pct(e / actualSum) : '').padStart(9)).join('')}`);
  console.log(`methods chosen: ${[...methodsChosen].map(([k, v]) => `${k} × ${v}`).join(', ')}`);
}

main();

import highsLoader, { type Highs, type ModelData } from 'highs';
import type { Prepared } from './prepare';
import type { ShiftOption } from './shift-options';

/** Hours of a fairness band: the penalty per hour steps up every band an employee works in a workweek. */
export const FAIRNESS_BAND_HOURS = 4;

export interface MilpOutcome {
  chosen: ShiftOption[];
  /** e.g. "optimal", "time limit" */
  status: string;
  /** relative gap HiGHS proved, 0..1 */
  gap: number;
  columns: number;
  rows: number;
  version: string;
}

let loading: Promise<Highs> | null = null;

/** One Wasm instance per process: compiling it takes tens of milliseconds, each model is separate. */
function highs(): Promise<Highs> {
  loading ??= highsLoader();
  return loading;
}

class SparseRows {
  readonly lower: number[] = [];
  readonly upper: number[] = [];
  readonly starts: number[] = [0];
  readonly indices: number[] = [];
  readonly values: number[] = [];

  add(columns: number[], coefficients: number[] | number, lower: number, upper: number): void {
    columns.forEach((c, i) => {
      this.indices.push(c);
      this.values.push(typeof coefficients === 'number' ? coefficients : coefficients[i]);
    });
    this.starts.push(this.indices.length);
    this.lower.push(lower);
    this.upper.push(upper);
  }

  get count(): number {
    return this.lower.length;
  }
}

function groupBy<T>(items: T[], key: (t: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const it of items) {
    const k = key(it);
    const list = out.get(k);
    if (list) list.push(it);
    else out.set(k, [it]);
  }
  return out;
}

/** Most hours a workweek's options can add up to: the longest option of each day. */
function mostHours(options: ShiftOption[]): number {
  const perDay = new Map<string, number>();
  for (const o of options) perDay.set(o.day, Math.max(perDay.get(o.day) ?? 0, o.hours));
  let sum = 0;
  for (const h of perDay.values()) sum += h;
  return sum;
}

/**
 * Options sharing a point of their extended intervals [start, end + rest) cannot both be worked (they
 * overlap or leave too little rest), and in an interval graph every such pair meets at some option's
 * start; only the maximal cliques are kept (a start whose set still grows at the next start is not).
 */
function restCliques(options: ShiftOption[], restMs: number): ShiftOption[][] {
  const starts = [...new Set(options.map((o) => o.start))].sort((a, b) => a - b);
  const out: ShiftOption[][] = [];
  starts.forEach((t, i) => {
    const members = options.filter((o) => o.start <= t && t < o.end + restMs);
    const next = starts[i + 1];
    const maximal = next === undefined || members.some((o) => o.end + restMs <= next);
    if (maximal && members.length > 1) out.push(members);
  });
  return out;
}

/**
 * A first schedule for HiGHS to start from (so a time-limited solve is never worse than it): need slots
 * in time order, and while one is short, the option that still fits its employee (day, rest, weekly cap)
 * with the largest unmet value covered less its cost.
 */
function greedyStart(p: Prepared, options: ShiftOption[], coveringOf: number[][], costOf: (o: ShiftOption) => number, unmetPerHour: number): Set<number> {
  const cover = p.slots.map(() => 0);
  const taken = new Set<number>();
  const mine = new Map<number, ShiftOption[]>();
  const weekHours = new Map<string, number>();
  const fits = (o: ShiftOption) => {
    const busy = mine.get(o.worker) ?? [];
    if (busy.some((q) => q.day === o.day || (o.start < q.end + p.restMs && q.start < o.end + p.restMs))) return false;
    if (p.allowOvertime) return true;
    const key = `${o.worker}\u0000${o.week}`;
    return (weekHours.get(key) ?? p.workers[o.worker].alreadyIn(o.week)) + o.hours <= p.weeklyCap + 1e-9;
  };
  const gainOf = (o: ShiftOption) => {
    let value = 0;
    for (const i of o.slots) if (cover[i] < p.slots[i].needed) value += p.slots[i].hours * unmetPerHour;
    return value - costOf(o);
  };
  for (const slot of p.slots) {
    while (cover[slot.index] < slot.needed) {
      let best: ShiftOption | null = null;
      let bestGain = 0;
      for (const i of coveringOf[slot.index]) {
        const o = options[i];
        if (!fits(o)) continue;
        const gain = gainOf(o);
        if (gain > bestGain) [best, bestGain] = [o, gain];
      }
      if (!best) break;
      taken.add(best.index);
      mine.set(best.worker, [...(mine.get(best.worker) ?? []), best]);
      const key = `${best.worker}\u0000${best.week}`;
      weekHours.set(key, (weekHours.get(key) ?? p.workers[best.worker].alreadyIn(best.week)) + best.hours);
      for (const i of best.slots) cover[i]++;
    }
  }
  return taken;
}

/**
 * Builds and solves the MILP: a binary per option; per need slot, covered + unmet ≥ needed with unmet
 * priced far above any wage; at most one option per employee per day and per rest clique; per
 * employee-week, hours − overtime ≤ the room left under the overtime threshold (overtime priced at the
 * premium, or absent when overtime is not allowed); a convex piecewise penalty on each employee-week's
 * hours for fairness; a small price on hours outside preferred windows.
 */
export async function solveMilp(p: Prepared, options: ShiftOption[], timeLimitSeconds: number, relativeGap: number): Promise<MilpOutcome> {
  const solver = await highs();
  const inf = solver.infinity;
  const cost: number[] = [];
  const upperBound: number[] = [];
  const integrality: number[] = [];
  const start: number[] = [];
  const addColumn = (c: number, upper: number, integer: boolean, initial: number): number => {
    cost.push(c);
    upperBound.push(upper);
    integrality.push(integer ? 1 : 0);
    start.push(initial);
    return cost.length - 1;
  };

  const multiplier = p.allowOvertime ? p.overtimeMultiplier : 1;
  const byWorkerWeek = groupBy(options, (o) => `${o.worker}\u0000${o.week}`);
  let mostBands = 1;
  for (const [key, list] of byWorkerWeek) {
    const w = p.workers[list[0].worker];
    mostBands = Math.max(mostBands, Math.ceil((w.alreadyIn(key.split('\u0000')[1]) + mostHours(list)) / FAIRNESS_BAND_HOURS));
  }
  const topRate = Math.max(0, ...options.map((o) => p.workers[o.worker].rateValue));
  const perHourAtMost = topRate * multiplier + p.fairnessWeight * mostBands + p.preferenceWeight;
  const shortestSlot = Math.min(...p.slots.map((s) => s.hours));
  // an unmet person-hour outweighs a whole shortest shift bought for the shortest slot alone
  const unmetPerHour = Math.max(1, 2 * perHourAtMost * Math.max(1, p.minMs / 3_600_000 / shortestSlot));

  const costOf = (o: ShiftOption) => o.hours * p.workers[o.worker].rateValue + o.offPreferredHours * p.preferenceWeight;
  const coveringOf: number[][] = p.slots.map(() => []);
  for (const o of options) for (const s of o.slots) coveringOf[s].push(o.index);
  const first = greedyStart(p, options, coveringOf, costOf, unmetPerHour);
  const firstCover = p.slots.map(() => 0);
  for (const i of first) for (const s of options[i].slots) firstCover[s]++;

  for (const o of options) addColumn(costOf(o), 1, true, first.has(o.index) ? 1 : 0);
  const rows = new SparseRows();
  for (const s of p.slots) {
    const slack = addColumn(unmetPerHour * s.hours, s.needed, false, Math.max(0, s.needed - firstCover[s.index]));
    rows.add([...coveringOf[s.index], slack], 1, s.needed, inf);
  }

  const byWorker = groupBy(options, (o) => String(o.worker));
  for (const list of byWorker.values()) {
    for (const day of groupBy(list, (o) => o.day).values()) if (day.length > 1) rows.add(day.map((o) => o.index), 1, -inf, 1);
    for (const clique of restCliques(list, p.restMs)) rows.add(clique.map((o) => o.index), 1, -inf, 1);
  }

  for (const [key, list] of byWorkerWeek) {
    const w = p.workers[list[0].worker];
    const already = w.alreadyIn(key.split('\u0000')[1]);
    const cols = list.map((o) => o.index);
    const hours = list.map((o) => o.hours);
    const room = Math.max(0, p.weeklyCap - already);
    const most = mostHours(list);
    const firstHours = list.reduce((sum, o) => sum + (first.has(o.index) ? o.hours : 0), 0);
    if (most > room + 1e-9) {
      if (p.allowOvertime) {
        const overtime = addColumn(w.rateValue * (p.overtimeMultiplier - 1), inf, false, Math.max(0, firstHours - room));
        rows.add([...cols, overtime], [...hours, -1], -inf, room);
      } else {
        rows.add(cols, hours, -inf, room);
      }
    }
    if (p.fairnessWeight > 0) {
      const bands = Math.max(1, Math.ceil((already + most) / FAIRNESS_BAND_HOURS));
      const total = already + firstHours;
      const bandCols: number[] = [];
      for (let k = 0; k < bands; k++) {
        const last = k === bands - 1;
        const fill = Math.max(0, total - k * FAIRNESS_BAND_HOURS);
        bandCols.push(addColumn(p.fairnessWeight * k, last ? inf : FAIRNESS_BAND_HOURS, false, last ? fill : Math.min(FAIRNESS_BAND_HOURS, fill)));
      }
      rows.add([...bandCols, ...cols], [...bandCols.map(() => 1), ...hours.map((h) => -h)], already, already);
    }
  }

  const numCols = cost.length;
  const data: ModelData = {
    numCols,
    numRows: rows.count,
    colCost: cost,
    colLower: cost.map(() => 0),
    colUpper: upperBound,
    rowLower: rows.lower,
    rowUpper: rows.upper,
    matrix: { format: 'csr', numRows: rows.count, numCols, starts: rows.starts, indices: rows.indices, values: rows.values },
    integrality: integrality as ModelData['integrality'],
  };
  const model = solver.createModel(data);
  try {
    model.options.set({ output_flag: false, time_limit: timeLimitSeconds, mip_rel_gap: relativeGap, random_seed: 0 });
    model.setSolution({ colValue: start });
    model.run();
    const status = model.getModelStatus();
    const codes = solver.constants.modelStatus;
    if (Number(model.info.get('primal_solution_status')) !== solver.constants.solutionStatus.feasible) {
      throw new Error(`HiGHS found no schedule (model status ${status})`);
    }
    const x = model.getSolution().colValue;
    const gapInfo = Number(model.info.get('mip_gap'));
    const names: Record<number, string> = { [codes.optimal]: 'optimal', [codes.timeLimit]: 'time limit', [codes.interrupted]: 'interrupted', [codes.solutionLimit]: 'solution limit' };
    return {
      chosen: options.filter((o) => x[o.index] > 0.5),
      status: names[status] ?? `status ${status}`,
      gap: Number.isFinite(gapInfo) ? Math.max(0, gapInfo) : 1,
      columns: numCols,
      rows: rows.count,
      version: solver.version.string,
    };
  } finally {
    model.dispose();
  }
}

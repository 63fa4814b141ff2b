/**
 * The auto-scheduler's optimisation core (POST /schedules:generate), pure: no database, no I/O, no clock;
 * "now" comes in with the input.
 *
 * Method: the shifts worth giving are enumerated (per employee, position and availability window:
 * starts on the local step grid where the need rises, on the hour and at the window's start; ends where
 * it falls, on the hour, at the window's end and at the minimum length; a shift is dropped when a
 * shorter one kept covers the same need slots, or when it covers none), then a
 * mixed-integer program picks among them with HiGHS (compiled to WebAssembly, `highs` package):
 *   - a binary per shift, a continuous "unmet" per need slot: covered + unmet ≥ needed;
 *   - at most one shift per employee per local day; no two shifts whose [start, end + rest) meet
 *     (overlap and short rest, written as maximal cliques of that interval graph);
 *   - per employee and workweek, hours − overtime ≤ the threshold less hours already scheduled, with
 *     overtime priced at the premium (or no overtime variable when it is not allowed);
 *   - objective: wage + unmet person-hours at a price above any shift bought for them alone + a convex
 *     piecewise penalty on each employee-week's hours (fairness) + a small price on hours outside
 *     preferred windows.
 * HiGHS starts from a greedy schedule and stops at the time limit or within the relative gap; the method
 * string says which. The result is checked afterwards by plain code ({@link draftRuleViolations});
 * money in decimal.js.
 */
import Decimal from 'decimal.js';
import { HOUR_MS, isoOf } from './clock';
import { draftRuleViolations } from './check-draft';
import { explainUnmet } from './explain-unmet';
import { solveMilp } from './milp';
import { prepareDraft, type Prepared } from './prepare';
import { shiftOptions, type ShiftOption } from './shift-options';
import type { DraftInput, DraftResult, DraftShift, DraftSolverOptions } from './types';

export { DraftInputError } from './types';
export type { DraftAway, DraftCandidate, DraftInput, DraftLeftOut, DraftNeedSlot, DraftResult, DraftRules, DraftShift, DraftSolverOptions, DraftUnmet, DraftWeekStart, DraftWindow } from './types';
export { draftRuleViolations } from './check-draft';

/** Wages of the chosen shifts: each workweek's hours past the threshold, in the order worked, at the multiplier. */
function priceShifts(p: Prepared, chosen: ShiftOption[]): DraftShift[] {
  const worked = new Map<string, Decimal>();
  return [...chosen]
    .sort((a, b) => a.start - b.start || a.worker - b.worker)
    .map((o) => {
      const w = p.workers[o.worker];
      const key = `${o.worker}\u0000${o.week}`;
      const before = worked.get(key) ?? new Decimal(w.alreadyIn(o.week));
      const hours = new Decimal(o.end - o.start).div(HOUR_MS);
      const regular = Decimal.min(hours, Decimal.max(0, new Decimal(p.weeklyCap).minus(before)));
      const overtime = hours.minus(regular);
      worked.set(key, before.plus(hours));
      const cost = w.rate.times(regular.plus(overtime.times(p.overtimeMultiplier))).toDecimalPlaces(2);
      return { employeeId: w.id, positionId: o.positionId, start: isoOf(o.start), end: isoOf(o.end), hours: hours.toNumber(), overtimeHours: overtime.toNumber(), cost: cost.toFixed(2) };
    });
}

/**
 * Drafts shifts covering the staffing needs from the candidates, within the rules, preferring lower cost
 * and fair hours; answers with the coverage reached and every unmet need in words.
 * Throws DraftInputError on input that cannot describe a draft, and Error if the schedule found broke a
 * rule (a bug: the model forbids it).
 */
export async function draftSchedule(input: DraftInput, solverOptions: DraftSolverOptions = {}): Promise<DraftResult> {
  const p = prepareDraft(input);
  const { options, considered } = shiftOptions(p);
  let chosen: ShiftOption[] = [];
  let method: string;
  if (p.slots.length === 0) {
    method = 'nothing needed';
  } else if (options.length === 0) {
    method = 'no shift fits the availability and rules; nothing to optimise';
  } else {
    const out = await solveMilp(p, options, solverOptions.timeLimitSeconds ?? 6, solverOptions.relativeGap ?? 0.001);
    chosen = out.chosen;
    method = `milp (HiGHS ${out.version}), ${out.status}, gap ${(out.gap * 100).toFixed(2)}%, ${options.length} shifts considered of ${considered}, ${out.columns} variables, ${out.rows} constraints`;
  }

  const shifts = priceShifts(p, chosen);
  const broken = draftRuleViolations(input, shifts);
  if (broken.length > 0) throw new Error(`the drafted schedule breaks rules: ${broken.join('; ')}`);

  const cover = p.slots.map(() => 0);
  for (const o of chosen) for (const s of o.slots) cover[s]++;
  const missing = p.slots.map((s) => Math.max(0, s.needed - cover[s.index]));
  const neededHours = p.slots.reduce((sum, s) => sum + s.needed * s.hours, 0);
  const coveredHours = p.slots.reduce((sum, s) => sum + (s.needed - missing[s.index]) * s.hours, 0);
  return {
    shifts,
    neededHours,
    coveredHours,
    coverage: neededHours === 0 ? 1 : coveredHours / neededHours,
    cost: shifts.reduce((sum, s) => sum.plus(s.cost), new Decimal(0)).toFixed(2),
    overtimeHours: shifts.reduce((sum, s) => sum + s.overtimeHours, 0),
    unmet: explainUnmet(p, options, chosen, missing),
    method,
  };
}

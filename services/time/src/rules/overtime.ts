import Decimal from 'decimal.js';

/** From `after` hours on (in a day, a workweek, or a consecutive day), hours are paid at `multiplier`. */
export interface Tier {
  after: string;
  multiplier: string;
}

/** Overtime rules as data (supplement: daily, weekly and consecutive-day thresholds, multipliers). */
export interface OvertimeRules {
  daily: Tier[];
  weekly: Tier[];
  /** the `day`-th consecutive day worked in a workweek is paid by its own tiers (California: the 7th) */
  consecutiveDay: { day: number; tiers: Tier[] } | null;
}

export interface DayHours {
  /** a local date of the workweek, in order */
  date: string;
  /** hours worked that day (decimal string) */
  hours: string;
}

export interface ClassifiedDay {
  date: string;
  hours: string;
  /** hours by pay multiplier ("1" regular, "1.5", "2" …); every hour in exactly one */
  byMultiplier: Record<string, string>;
}

/** A day's hours cut by tiers: segments [from, to) with the multiplier in force there (1 below the first tier). */
function segments(hours: Decimal, tiers: readonly Tier[]): Array<{ from: Decimal; to: Decimal; m: Decimal }> {
  const sorted = [...tiers].map((t) => ({ after: new Decimal(t.after), m: new Decimal(t.multiplier) })).sort((a, b) => a.after.comparedTo(b.after));
  const cuts = [new Decimal(0), ...sorted.map((t) => t.after).filter((a) => a.gt(0) && a.lt(hours)), hours];
  const out: Array<{ from: Decimal; to: Decimal; m: Decimal }> = [];
  for (let i = 0; i + 1 < cuts.length; i++) {
    const from = cuts[i];
    const to = cuts[i + 1];
    if (to.lte(from)) continue;
    const inForce = sorted.filter((t) => t.after.lte(from));
    out.push({ from, to, m: inForce.length ? inForce[inForce.length - 1].m : new Decimal(1) });
  }
  return out;
}

/**
 * Classifies a workweek's hours by multiplier. Every hour is paid once, at the highest multiplier any
 * rule gives it:
 * - the daily tiers cut each day (e.g. after 8 h at 1.5, after 12 h at 2);
 * - on the `consecutiveDay`-th consecutive day worked, its tiers apply instead where they pay more
 *   (California: the 7th day, its first 8 h at 1.5, beyond at 2);
 * - the weekly tiers apply to the hours still paid at 1 (regular), counted through the week in order,
 *   so an hour already paid as daily overtime never counts toward the weekly threshold again.
 */
export function classifyWeek(days: readonly DayHours[], rules: OvertimeRules): ClassifiedDay[] {
  let regularSoFar = new Decimal(0);
  let consecutive = 0;
  const weekly = [...rules.weekly].map((t) => ({ after: new Decimal(t.after), m: new Decimal(t.multiplier) })).sort((a, b) => a.after.comparedTo(b.after));
  return days.map((day) => {
    const hours = new Decimal(day.hours);
    consecutive = hours.gt(0) ? consecutive + 1 : 0;
    const pieces = segments(hours, rules.daily);
    if (rules.consecutiveDay && consecutive === rules.consecutiveDay.day) {
      // on that day, each stretch takes the higher of the daily and the consecutive-day multipliers
      const special = segments(hours, rules.consecutiveDay.tiers);
      const cuts = [...new Set([...pieces, ...special].flatMap((s) => [s.from.toString(), s.to.toString()]))].map((c) => new Decimal(c)).sort((a, b) => a.comparedTo(b));
      const at = (list: typeof pieces, x: Decimal) => list.find((s) => s.from.lte(x) && s.to.gt(x))?.m ?? new Decimal(1);
      pieces.splice(0, pieces.length, ...cuts.slice(0, -1).map((from, i) => ({ from, to: cuts[i + 1], m: Decimal.max(at(pieces, from), at(special, from)) })));
    }
    const by = new Map<string, Decimal>();
    const add = (m: Decimal, h: Decimal) => {
      if (h.lte(0)) return;
      const k = m.toString();
      by.set(k, (by.get(k) ?? new Decimal(0)).plus(h));
    };
    for (const piece of pieces) {
      const length = piece.to.minus(piece.from);
      if (!piece.m.eq(1)) {
        add(piece.m, length);
        continue;
      }
      // regular hours meet the weekly tiers, counted over the week
      let left = length;
      while (left.gt(0)) {
        const inForce = weekly.filter((t) => t.after.lte(regularSoFar));
        const next = weekly.find((t) => t.after.gt(regularSoFar));
        const m = inForce.length ? inForce[inForce.length - 1].m : new Decimal(1);
        const take = next ? Decimal.min(left, next.after.minus(regularSoFar)) : left;
        add(m, take);
        regularSoFar = regularSoFar.plus(take);
        left = left.minus(take);
      }
    }
    const byMultiplier: Record<string, string> = {};
    for (const [k, v] of [...by.entries()].sort((a, b) => new Decimal(a[0]).comparedTo(b[0]))) byMultiplier[k] = v.toFixed(2);
    return { date: day.date, hours: hours.toFixed(2), byMultiplier };
  });
}

import Decimal from 'decimal.js';
import { LockMode } from '@mikro-orm/core';
import { newId, resolveLocations, type Work } from '@bop/shared';
import type { AlertKpi } from '@bop/contracts';
import { periodSums } from '../kpis/store';
import { forecastFigures, kpiFigures, sumOf, type KpiSums } from '../kpis/figures';
import { comparisonPeriod, daysIn } from '../kpis/periods';
import { forecastTotals } from '../forecasts/store';
import { AlertDirty, AlertEntity, AlertRuleEntity, AlertRuleLocation, AlertState } from './entities';
import { businessDayAt, conditionHolds, windowDays, type Comparison, type WindowKind } from './windows';
import { alertDto } from './dto';

/** The state key of a rule evaluated over its whole scope. */
export const WHOLE_SCOPE = '*';

interface Part {
  locationId: string;
  from: string;
  to: string;
  endsAt: Date;
}

/** A KPI of a sum as `GET /kpis` answers it (a string, or null for a ratio over zero). */
const kpiOf = (sums: KpiSums, kpi: AlertKpi): string | null => {
  const v = kpiFigures(sums)[kpi];
  return v === null ? null : String(v);
};

/** The sums of each location over its own window (locations sharing a window are read together). */
async function sumsByLocation(w: Work, parts: Part[], period: (p: Part) => { from: string; to: string }): Promise<Map<string, KpiSums>> {
  const groups = new Map<string, { from: string; to: string; ids: string[] }>();
  for (const p of parts) {
    const { from, to } = period(p);
    const g = groups.get(`${from}|${to}`) ?? { from, to, ids: [] };
    g.ids.push(p.locationId);
    groups.set(`${from}|${to}`, g);
  }
  const out = new Map<string, KpiSums>();
  for (const g of groups.values()) for (const [id, s] of await periodSums(w, g.ids, g.from, g.to)) out.set(id, s);
  return out;
}

/** The forecast of a KPI over each location's own window, summed (null when a location or day has none, or the KPI has no forecast). */
async function forecastOf(w: Work, parts: Part[], kpi: AlertKpi): Promise<string | null> {
  let netSales: Decimal | null = new Decimal(0);
  let transactions: Decimal | null = new Decimal(0);
  // locations sharing a window are read together (a group is complete when each of its locations is)
  const groups = new Map<string, Part[]>();
  for (const p of parts) groups.set(`${p.from}|${p.to}`, [...(groups.get(`${p.from}|${p.to}`) ?? []), p]);
  for (const [window, g] of groups) {
    const [from, to] = window.split('|');
    const f = await forecastTotals(w, g.map((p) => p.locationId), from, to, daysIn(from, to));
    netSales = netSales && f.netSales ? netSales.plus(f.netSales) : null;
    transactions = transactions && f.transactions ? transactions.plus(f.transactions) : null;
  }
  const v = forecastFigures({ netSales, transactions })[kpi];
  return v === null ? null : String(v);
}

/**
 * Evaluates a rule at these state keys (location ids, or `*` for its whole scope) as of `w.now`:
 * the KPI over each location's window of business days (the whole scope: each location's own window,
 * summed), against a value, its comparison period or its forecast over the window. A key whose condition becomes true fires once
 * (an alert row and `alert.triggered`); one whose condition is false re-arms. Answers the firings.
 */
export async function evaluateRule(w: Work, rule: AlertRuleEntity, keys: string[]): Promise<number> {
  const { em } = w;
  if (rule.status !== 'active' || keys.length === 0) return 0;
  const watched = await em.find(AlertRuleLocation, { ruleId: rule.id }, { orderBy: { locationId: 'asc' } });
  const watchedIds = watched.map((l) => l.locationId);
  const whole = rule.evaluate === 'whole_scope';
  const locationIds = whole ? watchedIds : keys.filter((k) => watchedIds.includes(k));
  const known = await resolveLocations(w, locationIds.map((locationId) => ({ locationId })));
  const parts: Part[] = [];
  for (const id of locationIds) {
    const loc = known.byId.get(id);
    if (!loc) continue;
    const { today, endsAt } = businessDayAt(loc, w.now);
    parts.push({ locationId: id, ...windowDays({ kind: rule.windowKind as WindowKind, days: rule.windowDays ?? null }, today), endsAt });
  }
  const comparison: Comparison = { operator: rule.operator as Comparison['operator'], threshold: rule.threshold, against: rule.against as Comparison['against'] };
  const current = await sumsByLocation(w, parts, (p) => p);
  const base = comparison.against === 'value' || comparison.against === 'forecast' ? null : await sumsByLocation(w, parts, (p) => comparisonPeriod(p.from, p.to, comparison.against as 'previous_period' | 'same_period_last_year'));
  const kpi = rule.kpi as AlertKpi;

  const targets = whole
    ? [{ key: WHOLE_SCOPE, locationId: null as string | null, parts }]
    : parts.map((p) => ({ key: p.locationId, locationId: p.locationId as string | null, parts: [p] }));
  const states = new Map((await em.find(AlertState, { ruleId: rule.id, locationKey: { $in: targets.map((t) => t.key) } }, { lockMode: LockMode.PESSIMISTIC_WRITE })).map((s) => [s.locationKey, s]));
  let fired = 0;
  for (const t of targets) {
    if (t.parts.length === 0) continue;
    const now = sumOf(t.parts.map((p) => current.get(p.locationId)!));
    const then = base ? sumOf(t.parts.map((p) => base.get(p.locationId)!)) : null;
    const kpiValue = kpiOf(now, kpi);
    const baseValue = comparison.against === 'forecast' ? await forecastOf(w, t.parts, kpi) : then ? kpiOf(then, kpi) : null;
    const { holds, value } = conditionHolds(comparison, kpiValue, baseValue);
    const from = t.parts.map((p) => p.from).sort()[0];
    const to = t.parts.map((p) => p.to).sort().at(-1)!;
    const rollsOverAt = new Date(Math.min(...t.parts.map((p) => p.endsAt.getTime())));
    let state = states.get(t.key);
    const wasFiring = state?.firing ?? false;
    if (!state) state = em.create(AlertState, { ruleId: rule.id, locationKey: t.key, firing: false, since: null, windowFrom: from, windowTo: to, rollsOverAt, evaluatedAt: w.now });
    Object.assign(state, { windowFrom: from, windowTo: to, rollsOverAt, evaluatedAt: w.now });
    if (holds && !wasFiring) {
      state.firing = true;
      state.since = w.now;
      const alert = em.create(AlertEntity, {
        id: newId('alert'),
        ruleId: rule.id,
        ruleName: rule.name,
        kpi: rule.kpi,
        locationId: t.locationId,
        locationIds: t.parts.map((p) => p.locationId),
        operator: rule.operator,
        against: rule.against,
        value: value!,
        threshold: rule.threshold,
        kpiValue: kpiValue!,
        baseValue,
        windowFrom: from,
        windowTo: to,
        triggeredAt: w.now,
      });
      w.emit({ type: 'alert.triggered', aggregateType: 'alert_rule', aggregateId: rule.id, locationId: t.locationId, object: alertDto(alert) });
      fired += 1;
    } else if (!holds && wasFiring) {
      state.firing = false;
      state.since = null;
    }
  }
  await em.flush();
  return fired;
}

/**
 * Marks the active rules watching these locations' KPIs for evaluation (in the consumer's
 * transaction): one row per (rule, location) — or (rule, `*`) — however many writes mark it before
 * the worker's next round.
 */
export async function markAlertsDirty(w: Work, locationIds: Iterable<string>, kpis: readonly string[]): Promise<void> {
  const ids = [...new Set(locationIds)];
  if (ids.length === 0) return;
  const watching = await w.em
    .createQueryBuilder(AlertRuleLocation)
    .select(['ruleId', 'locationKey'])
    .where({ locationId: { $in: ids }, kpi: { $in: [...kpis] }, active: true })
    .execute<Array<{ ruleId: string; locationKey: string }>>('all', true);
  if (watching.length === 0) return;
  const pairs = new Map(watching.map((x) => [`${x.ruleId}|${x.locationKey}`, x]));
  await w.em
    .createQueryBuilder(AlertDirty)
    .insert([...pairs.values()].map((x) => ({ ruleId: x.ruleId, locationKey: x.locationKey, markedAt: w.now })))
    .onConflict(['ruleId', 'locationKey'])
    .ignore()
    .execute();
}

/** Marks the pairs whose window has rolled over (a new business day began at one of their locations) for evaluation. */
export async function markRolledOver(w: Work, limit: number): Promise<number> {
  const due = await w.em.find(AlertState, { rollsOverAt: { $lte: w.now } }, { orderBy: { rollsOverAt: 'asc' }, limit, fields: ['ruleId', 'locationKey'] });
  if (due.length === 0) return 0;
  await w.em
    .createQueryBuilder(AlertDirty)
    .insert(due.map((x) => ({ ruleId: x.ruleId, locationKey: x.locationKey, markedAt: w.now })))
    .onConflict(['ruleId', 'locationKey'])
    .ignore()
    .execute();
  // evaluated at once by this round; the evaluation sets the next roll-over
  await w.em.nativeUpdate(AlertState, { $or: due.map((x) => ({ ruleId: x.ruleId, locationKey: x.locationKey })) }, { rollsOverAt: null });
  return due.length;
}

/**
 * One rule's marked pairs, taken (locked, skipping pairs another instance holds) and evaluated in one
 * transaction. Answers how many pairs it took.
 */
export async function evaluateMarked(w: Work, ruleId: string): Promise<number> {
  const taken = await w.em.find(AlertDirty, { ruleId }, { lockMode: LockMode.PESSIMISTIC_PARTIAL_WRITE });
  if (taken.length === 0) return 0;
  await w.em.nativeDelete(AlertDirty, { ruleId, locationKey: { $in: taken.map((t) => t.locationKey) } });
  const rule = await w.em.findOne(AlertRuleEntity, { id: ruleId });
  if (rule) await evaluateRule(w, rule, taken.map((t) => t.locationKey));
  return taken.length;
}

/** The rules with marked pairs, oldest mark first. */
export async function markedRules(w: Work, limit: number): Promise<string[]> {
  const rows = await w.em.createQueryBuilder(AlertDirty).select(['ruleId']).orderBy({ markedAt: 'asc' }).limit(limit * 20).execute<Array<{ ruleId: string }>>('all', true);
  return [...new Set(rows.map((r) => r.ruleId))].slice(0, limit);
}

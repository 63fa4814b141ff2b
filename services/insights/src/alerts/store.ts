import { LockMode } from '@mikro-orm/core';
import type { z } from 'zod';
import type { AlertKpi, AlertListQuery, AlertRuleCreate, AlertRuleListQuery, AlertRulePatch } from '@bop/contracts';
import { Conflict, NotFound, ValidationError, actorOf, changedFields, findPage, mapPage, newId, reachableLocationIds, type Work } from '@bop/shared';
import { ensureWithinReach, locationsInReach, type OrgUnitLocations } from '../locations/reach-store';
import type { FilterQuery } from '@mikro-orm/core';

/** A list filter: a condition, or a falsy value for one the request did not set (the kit's findPage). */
type PageFilter<E> = FilterQuery<E> | false | '' | 0 | null | undefined;
import { AlertDirty, AlertEntity, AlertRuleEntity, AlertRuleLocation, AlertState } from './entities';
import { alertDto, ruleDto } from './dto';
import { evaluateRule, WHOLE_SCOPE } from './evaluation-store';
import { FORECAST_KPIS } from './windows';

type Scope = z.output<typeof AlertRuleCreate>['scope'];

/**
 * The locations a rule's scope names, each known at organization (else 422 naming it) and within the
 * author's reach (else 403): the ones listed, or those of an org unit and the units below it now.
 */
const scopeLocations = (w: Work, scope: Scope, inOrgUnits: OrgUnitLocations): Promise<string[]> =>
  locationsInReach(w, { locationIds: scope.locationIds, orgUnitId: scope.orgUnitId }, inOrgUnits, {
    unknown: (ids) => new ValidationError(ids.map((x) => ({ path: `scope.locationIds[${x.index}]`, message: `No location ${x.id}.` }))),
    emptyOrgUnit: (id) => new ValidationError([{ path: 'scope.orgUnitId', message: `Org unit ${id} has no locations (or does not exist).` }]),
  });

/** The rules whose watched locations are not all within the caller's reach (none: everyone). */
async function rulesOutOfReach(w: Work): Promise<string[] | null> {
  const reachable = reachableLocationIds(w.reach());
  if (!reachable) return null;
  const rows = await w.em
    .createQueryBuilder(AlertRuleLocation)
    .select(['ruleId'])
    .where(reachable.length ? { locationId: { $nin: reachable } } : {})
    .execute<Array<{ ruleId: string }>>('all', true);
  return [...new Set(rows.map((r) => r.ruleId))];
}

/**
 * The rule's change events (the project's own public types, issue 41 item 3): data.object the rule as the API
 * returns it; company-wide (a rule watches a scope of locations), as `alert.triggered`'s whole-scope firings.
 */
function ruleEvent(w: Work, type: 'alert_rule.created' | 'alert_rule.updated' | 'alert_rule.archived', dto: Awaited<ReturnType<typeof detail>>, previous?: Record<string, unknown>) {
  w.emit({ type, aggregateType: 'alert_rule', aggregateId: dto.id, locationId: null, object: dto, ...(previous ? { previous } : {}) });
  return dto;
}

async function detail(w: Work, r: AlertRuleEntity) {
  const locations = await w.em.find(AlertRuleLocation, { ruleId: r.id }, { orderBy: { locationId: 'asc' } });
  const states = await w.em.find(AlertState, { ruleId: r.id });
  return ruleDto(r, locations.map((l) => l.locationId), states);
}

/** Replaces the locations a rule watches (and the state keys they move). */
async function watch(w: Work, r: AlertRuleEntity, locationIds: string[]): Promise<void> {
  const held = new Map((await w.em.find(AlertRuleLocation, { ruleId: r.id })).map((l) => [l.locationId, l]));
  for (const [id, l] of held) if (!locationIds.includes(id)) w.em.remove(l);
  for (const locationId of locationIds) {
    const row = { kpi: r.kpi, locationKey: r.evaluate === 'whole_scope' ? WHOLE_SCOPE : locationId, active: r.status === 'active' };
    const l = held.get(locationId);
    if (l) Object.assign(l, row);
    else w.em.create(AlertRuleLocation, { ruleId: r.id, locationId, ...row });
  }
  await w.em.flush();
}

/** A comparison against the forecast is for a KPI with one (a 422 naming `comparison.against` otherwise: such a rule could never fire). */
function assertForecastKpi(kpi: string, against: string): void {
  if (against === 'forecast' && !FORECAST_KPIS.includes(kpi as AlertKpi)) {
    throw new ValidationError([{ path: 'comparison.against', message: `${kpi} has no forecast; compare ${FORECAST_KPIS.join(', ')} against the forecast.` }]);
  }
}

const keysOf = (r: AlertRuleEntity, locationIds: string[]) => (r.evaluate === 'whole_scope' ? [WHOLE_SCOPE] : locationIds);

/** `POST /alert-rules`: stored, then evaluated at once (it fires now when its condition already holds). */
export async function createRule(w: Work, body: z.output<typeof AlertRuleCreate>, inOrgUnits: OrgUnitLocations) {
  assertForecastKpi(body.kpi, body.comparison.against);
  const locationIds = await scopeLocations(w, body.scope, inOrgUnits);
  const at = w.now;
  const r = w.em.create(AlertRuleEntity, {
    id: newId('alertRule'),
    name: body.name,
    kpi: body.kpi,
    scopeLocationIds: body.scope.locationIds ? [...new Set(body.scope.locationIds)] : null,
    orgUnitId: body.scope.orgUnitId ?? null,
    evaluate: body.scope.evaluate,
    operator: body.comparison.operator,
    threshold: body.comparison.threshold,
    against: body.comparison.against,
    windowKind: body.window.kind,
    windowDays: body.window.days ?? null,
    status: 'active',
    version: 1,
    createdBy: actorOf(w.actor),
    createdAt: at,
    updatedAt: at,
    archivedAt: null,
  });
  await w.em.flush();
  await watch(w, r, locationIds);
  await evaluateRule(w, r, keysOf(r, locationIds));
  return ruleEvent(w, 'alert_rule.created', await detail(w, r));
}

/** A rule the caller may see: 404, or 403 when its locations are not all within reach. */
async function visibleRule(w: Work, id: string, lock = false): Promise<AlertRuleEntity> {
  const r = await w.em.findOne(AlertRuleEntity, { id }, lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {});
  if (!r) throw new NotFound('alert rule', id);
  if (reachableLocationIds(w.reach())) {
    const watched = await w.em.find(AlertRuleLocation, { ruleId: id });
    ensureWithinReach(w, watched.map((l) => l.locationId), 'every location of this rule');
  }
  return r;
}

export async function getRule(w: Work, id: string) {
  return detail(w, await visibleRule(w, id));
}

/** `GET /alert-rules`: the rules whose locations are all within the caller's reach, oldest first. */
export async function listRules(w: Work, q: z.output<typeof AlertRuleListQuery>) {
  const hidden = await rulesOutOfReach(w);
  const filters: PageFilter<AlertRuleEntity>[] = [q.status && { status: q.status }, q.kpi && { kpi: q.kpi }, hidden && hidden.length > 0 && { id: { $nin: hidden } }];
  const page = await findPage(w.em, AlertRuleEntity, filters, { limit: q.limit, cursor: q.cursor, updatedSince: q.updatedSince });
  const ids = page.data.map((r) => r.id);
  const locations = ids.length ? await w.em.find(AlertRuleLocation, { ruleId: { $in: ids } }, { orderBy: { locationId: 'asc' } }) : [];
  const states = ids.length ? await w.em.find(AlertState, { ruleId: { $in: ids } }) : [];
  return mapPage(page, (r) =>
    ruleDto(
      r,
      locations.filter((l) => l.ruleId === r.id).map((l) => l.locationId),
      states.filter((s) => s.ruleId === r.id),
    ),
  );
}

/**
 * `PATCH /alert-rules/{id}` (If-Match): the parts sent replace the rule's. A change of what the rule
 * means (KPI, scope, comparison, window) re-arms it and evaluates it at once: a condition that holds
 * under the changed rule fires.
 */
export async function patchRule(w: Work, id: string, body: z.output<typeof AlertRulePatch>, inOrgUnits: OrgUnitLocations) {
  const r = await visibleRule(w, id, true);
  w.checkVersion(r.version);
  if (r.status === 'archived') throw new Conflict(`Alert rule ${id} is archived; it no longer changes.`);
  const before = await detail(w, r);
  const locationIds = body.scope ? await scopeLocations(w, body.scope, inOrgUnits) : null;
  const held = (await w.em.find(AlertRuleLocation, { ruleId: r.id })).map((l) => l.locationId).sort();
  const meaningBefore = meaningOf(r, held);
  const nameBefore = r.name;
  if (body.name !== undefined) r.name = body.name;
  if (body.kpi !== undefined) r.kpi = body.kpi;
  if (body.scope) Object.assign(r, { scopeLocationIds: body.scope.locationIds ? [...new Set(body.scope.locationIds)] : null, orgUnitId: body.scope.orgUnitId ?? null, evaluate: body.scope.evaluate });
  if (body.comparison) Object.assign(r, { operator: body.comparison.operator, threshold: body.comparison.threshold, against: body.comparison.against });
  if (body.window) Object.assign(r, { windowKind: body.window.kind, windowDays: body.window.days ?? null });
  assertForecastKpi(r.kpi, r.against);
  const watched = locationIds ?? held;
  const changedMeaning = meaningOf(r, watched) !== meaningBefore;
  if (changedMeaning || r.name !== nameBefore) bump(w, r);
  await w.em.flush();
  if (changedMeaning) {
    await watch(w, r, watched);
    await forget(w, r.id);
    await evaluateRule(w, r, keysOf(r, watched));
  }
  const after = await detail(w, r);
  return changedMeaning || r.name !== nameBefore ? ruleEvent(w, 'alert_rule.updated', after, changedFields(before, after)) : after;
}

/** What a rule means (a change of it re-arms the rule). */
const meaningOf = (r: AlertRuleEntity, locationIds: string[]) =>
  JSON.stringify([r.kpi, r.scopeLocationIds ?? null, r.orgUnitId ?? null, r.evaluate, r.operator, r.threshold, r.against, r.windowKind, r.windowDays ?? null, locationIds]);

/** A rule's states and marks dropped (it re-arms, or is evaluated no more). */
async function forget(w: Work, ruleId: string): Promise<void> {
  for (const x of await w.em.find(AlertState, { ruleId })) w.em.remove(x);
  for (const x of await w.em.find(AlertDirty, { ruleId })) w.em.remove(x);
  await w.em.flush();
}

function bump(w: Work, r: AlertRuleEntity) {
  r.version += 1;
  r.updatedAt = w.now;
}

/** `DELETE /alert-rules/{id}`: archived; its firings stay in `GET /alerts`; it is evaluated no more. */
export async function archiveRule(w: Work, id: string) {
  const r = await visibleRule(w, id, true);
  w.checkVersion(r.version);
  if (r.status === 'archived') return detail(w, r);
  const before = await detail(w, r);
  r.status = 'archived';
  r.archivedAt = w.now;
  bump(w, r);
  for (const l of await w.em.find(AlertRuleLocation, { ruleId: r.id })) l.active = false;
  await forget(w, r.id);
  const after = await detail(w, r);
  return ruleEvent(w, 'alert_rule.archived', after, changedFields(before, after));
}

/**
 * `GET /alerts`: each firing, oldest first; filters `ruleId`, `locationId`, `from` (an instant). A
 * caller whose reach is not everyone sees the firings at locations within it, and a whole-scope
 * firing when the rule's locations all are.
 */
export async function listAlerts(w: Work, q: z.output<typeof AlertListQuery>) {
  if (q.locationId) ensureWithinReach(w, [q.locationId]);
  const reachable = reachableLocationIds(w.reach());
  let inReach: PageFilter<AlertEntity> = null;
  if (reachable) {
    const hidden = (await rulesOutOfReach(w)) ?? [];
    inReach = { $or: [{ locationId: { $in: reachable } }, { locationId: null, ...(hidden.length ? { ruleId: { $nin: hidden } } : {}) }] };
  }
  const filters: PageFilter<AlertEntity>[] = [q.ruleId && { ruleId: q.ruleId }, q.locationId && { locationId: q.locationId }, q.from && { triggeredAt: { $gte: new Date(q.from) } }, inReach];
  return mapPage(await findPage(w.em, AlertEntity, filters, { limit: q.limit, cursor: q.cursor }), alertDto);
}

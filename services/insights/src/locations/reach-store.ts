import { BadRequest, OutOfReach, reachableLocationIds, resolveLocations, type Work } from '@bop/shared';
import { InsightsLocation } from './entities';

/** The locations of org units and the units below them (insights' replica of the organization; `current`: not archived). */
export type OrgUnitLocations = (on: Work, orgUnitIds: string[], opts?: { current?: boolean }) => Promise<string[]>;

/** What a scope names: locations, or an org unit (neither: every location within reach). */
export interface LocationScope {
  locationIds?: string[];
  orgUnitId?: string;
}

/** How a caller words the refusals of its input (a query answers 400, a body 422, each with its own paths). */
export interface ScopeRefusals {
  /** named locations organization does not know (each with its index in the list sent) */
  unknown(ids: Array<{ id: string; index: number }>): Error;
  /** an org unit without locations; when absent, it counts no location */
  emptyOrgUnit?(orgUnitId: string): Error;
}

/** Refuses (403 `out_of_reach`) when any of `locationIds` lies outside the caller's reach. */
export function ensureWithinReach(w: Work, locationIds: string[], what?: string): void {
  const reachable = reachableLocationIds(w.reach());
  if (!reachable) return;
  const outside = locationIds.filter((id) => !reachable.includes(id));
  if (outside.length > 0) throw new OutOfReach(`Your permission does not reach ${what ?? `location ${outside.join(', ')}`}.`);
}

/**
 * The one scoping of insights (KPIs, reports, exports and schedules, alert rules): the locations a
 * scope names, sorted and without repeats, all within the caller's reach — the ones listed (each
 * known at organization, else `refusals.unknown`; one out of reach: 403), those of an org unit and
 * the units below it now (all within reach, else 403), or, with neither, every location the reach
 * covers.
 */
export async function locationsInReach(w: Work, scope: LocationScope, inOrgUnits: OrgUnitLocations, refusals: ScopeRefusals): Promise<string[]> {
  if (scope.locationIds) {
    const ids = [...new Set(scope.locationIds)];
    const known = await resolveLocations(w, ids.map((locationId) => ({ locationId })));
    const unknown = scope.locationIds.flatMap((id, index) => (known.byId.has(id) ? [] : [{ id, index }]));
    if (unknown.length > 0) throw refusals.unknown(unknown);
    ensureWithinReach(w, ids);
    return ids.sort();
  }
  if (scope.orgUnitId) {
    const ids = await inOrgUnits(w, [scope.orgUnitId], { current: true });
    if (ids.length === 0 && refusals.emptyOrgUnit) throw refusals.emptyOrgUnit(scope.orgUnitId);
    ensureWithinReach(w, ids, `every location of org unit ${scope.orgUnitId}`);
    return [...ids].sort();
  }
  const reachable = reachableLocationIds(w.reach());
  if (reachable) return [...reachable].sort();
  const all = await w.em.createQueryBuilder(InsightsLocation).select(['id']).orderBy({ id: 'asc' }).execute<Array<{ id: string }>>('all', true);
  return all.map((l) => l.id);
}

/** The locations a query's `locationId` (a list) and `orgUnitId` name (`GET /kpis`, the reports, their exports and schedules): an unknown location is a 400 naming `locationId`. */
export const queryLocations = (w: Work, q: { locationId?: string[]; orgUnitId?: string }, inOrgUnits: OrgUnitLocations): Promise<string[]> =>
  locationsInReach(w, { locationIds: q.locationId, orgUnitId: q.orgUnitId }, inOrgUnits, {
    unknown: (ids) => new BadRequest('The query parameters are not valid.', [{ path: 'locationId', message: `No location ${ids.map((x) => x.id).join(', ')}.` }]),
  });

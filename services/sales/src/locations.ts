import type { EntityManager, FieldError } from '@bop/shared';
import type { LocationRef } from './domain/normalize';
import { SalesLocation } from './entities';

export interface ReplicaLocation extends LocationRef {
  externalId: string | null;
  status: string;
}

export interface LocationMap {
  byId: Map<string, ReplicaLocation>;
  byExternalId: Map<string, ReplicaLocation>;
}

/** Loads every location a batch names (by id or by externalId) in one query against the replica. */
export async function resolveLocations(em: EntityManager, inputs: Iterable<{ locationId?: string; locationExternalId?: string }>): Promise<LocationMap> {
  const ids = new Set<string>();
  const externalIds = new Set<string>();
  for (const i of inputs) {
    if (i.locationId) ids.add(i.locationId);
    if (i.locationExternalId) externalIds.add(i.locationExternalId);
  }
  const map: LocationMap = { byId: new Map(), byExternalId: new Map() };
  if (ids.size === 0 && externalIds.size === 0) return map;
  const or = [];
  if (ids.size > 0) or.push({ id: { $in: [...ids] } });
  if (externalIds.size > 0) or.push({ externalId: { $in: [...externalIds] } });
  const rows = await em.find(SalesLocation, { $or: or }, { disableIdentityMap: true });
  for (const r of rows) {
    const loc: ReplicaLocation = { id: r.id, externalId: r.externalId ?? null, timezone: r.timezone, businessDayCutoff: r.businessDayCutoff, status: r.status };
    map.byId.set(loc.id, loc);
    if (loc.externalId) map.byExternalId.set(loc.externalId, loc);
  }
  return map;
}

/**
 * The location of one record, or its field error. An archived location still takes records (history
 * and backfill refer to it, spec: ingestion rule 10) with a warning.
 */
export function locationFor(
  map: LocationMap,
  input: { locationId?: string; locationExternalId?: string },
): { location: ReplicaLocation; warnings: FieldError[] } | { error: FieldError } {
  const location = input.locationId !== undefined ? map.byId.get(input.locationId) : map.byExternalId.get(input.locationExternalId ?? '');
  if (!location) {
    return input.locationId !== undefined
      ? { error: { path: 'locationId', message: `No location ${input.locationId}.` } }
      : { error: { path: 'locationExternalId', message: `No location with externalId ${input.locationExternalId}.` } };
  }
  const path = input.locationId !== undefined ? 'locationId' : 'locationExternalId';
  const warnings = location.status === 'archived' ? [{ path, message: `Location ${location.id} is archived.` }] : [];
  return { location, warnings };
}

/**
 * Each parsed record of a batch with its location (one query for the batch): `location` and
 * `warnings`, or `error`; nothing for records that did not parse.
 */
export async function locateRecords<T extends { locationId?: string; locationExternalId?: string }>(
  em: EntityManager,
  parsed: Array<{ data?: T }>,
): Promise<Array<ReturnType<typeof locationFor> | null>> {
  const map = await resolveLocations(em, parsed.flatMap((p) => (p.data ? [p.data] : [])));
  return parsed.map((p) => (p.data ? locationFor(map, p.data) : null));
}

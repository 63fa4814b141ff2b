import { LockMode } from '@mikro-orm/core';
import type { z } from 'zod';
import type { LocationListQuery, LocationsResolveRequest } from '@bop/contracts';
import { findPlain, mapPage, findPage, changedFields, Conflict, newId, NotFound, ValidationError, type ApiError, type EntityManager, type Work } from '@bop/shared';
import { Location } from './entities';
import { OrgUnit } from '../org-units/entities';
import { locationDto } from './dto';
import { loadParents } from '../org-units/tree-store';
import { subtreeOf } from '../org-units/org-tree';
import { assertLocationInReach, assertUnitInReach, locationReachFilter } from '../org-units/reach';

type LocationFields = {
  name?: string;
  timezone?: string;
  businessDayCutoff?: string;
  externalId?: string | null;
  orgUnitId?: string | null;
  address?: Record<string, string> | null;
};

type NewLocationFields = Required<Pick<LocationFields, 'name' | 'timezone' | 'businessDayCutoff'>> & LocationFields;

async function assertOrgUnitUsable(em: EntityManager, orgUnitId: string | null | undefined): Promise<void> {
  if (!orgUnitId) return;
  const unit = await em.findOne(OrgUnit, { id: orgUnitId });
  if (!unit) throw new ValidationError([{ path: 'orgUnitId', message: `No org unit ${orgUnitId}.` }]);
  if (unit.status !== 'active') throw new ValidationError([{ path: 'orgUnitId', message: `Org unit ${orgUnitId} is archived.` }]);
}

async function assertExternalIdFree(em: EntityManager, externalId: string | null | undefined, selfId?: string): Promise<void> {
  if (!externalId) return;
  const other = await em.findOne(Location, { externalId });
  if (other && other.id !== selfId) throw new Conflict(`Location ${other.id} already has externalId ${externalId}.`, [{ path: 'externalId', message: 'Already used by another location.' }]);
}

function createLocation(w: Work, fields: NewLocationFields) {
  const at = w.now;
  const location = w.em.create(Location, {
    id: newId('location'),
    name: fields.name,
    externalId: fields.externalId ?? null,
    timezone: fields.timezone,
    businessDayCutoff: fields.businessDayCutoff,
    orgUnitId: fields.orgUnitId ?? null,
    address: fields.address ?? null,
    status: 'active',
    version: 1,
    createdAt: at,
    updatedAt: at,
    archivedAt: null,
  });
  const dto = locationDto(location);
  w.emit({ type: 'location.created', aggregateType: 'location', aggregateId: location.id, locationId: location.id, object: dto });
  return dto;
}

/** Applies changed fields; returns the new representation, or null when nothing changed. */
function updateLocation(w: Work, location: Location, fields: LocationFields & { status?: 'active' }) {
  const before = locationDto(location);
  for (const key of ['name', 'timezone', 'businessDayCutoff', 'externalId', 'orgUnitId', 'address'] as const) {
    if (fields[key] !== undefined) (location as Record<string, unknown>)[key] = fields[key];
  }
  if (fields.status === 'active' && location.status === 'archived') {
    location.status = 'active';
    location.archivedAt = null;
  }
  const previous = changedFields(before, locationDto(location));
  if (Object.keys(previous).length === 0) return null;
  location.version += 1;
  location.updatedAt = w.now;
  const after = locationDto(location);
  w.emit({ type: 'location.updated', aggregateType: 'location', aggregateId: location.id, locationId: location.id, object: after, previous });
  return after;
}

/** The 409 of a write that lost a race for an externalId (locations_external_id_uq, the one unique key besides the id): the route's `conflict`. */
export function externalIdTaken(_constraint: string | undefined): ApiError {
  return new Conflict('Another location already has this externalId.', [{ path: 'externalId', message: 'Already used by another location.' }]);
}

/** A page of the locations the caller reaches. */
export async function listLocations(w: Work, query: z.output<typeof LocationListQuery>) {
  const { limit, cursor, status, orgUnitId, updatedSince } = query;
  const reachSet = w.reach();
  const reach = reachSet.everyone ? null : locationReachFilter(reachSet, await loadParents(w.em));
  const page = await findPage(
    w.em,
    Location,
    [
      status && { status },
      orgUnitId && { orgUnitId },
      reach && { $or: [{ id: { $in: reach.ids } }, { orgUnitId: { $in: reach.orgUnitIds } }] },
    ],
    { limit, cursor, updatedSince },
  );
  return mapPage(page, locationDto);
}

export async function registerLocation(w: Work, body: NewLocationFields) {
  assertUnitInReach(w.reach(), await loadParents(w.em), body.orgUnitId ?? null);
  await assertOrgUnitUsable(w.em, body.orgUnitId);
  await assertExternalIdFree(w.em, body.externalId);
  return createLocation(w, body);
}

/** One location by id or by externalId, when the caller reaches it. */
export async function readLocation(w: Work, by: { id: string } | { externalId: string }) {
  const [location] = await findPlain(w.em, Location, by, { limit: 1 });
  if (!location) throw 'id' in by ? new NotFound('location', by.id) : new NotFound('location with externalId', by.externalId);
  assertLocationInReach(w.reach(), await loadParents(w.em), location);
  return locationDto(location);
}

export async function patchLocation(w: Work, id: string, body: LocationFields & { status?: 'active' }) {
  const location = await w.em.findOne(Location, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!location) throw new NotFound('location', id);
  const parents = await loadParents(w.em);
  const reach = w.reach();
  assertLocationInReach(reach, parents, location);
  w.checkVersion(location.version);
  if (location.status === 'archived' && body.status !== 'active') {
    throw new Conflict(`Location ${location.id} is archived; reactivate it with status "active" to change it.`);
  }
  if (body.orgUnitId !== undefined && body.orgUnitId !== location.orgUnitId) {
    assertUnitInReach(reach, parents, body.orgUnitId);
    await assertOrgUnitUsable(w.em, body.orgUnitId);
  }
  await assertExternalIdFree(w.em, body.externalId, location.id);
  return updateLocation(w, location, body) ?? locationDto(location);
}

/**
 * Creates or replaces the location of an externalId (201 when created). Two first PUTs of one
 * externalId racing: the loser's unit runs again (the kit's race retry) and replaces as an update.
 */
export async function putLocationByExternalId(w: Work, externalId: string, body: Omit<NewLocationFields, 'externalId'>) {
  const location = await w.em.findOne(Location, { externalId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  const parents = await loadParents(w.em);
  const reach = w.reach();
  const fields = { ...body, orgUnitId: body.orgUnitId ?? null, address: body.address ?? null, externalId };
  if (!location) {
    assertUnitInReach(reach, parents, fields.orgUnitId);
    await assertOrgUnitUsable(w.em, fields.orgUnitId);
    return { status: 201, dto: createLocation(w, fields) };
  }
  assertLocationInReach(reach, parents, location);
  w.checkVersion(location.version);
  if (fields.orgUnitId !== location.orgUnitId) {
    assertUnitInReach(reach, parents, fields.orgUnitId);
    await assertOrgUnitUsable(w.em, fields.orgUnitId);
  }
  return { status: 200, dto: updateLocation(w, location, fields) ?? locationDto(location) };
}

export async function archiveLocation(w: Work, id: string) {
  const location = await w.em.findOne(Location, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!location) throw new NotFound('location', id);
  assertLocationInReach(w.reach(), await loadParents(w.em), location);
  w.checkVersion(location.version);
  if (location.status === 'archived') return locationDto(location);
  const before = locationDto(location);
  location.status = 'archived';
  location.archivedAt = w.now;
  location.version += 1;
  location.updatedAt = location.archivedAt;
  const after = locationDto(location);
  w.emit({ type: 'location.archived', aggregateType: 'location', aggregateId: location.id, locationId: location.id, object: after, previous: changedFields(before, after) });
  return after;
}

/**
 * The locations by id and/or externalId, and those in org units or the units below them (archived
 * units still hold theirs), for the other services' replicas.
 */
export async function resolveLocations(w: Work, request: LocationsResolveRequest) {
  const { em } = w;
  const ids = [...new Set(request.ids ?? [])];
  const externalIds = [...new Set(request.externalIds ?? [])];
  const units = request.orgUnitIds?.length ? [...subtreeOf(await loadParents(em), request.orgUnitIds)] : [];
  const where = [
    ...(ids.length > 0 ? [{ id: { $in: ids } }] : []),
    ...(externalIds.length > 0 ? [{ externalId: { $in: externalIds } }] : []),
    ...(units.length > 0 ? [{ orgUnitId: { $in: units } }] : []),
  ];
  return where.length > 0 ? em.find(Location, { $or: where }, { orderBy: { id: 'asc' } }) : [];
}

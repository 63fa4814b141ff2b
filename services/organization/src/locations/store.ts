import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import type { z } from 'zod';
import type { LocationListQuery, LocationsResolveRequest } from '@bop/contracts';
import { findPlain, mapPage, findPage, changedFields, Conflict, newId, NotFound, now, recordEvent, ValidationError, type EntityManager, type Principal, type RouteContext } from '@bop/shared';
import { Location } from './entities';
import { OrgUnit } from '../org-units/entities';
import { locationDto } from './dto';
import { loadParents } from '../org-units/tree-store';
import { subtreeOf } from '../org-units/org-tree';
import { assertLocationInReach, assertUnitInReach, locationReachFilter } from '../org-units/reach';

/** What a write needs of its request: who acts, what they reach, the If-Match check. */
export type Caller = Pick<RouteContext, 'principal' | 'reach' | 'checkVersion'>;

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

function createLocation(em: EntityManager, fields: NewLocationFields, actor: Principal) {
  const at = now();
  const location = em.create(Location, {
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
  recordEvent(em, { type: 'location.created', aggregateType: 'location', aggregateId: location.id, locationId: location.id, object: dto, actor });
  return dto;
}

/** Applies changed fields; returns the new representation, or null when nothing changed. */
function updateLocation(em: EntityManager, location: Location, fields: LocationFields & { status?: 'active' }, actor: Principal) {
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
  location.updatedAt = now();
  const after = locationDto(location);
  recordEvent(em, { type: 'location.updated', aggregateType: 'location', aggregateId: location.id, locationId: location.id, object: after, previous, actor });
  return after;
}

function rethrowExternalIdTaken(err: unknown): never {
  if (err instanceof UniqueConstraintViolationException) {
    throw new Conflict('Another location already has this externalId.', [{ path: 'externalId', message: 'Already used by another location.' }]);
  }
  throw err;
}

/** A page of the locations the caller reaches. */
export async function listLocations(em: EntityManager, query: z.output<typeof LocationListQuery>, reachSet: ReturnType<Caller['reach']>) {
  const { limit, cursor, status, orgUnitId, updatedSince } = query;
  const reach = reachSet.everyone ? null : locationReachFilter(reachSet, await loadParents(em));
  const page = await findPage(
    em,
    Location,
    [
      status && { status },
      orgUnitId && { orgUnitId },
      updatedSince && { updatedAt: { $gte: new Date(updatedSince) } },
      reach && { $or: [{ id: { $in: reach.ids } }, { orgUnitId: { $in: reach.orgUnitIds } }] },
    ],
    { limit, cursor },
  );
  return mapPage(page, locationDto);
}

export function registerLocation(em: EntityManager, body: NewLocationFields, caller: Caller) {
  return em
    .transactional(async (tem) => {
      assertUnitInReach(caller.reach(), await loadParents(tem), body.orgUnitId ?? null);
      await assertOrgUnitUsable(tem, body.orgUnitId);
      await assertExternalIdFree(tem, body.externalId);
      return createLocation(tem, body, caller.principal);
    })
    .catch(rethrowExternalIdTaken);
}

/** One location by id or by externalId, when the caller reaches it. */
export async function readLocation(em: EntityManager, by: { id: string } | { externalId: string }, caller: Pick<Caller, 'reach'>) {
  const [location] = await findPlain(em, Location, by, { limit: 1 });
  if (!location) throw 'id' in by ? new NotFound('location', by.id) : new NotFound('location with externalId', by.externalId);
  assertLocationInReach(caller.reach(), await loadParents(em), location);
  return locationDto(location);
}

export function patchLocation(em: EntityManager, id: string, body: LocationFields & { status?: 'active' }, caller: Caller) {
  return em
    .transactional(async (tem) => {
      const location = await tem.findOne(Location, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!location) throw new NotFound('location', id);
      const parents = await loadParents(tem);
      const reach = caller.reach();
      assertLocationInReach(reach, parents, location);
      caller.checkVersion(location.version);
      if (location.status === 'archived' && body.status !== 'active') {
        throw new Conflict(`Location ${location.id} is archived; reactivate it with status "active" to change it.`);
      }
      if (body.orgUnitId !== undefined && body.orgUnitId !== location.orgUnitId) {
        assertUnitInReach(reach, parents, body.orgUnitId);
        await assertOrgUnitUsable(tem, body.orgUnitId);
      }
      await assertExternalIdFree(tem, body.externalId, location.id);
      return updateLocation(tem, location, body, caller.principal) ?? locationDto(location);
    })
    .catch(rethrowExternalIdTaken);
}

/** Creates or replaces the location of an externalId (201 when created). */
export async function putLocationByExternalId(em: EntityManager, externalId: string, body: Omit<NewLocationFields, 'externalId'>, caller: Caller) {
  const attempt = () =>
    em.fork().transactional(async (tem) => {
      const location = await tem.findOne(Location, { externalId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      const parents = await loadParents(tem);
      const reach = caller.reach();
      const fields = { ...body, orgUnitId: body.orgUnitId ?? null, address: body.address ?? null, externalId };
      if (!location) {
        assertUnitInReach(reach, parents, fields.orgUnitId);
        await assertOrgUnitUsable(tem, fields.orgUnitId);
        return { status: 201, dto: createLocation(tem, fields, caller.principal) };
      }
      assertLocationInReach(reach, parents, location);
      caller.checkVersion(location.version);
      if (fields.orgUnitId !== location.orgUnitId) {
        assertUnitInReach(reach, parents, fields.orgUnitId);
        await assertOrgUnitUsable(tem, fields.orgUnitId);
      }
      return { status: 200, dto: updateLocation(tem, location, fields, caller.principal) ?? locationDto(location) };
    });
  // two first PUTs of one externalId racing: the loser retries as an update
  return attempt().catch((err) => (err instanceof UniqueConstraintViolationException ? attempt() : Promise.reject(err)));
}

export function archiveLocation(em: EntityManager, id: string, caller: Caller) {
  return em.transactional(async (tem) => {
    const location = await tem.findOne(Location, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!location) throw new NotFound('location', id);
    assertLocationInReach(caller.reach(), await loadParents(tem), location);
    caller.checkVersion(location.version);
    if (location.status === 'archived') return locationDto(location);
    const before = locationDto(location);
    location.status = 'archived';
    location.archivedAt = now();
    location.version += 1;
    location.updatedAt = location.archivedAt;
    const after = locationDto(location);
    recordEvent(tem, { type: 'location.archived', aggregateType: 'location', aggregateId: location.id, locationId: location.id, object: after, previous: changedFields(before, after), actor: caller.principal });
    return after;
  });
}

/**
 * The locations by id and/or externalId, and those in org units or the units below them (archived
 * units still hold theirs), for the other services' replicas.
 */
export async function resolveLocations(em: EntityManager, request: LocationsResolveRequest) {
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

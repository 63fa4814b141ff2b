import { LockMode, UniqueConstraintViolationException, type FilterQuery } from '@mikro-orm/core';
import {
  changedFields,
  Conflict,
  decodeCursor,
  newId,
  NotFound,
  pageLimit,
  recordEvent,
  route,
  toPage,
  ValidationError,
  type EntityManager,
  type Principal,
  type RouteDef,
} from '@bop/shared';
import { Location, OrgUnit } from '../entities';
import { locationDto } from '../dto';
import { loadParents } from '../tree-store';
import { assertLocationInReach, assertUnitInReach, locationReachFilter } from '../domain/reach';

type LocationFields = {
  name?: string;
  timezone?: string;
  businessDayCutoff?: string;
  externalId?: string | null;
  orgUnitId?: string | null;
  address?: Record<string, string> | null;
};

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

function createLocation(em: EntityManager, fields: Required<Pick<LocationFields, 'name' | 'timezone' | 'businessDayCutoff'>> & LocationFields, actor: Principal) {
  const now = new Date();
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
    createdAt: now,
    updatedAt: now,
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
  location.updatedAt = new Date();
  const after = locationDto(location);
  recordEvent(em, { type: 'location.updated', aggregateType: 'location', aggregateId: location.id, locationId: location.id, object: after, previous, actor });
  return after;
}

export const locationRoutes = (): RouteDef[] => [
  route('GET /locations', async (ctx) => {
    const { limit, cursor, status, orgUnitId, updatedSince } = ctx.query;
    const reachSet = ctx.reach();
    const reach = reachSet.everyone ? null : locationReachFilter(reachSet, await loadParents(ctx.em));
    const where: FilterQuery<Location> = {};
    const after = decodeCursor(cursor);
    if (after) where.id = { $gt: after };
    if (status) where.status = status;
    if (orgUnitId) where.orgUnitId = orgUnitId;
    if (updatedSince) where.updatedAt = { $gte: new Date(updatedSince) };
    if (reach) where.$or = [{ id: { $in: reach.ids } }, { orgUnitId: { $in: reach.orgUnitIds } }];
    const n = pageLimit(limit);
    const rows = await ctx.em.find(Location, where, { orderBy: { id: 'asc' }, limit: n + 1 });
    return { body: toPage(rows, n, locationDto) };
  }),

  route('POST /locations', async (ctx) => {
    const body = ctx.body;
    const dto = await ctx.em.transactional(async (em) => {
      assertUnitInReach(ctx.reach(), await loadParents(em), body.orgUnitId ?? null);
      await assertOrgUnitUsable(em, body.orgUnitId);
      await assertExternalIdFree(em, body.externalId);
      return createLocation(em, body, ctx.principal);
    }).catch(rethrowExternalIdTaken);
    return { status: 201, body: dto, headers: { Location: `/api/v1/locations/${dto.id}` } };
  }),

  route('GET /locations/{id}', async (ctx) => {
    const location = await ctx.em.findOne(Location, { id: ctx.params.id });
    if (!location) throw new NotFound('location', ctx.params.id);
    assertLocationInReach(ctx.reach(), await loadParents(ctx.em), location);
    return { body: locationDto(location) };
  }),

  route('GET /locations/external/{externalId}', async (ctx) => {
    const location = await ctx.em.findOne(Location, { externalId: ctx.params.externalId });
    if (!location) throw new NotFound('location with externalId', ctx.params.externalId);
    assertLocationInReach(ctx.reach(), await loadParents(ctx.em), location);
    return { body: locationDto(location) };
  }),

  route('PATCH /locations/{id}', async (ctx) => {
    const dto = await ctx.em.transactional(async (em) => {
      const location = await em.findOne(Location, { id: ctx.params.id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!location) throw new NotFound('location', ctx.params.id);
      const parents = await loadParents(em);
      const reach = ctx.reach();
      assertLocationInReach(reach, parents, location);
      ctx.checkVersion(location.version);
      if (location.status === 'archived' && ctx.body.status !== 'active') {
        throw new Conflict(`Location ${location.id} is archived; reactivate it with status "active" to change it.`);
      }
      if (ctx.body.orgUnitId !== undefined && ctx.body.orgUnitId !== location.orgUnitId) {
        assertUnitInReach(reach, parents, ctx.body.orgUnitId);
        await assertOrgUnitUsable(em, ctx.body.orgUnitId);
      }
      await assertExternalIdFree(em, ctx.body.externalId, location.id);
      return updateLocation(em, location, ctx.body, ctx.principal) ?? locationDto(location);
    }).catch(rethrowExternalIdTaken);
    return { body: dto };
  }),

  route('PUT /locations/external/{externalId}', async (ctx) => {
    const externalId = ctx.params.externalId;
    const attempt = () =>
      ctx.em.fork().transactional(async (em) => {
        const location = await em.findOne(Location, { externalId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
        const parents = await loadParents(em);
        const reach = ctx.reach();
        const fields = { ...ctx.body, orgUnitId: ctx.body.orgUnitId ?? null, address: ctx.body.address ?? null, externalId };
        if (!location) {
          assertUnitInReach(reach, parents, fields.orgUnitId);
          await assertOrgUnitUsable(em, fields.orgUnitId);
          return { status: 201, dto: createLocation(em, fields, ctx.principal) };
        }
        assertLocationInReach(reach, parents, location);
        ctx.checkVersion(location.version);
        if (fields.orgUnitId !== location.orgUnitId) {
          assertUnitInReach(reach, parents, fields.orgUnitId);
          await assertOrgUnitUsable(em, fields.orgUnitId);
        }
        return { status: 200, dto: updateLocation(em, location, fields, ctx.principal) ?? locationDto(location) };
      });
    // two first PUTs of one externalId racing: the loser retries as an update
    const result = await attempt().catch((err) => (err instanceof UniqueConstraintViolationException ? attempt() : Promise.reject(err)));
    return { status: result.status, body: result.dto };
  }),

  route('DELETE /locations/{id}', async (ctx) => {
    const dto = await ctx.em.transactional(async (em) => {
      const location = await em.findOne(Location, { id: ctx.params.id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!location) throw new NotFound('location', ctx.params.id);
      assertLocationInReach(ctx.reach(), await loadParents(em), location);
      ctx.checkVersion(location.version);
      if (location.status === 'archived') return locationDto(location);
      const before = locationDto(location);
      location.status = 'archived';
      location.archivedAt = new Date();
      location.version += 1;
      location.updatedAt = location.archivedAt;
      const after = locationDto(location);
      recordEvent(em, { type: 'location.archived', aggregateType: 'location', aggregateId: location.id, locationId: location.id, object: after, previous: changedFields(before, after), actor: ctx.principal });
      return after;
    });
    return { body: dto };
  }),
];

function rethrowExternalIdTaken(err: unknown): never {
  if (err instanceof UniqueConstraintViolationException) {
    throw new Conflict('Another location already has this externalId.', [{ path: 'externalId', message: 'Already used by another location.' }]);
  }
  throw err;
}

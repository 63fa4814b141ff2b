import { LockMode, type FilterQuery } from '@mikro-orm/core';
import { changedFields, Conflict, decodeCursor, newId, NotFound, pageLimit, recordEvent, route, toPage, ValidationError, type EntityManager, type ReachSet, type RouteDef } from '@bop/shared';
import { Department, Location } from '../entities';
import { departmentDto } from '../dto';
import { loadParents } from '../tree-store';
import { assertLocationInReach, assertUnitInReach, locationReachFilter } from '../domain/reach';

/** A location department follows its location's reach; a company-wide one needs reach Everyone to change. */
async function assertDepartmentInReach(em: EntityManager, reach: ReachSet, locationId: string | null, forWrite: boolean): Promise<void> {
  if (reach.everyone) return;
  const parents = await loadParents(em);
  if (!locationId) {
    if (forWrite) assertUnitInReach(reach, parents, null);
    return;
  }
  const location = await em.findOne(Location, { id: locationId });
  if (location) assertLocationInReach(reach, parents, location);
}

export const departmentRoutes = (): RouteDef[] => [
  route('GET /departments', async (ctx) => {
    const { limit, cursor, locationId, status } = ctx.query;
    const where: FilterQuery<Department> = {};
    const after = decodeCursor(cursor);
    if (after) where.id = { $gt: after };
    if (locationId) where.locationId = locationId;
    if (status) where.status = status;
    const reach = locationReachFilter(ctx.reach(), await loadParents(ctx.em));
    if (reach) {
      const reachable = await ctx.em.find(Location, { $or: [{ id: { $in: reach.ids } }, { orgUnitId: { $in: reach.orgUnitIds } }] }, { fields: ['id'] });
      where.$or = [{ locationId: null }, { locationId: { $in: reachable.map((l) => l.id) } }];
    }
    const n = pageLimit(limit);
    const rows = await ctx.em.find(Department, where, { orderBy: { id: 'asc' }, limit: n + 1 });
    return { body: toPage(rows, n, departmentDto) };
  }),

  route('POST /departments', async (ctx) => {
    const dto = await ctx.em.transactional(async (em) => {
      const locationId = ctx.body.locationId ?? null;
      if (locationId) {
        const location = await em.findOne(Location, { id: locationId });
        if (!location) throw new ValidationError([{ path: 'locationId', message: `No location ${locationId}.` }]);
        if (location.status !== 'active') throw new ValidationError([{ path: 'locationId', message: `Location ${locationId} is archived.` }]);
      }
      await assertDepartmentInReach(em, ctx.reach(), locationId, true);
      const now = new Date();
      const dep = em.create(Department, {
        id: newId('department'),
        name: ctx.body.name,
        code: ctx.body.code ?? null,
        locationId,
        status: 'active',
        version: 1,
        createdAt: now,
        updatedAt: now,
      });
      const object = departmentDto(dep);
      recordEvent(em, { type: 'department.created', aggregateType: 'department', aggregateId: dep.id, locationId, object, actor: ctx.principal });
      return object;
    });
    return { status: 201, body: dto };
  }),

  route('PATCH /departments/{id}', async (ctx) => {
    const dto = await ctx.em.transactional(async (em) => {
      const dep = await em.findOne(Department, { id: ctx.params.id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!dep) throw new NotFound('department', ctx.params.id);
      await assertDepartmentInReach(em, ctx.reach(), dep.locationId ?? null, true);
      ctx.checkVersion(dep.version);
      if (dep.status === 'archived') throw new Conflict(`Department ${dep.id} is archived.`);
      const before = departmentDto(dep);
      if (ctx.body.name !== undefined) dep.name = ctx.body.name;
      if (ctx.body.code !== undefined) dep.code = ctx.body.code;
      const previous = changedFields(before, departmentDto(dep));
      if (Object.keys(previous).length === 0) return before;
      dep.version += 1;
      dep.updatedAt = new Date();
      const object = departmentDto(dep);
      recordEvent(em, { type: 'department.updated', aggregateType: 'department', aggregateId: dep.id, locationId: dep.locationId ?? null, object, previous, actor: ctx.principal });
      return object;
    });
    return { body: dto };
  }),

  route('DELETE /departments/{id}', async (ctx) => {
    const dto = await ctx.em.transactional(async (em) => {
      const dep = await em.findOne(Department, { id: ctx.params.id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!dep) throw new NotFound('department', ctx.params.id);
      await assertDepartmentInReach(em, ctx.reach(), dep.locationId ?? null, true);
      ctx.checkVersion(dep.version);
      if (dep.status === 'archived') return departmentDto(dep);
      const before = departmentDto(dep);
      dep.status = 'archived';
      dep.version += 1;
      dep.updatedAt = new Date();
      const object = departmentDto(dep);
      recordEvent(em, { type: 'department.archived', aggregateType: 'department', aggregateId: dep.id, locationId: dep.locationId ?? null, object, previous: changedFields(before, object), actor: ctx.principal });
      return object;
    });
    return { body: dto };
  }),
];

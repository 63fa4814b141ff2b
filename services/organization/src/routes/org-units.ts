import { LockMode, type FilterQuery } from '@mikro-orm/core';
import { changedFields, Conflict, decodeCursor, newId, NotFound, pageLimit, recordEvent, route, toPage, ValidationError, type EntityManager, type RouteDef } from '@bop/shared';
import { Location, OrgUnit } from '../entities';
import { orgUnitDto } from '../dto';
import { loadParents } from '../tree-store';
import { subtreeOf, wouldCreateCycle } from '../domain/org-tree';
import { assertUnitInReach } from '../domain/reach';

async function activeParent(em: EntityManager, parentId: string | null | undefined): Promise<void> {
  if (!parentId) return;
  const parent = await em.findOne(OrgUnit, { id: parentId });
  if (!parent) throw new ValidationError([{ path: 'parentId', message: `No org unit ${parentId}.` }]);
  if (parent.status !== 'active') throw new ValidationError([{ path: 'parentId', message: `Org unit ${parentId} is archived.` }]);
}

/** Serialises tree changes, so two concurrent moves cannot build a cycle together. */
async function lockTree(em: EntityManager): Promise<void> {
  // on em (its transaction's connection): the lock lasts until that transaction ends
  await em.execute(`select pg_advisory_xact_lock(hashtext('organization:org_units'))`);
}

export const orgUnitRoutes = (): RouteDef[] => [
  route('GET /org-units', async (ctx) => {
    const { limit, cursor, parentId, status } = ctx.query;
    const parents = await loadParents(ctx.em);
    const reach = ctx.reach();
    const where: FilterQuery<OrgUnit> = {};
    const after = decodeCursor(cursor);
    if (after) where.id = { $gt: after };
    if (parentId) where.parentId = parentId === 'root' ? null : parentId;
    if (status) where.status = status;
    if (!reach.everyone) where.id = { ...(after ? { $gt: after } : {}), $in: [...subtreeOf(parents, reach.orgUnitIds)] };
    const n = pageLimit(limit);
    const rows = await ctx.em.find(OrgUnit, where, { orderBy: { id: 'asc' }, limit: n + 1 });
    return { body: toPage(rows, n, (u) => orgUnitDto(u, parents)) };
  }),

  route('POST /org-units', async (ctx) => {
    const dto = await ctx.em.transactional(async (em) => {
      await lockTree(em);
      const parents = await loadParents(em);
      assertUnitInReach(ctx.reach(), parents, ctx.body.parentId ?? null);
      await activeParent(em, ctx.body.parentId);
      const now = new Date();
      const unit = em.create(OrgUnit, {
        id: newId('orgUnit'),
        name: ctx.body.name,
        kind: ctx.body.kind ?? null,
        parentId: ctx.body.parentId ?? null,
        status: 'active',
        version: 1,
        createdAt: now,
        updatedAt: now,
      });
      parents.set(unit.id, unit.parentId ?? null);
      const object = orgUnitDto(unit, parents);
      recordEvent(em, { type: 'org_unit.created', aggregateType: 'org_unit', aggregateId: unit.id, locationId: null, object, actor: ctx.principal });
      return object;
    });
    return { status: 201, body: dto };
  }),

  route('PATCH /org-units/{id}', async (ctx) => {
    const dto = await ctx.em.transactional(async (em) => {
      await lockTree(em);
      const unit = await em.findOne(OrgUnit, { id: ctx.params.id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!unit) throw new NotFound('org unit', ctx.params.id);
      const parents = await loadParents(em);
      const reach = ctx.reach();
      assertUnitInReach(reach, parents, unit.id);
      ctx.checkVersion(unit.version);
      if (unit.status === 'archived') throw new Conflict(`Org unit ${unit.id} is archived.`);
      const before = orgUnitDto(unit, parents);
      if (ctx.body.parentId !== undefined && ctx.body.parentId !== unit.parentId) {
        if (wouldCreateCycle(parents, unit.id, ctx.body.parentId)) {
          throw new ValidationError([{ path: 'parentId', message: 'A unit cannot move under itself or one of its descendants.' }]);
        }
        assertUnitInReach(reach, parents, ctx.body.parentId);
        await activeParent(em, ctx.body.parentId);
        unit.parentId = ctx.body.parentId;
        parents.set(unit.id, unit.parentId);
      }
      if (ctx.body.name !== undefined) unit.name = ctx.body.name;
      if (ctx.body.kind !== undefined) unit.kind = ctx.body.kind;
      const previous = changedFields(before, orgUnitDto(unit, parents), ['version', 'updatedAt', 'depth']);
      if (Object.keys(previous).length === 0) return before;
      unit.version += 1;
      unit.updatedAt = new Date();
      const object = orgUnitDto(unit, parents);
      recordEvent(em, { type: 'org_unit.updated', aggregateType: 'org_unit', aggregateId: unit.id, locationId: null, object, previous, actor: ctx.principal });
      return object;
    });
    return { body: dto };
  }),

  route('DELETE /org-units/{id}', async (ctx) => {
    const dto = await ctx.em.transactional(async (em) => {
      await lockTree(em);
      const unit = await em.findOne(OrgUnit, { id: ctx.params.id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!unit) throw new NotFound('org unit', ctx.params.id);
      const parents = await loadParents(em);
      assertUnitInReach(ctx.reach(), parents, unit.id);
      ctx.checkVersion(unit.version);
      if (unit.status === 'archived') return orgUnitDto(unit, parents);
      const locations = await em.count(Location, { orgUnitId: unit.id, status: 'active' });
      const children = await em.count(OrgUnit, { parentId: unit.id, status: 'active' });
      if (locations > 0 || children > 0) {
        throw new Conflict(`Org unit ${unit.id} still has ${locations} active location(s) and ${children} active child unit(s); move or archive them first.`);
      }
      const before = orgUnitDto(unit, parents);
      unit.status = 'archived';
      unit.version += 1;
      unit.updatedAt = new Date();
      const object = orgUnitDto(unit, parents);
      recordEvent(em, { type: 'org_unit.archived', aggregateType: 'org_unit', aggregateId: unit.id, locationId: null, object, previous: changedFields(before, object), actor: ctx.principal });
      return object;
    });
    return { body: dto };
  }),
];

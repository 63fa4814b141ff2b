import { LockMode, type FilterQuery } from '@mikro-orm/core';
import type { z } from 'zod';
import type { OrgUnitCreate, OrgUnitListQuery, OrgUnitPatch } from '@bop/contracts';
import { changedFields, Conflict, decodeCursor, lockForTransaction, newId, NotFound, now, pageLimit, recordEvent, toPage, ValidationError, type EntityManager, type ReachSet } from '@bop/shared';
import { OrgUnit } from './entities';
import { Location } from '../locations/entities';
import type { Caller } from '../locations/store';
import { orgUnitDto } from './dto';
import { loadParents } from './tree-store';
import { subtreeOf, wouldCreateCycle } from './org-tree';
import { assertUnitInReach } from './reach';

async function activeParent(em: EntityManager, parentId: string | null | undefined): Promise<void> {
  if (!parentId) return;
  const parent = await em.findOne(OrgUnit, { id: parentId });
  if (!parent) throw new ValidationError([{ path: 'parentId', message: `No org unit ${parentId}.` }]);
  if (parent.status !== 'active') throw new ValidationError([{ path: 'parentId', message: `Org unit ${parentId} is archived.` }]);
}

/** Serialises tree changes, so two concurrent moves cannot build a cycle together. */
async function lockTree(em: EntityManager): Promise<void> {
  // on em's transaction: the lock lasts until that transaction ends
  await lockForTransaction(em, 'organization.org_units');
}

/** A page of the org units the caller reaches (a unit and those below it). */
export async function listOrgUnits(em: EntityManager, query: z.output<typeof OrgUnitListQuery>, reach: ReachSet) {
  const { limit, cursor, parentId, status } = query;
  const parents = await loadParents(em);
  const where: FilterQuery<OrgUnit> = {};
  const after = decodeCursor(cursor);
  if (after) where.id = { $gt: after };
  if (parentId) where.parentId = parentId === 'root' ? null : parentId;
  if (status) where.status = status;
  if (!reach.everyone) where.id = { ...(after ? { $gt: after } : {}), $in: [...subtreeOf(parents, reach.orgUnitIds)] };
  const n = pageLimit(limit);
  const rows = await em.find(OrgUnit, where, { orderBy: { id: 'asc' }, limit: n + 1 });
  return toPage(rows, n, (u) => orgUnitDto(u, parents));
}

export function createOrgUnit(em: EntityManager, body: z.output<typeof OrgUnitCreate>, caller: Caller) {
  return em.transactional(async (tem) => {
    await lockTree(tem);
    const parents = await loadParents(tem);
    assertUnitInReach(caller.reach(), parents, body.parentId ?? null);
    await activeParent(tem, body.parentId);
    const at = now();
    const unit = tem.create(OrgUnit, {
      id: newId('orgUnit'),
      name: body.name,
      kind: body.kind ?? null,
      parentId: body.parentId ?? null,
      status: 'active',
      version: 1,
      createdAt: at,
      updatedAt: at,
    });
    parents.set(unit.id, unit.parentId ?? null);
    const object = orgUnitDto(unit, parents);
    recordEvent(tem, { type: 'org_unit.created', aggregateType: 'org_unit', aggregateId: unit.id, locationId: null, object, actor: caller.principal });
    return object;
  });
}

export function patchOrgUnit(em: EntityManager, id: string, body: z.output<typeof OrgUnitPatch>, caller: Caller) {
  return em.transactional(async (tem) => {
    await lockTree(tem);
    const unit = await tem.findOne(OrgUnit, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!unit) throw new NotFound('org unit', id);
    const parents = await loadParents(tem);
    const reach = caller.reach();
    assertUnitInReach(reach, parents, unit.id);
    caller.checkVersion(unit.version);
    if (unit.status === 'archived') throw new Conflict(`Org unit ${unit.id} is archived.`);
    const before = orgUnitDto(unit, parents);
    if (body.parentId !== undefined && body.parentId !== unit.parentId) {
      if (wouldCreateCycle(parents, unit.id, body.parentId)) {
        throw new ValidationError([{ path: 'parentId', message: 'A unit cannot move under itself or one of its descendants.' }]);
      }
      assertUnitInReach(reach, parents, body.parentId);
      await activeParent(tem, body.parentId);
      unit.parentId = body.parentId;
      parents.set(unit.id, unit.parentId);
    }
    if (body.name !== undefined) unit.name = body.name;
    if (body.kind !== undefined) unit.kind = body.kind;
    const previous = changedFields(before, orgUnitDto(unit, parents), ['version', 'updatedAt', 'depth']);
    if (Object.keys(previous).length === 0) return before;
    unit.version += 1;
    unit.updatedAt = now();
    const object = orgUnitDto(unit, parents);
    recordEvent(tem, { type: 'org_unit.updated', aggregateType: 'org_unit', aggregateId: unit.id, locationId: null, object, previous, actor: caller.principal });
    return object;
  });
}

/** Archives a unit that holds no active location or child unit. */
export function archiveOrgUnit(em: EntityManager, id: string, caller: Caller) {
  return em.transactional(async (tem) => {
    await lockTree(tem);
    const unit = await tem.findOne(OrgUnit, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!unit) throw new NotFound('org unit', id);
    const parents = await loadParents(tem);
    assertUnitInReach(caller.reach(), parents, unit.id);
    caller.checkVersion(unit.version);
    if (unit.status === 'archived') return orgUnitDto(unit, parents);
    const locations = await tem.count(Location, { orgUnitId: unit.id, status: 'active' });
    const children = await tem.count(OrgUnit, { parentId: unit.id, status: 'active' });
    if (locations > 0 || children > 0) {
      throw new Conflict(`Org unit ${unit.id} still has ${locations} active location(s) and ${children} active child unit(s); move or archive them first.`);
    }
    const before = orgUnitDto(unit, parents);
    unit.status = 'archived';
    unit.version += 1;
    unit.updatedAt = now();
    const object = orgUnitDto(unit, parents);
    recordEvent(tem, { type: 'org_unit.archived', aggregateType: 'org_unit', aggregateId: unit.id, locationId: null, object, previous: changedFields(before, object), actor: caller.principal });
    return object;
  });
}

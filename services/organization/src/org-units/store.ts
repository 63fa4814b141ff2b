import { LockMode } from '@mikro-orm/core';
import type { z } from 'zod';
import type { OrgUnitCreate, OrgUnitListQuery, OrgUnitPatch } from '@bop/contracts';
import { changedFields, Conflict, findPage, lockForTransaction, mapPage, newId, NotFound, ValidationError, type EntityManager, type Work } from '@bop/shared';
import { OrgUnit } from './entities';
import { Location } from '../locations/entities';
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
async function lockTree(w: Work): Promise<void> {
  // on the unit's transaction: the lock lasts until that transaction ends
  await lockForTransaction(w.em, `${w.schema}.org_units`);
}

/** A page of the org units the caller reaches (a unit and those below it). */
export async function listOrgUnits(w: Work, query: z.output<typeof OrgUnitListQuery>) {
  const { em } = w;
  const reach = w.reach();
  const { limit, cursor, updatedSince, parentId, status } = query;
  const parents = await loadParents(em);
  const page = await findPage(
    em,
    OrgUnit,
    [parentId && { parentId: parentId === 'root' ? null : parentId }, status && { status }, !reach.everyone && { id: { $in: [...subtreeOf(parents, reach.orgUnitIds)] } }],
    { limit, cursor, updatedSince },
  );
  return mapPage(page, (u) => orgUnitDto(u, parents));
}

export async function createOrgUnit(w: Work, body: z.output<typeof OrgUnitCreate>) {
  const { em } = w;
  await lockTree(w);
  const parents = await loadParents(em);
  assertUnitInReach(w.reach(), parents, body.parentId ?? null);
  await activeParent(em, body.parentId);
  const at = w.now;
  const unit = em.create(OrgUnit, {
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
  w.emit({ type: 'org_unit.created', aggregateType: 'org_unit', aggregateId: unit.id, locationId: null, object });
  return object;
}

export async function patchOrgUnit(w: Work, id: string, body: z.output<typeof OrgUnitPatch>) {
  const { em } = w;
  await lockTree(w);
  const unit = await em.findOne(OrgUnit, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!unit) throw new NotFound('org unit', id);
  const parents = await loadParents(em);
  const reach = w.reach();
  assertUnitInReach(reach, parents, unit.id);
  w.checkVersion(unit.version);
  if (unit.status === 'archived') throw new Conflict(`Org unit ${unit.id} is archived.`);
  const before = orgUnitDto(unit, parents);
  if (body.parentId !== undefined && body.parentId !== unit.parentId) {
    if (wouldCreateCycle(parents, unit.id, body.parentId)) {
      throw new ValidationError([{ path: 'parentId', message: 'A unit cannot move under itself or one of its descendants.' }]);
    }
    assertUnitInReach(reach, parents, body.parentId);
    await activeParent(em, body.parentId);
    unit.parentId = body.parentId;
    parents.set(unit.id, unit.parentId);
  }
  if (body.name !== undefined) unit.name = body.name;
  if (body.kind !== undefined) unit.kind = body.kind;
  const previous = changedFields(before, orgUnitDto(unit, parents), ['version', 'updatedAt', 'depth']);
  if (Object.keys(previous).length === 0) return before;
  unit.version += 1;
  unit.updatedAt = w.now;
  const object = orgUnitDto(unit, parents);
  w.emit({ type: 'org_unit.updated', aggregateType: 'org_unit', aggregateId: unit.id, locationId: null, object, previous });
  return object;
}

/** Archives a unit that holds no active location or child unit. */
export async function archiveOrgUnit(w: Work, id: string) {
  const { em } = w;
  await lockTree(w);
  const unit = await em.findOne(OrgUnit, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!unit) throw new NotFound('org unit', id);
  const parents = await loadParents(em);
  assertUnitInReach(w.reach(), parents, unit.id);
  w.checkVersion(unit.version);
  if (unit.status === 'archived') return orgUnitDto(unit, parents);
  const locations = await em.count(Location, { orgUnitId: unit.id, status: 'active' });
  const children = await em.count(OrgUnit, { parentId: unit.id, status: 'active' });
  if (locations > 0 || children > 0) {
    throw new Conflict(`Org unit ${unit.id} still has ${locations} active location(s) and ${children} active child unit(s); move or archive them first.`);
  }
  const before = orgUnitDto(unit, parents);
  unit.status = 'archived';
  unit.version += 1;
  unit.updatedAt = w.now;
  const object = orgUnitDto(unit, parents);
  w.emit({ type: 'org_unit.archived', aggregateType: 'org_unit', aggregateId: unit.id, locationId: null, object, previous: changedFields(before, object) });
  return object;
}

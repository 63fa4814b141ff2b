import { LockMode } from '@mikro-orm/core';
import type { z } from 'zod';
import type { DepartmentCreate, DepartmentListQuery, DepartmentPatch } from '@bop/contracts';
import { mapPage, findPage, changedFields, Conflict, newId, NotFound, ValidationError, type EntityManager, type ReachSet, type Work } from '@bop/shared';
import { Department } from './entities';
import { Location } from '../locations/entities';
import { departmentDto } from './dto';
import { loadParents } from '../org-units/tree-store';
import { assertLocationInReach, assertUnitInReach, locationReachFilter } from '../org-units/reach';

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

/** Locks a department for a change the caller may make. */
async function departmentForChange(w: Work, id: string): Promise<Department> {
  const dep = await w.em.findOne(Department, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!dep) throw new NotFound('department', id);
  await assertDepartmentInReach(w.em, w.reach(), dep.locationId ?? null, true);
  w.checkVersion(dep.version);
  return dep;
}

/** A page of the departments: company-wide ones and those of locations the caller reaches. */
export async function listDepartments(w: Work, query: z.output<typeof DepartmentListQuery>) {
  const { em } = w;
  const { limit, cursor, updatedSince, locationId, status } = query;
  const reach = locationReachFilter(w.reach(), await loadParents(em));
  const reachable = reach ? await em.find(Location, { $or: [{ id: { $in: reach.ids } }, { orgUnitId: { $in: reach.orgUnitIds } }] }, { fields: ['id'] }) : null;
  const page = await findPage(
    em,
    Department,
    [locationId && { locationId }, status && { status }, reachable && { $or: [{ locationId: null }, { locationId: { $in: reachable.map((l) => l.id) } }] }],
    { limit, cursor, updatedSince },
  );
  return mapPage(page, departmentDto);
}

export async function createDepartment(w: Work, body: z.output<typeof DepartmentCreate>) {
  const { em } = w;
  const locationId = body.locationId ?? null;
  if (locationId) {
    const location = await em.findOne(Location, { id: locationId });
    if (!location) throw new ValidationError([{ path: 'locationId', message: `No location ${locationId}.` }]);
    if (location.status !== 'active') throw new ValidationError([{ path: 'locationId', message: `Location ${locationId} is archived.` }]);
  }
  await assertDepartmentInReach(em, w.reach(), locationId, true);
  const at = w.now;
  const dep = em.create(Department, {
    id: newId('department'),
    name: body.name,
    code: body.code ?? null,
    locationId,
    status: 'active',
    version: 1,
    createdAt: at,
    updatedAt: at,
  });
  const object = departmentDto(dep);
  w.emit({ type: 'department.created', aggregateType: 'department', aggregateId: dep.id, locationId, object });
  return object;
}

export async function patchDepartment(w: Work, id: string, body: z.output<typeof DepartmentPatch>) {
  const dep = await departmentForChange(w, id);
  if (dep.status === 'archived') throw new Conflict(`Department ${dep.id} is archived.`);
  const before = departmentDto(dep);
  if (body.name !== undefined) dep.name = body.name;
  if (body.code !== undefined) dep.code = body.code;
  const previous = changedFields(before, departmentDto(dep));
  if (Object.keys(previous).length === 0) return before;
  dep.version += 1;
  dep.updatedAt = w.now;
  const object = departmentDto(dep);
  w.emit({ type: 'department.updated', aggregateType: 'department', aggregateId: dep.id, locationId: dep.locationId ?? null, object, previous });
  return object;
}

export async function archiveDepartment(w: Work, id: string) {
  const dep = await departmentForChange(w, id);
  if (dep.status === 'archived') return departmentDto(dep);
  const before = departmentDto(dep);
  dep.status = 'archived';
  dep.version += 1;
  dep.updatedAt = w.now;
  const object = departmentDto(dep);
  w.emit({ type: 'department.archived', aggregateType: 'department', aggregateId: dep.id, locationId: dep.locationId ?? null, object, previous: changedFields(before, object) });
  return object;
}

/** The departments named (unknown ids are simply absent): the internal read. */
export async function resolveDepartments(w: Work, ids: string[]) {
  const unique = [...new Set(ids)];
  return unique.length > 0 ? w.em.find(Department, { id: { $in: unique } }, { orderBy: { id: 'asc' } }) : [];
}

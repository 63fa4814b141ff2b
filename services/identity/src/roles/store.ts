import type { EntityManager } from '@mikro-orm/postgresql';
import { LockMode } from '@mikro-orm/core';
import { changedFields, Conflict, findPage, mapPage, newId, NotFound, type ListPage, type Work } from '@bop/shared';
import { Assignment } from '../users/entities';
import { Role } from './entities';
import { builtInRoles } from './permissions';
import { roleView, type RoleView } from './dto';
import { emit } from '../users/events-store';

/** Creates or refreshes the built-in roles (owner gets every permission of the catalogue). Idempotent. */
export async function syncBuiltInRoles(w: Work): Promise<void> {
  const em = w.em;
  const now = w.now;
  for (const def of builtInRoles()) {
    const role = await em.findOne(Role, { key: def.key });
    if (!role) {
      em.create(Role, { id: newId('role'), key: def.key, name: def.name, description: def.description, permissions: def.permissions, builtIn: true, status: 'active', createdAt: now, updatedAt: now, version: 1 });
    } else if (JSON.stringify(role.permissions) !== JSON.stringify(def.permissions) || role.description !== def.description) {
      role.permissions = def.permissions;
      role.description = def.description;
      role.version += 1;
      role.updatedAt = now;
    }
  }
  await em.flush();
}

export async function listRoles(w: Work, q: { status?: 'active' | 'archived'; limit: number; cursor?: string; updatedSince?: string }): Promise<ListPage<RoleView>> {
  return mapPage(await findPage(w.em, Role, [{ status: q.status ?? 'active' }], q), roleView);
}

const uniquePermissions = (names: string[]) => [...new Set(names)].sort();

async function ensureNameFree(em: EntityManager, name: string, exceptId?: string): Promise<void> {
  const rows = await em
    .createQueryBuilder(Role)
    .select('id')
    .where({ status: 'active', id: { $ne: exceptId ?? '' } })
    // case-insensitive as the unique index on lower(name); $ilike would read % and _ as wildcards
    .andWhere('lower(name) = lower(?)', [name])
    .execute('all');
  if (rows.length > 0) throw new Conflict(`An active role named ${name} exists.`);
}

/** POST /roles: from permission names of the catalogue (checked by the contract); a duplicate name is 409 (its route maps the unique index's race). */
export async function createRole(w: Work, input: { name: string; description?: string | null; permissions: string[] }): Promise<RoleView> {
  const em = w.em;
  await ensureNameFree(em, input.name);
  const now = w.now;
  const role = em.create(Role, {
    id: newId('role'),
    key: null,
    name: input.name,
    description: input.description ?? null,
    permissions: uniquePermissions(input.permissions),
    builtIn: false,
    status: 'active',
    createdAt: now,
    updatedAt: now,
    version: 1,
  });
  await em.flush();
  const view = roleView(role);
  emit(w, 'role.created', { type: 'role', id: role.id }, view);
  return view;
}

async function lockChangeableRole(em: EntityManager, id: string): Promise<Role> {
  const role = await em.findOne(Role, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!role) throw new NotFound('role', id);
  if (role.builtIn) throw new Conflict(`The built-in role ${role.name} cannot be changed or archived.`);
  return role;
}

/** PATCH /roles/{id}: applies from the holders' next request (the gateway's cache drops on the event). */
export async function updateRole(w: Work, id: string, patch: { name?: string; description?: string | null; permissions?: string[] }): Promise<RoleView> {
  const em = w.em;
  const role = await lockChangeableRole(em, id);
  w.checkVersion(role.version);
  if (role.status === 'archived') throw new Conflict('The role is archived.');
  const before = roleView(role);
  if (patch.name !== undefined && patch.name !== role.name) {
    await ensureNameFree(em, patch.name, role.id);
    role.name = patch.name;
  }
  if (patch.description !== undefined) role.description = patch.description;
  if (patch.permissions !== undefined) role.permissions = uniquePermissions(patch.permissions);
  const previous = changedFields(before, roleView(role));
  if (Object.keys(previous).length === 0) return before;
  role.version += 1;
  role.updatedAt = w.now;
  await em.flush();
  const after = roleView(role);
  emit(w, 'role.updated', { type: 'role', id: role.id }, after, previous);
  return after;
}

/** DELETE /roles/{id}: archive; refused with 409 while assigned. */
export async function archiveRole(w: Work, id: string): Promise<RoleView> {
  const em = w.em;
  const role = await lockChangeableRole(em, id);
  if (role.status === 'archived') return roleView(role);
  const holders = await em.count(Assignment, { roleId: role.id });
  if (holders > 0) throw new Conflict(`The role is assigned ${holders} time(s); replace those assignments first.`);
  role.status = 'archived';
  role.version += 1;
  role.updatedAt = w.now;
  await em.flush();
  const view = roleView(role);
  emit(w, 'role.archived', { type: 'role', id: role.id }, view, { status: 'active' });
  return view;
}

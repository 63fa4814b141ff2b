import type { EntityManager } from '@mikro-orm/postgresql';
import { LockMode } from '@mikro-orm/core';
import { hash } from '@node-rs/argon2';
import { changedFields, Conflict, findPage, newId, NotFound, ValidationError, type ListPage, type Reach, type FieldError, lockForTransaction, type Principal, type Work } from '@bop/shared';
import { Assignment, User } from './entities';
import { Role } from '../roles/entities';
import { Session } from '../sessions/entities';
import { ApiKey } from '../api-keys/entities';
import { RecoveryCode, MfaChallenge } from '../mfa/entities';
import { isOwnerGrant } from '../roles/permissions';
import { passwordProblem } from './passwords';
import { userView, type UserView } from './dto';
import { emit } from './events-store';

export interface AssignmentInput {
  roleId: string;
  reach: Reach;
}

/** The API views of users (their assignments and role names read in two queries). */
export async function userViews(w: Work, users: User[]): Promise<UserView[]> {
  return viewsOf(w.em, users);
}

async function viewsOf(em: EntityManager, users: User[]): Promise<UserView[]> {
  if (users.length === 0) return [];
  const assignments = await em.find(Assignment, { userId: { $in: users.map((u) => u.id) } }, { orderBy: { id: 'asc' } });
  const roles = await em.find(Role, { id: { $in: [...new Set(assignments.map((a) => a.roleId))] } });
  const rolesById = new Map(roles.map((r) => [r.id, r]));
  return users.map((u) =>
    userView(
      u,
      assignments.filter((a) => a.userId === u.id),
      rolesById,
    ),
  );
}

export async function userViewOf(w: Work, user: User): Promise<UserView> {
  return (await viewsOf(w.em, [user]))[0];
}

const viewOf = async (em: EntityManager, user: User): Promise<UserView> => (await viewsOf(em, [user]))[0];

/** The user with this email (any status), or 404. */
export async function userByEmail(w: Work, email: string): Promise<User> {
  const user = await w.em.findOne(User, { email: email.trim().toLowerCase() });
  if (!user) throw new NotFound('user with email', email);
  return user;
}

/** Every user, oldest first (ops CLI). */
export async function allUsers(w: Work): Promise<UserView[]> {
  return viewsOf(w.em, await w.em.find(User, {}, { orderBy: { id: 'asc' } }));
}

export async function getUser(w: Work, id: string): Promise<UserView> {
  const user = await w.em.findOne(User, { id });
  if (!user) throw new NotFound('user', id);
  return viewOf(w.em, user);
}

export interface UserFilter {
  status?: 'active' | 'deactivated';
  roleId?: string;
  email?: string;
  limit: number;
  cursor?: string;
  updatedSince?: string;
}

export async function listUsers(w: Work, q: UserFilter): Promise<ListPage<UserView>> {
  const em = w.em;
  const holders = q.roleId ? await em.find(Assignment, { roleId: q.roleId }, { fields: ['userId'] }) : null;
  const page = await findPage(em, User, [q.status && { status: q.status }, q.email && { email: q.email.trim().toLowerCase() }, holders && { id: { $in: [...new Set(holders.map((a) => a.userId))] } }], q);
  return { ...page, data: await viewsOf(em, page.data) };
}

/** Checks each assignment's role exists and is active (422 with `<path>[i].roleId` otherwise); locks the roles against archiving. */
export async function checkAssignments(w: Work, inputs: AssignmentInput[], path: string): Promise<Map<string, Role>> {
  const ids = [...new Set(inputs.map((a) => a.roleId))];
  const roles = ids.length === 0 ? [] : await w.em.find(Role, { id: { $in: ids } }, { lockMode: LockMode.PESSIMISTIC_READ });
  const byId = new Map(roles.map((r) => [r.id, r]));
  const errors: FieldError[] = [];
  inputs.forEach((a, i) => {
    const role = byId.get(a.roleId);
    if (!role) errors.push({ path: `${path}[${i}].roleId`, message: 'No such role.' });
    else if (role.status !== 'active') errors.push({ path: `${path}[${i}].roleId`, message: 'The role is archived.' });
  });
  if (errors.length > 0) throw new ValidationError(errors);
  return byId;
}

/** Refuses a change that would leave no active owner at Everyone. Call inside the transaction. */
export async function ensureAnotherOwner(w: Work, userId: string, detail: string): Promise<void> {
  const em = w.em;
  await lockForTransaction(em, 'identity.owners');
  // raw SQL (bench:sql identity.ensure-another-owner): 7,032 µs against 27,512 through the ORM (3.9×: the owner role, its
  // grants at Everyone and their active users in three queries, where one count(distinct) joins the three tables; the
  // entities hold ids, not relations, so the ORM cannot join them)
  const rows = await em.execute<Array<{ n: string }>>(
    `select count(distinct u.id) as n
       from "${w.schema}"."users" u
       join "${w.schema}"."assignments" a on a.user_id = u.id
       join "${w.schema}"."roles" r on r.id = a.role_id
      where r.key = 'owner' and u.status = 'active' and a.reach->>'type' = 'everyone' and u.id <> ?`,
    [userId],
  );
  if (Number(rows[0]?.n ?? 0) === 0) throw new Conflict(detail);
}

async function isActiveOwner(em: EntityManager, user: User): Promise<boolean> {
  if (user.status !== 'active') return false;
  const assignments = await em.find(Assignment, { userId: user.id });
  if (assignments.length === 0) return false;
  const roles = await em.find(Role, { id: { $in: assignments.map((a) => a.roleId) } });
  const keyOf = new Map(roles.map((r) => [r.id, r.key ?? null]));
  return assignments.some((a) => isOwnerGrant(keyOf.get(a.roleId) ?? null, a.reach));
}

async function lockUser(em: EntityManager, id: string): Promise<User> {
  const user = await em.findOne(User, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!user) throw new NotFound('user', id);
  return user;
}

export interface NewUser {
  email: string;
  name?: string | null;
  password?: string;
  employeeId?: string | null;
  assignments: AssignmentInput[];
}

/** Creates an active user with assignments (bootstrap, ops CLI, accepted invitations), as the unit's actor unless `actor` says otherwise. */
export async function insertUser(w: Work, input: NewUser, actor?: Principal): Promise<User> {
  const em = w.em;
  const email = input.email.trim().toLowerCase();
  if (input.password !== undefined) {
    const problem = passwordProblem(input.password);
    if (problem) throw new ValidationError([{ path: 'password', message: problem }]);
  }
  if (await em.findOne(User, { email })) throw new Conflict(`A user with email ${email} exists.`);
  if (input.employeeId && (await em.findOne(User, { employeeId: input.employeeId }))) {
    throw new Conflict(`Employee ${input.employeeId} is already linked to another user.`);
  }
  await checkAssignments(w, input.assignments, 'assignments');
  const now = w.now;
  const user = em.create(User, {
    id: newId('user'),
    email,
    name: input.name ?? null,
    locale: 'en',
    status: 'active',
    passwordHash: input.password !== undefined ? await hash(input.password) : null,
    employeeId: input.employeeId ?? null,
    createdAt: now,
    updatedAt: now,
    version: 1,
  });
  for (const a of input.assignments) {
    em.create(Assignment, { id: newId('assignment'), userId: user.id, roleId: a.roleId, reach: a.reach, createdAt: now });
  }
  await em.flush();
  emit(w, 'user.created', { type: 'user', id: user.id }, await viewOf(em, user), undefined, actor);
  return user;
}

export interface UserChanges {
  name?: string | null;
  locale?: string;
  employeeId?: string | null;
  status?: 'active' | 'deactivated';
}

/** PATCH /users/{id}: name, locale, linked employee; `status` active reactivates, deactivated deactivates (its route maps a linking race to 409). */
export async function updateUser(w: Work, id: string, changes: UserChanges): Promise<UserView> {
  const em = w.em;
  const user = await lockUser(em, id);
  w.checkVersion(user.version);
  if (changes.status === 'deactivated' && user.status === 'active') await endAccess(w, user);
  const before = await viewOf(em, user);
  if (changes.employeeId && changes.employeeId !== user.employeeId) {
    const other = await em.findOne(User, { employeeId: changes.employeeId, id: { $ne: user.id } });
    if (other) throw new Conflict(`Employee ${changes.employeeId} is already linked to another user.`);
  }
  const reactivated = changes.status === 'active' && user.status === 'deactivated';
  if (changes.name !== undefined) user.name = changes.name;
  if (changes.locale !== undefined) user.locale = changes.locale;
  if (changes.employeeId !== undefined) user.employeeId = changes.employeeId;
  if (reactivated) {
    user.status = 'active';
    user.deactivatedAt = null;
  }
  const previous = changedFields(before, { ...before, name: user.name ?? null, locale: user.locale, employeeId: user.employeeId ?? null, status: user.status });
  if (Object.keys(previous).length === 0) return before;
  user.version += 1;
  user.updatedAt = w.now;
  await em.flush();
  const after = await viewOf(em, user);
  emit(w, reactivated ? 'user.reactivated' : 'user.updated', { type: 'user', id: user.id }, after, previous);
  return after;
}

/** Deactivation: sign-in refused, sessions ended, personal keys revoked, record kept. Expects the locked, active user. */
async function endAccess(w: Work, user: User): Promise<void> {
  const em = w.em;
  if (await isActiveOwner(em, user)) await ensureAnotherOwner(w, user.id, 'This is the last active owner; make someone else owner first.');
  const now = w.now;
  const before = await viewOf(em, user);
  user.status = 'deactivated';
  user.deactivatedAt = now;
  user.version += 1;
  user.updatedAt = now;
  await em.nativeUpdate(Session, { userId: user.id, endedAt: null }, { endedAt: now, endReason: 'user_deactivated' });
  await em.nativeUpdate(MfaChallenge, { userId: user.id, usedAt: null }, { usedAt: now });
  const keys = await em.find(ApiKey, { userId: user.id, kind: 'personal', revokedAt: null });
  for (const key of keys) {
    key.revokedAt = now;
    emit(w, 'api_key.revoked', { type: 'api_key', id: key.id }, { id: key.id, kind: key.kind, userId: key.userId, prefix: key.prefix, revokedAt: now.toISOString() });
  }
  await em.flush();
  emit(w, 'user.deactivated', { type: 'user', id: user.id }, await viewOf(em, user), { status: before.status });
}

/** DELETE /users/{id}. Deactivating a deactivated user changes nothing. */
export async function deactivateUser(w: Work, id: string): Promise<UserView> {
  const user = await lockUser(w.em, id);
  if (user.status === 'active') await endAccess(w, user);
  return viewOf(w.em, user);
}

export interface EmployeeAccessEnded {
  /** users deactivated now */
  deactivated: string[];
  /** users left active: each is the last active owner */
  lastOwners: string[];
}

/**
 * Deactivates every active user linked to this employee as `DELETE /users/{id}` does (people: the
 * employee was terminated or archived). The last active owner is left active and answered, not
 * refused: the owner must hand over first (endAccess refuses before it changes anything, so the
 * unit's other users go on).
 */
export async function deactivateEmployeeUsers(w: Work, employeeId: string): Promise<EmployeeAccessEnded> {
  const users = await w.em.find(User, { employeeId, status: 'active' }, { orderBy: { id: 'asc' } });
  const ended: EmployeeAccessEnded = { deactivated: [], lastOwners: [] };
  for (const user of users) {
    try {
      const view = await deactivateUser(w, user.id);
      if (view.status === 'deactivated') ended.deactivated.push(user.id);
    } catch (err) {
      // endAccess refuses only the last active owner with a Conflict
      if (!(err instanceof Conflict)) throw err;
      ended.lastOwners.push(user.id);
    }
  }
  return ended;
}

/** POST /users/{id}:reset-mfa: removes the second factor and its recovery codes; the person enrols again. */
export async function resetMfa(w: Work, id: string): Promise<UserView> {
  const em = w.em;
  const user = await lockUser(em, id);
  if (!user.totpSecret && !user.totpPendingSecret) return viewOf(em, user);
  user.totpSecret = null;
  user.totpPendingSecret = null;
  user.totpLastStep = null;
  user.mfaEnrolledAt = null;
  user.version += 1;
  user.updatedAt = w.now;
  await em.nativeDelete(RecoveryCode, { userId: user.id });
  await em.flush();
  const view = await viewOf(em, user);
  emit(w, 'user.mfa_reset', { type: 'user', id: user.id }, view);
  return view;
}

/** PUT /users/{id}/assignments: replaces them all; the last active owner keeps an owner assignment at Everyone. */
export async function replaceAssignments(w: Work, id: string, inputs: AssignmentInput[]): Promise<UserView> {
  const em = w.em;
  const user = await lockUser(em, id);
  w.checkVersion(user.version);
  const roles = await checkAssignments(w, inputs, 'assignments');
  const keepsOwner = inputs.some((a) => isOwnerGrant(roles.get(a.roleId)?.key ?? null, a.reach));
  if (!keepsOwner && (await isActiveOwner(em, user))) {
    await ensureAnotherOwner(w, user.id, 'This is the last active owner; keep an owner assignment at Everyone.');
  }
  const before = await viewOf(em, user);
  await em.nativeDelete(Assignment, { userId: user.id });
  const now = w.now;
  for (const a of inputs) em.create(Assignment, { id: newId('assignment'), userId: user.id, roleId: a.roleId, reach: a.reach, createdAt: now });
  user.version += 1;
  user.updatedAt = now;
  await em.flush();
  const after = await viewOf(em, user);
  emit(w, 'user.assignments_replaced', { type: 'user', id: user.id }, after, { assignments: before.assignments });
  return after;
}

import type { EntityManager } from '@mikro-orm/postgresql';
import { Unauthorized, type Principal, type Work } from '@bop/shared';
import { ApiKey } from '../api-keys/entities';
import { Session } from '../sessions/entities';
import { User } from '../users/entities';
import { idleExpiresAt } from '../sessions/lifetime';
import { permissionsOf } from '../roles/access-store';
import { mfaEnrollmentRequired } from '../company-settings/store';
import { userViewOf, userViews } from '../users/store';
import type { MeView, SessionView } from './dto';

/** The person behind a principal (sessions and personal keys), or 401 when there is none. */
export async function callingUser(w: Work, principal: Principal): Promise<User> {
  const userId = principal.kind === 'user' ? (principal.userId ?? principal.id) : null;
  const user = userId ? await w.em.findOne(User, { id: userId }) : null;
  if (!user || user.status !== 'active') throw new Unauthorized('Only a signed-in person can call this.');
  return user;
}

async function sessionDetails(em: EntityManager, sessionId: string | undefined, idleMs: number) {
  const session = sessionId ? await em.findOne(Session, { id: sessionId }) : null;
  if (!session) return null;
  return { id: session.id, expiresAt: session.expiresAt.toISOString(), idleExpiresAt: idleExpiresAt(session, idleMs).toISOString() };
}

/** GET /me: describes the calling key or session. */
export async function describeCaller(w: Work, principal: Principal, idleMs: number): Promise<MeView> {
  const em = w.em;
  // the kit lets anonymous callers reach public rows only, and GET /me is not one
  if (principal.kind === 'anonymous') throw new Unauthorized();
  const key = principal.keyId ? await em.findOne(ApiKey, { id: principal.keyId }) : null;
  const base: MeView = {
    kind: principal.kind,
    via: principal.via as MeView['via'],
    user: null,
    key: key ? { id: key.id, prefix: key.prefix, name: key.name, expiresAt: key.expiresAt?.toISOString() ?? null } : null,
    session: null,
    integrationId: principal.integrationId ?? null,
    scopes: principal.kind === 'integration' ? (principal.scopes ?? []) : null,
  };
  if (principal.kind !== 'user') return base;
  const user = await callingUser(w, principal);
  return { ...base, user: await userViewOf(w, user), session: await sessionDetails(em, principal.sessionId, idleMs) };
}

/** GET /auth/session: the person's user, roles, permissions with reach and assignments. */
export async function describeSession(w: Work, principal: Principal, idleMs: number): Promise<SessionView> {
  const em = w.em;
  const user = await callingUser(w, principal);
  const { permissions, roles } = await permissionsOf(w, user.id);
  const [view] = await userViews(w, [user]);
  return {
    user: view,
    roles: roles.map((r) => ({ id: r.id, key: r.key ?? null, name: r.name })),
    permissions,
    assignments: view.assignments,
    mfaEnrollmentRequired: await mfaEnrollmentRequired(w, user),
    session: await sessionDetails(em, principal.sessionId, idleMs),
  };
}

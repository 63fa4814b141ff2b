import { lockForTransaction, NotFound, type Work } from '@bop/shared';
import { Role } from '../roles/entities';
import { User } from '../users/entities';
import { newPassword } from '../sessions/secrets';
import { syncBuiltInRoles } from '../roles/store';
import { insertUser, userViewOf } from '../users/store';
import type { UserView } from '../users/dto';

async function ownerRoleId(w: Work): Promise<string> {
  const owner = await w.em.findOne(Role, { key: 'owner' });
  if (!owner) throw new NotFound('role', 'owner');
  return owner.id;
}

/**
 * An owner at Everyone (ops CLI `createAdmin`); refuses an email in use with 409. The built-in roles
 * must exist: the ops CLI syncs them first, in a unit of its own (syncBuiltInRoles).
 */
export async function createAdmin(w: Work, input: { email: string; password: string; name?: string }): Promise<UserView> {
  const roleId = await ownerRoleId(w);
  const user = await insertUser(w, { email: input.email, name: input.name ?? null, password: input.password, assignments: [{ roleId, reach: { type: 'everyone' } }] });
  return userViewOf(w, user);
}

/**
 * First start: built-in roles, and when no user exists the owner from BOOTSTRAP_ADMIN_*.
 * An advisory lock makes concurrent starts create them once. Returns the generated password, if any.
 */
export async function bootstrap(w: Work, admin: { email: string; password?: string }): Promise<{ created: UserView | null; generatedPassword: string | null }> {
  await lockForTransaction(w.em, 'identity.bootstrap');
  await syncBuiltInRoles(w);
  if ((await w.em.count(User, {})) > 0) return { created: null, generatedPassword: null };
  const generatedPassword = admin.password ? null : newPassword();
  const roleId = await ownerRoleId(w);
  const user = await insertUser(w, { email: admin.email, name: 'Owner', password: admin.password ?? generatedPassword!, assignments: [{ roleId, reach: { type: 'everyone' } }] });
  return { created: await userViewOf(w, user), generatedPassword };
}

import type { EntityManager } from '@mikro-orm/postgresql';
import { lockForTransaction, NotFound } from '@bop/shared';
import { Role } from '../roles/entities';
import { User } from '../users/entities';
import { newPassword } from '../sessions/secrets';
import { syncBuiltInRoles } from '../roles/store';
import { insertUser, userViewOf } from '../users/store';
import type { UserView } from '../users/dto';

async function ownerRoleId(em: EntityManager): Promise<string> {
  const owner = await em.findOne(Role, { key: 'owner' });
  if (!owner) throw new NotFound('role', 'owner');
  return owner.id;
}

/**
 * An owner at Everyone (ops CLI `createAdmin`); refuses an email in use with 409. Works before the
 * service ever started: the built-in roles are synced first (idempotent).
 */
export async function createAdmin(em: EntityManager, input: { email: string; password: string; name?: string }): Promise<UserView> {
  await em.transactional((tem) => syncBuiltInRoles(tem));
  return em.transactional(async (tem) => {
    const roleId = await ownerRoleId(tem);
    const user = await insertUser(tem, { email: input.email, name: input.name ?? null, password: input.password, assignments: [{ roleId, reach: { type: 'everyone' } }] }, null);
    return userViewOf(tem, user);
  });
}

/**
 * First start: built-in roles, and when no user exists the owner from BOOTSTRAP_ADMIN_*.
 * An advisory lock makes concurrent starts create them once. Returns the generated password, if any.
 */
export async function bootstrap(em: EntityManager, admin: { email: string; password?: string }): Promise<{ created: UserView | null; generatedPassword: string | null }> {
  return em.transactional(async (tem) => {
    await lockForTransaction(tem, 'identity.bootstrap');
    await syncBuiltInRoles(tem);
    if ((await tem.count(User, {})) > 0) return { created: null, generatedPassword: null };
    const generatedPassword = admin.password ? null : newPassword();
    const roleId = await ownerRoleId(tem);
    const user = await insertUser(
      tem,
      { email: admin.email, name: 'Owner', password: admin.password ?? generatedPassword!, assignments: [{ roleId, reach: { type: 'everyone' } }] },
      null,
    );
    return { created: await userViewOf(tem, user), generatedPassword };
  });
}

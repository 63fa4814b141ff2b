import type { EntityManager } from '@mikro-orm/postgresql';
import { listFeatures, setFeature } from '../features/store';
import { createAdmin } from '../bootstrap/store';
import { createPersonalKey as createKeyFor } from '../api-keys/store';
import { acceptInvitation } from '../invitations/store';
import { allUsers, userByEmail } from './store';

/**
 * The ops CLI's entry points. Each takes any EntityManager (forked here, so the global one is fine)
 * and runs the same actions as the routes; events are recorded with the system actor.
 */
export const identityAdmin = {
  listFeatures: (em: EntityManager) => listFeatures(em.fork()),

  setFeature: (em: EntityManager, key: string, enabled: boolean) => setFeature(em.fork(), key, enabled, null),

  /** works before the service ever started: the built-in roles are synced first (idempotent) */
  createAdmin: (em: EntityManager, input: { email: string; password: string; name?: string }) => createAdmin(em.fork(), input),

  async createPersonalKey(em: EntityManager, input: { email: string; name: string; expiresAt?: string }): Promise<{ key: string; id: string }> {
    const fork = em.fork();
    const user = await userByEmail(fork, input.email);
    const { key, id } = await createKeyFor(fork, { userId: user.id, name: input.name, expiresAt: input.expiresAt }, null);
    return { key, id };
  },

  listUsers: (em: EntityManager) => allUsers(em.fork()),

  acceptInvitation: (em: EntityManager, input: { token: string; password: string; name?: string }) => acceptInvitation(em.fork(), input),
};

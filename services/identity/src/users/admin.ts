import type { ServiceRuntime } from '@bop/shared';
import { listFeatures, setFeature } from '../features/store';
import { createAdmin } from '../bootstrap/store';
import { syncBuiltInRoles } from '../roles/store';
import { createPersonalKey as createKeyFor } from '../api-keys/store';
import { acceptInvitation } from '../invitations/store';
import { allUsers, userByEmail } from './store';

/** Identity's runtime (a started service's, or the ops CLI's `withServiceRuntime`): its units of work. */
type Units = Pick<ServiceRuntime, 'read' | 'write'>;

/**
 * The ops CLI's entry points. Each runs the same actions as the routes in units of the service's
 * runtime (`runtime.write`/`read`); events are recorded with the system actor.
 */
export const identityAdmin = {
  listFeatures: (svc: Units) => svc.read((w) => listFeatures(w)),

  setFeature: (svc: Units, key: string, enabled: boolean) => svc.write((w) => setFeature(w, key, enabled)),

  /** works before the service ever started: the built-in roles are synced first (idempotent, committed on their own) */
  async createAdmin(svc: Units, input: { email: string; password: string; name?: string }) {
    await svc.write((w) => syncBuiltInRoles(w));
    return svc.write((w) => createAdmin(w, input));
  },

  createPersonalKey: (svc: Units, input: { email: string; name: string; expiresAt?: string }): Promise<{ key: string; id: string }> =>
    svc.write(async (w) => {
      const user = await userByEmail(w, input.email);
      const { key, id } = await createKeyFor(w, { userId: user.id, name: input.name, expiresAt: input.expiresAt });
      return { key, id };
    }),

  listUsers: (svc: Units) => svc.read((w) => allUsers(w)),

  acceptInvitation: (svc: Units, input: { token: string; password: string; name?: string }) => svc.write((w) => acceptInvitation(w, input)),
};

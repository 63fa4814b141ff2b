import type { Reach, Work } from '@bop/shared';
import { Assignment } from '../users/entities';
import { Role } from './entities';
import { effectivePermissions } from './permissions';

/** A person's permissions with reach: the union over their assignments of active roles. */
export async function permissionsOf(w: Work, userId: string): Promise<{ permissions: Record<string, Reach[]>; roles: Role[]; assignments: Assignment[] }> {
  const assignments = await w.em.find(Assignment, { userId }, { orderBy: { id: 'asc' } });
  const roles = assignments.length === 0 ? [] : await w.em.find(Role, { id: { $in: [...new Set(assignments.map((a) => a.roleId))] }, status: 'active' });
  const byId = new Map(roles.map((r) => [r.id, r]));
  const grants = assignments.flatMap((a) => {
    const role = byId.get(a.roleId);
    return role ? [{ permissions: role.permissions, reach: a.reach }] : [];
  });
  return { permissions: effectivePermissions(grants), roles, assignments };
}

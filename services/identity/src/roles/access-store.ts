import type { EntityManager } from '@mikro-orm/postgresql';
import type { Reach } from '@bop/shared';
import { Assignment, type User } from '../users/entities';
import { CompanySettings } from '../company-settings/entities';
import { Role } from './entities';
import { effectivePermissions } from './permissions';

/** A person's permissions with reach: the union over their assignments of active roles. */
export async function permissionsOf(em: EntityManager, userId: string): Promise<{ permissions: Record<string, Reach[]>; roles: Role[]; assignments: Assignment[] }> {
  const assignments = await em.find(Assignment, { userId }, { orderBy: { id: 'asc' } });
  const roles = assignments.length === 0 ? [] : await em.find(Role, { id: { $in: [...new Set(assignments.map((a) => a.roleId))] }, status: 'active' });
  const byId = new Map(roles.map((r) => [r.id, r]));
  const grants = assignments.flatMap((a) => {
    const role = byId.get(a.roleId);
    return role ? [{ permissions: role.permissions, reach: a.reach }] : [];
  });
  return { permissions: effectivePermissions(grants), roles, assignments };
}

export async function companySettings(em: EntityManager): Promise<CompanySettings> {
  const settings = await em.findOne(CompanySettings, { id: 1 });
  if (!settings) throw new Error('identity: company settings row is missing (migration not applied?)');
  return settings;
}

/** spec: Authentication rule 8, the company requires two-factor and the person has not enrolled. */
export async function mfaEnrollmentRequired(em: EntityManager, user: User): Promise<boolean> {
  if (user.totpSecret) return false;
  return (await companySettings(em)).requireTwoFactor;
}

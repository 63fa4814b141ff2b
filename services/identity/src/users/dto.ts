import type { z } from 'zod';
import type { User as UserSchema } from '@bop/contracts';
import type { Assignment, User } from './entities';
import type { Role } from '../roles/entities';

export type UserView = z.output<typeof UserSchema>;

const iso = (d: Date) => d.toISOString();
const isoOrNull = (d: Date | null | undefined) => (d ? d.toISOString() : null);

export function userView(user: User, assignments: Assignment[], rolesById: ReadonlyMap<string, Role>): UserView {
  return {
    id: user.id,
    email: user.email,
    name: user.name ?? null,
    locale: user.locale,
    status: user.status,
    employeeId: user.employeeId ?? null,
    twoFactor: { enabled: !!user.totpSecret, enrolledAt: isoOrNull(user.mfaEnrolledAt) },
    assignments: assignments.map((a) => ({ id: a.id, roleId: a.roleId, roleName: rolesById.get(a.roleId)?.name ?? '', reach: a.reach })),
    lastSignInAt: isoOrNull(user.lastSignInAt),
    createdAt: iso(user.createdAt),
    updatedAt: iso(user.updatedAt),
    version: user.version,
  };
}

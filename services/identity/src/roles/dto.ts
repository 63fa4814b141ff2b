import type { z } from 'zod';
import type { Role as RoleSchema } from '@bop/contracts';
import type { Role } from './entities';

export type RoleView = z.output<typeof RoleSchema>;

const iso = (d: Date) => d.toISOString();

export function roleView(role: Role): RoleView {
  return {
    id: role.id,
    key: role.key ?? null,
    name: role.name,
    description: role.description ?? null,
    permissions: [...role.permissions],
    builtIn: role.builtIn,
    status: role.status,
    createdAt: iso(role.createdAt),
    updatedAt: iso(role.updatedAt),
    version: role.version,
  };
}

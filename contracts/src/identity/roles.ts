import { z } from '../zod';
import { ListQuery, Timestamp } from '../common';
import { permissionNames } from '../catalogue';

const known = new Set(permissionNames);
export const PermissionName = z.string().refine((name) => known.has(name), { message: 'Not a permission of the catalogue (GET /permissions).' });

export const Role = z
  .object({
    id: z.string().openapi({ example: 'rol_01JD3Z6C8X0Q5Y6T9M2N4P7R1S' }),
    key: z.string().nullable().openapi({ description: 'owner, manager or employee for built-in roles' }),
    name: z.string(),
    description: z.string().nullable(),
    permissions: z.array(z.string()),
    builtIn: z.boolean(),
    status: z.enum(['active', 'archived']),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    version: z.number().int(),
  })
  .openapi('Role');

export const RoleListQuery = ListQuery.extend({ status: z.enum(['active', 'archived']).optional(), updatedSince: Timestamp.optional() });

export const RoleCreate = z.strictObject({
  name: z.string().trim().min(1).max(100),
  description: z.string().max(1000).nullable().optional(),
  permissions: z.array(PermissionName).max(500),
});

export const RolePatch = z.strictObject({
  name: z.string().trim().min(1).max(100).optional(),
  description: z.string().max(1000).nullable().optional(),
  permissions: z.array(PermissionName).max(500).optional(),
});

export const Permission = z
  .object({
    name: z.string(),
    area: z.string(),
    meaning: z.string(),
    reaches: z.array(z.enum(['everyone', 'org_units', 'locations', 'employee_set'])),
  })
  .openapi('Permission');

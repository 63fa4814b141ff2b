import { z } from '../zod';
import { ListQuery, Timestamp } from '../common';
import { Assignment, AssignmentInput } from './reach';

export const UserStatus = z.enum(['active', 'deactivated']);
export const Locale = z
  .string()
  .max(35)
  .regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'Use a language tag such as en or en-US.')
  .openapi({ example: 'en-US' });
export const EmployeeRef = z.string().regex(/^emp_[A-Za-z0-9]{1,60}$/, 'Use an employee id (emp_…).');
export const Email = z
  .string()
  .trim()
  .max(254)
  .pipe(z.email())
  .transform((e) => e.toLowerCase());

export const User = z
  .object({
    id: z.string().openapi({ example: 'usr_01JD3Z6C8X0Q5Y6T9M2N4P7R1S' }),
    email: z.string(),
    name: z.string().nullable(),
    locale: z.string(),
    status: UserStatus,
    employeeId: z.string().nullable(),
    twoFactor: z.object({ enabled: z.boolean(), enrolledAt: Timestamp.nullable() }),
    assignments: z.array(Assignment),
    lastSignInAt: Timestamp.nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    version: z.number().int(),
  })
  .openapi('User');

export const UserListQuery = ListQuery.extend({
  status: UserStatus.optional(),
  roleId: z.string().min(1).max(64).optional(),
  email: z.string().min(1).max(254).optional(),
  updatedSince: Timestamp.optional(),
});

export const UserPatch = z.strictObject({
  name: z.string().trim().min(1).max(200).nullable().optional(),
  locale: Locale.optional(),
  employeeId: EmployeeRef.nullable().optional(),
  status: UserStatus.optional(),
});

export const AssignmentsPut = z.strictObject({
  assignments: z.array(AssignmentInput).max(100),
});

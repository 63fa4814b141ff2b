import { z } from '../zod';

const reachIds = z.array(z.string().min(1).max(64)).min(1).max(1000);

/** Where a role's permissions apply (spec: Authentication rule 4). */
export const Reach = z
  .discriminatedUnion('type', [
    z.strictObject({ type: z.literal('everyone') }),
    z.strictObject({ type: z.literal('org_units'), ids: reachIds }),
    z.strictObject({ type: z.literal('locations'), ids: reachIds }),
    z.strictObject({ type: z.literal('employee_set'), ids: reachIds }),
  ])
  .openapi('Reach');

export const AssignmentInput = z.strictObject({
  roleId: z.string().min(1).max(64),
  reach: Reach,
});

export const Assignment = z
  .object({
    id: z.string(),
    roleId: z.string(),
    roleName: z.string(),
    reach: Reach,
  })
  .openapi('Assignment');

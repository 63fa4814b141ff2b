import { z } from '../zod';
import { ListQuery, Timestamp } from '../common';
import { Reach, AssignmentInput } from './reach';
import { Email, EmployeeRef } from './users';
import { NewPassword } from './auth';

export const InvitationStatus = z.enum(['pending', 'accepted', 'revoked', 'expired']);

export const Invitation = z
  .object({
    id: z.string().openapi({ example: 'inv_01JD3Z6C8X0Q5Y6T9M2N4P7R1S' }),
    email: z.string(),
    name: z.string().nullable(),
    assignments: z.array(z.object({ roleId: z.string(), reach: Reach })),
    employeeId: z.string().nullable(),
    status: InvitationStatus,
    expiresAt: Timestamp,
    invitedBy: z.string().nullable(),
    acceptedUserId: z.string().nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi('Invitation');

export const InvitationListQuery = ListQuery.extend({ status: InvitationStatus.optional(), updatedSince: Timestamp.optional() });

export const InvitationCreate = z.strictObject({
  email: Email,
  name: z.string().trim().min(1).max(200).optional(),
  assignments: z.array(AssignmentInput).max(100),
  employeeId: EmployeeRef.optional(),
});

export const InvitationAccept = z.strictObject({
  token: z.string().min(1).max(200).openapi({ description: 'the token from the invitation email' }),
  password: NewPassword,
  name: z.string().trim().min(1).max(200).optional().openapi({ description: 'replaces the name the invitation was sent with' }),
});

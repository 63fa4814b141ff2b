import type { z } from 'zod';
import type { Invitation as InvitationSchema } from '@bop/contracts';
import type { Invitation } from './entities';
import { invitationStatus } from './invitation-status';

export type InvitationView = z.output<typeof InvitationSchema>;

const iso = (d: Date) => d.toISOString();

export function invitationView(inv: Invitation, now: Date): InvitationView {
  return {
    id: inv.id,
    email: inv.email,
    name: inv.name ?? null,
    assignments: inv.assignments,
    employeeId: inv.employeeId ?? null,
    status: invitationStatus(inv.status, inv.expiresAt, now),
    expiresAt: iso(inv.expiresAt),
    invitedBy: inv.invitedBy ?? null,
    acceptedUserId: inv.acceptedUserId ?? null,
    createdAt: iso(inv.createdAt),
    updatedAt: iso(inv.updatedAt),
  };
}

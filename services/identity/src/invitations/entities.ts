import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { Reach } from '@bop/shared';

export const Invitation = defineEntity({
  name: 'Invitation',
  tableName: 'invitations',
  properties: {
    id: p.string().primary(),
    email: p.string(),
    name: p.string().nullable(),
    assignments: p.json<Array<{ roleId: string; reach: Reach }>>(),
    employeeId: p.string().nullable(),
    /** stored states; `expired` is derived from expiresAt when read */
    status: p.string().$type<'pending' | 'accepted' | 'revoked'>(),
    tokenHash: p.string(),
    expiresAt: p.datetime(),
    invitedBy: p.string().nullable(),
    acceptedUserId: p.string().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type Invitation = InferEntity<typeof Invitation>;

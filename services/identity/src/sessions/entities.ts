import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const Session = defineEntity({
  name: 'Session',
  tableName: 'sessions',
  properties: {
    id: p.string().primary(),
    userId: p.string(),
    /** sha256 of the token; the token itself is never stored */
    tokenHash: p.string(),
    createdAt: p.datetime(),
    lastSeenAt: p.datetime(),
    /** absolute end */
    expiresAt: p.datetime(),
    endedAt: p.datetime().nullable(),
    endReason: p.string().nullable(),
    ip: p.string().nullable(),
  },
});
export type Session = InferEntity<typeof Session>;

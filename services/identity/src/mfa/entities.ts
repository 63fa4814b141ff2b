import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** A sign-in waiting for its second factor (the `mfaToken` of a 401 `mfa_required`). */
export const MfaChallenge = defineEntity({
  name: 'MfaChallenge',
  tableName: 'mfa_challenges',
  properties: {
    id: p.string().primary(),
    userId: p.string(),
    tokenHash: p.string(),
    attempts: p.integer(),
    expiresAt: p.datetime(),
    usedAt: p.datetime().nullable(),
    ip: p.string().nullable(),
    createdAt: p.datetime(),
  },
});
export type MfaChallenge = InferEntity<typeof MfaChallenge>;

export const RecoveryCode = defineEntity({
  name: 'RecoveryCode',
  tableName: 'mfa_recovery_codes',
  properties: {
    id: p.string().primary(),
    userId: p.string(),
    codeHash: p.string(),
    usedAt: p.datetime().nullable(),
    createdAt: p.datetime(),
  },
});
export type RecoveryCode = InferEntity<typeof RecoveryCode>;

import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const RecoveryCode = defineEntity({
  name: 'RecoveryCode',
  schema: 'identity',
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

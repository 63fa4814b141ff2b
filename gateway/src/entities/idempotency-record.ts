import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** One `Idempotency-Key` of one caller: the request it was first used with and, once answered, the answer. */
export const IdempotencyRecord = defineEntity({
  name: 'IdempotencyRecord',
  schema: 'gateway',
  tableName: 'idempotency_keys',
  properties: {
    /** principal id, or `ip:<address>` on public rows */
    scope: p.string().primary(),
    key: p.string().primary(),
    method: p.string(),
    path: p.string(),
    bodyHash: p.string(),
    /** in_progress | completed */
    state: p.string(),
    status: p.integer().nullable(),
    headers: p.json<Record<string, string>>().nullable(),
    body: p.blob().nullable(),
    createdAt: p.datetime(),
    expiresAt: p.datetime(),
  },
});
export type IdempotencyRecord = InferEntity<typeof IdempotencyRecord>;

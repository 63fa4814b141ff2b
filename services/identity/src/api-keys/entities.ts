import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const ApiKey = defineEntity({
  name: 'ApiKey',
  tableName: 'api_keys',
  properties: {
    id: p.string().primary(),
    kind: p.string().$type<'personal' | 'integration'>(),
    userId: p.string().nullable(),
    integrationId: p.string().nullable(),
    name: p.string(),
    prefix: p.string(),
    /** sha256 of the key; the key itself is never stored */
    keyHash: p.string(),
    scopes: p.json<string[]>().nullable(),
    createdAt: p.datetime(),
    expiresAt: p.datetime().nullable(),
    lastUsedAt: p.datetime().nullable(),
    /** refused from this moment on (may lie in the future during a rotation grace period) */
    revokedAt: p.datetime().nullable(),
  },
});
export type ApiKey = InferEntity<typeof ApiKey>;

/** Whether an integration's keys are accepted (spec: a paused integration's keys are refused). */
export const IntegrationState = defineEntity({
  name: 'IntegrationState',
  tableName: 'integration_states',
  properties: {
    integrationId: p.string().primary(),
    paused: p.boolean(),
    updatedAt: p.datetime(),
  },
});
export type IntegrationState = InferEntity<typeof IntegrationState>;

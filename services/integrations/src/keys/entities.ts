import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** What identity answered when it minted a key (never the value): for the keys list and rotation. */
export const IntegrationKey = defineEntity({
  name: 'IntegrationKey',
  tableName: 'integration_keys',
  properties: {
    id: p.string().primary(),
    integrationId: p.string(),
    prefix: p.string(),
    scopes: p.json<string[]>(),
    createdAt: p.datetime(),
    expiresAt: p.datetime().nullable(),
    /** when identity stops accepting it; in the future while a rotation's grace lasts */
    revokedAt: p.datetime().nullable(),
  },
});
export type IntegrationKey = InferEntity<typeof IntegrationKey>;

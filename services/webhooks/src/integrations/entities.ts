import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** What this service knows of an integration: its scopes, signing secret and paused flag. */
export const IntegrationState = defineEntity({
  name: 'IntegrationState',
  tableName: 'integrations',
  properties: {
    integrationId: p.string().primary(),
    paused: p.boolean(),
    scopes: p.json<string[]>(),
    secret: p.string().nullable(),
    previousSecret: p.string().nullable(),
    previousSecretUntil: p.datetime().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type IntegrationState = InferEntity<typeof IntegrationState>;

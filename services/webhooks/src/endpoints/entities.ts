import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** A webhook endpoint: standalone (POST /webhook-endpoints) or declared by an integration's manifest. */
export const Endpoint = defineEntity({
  name: 'Endpoint',
  tableName: 'endpoints',
  properties: {
    id: p.string().primary(),
    url: p.string(),
    events: p.json<string[]>(),
    description: p.string().nullable(),
    status: p.string(),
    disabledReason: p.string().nullable(),
    integrationId: p.string().nullable(),
    /** standalone endpoints only; an integration's endpoints sign with the integration's secret */
    secret: p.string().nullable(),
    previousSecret: p.string().nullable(),
    previousSecretUntil: p.datetime().nullable(),
    consecutiveFailures: p.integer(),
    version: p.integer(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type Endpoint = InferEntity<typeof Endpoint>;

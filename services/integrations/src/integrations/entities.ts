import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { IntegrationManifest } from '@bop/contracts';
import type { ConfigValues } from './config-values';

export const Integration = defineEntity({
  name: 'Integration',
  tableName: 'integrations',
  properties: {
    id: p.string().primary(),
    name: p.string(),
    description: p.string(),
    status: p.string(),
    manifest: p.json<IntegrationManifest>(),
    /** values by declared key; secrets too (they are masked on every read and never put in events) */
    config: p.json<ConfigValues>(),
    /** the manifest's interval, or the service default when it was stored */
    heartbeatIntervalSeconds: p.integer(),
    reportedHealth: p.string().nullable(),
    healthMessage: p.string().nullable(),
    lastHeartbeatAt: p.datetime().nullable(),
    /** a signing secret was handed to the webhooks service (it is needed only the first time) */
    hasWebhookSecret: p.boolean(),
    pausedAt: p.datetime().nullable(),
    version: p.integer(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type Integration = InferEntity<typeof Integration>;

import { z } from '../zod';
import { ListQuery, Timestamp } from '../common';
import { ConfigValues, IntegrationManifest } from './manifest';

export const IntegrationStatus = z.enum(['active', 'paused']);

/**
 * Health from heartbeats: the last reported `ok` / `warning` / `error`; `silent` when none came within
 * three heartbeat intervals; `unknown` before the first heartbeat.
 */
export const IntegrationHealth = z.enum(['unknown', 'ok', 'warning', 'error', 'silent']);

/** Secret config values read as `••••` plus their last 4 characters (only when at least 12 long), never the value. */
export const MASK = '••••';

export const Integration = z
  .object({
    id: z.string().openapi({ example: 'int_01JD3Z6C8X0Q5Y6T9M2N4P7R1S' }),
    name: z.string(),
    description: z.string(),
    status: IntegrationStatus,
    manifest: IntegrationManifest,
    config: ConfigValues.openapi({ description: 'secret values masked' }),
    missingConfig: z.array(z.string()).openapi({ description: 'required config keys without a value (after a manifest change)' }),
    health: IntegrationHealth,
    healthMessage: z.string().nullable(),
    lastHeartbeatAt: Timestamp.nullable(),
    heartbeatIntervalSeconds: z.number().int(),
    pausedAt: Timestamp.nullable(),
    version: z.number().int(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi('Integration');
export type Integration = z.output<typeof Integration>;

/** An API key of the integration (never its value). `grace`: rotated out, works until `revokedAt`. */
export const IntegrationKey = z
  .object({
    id: z.string().openapi({ example: 'key_01JD3Z6C8X0Q5Y6T9M2N4P7R1S' }),
    prefix: z.string(),
    scopes: z.array(z.string()),
    status: z.enum(['current', 'grace', 'revoked']),
    createdAt: Timestamp,
    expiresAt: Timestamp.nullable(),
    revokedAt: Timestamp.nullable().openapi({ description: 'when the key stops (or stopped) working' }),
  })
  .openapi('IntegrationKey');

export const IntegrationWebhookEndpoint = z
  .object({
    id: z.string(),
    url: z.string(),
    events: z.array(z.string()),
    status: z.string(),
    pendingDeliveries: z.number().int().optional(),
    failedDeliveries: z.number().int().optional(),
  })
  .openapi('IntegrationWebhookEndpoint');

export const IntegrationDetail = Integration.extend({
  keys: z.array(IntegrationKey),
  webhookEndpoints: z
    .array(IntegrationWebhookEndpoint)
    .nullable()
    .openapi({ description: 'null when the webhooks service could not be asked just now' }),
}).openapi('IntegrationDetail');
export type IntegrationDetail = z.output<typeof IntegrationDetail>;

export const IntegrationRegister = z
  .strictObject({
    manifest: IntegrationManifest,
    config: ConfigValues.optional(),
  })
  .openapi('IntegrationRegister');

export const IntegrationRegistered = z
  .object({
    integration: IntegrationDetail,
    apiKey: z.string().openapi({ description: 'the integration key, shown once' }),
    webhookSecret: z.string().nullable().openapi({ description: 'signing secret of its webhook endpoints, shown once; null without webhooks' }),
  })
  .openapi('IntegrationRegistered');

export const IntegrationManifestReplaced = z
  .object({
    integration: IntegrationDetail,
    apiKey: z.string().nullable().openapi({ description: 'a new key with the new scopes, shown once, when the scopes changed; null otherwise' }),
    webhookSecret: z.string().nullable().openapi({ description: 'shown once when the manifest declares webhooks for the first time; null otherwise' }),
  })
  .openapi('IntegrationManifestReplaced');

export const GRACE_MINUTES_MAX = 10_080;

export const KeyRotate = z
  .strictObject({
    graceMinutes: z
      .number()
      .int()
      .min(0)
      .max(GRACE_MINUTES_MAX)
      .default(60)
      .openapi({ description: 'how long earlier keys keep working (0 to 10080, default 60)' }),
  })
  .openapi('IntegrationKeyRotate');

export const KeyRotated = z
  .object({
    integration: Integration,
    apiKey: z.string().openapi({ description: 'the new key, shown once' }),
    key: IntegrationKey,
    keys: z.array(IntegrationKey),
  })
  .openapi('IntegrationKeyRotated');

export const IntegrationListQuery = ListQuery.extend({
  status: IntegrationStatus.optional(),
  updatedSince: Timestamp.optional(),
});

/** Internal event types the integrations service records (never with secrets or key values). */
export const integrationEventTypes = [
  'integrations.integration.registered',
  'integrations.integration.updated',
  'integrations.integration.paused',
  'integrations.integration.resumed',
  'integrations.integration.deleted',
  'integrations.integration.key_rotated',
] as const;
export type IntegrationEventType = (typeof integrationEventTypes)[number];

import { z } from '../zod';

/** Config keys: letters, digits, `_`, `.`, `-`; starting with a letter. */
export const ConfigKey = z
  .string()
  .regex(/^[A-Za-z][A-Za-z0-9_.-]{0,63}$/, 'Must start with a letter and use only letters, digits, `_`, `.` and `-` (at most 64).');

/** One config field a manifest declares; `secret` values are masked whenever they are read. */
export const ConfigFieldDeclaration = z
  .strictObject({
    key: ConfigKey,
    label: z.string().trim().min(1).max(200).optional(),
    secret: z.boolean(),
    required: z.boolean().optional(),
  })
  .openapi('IntegrationConfigField');

/** An endpoint the integration receives events at (spec: Events → Subscribing). */
export const WebhookDeclaration = z
  .strictObject({
    url: z.url({ protocol: /^https?$/, error: 'Must be an http or https URL.' }).max(2000),
    events: z
      .array(z.string().min(1).max(100))
      .min(1)
      .max(200)
      .openapi({ description: 'event types its scopes cover, or `["*"]` for every event they cover' }),
  })
  .openapi('IntegrationWebhook');

/** `1`, `1.2`, `1.2.3`, `1.2.3-beta.1+build.5` */
export const ManifestVersion = z
  .string()
  .max(64)
  .regex(/^\d+(\.\d+){0,2}([-+][0-9A-Za-z.+-]+)?$/, 'Must be a version such as 1.4.0 (semantic versioning).');

export const HEARTBEAT_INTERVAL_MIN_S = 10;
export const HEARTBEAT_INTERVAL_MAX_S = 86_400;

/**
 * What an integration declares about itself. The integrations service also checks it against the
 * catalogues: scopes are known scopes, each event is a subscribable event type its scopes cover
 * (spec: Events → Subscribing), keys and URLs are not listed twice.
 */
export const IntegrationManifest = z
  .strictObject({
    name: z.string().trim().min(1).max(100),
    version: ManifestVersion,
    description: z.string().trim().max(2000),
    scopes: z.array(z.string().min(1).max(60)).max(50),
    webhooks: z.array(WebhookDeclaration).max(10).default([]),
    config: z.array(ConfigFieldDeclaration).max(100).default([]),
    heartbeatIntervalSeconds: z
      .number()
      .int()
      .min(HEARTBEAT_INTERVAL_MIN_S)
      .max(HEARTBEAT_INTERVAL_MAX_S)
      .optional()
      .openapi({ description: 'expected time between heartbeats; health is `silent` after three intervals without one (default: the service setting, 300)' }),
  })
  .openapi('IntegrationManifest');
export type IntegrationManifest = z.output<typeof IntegrationManifest>;

export const ConfigValue = z.union([z.string().max(4000), z.number(), z.boolean()]);
export type ConfigValue = z.output<typeof ConfigValue>;

/** Config values by declared key. */
export const ConfigValues = z.record(ConfigKey, ConfigValue).openapi('IntegrationConfigValues');

/** `PATCH /integrations/{id}/config`: merged into the stored values; `null` removes that key. */
export const ConfigPatch = z.record(ConfigKey, ConfigValue.nullable()).openapi('IntegrationConfigPatch');

import { z } from 'zod';

/**
 * Internal commands of the webhooks service for the integrations service (system principal only).
 * An integration's endpoints come from its manifest's `webhooks`; they are replaced as a set.
 */
export const IntegrationWebhook = z.strictObject({
  url: z.string().trim().min(1).max(2000),
  events: z.array(z.string().trim().min(1).max(100)).min(1).max(200),
});

/** `PUT /internal/integrations/{integrationId}/endpoints` */
export const IntegrationEndpointsPut = z.strictObject({
  webhooks: z.array(IntegrationWebhook).max(50),
  /** the integration's scopes: an endpoint receives only events these cover */
  scopes: z.array(z.string().min(1).max(100)).max(100),
  /** `whsec_…`; required the first time; when given later it replaces the secret (the previous keeps signing 24 h) */
  secret: z.string().regex(/^whsec_[A-Za-z0-9+/]{22,}={0,2}$/, 'Must be a whsec_ secret (base64 of at least 16 bytes).').optional(),
});
export type IntegrationEndpointsPut = z.infer<typeof IntegrationEndpointsPut>;

export const IntegrationEndpoint = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  status: z.enum(['active', 'disabled']),
  pendingDeliveries: z.number().int().optional(),
  failedDeliveries: z.number().int().optional(),
});

export const IntegrationEndpointsAnswer = z.object({ endpoints: z.array(IntegrationEndpoint) });
export type IntegrationEndpointsAnswer = z.infer<typeof IntegrationEndpointsAnswer>;

/** `POST /internal/integrations/{integrationId}:pause` and `:resume` */
export const IntegrationPauseAnswer = z.object({ integrationId: z.string(), paused: z.boolean() });
export type IntegrationPauseAnswer = z.infer<typeof IntegrationPauseAnswer>;

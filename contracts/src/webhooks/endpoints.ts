import { z } from '../zod';
import { IdParam, ListQuery, Timestamp, listEnvelope } from '../common';

/** `["*"]` subscribes to every event (spec: Events, Subscribing). */
export const WILDCARD_EVENTS = '*';

export const WebhookEndpointStatus = z.enum(['active', 'disabled']);

export const WebhookEndpoint = z
  .object({
    id: z.string().openapi({ example: 'whe_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
    url: z.string().openapi({ example: 'https://hooks.example.com/bop' }),
    events: z.array(z.string()).openapi({ example: ['location.created', 'location.updated'] }),
    description: z.string().nullable(),
    status: WebhookEndpointStatus,
    disabledReason: z
      .enum(['failures', 'gone', 'manual'])
      .nullable()
      .openapi({ description: '`failures`: 25 consecutive failed attempts; `gone`: the receiver answered 410; `manual`: set by PATCH' }),
    integrationId: z.string().nullable().openapi({ description: 'the integration whose manifest declares it; null for a standalone endpoint' }),
    pendingDeliveries: z.number().int(),
    failedDeliveries: z.number().int(),
    consecutiveFailures: z.number().int(),
    version: z.number().int(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('WebhookEndpoint');

export const WebhookEndpointWithSecret = WebhookEndpoint.extend({
  secret: z.string().openapi({
    description:
      'signing secret, shown only here: `whsec_` + base64 of 32 random bytes; `Service-Signature` is keyed with this text as issued, `webhook-signature` (Standard Webhooks) with the decoded bytes (see Events, Signature)',
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  }),
  previousSecretExpiresAt: z
    .string()
    .nullable()
    .openapi({ description: 'after a rotation the previous secret keeps signing (a second `v1=`) until then' }),
}).openapi('WebhookEndpointWithSecret');

const url = z.string().trim().min(1).max(2000);
const events = z.array(z.string().trim().min(1).max(100)).min(1).max(200);
const description = z.string().trim().max(500).nullable();

export const WebhookEndpointCreate = z
  .strictObject({ url, events, description: description.optional() })
  .openapi('WebhookEndpointCreate');

export const WebhookEndpointPatch = z
  .strictObject({
    url: url.optional(),
    events: events.optional(),
    description: description.optional(),
    status: WebhookEndpointStatus.optional().openapi({ description: '`active` re-enables a disabled endpoint and sends its queue in order' }),
  })
  .openapi('WebhookEndpointPatch');

export const WebhookEndpointListQuery = ListQuery.extend({
  status: WebhookEndpointStatus.optional(),
  updatedSince: Timestamp.optional(),
});

export const WebhookDeliveryStatus = z.enum(['pending', 'succeeded', 'failed']);

export const WebhookDelivery = z
  .object({
    id: z.string().openapi({ example: 'whd_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
    endpointId: z.string(),
    eventId: z.string().openapi({ description: 'kept on replays' }),
    eventType: z.string(),
    status: WebhookDeliveryStatus,
    attempts: z.number().int().openapi({ description: 'attempts made so far, replays included' }),
    lastStatus: z.number().int().nullable().openapi({ description: 'HTTP status of the last attempt; null when none answered' }),
    lastError: z.string().nullable(),
    lastAttemptAt: z.string().nullable(),
    nextAttemptAt: z
      .string()
      .nullable()
      .openapi({ description: 'when pending: the next attempt (held while the endpoint is disabled or its integration paused); null when not pending or while an earlier event of the same record is still pending' }),
    replayId: z
      .string()
      .nullable()
      .openapi({ description: 'the replay (`POST /webhook-endpoints/{id}:replay`) that queued it; null for a delivery of the fan-out, a ping or their retries' }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('WebhookDelivery');

export const WebhookDeliveryDetail = WebhookDelivery.extend({
  body: z.string().openapi({ description: 'the exact request body sent (the event envelope), byte for byte' }),
}).openapi('WebhookDeliveryDetail');

export const WebhookDeliveryListQuery = ListQuery.extend({
  status: WebhookDeliveryStatus.optional(),
  from: Timestamp.optional().openapi({ description: 'deliveries created at or after' }),
  updatedSince: Timestamp.optional(),
});

export const RetryFailedResult = z
  .object({ endpointId: z.string(), queued: z.number().int().openapi({ description: 'failed deliveries queued again' }) })
  .openapi('WebhookRetryFailedResult');

export const WebhookReplayCreate = z
  .strictObject({
    from: Timestamp.openapi({ description: 'events whose `createdAt` is at or after this instant; within the event log\'s retention (`EVENT_LOG_RETENTION_DAYS`, 30)' }),
    to: Timestamp.optional().openapi({ description: 'events whose `createdAt` is before this instant (default: now); after `from`' }),
    types: z
      .array(z.string().trim().min(1).max(100))
      .min(1)
      .max(200)
      .optional()
      .openapi({
        description: 'event types, patterns ending in `.*` (`sales_order.*`) or `*`, as `GET /events` takes them; default: every type the endpoint subscribes to',
        example: ['sales_order.*', 'invoice.paid'],
      }),
  })
  .openapi('WebhookReplayCreate');

export const WebhookReplayStatus = z.enum(['queued', 'running', 'completed', 'failed']);

export const WebhookReplay = z
  .object({
    id: z.string().openapi({ example: 'whr_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
    endpointId: z.string(),
    from: z.string(),
    to: z.string(),
    types: z.array(z.string()).nullable().openapi({ description: 'as requested; null: every type the endpoint subscribes to' }),
    status: WebhookReplayStatus.openapi({
      description:
        '`queued`, then `running` while its deliveries are queued in batches, `completed` when every matched event is queued; `failed` when some matched events left the log (retention) before they were queued (`error` says how many)',
    }),
    matched: z.number().int().openapi({ description: 'events of the log the replay matched when it was asked for (at most 100,000)' }),
    queued: z.number().int().openapi({ description: 'deliveries queued so far, each with the event\'s original id and body' }),
    error: z.string().nullable(),
    createdAt: z.string(),
    completedAt: z.string().nullable(),
  })
  .openapi('WebhookReplay');

export const WebhookReplayListQuery = ListQuery.extend({ updatedSince: Timestamp.optional() });

export const webhookEndpointOperations = {
  'GET /webhook-endpoints': { query: WebhookEndpointListQuery, response: listEnvelope(WebhookEndpoint) },
  'POST /webhook-endpoints': { body: WebhookEndpointCreate, response: WebhookEndpointWithSecret, status: 201 },
  'PATCH /webhook-endpoints/{id}': { params: IdParam, body: WebhookEndpointPatch, response: WebhookEndpoint },
  'DELETE /webhook-endpoints/{id}': { params: IdParam, status: 204 },
  'POST /webhook-endpoints/{id}:rotate-secret': { params: IdParam, response: WebhookEndpointWithSecret },
  'POST /webhook-endpoints/{id}:ping': { params: IdParam, response: WebhookDelivery, status: 202 },
  'GET /webhook-endpoints/{id}/deliveries': { params: IdParam, query: WebhookDeliveryListQuery, response: listEnvelope(WebhookDelivery) },
  'POST /webhook-endpoints/{id}:retry-failed': { params: IdParam, response: RetryFailedResult },
  'POST /webhook-endpoints/{id}:replay': { params: IdParam, body: WebhookReplayCreate, response: WebhookReplay, status: 202 },
  'GET /webhook-endpoints/{id}/replays': { params: IdParam, query: WebhookReplayListQuery, response: listEnvelope(WebhookReplay) },
  'GET /webhook-deliveries/{id}': { params: IdParam, response: WebhookDeliveryDetail },
  'POST /webhook-deliveries/{id}:retry': { params: IdParam, response: WebhookDelivery, status: 202 },
};

import { z } from 'zod';
import { boolFromEnv, type BaseConfig } from '@bop/shared';

/** Webhooks' settings on top of the kit's (read from the environment). */
export const configSchema = z.object({
  /** deliver to (and accept) private, loopback and link-local targets, and plain http: local development and tests */
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: boolFromEnv.default(false),
  /** accept plain http URLs for public hosts */
  WEBHOOK_ALLOW_HTTP: boolFromEnv.default(false),
  /** spec: the receiver must answer 2xx within 10 s */
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  /** requests in flight per service instance */
  WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(1024).default(64),
  /** spec: about 15 attempts over 3 days */
  WEBHOOK_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(30).default(15),
  /** spec: 25 consecutive failures disable an endpoint */
  WEBHOOK_DISABLE_AFTER_FAILURES: z.coerce.number().int().min(1).default(25),
  /** the worker's poll when no NOTIFY woke it */
  WEBHOOK_POLL_MS: z.coerce.number().int().min(10).default(500),
  /** days `GET /events` keeps an event, by its createdAt (Stripe keeps 30, Square 28) */
  EVENT_LOG_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  /** how often the event log's sequencer makes newly logged events visible (their latency in `GET /events`) */
  EVENT_LOG_SEQUENCE_MS: z.coerce.number().int().min(10).default(250),
  /** events a replay's worker round queues at most (one transaction each; the replay keeps its position between them) */
  WEBHOOK_REPLAY_BATCH: z.coerce.number().int().min(1).max(10_000).default(1_000),
  /** how often the replay worker looks for a queued replay */
  WEBHOOK_REPLAY_POLL_MS: z.coerce.number().int().min(10).default(1_000),
});

export type WebhooksConfig = BaseConfig & z.output<typeof configSchema>;

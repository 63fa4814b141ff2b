import { z } from 'zod';
import { baseConfigSchema, boolFromEnv } from '@bop/shared';

/** `true`/`false`, a hop count, or addresses/subnets (express `trust proxy`). */
const trustProxy = z
  .string()
  .default('false')
  .transform((v): boolean | number | string => {
    if (v === 'true' || v === 'false') return v === 'true';
    if (/^\d+$/.test(v)) return Number(v);
    return v;
  });

/** Settings of the gateway (on top of the kit's: LOG_LEVEL, HOST, DATABASE_URL, ERRORS_BASE_URL, REQUEST_BODY_LIMIT …). */
export const gatewayConfigSchema = baseConfigSchema.extend({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  /** interactive and personal keys, per principal (spec: Limits) */
  API_RATE_LIMIT_PER_MIN: z.coerce.number().int().min(1).default(600),
  /** integration keys sending data feeds */
  API_INGEST_RATE_LIMIT_PER_MIN: z.coerce.number().int().min(1).default(3000),
  /** rate limits in Redis (shared by every gateway) when set; memory otherwise */
  REDIS_URL: z.string().optional(),
  /** how long an authentication answer is reused at most (identity may ask for less) */
  AUTH_CACHE_SECONDS: z.coerce.number().min(0).default(5),
  /** how often feature switches are read from identity */
  FEATURE_REFRESH_SECONDS: z.coerce.number().positive().default(5),
  /** how often each service is asked which endpoints it serves */
  SERVED_REFRESH_SECONDS: z.coerce.number().positive().default(10),
  IDEMPOTENCY_TTL_HOURS: z.coerce.number().positive().default(24),
  /** public address of this host (no /api/v1), for OpenAPI `servers`; default: from the request's Host */
  PUBLIC_BASE_URL: z.string().url().optional(),
  TRUST_PROXY: trustProxy,
  /** an upstream answer slower than this ends in 503 `service_unavailable` */
  UPSTREAM_TIMEOUT_MS: z.coerce.number().int().positive().default(30_000),
  /** keep-alive sockets per service */
  UPSTREAM_MAX_SOCKETS: z.coerce.number().int().positive().default(64),
  /** team-display page: new pairing codes per minute per address */
  DISPLAY_PAIRINGS_PER_MIN: z.coerce.number().int().min(1).default(10),
  /** team-display page: its other calls (pairing polls, snapshots, stream reconnects) per minute per address */
  DISPLAY_CALLS_PER_MIN: z.coerce.number().int().min(1).default(120),
  /** log one line per request (info level) */
  ACCESS_LOG: boolFromEnv.default(true),
});

export type GatewayConfig = z.output<typeof gatewayConfigSchema>;

import { z } from 'zod';
import { serviceTable } from '@bop/contracts';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** Settings every service reads from the environment. */
export const baseConfigSchema = z.object({
  NODE_ENV: z.string().default('production'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  HOST: z.string().default('127.0.0.1'),
  DATABASE_URL: z.string().url().optional(),
  DB_POOL_MAX: z.coerce.number().int().min(1).max(100).default(5),
  DB_DEBUG: bool.default(false),
  ERRORS_BASE_URL: z.string().url().default('https://errors.bop.dev'),
  /** the gateway's public key (SPKI PEM, or base64 of it) that signs internal tokens */
  INTERNAL_JWT_PUBLIC_KEY: z.string().optional(),
  REQUEST_BODY_LIMIT: z.string().default('10mb'),
  /** deepest JSON nesting a request body may have (an object or array at the top is 1); deeper is a 400 */
  JSON_MAX_DEPTH: z.coerce.number().int().min(2).max(1000).default(64),
  /** signs internal tokens; services that call other services' internal commands need it */
  INTERNAL_JWT_PRIVATE_KEY: z.string().optional(),
  BUS: z.enum(['postgres', 'kafka']).default('postgres'),
  BUS_DATABASE_URL: z.string().url().optional(),
  BUS_POLL_MS: z.coerce.number().int().min(10).default(1000),
  KAFKA_BROKERS: z.string().optional(),
  KAFKA_CLIENT_ID: z.string().default('bop'),
  KAFKA_TOPIC_PREFIX: z.string().default(''),
  SCHEMA_REGISTRY_URL: z.string().url().optional(),
  RELAY_ENABLED: bool.default(true),
  RELAY_POLL_MS: z.coerce.number().int().min(10).default(1000),
  /** published outbox rows are deleted this long after they were published (the bus has them) */
  OUTBOX_RETENTION_HOURS: z.coerce.number().min(0).default(72),
  /** the Postgres bus deletes messages this long after they were appended, once every active consumer group has read them */
  BUS_RETENTION_HOURS: z.coerce.number().min(0).default(168),
  /** how often a relay's leader deletes what these retentions let go (ms) */
  RETENTION_CHECK_MS: z.coerce.number().int().min(10).default(600_000),
  CONSUMER_MAX_ATTEMPTS: z.coerce.number().int().min(1).default(5),
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).default(10_000),
  /** the port a service listens on when run alone (distributed mode); default: its port in the service table */
  PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /** distributed mode: where the other services answer (SERVICE_URL_IDENTITY=http://identity:3101 …), for internal commands */
  ...serviceUrlSettings(),
  /** Prometheus metrics: `GET /api/metrics` on the gateway host, `/metrics` on each service */
  METRICS_ENABLED: bool.default(false),
  /** when set, scrapers send it as `Authorization: Bearer <token>` */
  METRICS_TOKEN: z.string().optional(),
});

function serviceUrlSettings(): Record<`SERVICE_URL_${string}`, z.ZodOptional<z.ZodURL>> {
  return Object.fromEntries(Object.keys(serviceTable).map((name) => [`SERVICE_URL_${name.toUpperCase()}`, z.url().optional()]));
}

export type BaseConfig = z.infer<typeof baseConfigSchema>;
export { bool as boolFromEnv };

export class ConfigError extends Error {}

/** Parses env with a zod schema and fails with every wrong variable named. */
export function loadConfig<S extends z.ZodType>(schema: S, env: Record<string, string | undefined> = process.env): z.infer<S> {
  const clean: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && v !== '') clean[k] = v;
  const parsed = schema.safeParse(clean);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(root)'}: ${i.message}`);
    throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}

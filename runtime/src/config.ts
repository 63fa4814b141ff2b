import { z } from 'zod';
import { loadConfig } from '@bop/shared';

/** Settings of the all-in-one runtime (`npm start`); services and the gateway read theirs too. */
export const runtimeConfigSchema = z.object({
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  DATA_DIR: z.string().default('./.data'),
  /** attachment storage (the files area's); unset: DATA_DIR/files */
  FILES_DIR: z.string().optional(),
  /** where `ops backup create` writes and `ops backup restore` reads; unset: DATA_DIR/backups */
  BACKUP_DIR: z.string().optional(),
  DATABASE_URL: z.string().url().optional(),
  /** unset: a free port, picked at each start (and recorded in DATA_DIR/runtime.json) */
  EMBEDDED_PG_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  /** `auto` gives each service a free port (so two checkouts run side by side); `fixed`: the services' fixed ports (3101, …) */
  SERVICE_PORTS: z.enum(['fixed', 'auto']).default('auto'),
  /**
   * `auto`: with two or more cores, the services run in worker threads (RUNTIME_THREAD_SERVICES) and
   * the gateway alone on the main thread, so the request path spreads over the cores and ingestion
   * does not share its event loop with the services that consume every sale; `off`: everything on
   * the main thread.
   */
  RUNTIME_THREADS: z.enum(['auto', 'off']).default('auto'),
  /**
   * The worker threads' services: groups separated by `;`, one thread each; a service in no group
   * runs on the main thread. The default's two groups: through the gateway, GET /locations answered
   * 16–22% more requests at 16 connections than with those services beside the gateway on the main
   * thread (A/B of two runtimes, interleaved rounds, 2026-11-26), at the same latency at one
   * connection and the same ingestion and depletion figures.
   */
  RUNTIME_THREAD_SERVICES: z.string().default('identity,organization,people,webhooks,integrations,sales,files;inventory,purchasing,cash,time,scheduling,operations,equipment,communication,insights'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** `pretty`: readable lines; `json`: one JSON object a line; unset: pretty when stdout is a terminal */
  LOG_FORMAT: z.enum(['json', 'pretty']).optional(),
  INTERNAL_JWT_PRIVATE_KEY: z.string().optional(),
  INTERNAL_JWT_PUBLIC_KEY: z.string().optional(),
});
export type RuntimeConfig = z.infer<typeof runtimeConfigSchema>;

export const loadRuntimeConfig = (env: Record<string, string | undefined> = process.env) => loadConfig(runtimeConfigSchema, env);

import { z } from 'zod';
import { loadConfig } from '@bop/shared';

/** Settings of the all-in-one runtime (`npm start`); services and the gateway read theirs too. */
export const runtimeConfigSchema = z.object({
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  DATA_DIR: z.string().default('./.data'),
  DATABASE_URL: z.string().url().optional(),
  EMBEDDED_PG_PORT: z.coerce.number().int().min(1).max(65535).default(5488),
  /** `auto` gives each service a free port (tests); otherwise the services' fixed ports */
  SERVICE_PORTS: z.enum(['fixed', 'auto']).default('fixed'),
  /**
   * `auto`: with two or more cores, the services that consume every sale (RUNTIME_THREAD_SERVICES)
   * run in a worker thread of their own, so ingestion does not share its event loop with them;
   * `off`: everything on the main thread.
   */
  RUNTIME_THREADS: z.enum(['auto', 'off']).default('auto'),
  RUNTIME_THREAD_SERVICES: z.string().default('inventory,purchasing,cash'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  INTERNAL_JWT_PRIVATE_KEY: z.string().optional(),
  INTERNAL_JWT_PUBLIC_KEY: z.string().optional(),
});
export type RuntimeConfig = z.infer<typeof runtimeConfigSchema>;

export const loadRuntimeConfig = (env: Record<string, string | undefined> = process.env) => loadConfig(runtimeConfigSchema, env);

import type { z } from 'zod';
import { startService, type ServiceDefinition } from './service';
import { createLogger, type Logger } from './logger';
import { stopTracing } from './telemetry/tracing';

/**
 * Runs something until SIGTERM/SIGINT, then closes it and exits (0, or 1 when closing failed).
 * Start failures are logged as fatal and exit 1.
 */
export async function runUntilSignal(name: string, log: Logger, start: () => Promise<{ close(): Promise<void> }>): Promise<void> {
  let running: { close(): Promise<void> };
  try {
    running = await start();
  } catch (err) {
    log.fatal({ err }, `${name} failed to start`);
    process.exit(1);
  }
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    running.close().then(
      () => stopTracing().finally(() => process.exit(0)),
      (err) => {
        log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

/** Runs one service as its own process (distributed mode): config from env, graceful stop on SIGTERM/SIGINT. */
export function runStandalone<S extends z.ZodObject>(def: ServiceDefinition<S>): Promise<void> {
  const log = createLogger(def.name);
  return runUntilSignal(def.name, log, () => startService(def, { logger: log }));
}

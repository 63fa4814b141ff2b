import type { z } from 'zod';
import { startService, type ServiceDefinition } from './service';
import { createLogger } from './logger';

/** Runs one service as its own process (distributed mode): config from env, graceful stop on SIGTERM/SIGINT. */
export async function runStandalone<S extends z.ZodObject>(def: ServiceDefinition<S>): Promise<void> {
  const log = createLogger(def.name);
  try {
    const running = await startService(def, { logger: log });
    const stop = (signal: string) => {
      log.info({ signal }, 'shutting down');
      running.close().then(
        () => process.exit(0),
        (err) => {
          log.error({ err }, 'shutdown failed');
          process.exit(1);
        },
      );
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  } catch (err) {
    log.fatal({ err }, `${def.name} failed to start`);
    process.exit(1);
  }
}

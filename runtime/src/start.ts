#!/usr/bin/env node
import { createLogger } from '@bop/shared';
import { startAll } from './index';

/** `npm start`: the embedded default, everything in one process. */
async function main(): Promise<void> {
  const log = createLogger('runtime');
  const runtime = await startAll({}, log);
  console.log(`\nBusiness-operations platform is up.\n  API:  ${runtime.url}/api/v1\n  Docs: ${runtime.url}/docs/api\n  Ready: ${runtime.url}/api/ready\n`);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    runtime.close().then(
      () => process.exit(0),
      (err) => {
        log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((err) => {
  console.error(`failed to start: ${(err as Error).stack ?? err}`);
  process.exit(1);
});

// first: tracing instruments http, express, pg and undici as they load (on only with an OTLP endpoint set)
import { startTracing } from '@bop/shared/dist/telemetry/tracing';
startTracing('identity');
import { startService } from '@bop/shared';
import { identityService } from './index';

async function main(): Promise<void> {
  const running = await startService(identityService);
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    running.runtime.log.info({ signal }, 'stopping');
    running.close().then(
      () => process.exit(0),
      (err: unknown) => {
        running.runtime.log.error({ err }, 'stop failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

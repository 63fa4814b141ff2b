#!/usr/bin/env node
// first: tracing instruments http, express, pg and undici as they load (on only with an OTLP endpoint set)
import { startTracing } from '@bop/shared/dist/telemetry/tracing';
startTracing('bop-platform');
import { createLogger, runUntilSignal } from '@bop/shared';
import { chooseLogFormat, useLogFormat } from './log-format';
import { describeStartFailure } from './start-failure';
import { startAll, type Runtime } from './index';

/** `npm start`: the embedded default, everything in one process. */
useLogFormat(chooseLogFormat());
const log = createLogger('runtime');

async function main(): Promise<void> {
  let runtime: Runtime;
  try {
    runtime = await startAll({}, log);
  } catch (err) {
    // one plain line saying what failed and what to do; the details at debug level
    log.debug({ err }, 'start failed');
    process.stderr.write(`Cannot start: ${describeStartFailure(err)}\n`);
    process.exit(1);
  }
  console.log(`\nBusiness-operations platform is up.\n  API:   ${runtime.url}/api/v1\n  Docs:  ${runtime.url}/docs/api\n  Ready: ${runtime.url}/api/ready\n`);
  await runUntilSignal('runtime', log, async () => runtime);
}

void main();

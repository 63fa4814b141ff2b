#!/usr/bin/env node
import { createLogger, runUntilSignal } from '@bop/shared';
import { startAll } from './index';

/** `npm start`: the embedded default, everything in one process. */
const log = createLogger('runtime');
void runUntilSignal('runtime', log, async () => {
  const runtime = await startAll({}, log);
  console.log(`\nBusiness-operations platform is up.\n  API:   ${runtime.url}/api/v1\n  Docs:  ${runtime.url}/docs/api\n  Ready: ${runtime.url}/api/ready\n`);
  return runtime;
});

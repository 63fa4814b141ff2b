/**
 * The child of `startServiceProcess`: one compiled service alone in this process (its module and
 * export name as arguments; DATABASE_URL and INTERNAL_JWT_PUBLIC_KEY from the environment), and the
 * most memory it holds, sampled after a full collection four times a second. Run with --expose-gc:
 * this process's heap is the service's alone, so a collection takes milliseconds.
 */
import { createLogger, startService } from '@bop/shared';

type Message = { type: 'reset' | 'memory' | 'stop' };

const gc = (globalThis as { gc?: () => void }).gc;
const held = () => {
  gc?.();
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
};

async function main(): Promise<void> {
  const [moduleName, exportName] = process.argv.slice(2);
  const def = require(moduleName)[exportName];
  const svc = await startService(def, { port: 0, host: '127.0.0.1', logger: createLogger(def.name, process.env.TEST_LOG_LEVEL ?? 'silent') });
  let baseline = held();
  let peak = baseline;
  const timer = setInterval(() => (peak = Math.max(peak, held())), 250);
  const send = (m: unknown) => process.send?.(m);
  process.on('message', (m: Message) => {
    if (m.type === 'reset') {
      baseline = held();
      peak = baseline;
      send({ type: 'reset' });
    } else if (m.type === 'memory') {
      peak = Math.max(peak, held());
      send({ type: 'memory', baseline, peak });
    } else if (m.type === 'stop') {
      clearInterval(timer);
      void svc.close().finally(() => process.exit(0));
    }
  });
  // the parent gone (a killed test worker): nothing is left running
  process.on('disconnect', () => process.exit(0));
  send({ type: 'ready', url: svc.url });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

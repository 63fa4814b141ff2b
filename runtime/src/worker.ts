/**
 * A worker thread of the all-in-one runtime: starts the services it is given (each on its own port,
 * with its own bus connection and event loop) and answers the main thread — `started` per service
 * (its URL), `ready`, `closed` — while taking the other services' URLs as they become known.
 */
// first: tracing instruments http, express, pg and undici as they load (a worker thread loads its own copies)
import { startTracing, stopTracing } from '@bop/shared/dist/telemetry/tracing';
startTracing('bop-platform');
import { parentPort, workerData } from 'node:worker_threads';
import { baseConfigSchema, createBus, createLogger, loadConfig, startService, threadMetrics, type MetricsJson, type RunningService } from '@bop/shared';
import { serviceDefinitions } from './services';
import { useLogFormat, type LogFormat } from './log-format';

export interface WorkerInput {
  names: string[];
  env: Record<string, string | undefined>;
  databaseUrl: string;
  keys: { privateKeyPem: string; publicKeyPem: string };
  serviceUrls: Record<string, string>;
  ports: Record<string, number>;
  logLevel: string;
  logFormat?: LogFormat;
  colorize?: boolean;
}

export type WorkerMessage =
  | { type: 'started'; name: string; url: string; served: string[] }
  | { type: 'ready' }
  | { type: 'closed' }
  | { type: 'metrics'; id: number; metrics: MetricsJson }
  | { type: 'failed'; message: string; code?: string; port?: number; address?: string; syscall?: string };

const input = workerData as WorkerInput;
const port = parentPort!;
if (input.logFormat) useLogFormat(input.logFormat, input.colorize);
const serviceUrls: Record<string, string> = { ...input.serviceUrls };
const running: RunningService<any>[] = [];
const log = createLogger('runtime-worker', input.logLevel);
let closeBus: () => Promise<void> = async () => undefined;

export type MainMessage = { type: 'urls'; urls: Record<string, string> } | { type: 'close' } | { type: 'metrics'; id: number };

port.on('message', (m: MainMessage) => {
  if (m.type === 'urls') Object.assign(serviceUrls, m.urls);
  // the main thread's scrape asks each worker for its registry (merged there: telemetry/metrics.ts)
  if (m.type === 'metrics') {
    void threadMetrics()
      .catch((): MetricsJson => [])
      .then((metrics) => port.postMessage({ type: 'metrics', id: m.id, metrics } satisfies WorkerMessage));
  }
  if (m.type === 'close') {
    void (async () => {
      for (const s of running.reverse()) await s.close().catch((err) => log.error({ err, service: s.name }, 'close failed'));
      await closeBus().catch((err) => log.error({ err }, 'bus close failed'));
      await stopTracing();
      port.postMessage({ type: 'closed' } satisfies WorkerMessage);
    })();
  }
});

void (async () => {
  try {
    const bus = await createBus(loadConfig(baseConfigSchema, { ...input.env, DATABASE_URL: input.databaseUrl }), log);
    closeBus = () => bus.close();
    for (const name of input.names) {
      const def = serviceDefinitions.find((d) => d.name === name);
      if (!def) throw new Error(`no service ${name}`);
      const svc = await startService(def, {
        env: input.env,
        databaseUrl: input.databaseUrl,
        internalPublicKeyPem: input.keys.publicKeyPem,
        internalPrivateKeyPem: input.keys.privateKeyPem,
        bus,
        serviceUrls,
        host: '127.0.0.1',
        port: input.ports[name] ?? 0,
        logger: createLogger(def.name, input.logLevel),
      });
      running.push(svc);
      serviceUrls[name] = svc.url;
      port.postMessage({ type: 'started', name, url: svc.url, served: [...svc.served] } satisfies WorkerMessage);
    }
    port.postMessage({ type: 'ready' } satisfies WorkerMessage);
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { port?: number; address?: string };
    port.postMessage({ type: 'failed', message: e instanceof Error ? e.message : String(err), code: e.code, port: e.port, address: e.address, syscall: e.syscall } satisfies WorkerMessage);
    log.debug({ err }, 'worker thread start failed');
  }
})();

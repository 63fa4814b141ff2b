import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { serviceTable } from '@bop/contracts';
import { baseConfigSchema, createBus, createLogger, generateInternalKeyPair, loadConfig, startService, type Logger, type RunningService } from '@bop/shared';
import { startGateway } from '@bop/gateway';
import { serviceDefinitions } from './services';
import { startEmbeddedPostgres, type EmbeddedDb } from './embedded-postgres';
import { loadRuntimeConfig, type RuntimeConfig } from './config';
import type { WorkerInput, WorkerMessage } from './worker';

export { serviceDefinitions } from './services';
export { startEmbeddedPostgres, isPostgresOfDataDir, postmasterPid } from './embedded-postgres';
export { loadRuntimeConfig, runtimeConfigSchema } from './config';

/** An explicit SERVICE_PORT_<NAME> wins; else any free port (`auto`, bound as 0) or the service's fixed port. */
function servicePort(name: keyof typeof serviceTable, env: Record<string, string | undefined>, mode: 'fixed' | 'auto'): number {
  const explicit = env[`SERVICE_PORT_${name.toUpperCase()}`];
  if (explicit) return Number(explicit);
  return mode === 'auto' ? 0 : serviceTable[name].port;
}

/** The services to run in a worker thread (none when threads are off, on one core, or when running from sources: tests). */
function threadedServices(config: RuntimeConfig): string[] {
  const compiled = __filename.endsWith('.js') && fs.existsSync(path.join(__dirname, 'worker.js'));
  if (config.RUNTIME_THREADS === 'off' || !compiled || os.availableParallelism() < 2) return [];
  const names = new Set(config.RUNTIME_THREAD_SERVICES.split(',').map((n) => n.trim()).filter(Boolean));
  return serviceDefinitions.map((d) => d.name as string).filter((n) => names.has(n));
}

interface WorkerHandle {
  /** a message to the worker (e.g. the services' URLs) */
  post(message: unknown): void;
  close(): Promise<void>;
}

/** A worker thread running `input.names`, started (their URLs reported through `onStarted`). */
async function startWorker(input: WorkerInput, onStarted: (name: string, url: string) => void, log: Logger): Promise<WorkerHandle> {
  const worker = new Worker(path.join(__dirname, 'worker.js'), { workerData: input });
  const ready = new Promise<void>((resolve, reject) => {
    worker.on('message', (m: WorkerMessage) => {
      if (m.type === 'started') onStarted(m.name, m.url);
      if (m.type === 'ready') resolve();
      if (m.type === 'failed') reject(new Error(`worker thread (${input.names.join(', ')}): ${m.message}`));
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`worker thread (${input.names.join(', ')}) exited with code ${code}`)));
  });
  const closed = () =>
    new Promise<void>((resolve) => {
      const done = () => resolve();
      worker.on('message', (m: WorkerMessage) => m.type === 'closed' && done());
      worker.once('exit', done);
      worker.postMessage({ type: 'close' });
    });
  try {
    await ready;
  } catch (err) {
    await worker.terminate();
    throw err;
  }
  // after the start, a failure of the thread is logged (never an unhandled 'error' on the main thread)
  let closing = false;
  worker.on('error', (err) => log.error({ err, services: input.names }, 'worker thread failed'));
  worker.on('exit', (code) => {
    if (!closing) log.error({ code, services: input.names }, 'worker thread exited; its services no longer answer');
  });
  return {
    post: (message) => worker.postMessage(message),
    async close() {
      closing = true;
      await Promise.race([closed(), new Promise((r) => setTimeout(r, 15_000))]);
      await worker.terminate().catch((err) => log.error({ err }, 'worker thread terminate failed'));
    },
  };
}

export interface Runtime {
  /** the public base URL, e.g. http://127.0.0.1:8080 */
  url: string;
  databaseUrl: string;
  services: RunningService<any>[];
  close(): Promise<void>;
}

/**
 * Starts everything in one process: Postgres (embedded unless DATABASE_URL is set), every service on
 * its own port, and the gateway proxying to them over HTTP exactly as in the distributed mode. The
 * services that consume every sale run in a worker thread (RUNTIME_THREADS), the rest on the main one.
 */
export async function startAll(envOverrides: Record<string, string | undefined> = {}, logger?: Logger): Promise<Runtime> {
  const env = { ...process.env, ...envOverrides };
  const config = loadRuntimeConfig(env);
  const log = logger ?? createLogger('runtime', config.LOG_LEVEL);
  let embedded: EmbeddedDb | null = null;
  let databaseUrl = config.DATABASE_URL;
  if (!databaseUrl) {
    embedded = await startEmbeddedPostgres({ dataDir: config.DATA_DIR, port: config.EMBEDDED_PG_PORT, log, callerHandlesSignals: true });
    databaseUrl = embedded.url;
    fs.writeFileSync(path.join(path.resolve(config.DATA_DIR), 'runtime.json'), JSON.stringify({ pid: process.pid, databaseUrl, port: config.PORT }, null, 2));
  }
  const keys =
    config.INTERNAL_JWT_PRIVATE_KEY && config.INTERNAL_JWT_PUBLIC_KEY
      ? { privateKeyPem: config.INTERNAL_JWT_PRIVATE_KEY, publicKeyPem: config.INTERNAL_JWT_PUBLIC_KEY }
      : await generateInternalKeyPair();
  const services: RunningService<any>[] = [];
  const workers: WorkerHandle[] = [];
  // one bus for every service of the process (the Postgres adapter: one pool and one LISTEN)
  const bus = await createBus(loadConfig(baseConfigSchema, { ...env, DATABASE_URL: databaseUrl }), log);
  const stopAll = async () => {
    for (const w of workers) await w.close().catch((err) => log.error({ err }, 'worker thread close failed'));
    for (const s of services.reverse()) await s.close().catch((err) => log.error({ err, service: s.name }, 'close failed'));
    await bus.close().catch((err) => log.error({ err }, 'bus close failed'));
    if (embedded) await embedded.stop().catch((err) => log.error({ err }, 'embedded Postgres stop failed'));
  };
  try {
    // every service learns where the others' internal commands are: known ports up front, `auto`
    // ones (bound as 0, no probing race) as each service starts
    const serviceUrls: Record<string, string> = {};
    for (const def of serviceDefinitions) {
      const port = servicePort(def.name, env, config.SERVICE_PORTS);
      if (port !== 0) serviceUrls[def.name] = `http://127.0.0.1:${port}`;
    }
    const threaded = new Set(threadedServices(config));
    // identity first: it bootstraps the owner the others' callers sign in as
    for (const def of serviceDefinitions.filter((d) => !threaded.has(d.name))) {
      const running = await startService(def, {
        env,
        databaseUrl,
        internalPublicKeyPem: keys.publicKeyPem,
        internalPrivateKeyPem: keys.privateKeyPem,
        bus,
        serviceUrls,
        // services stay on loopback in the embedded default; only the gateway follows HOST
        host: '127.0.0.1',
        port: servicePort(def.name, env, config.SERVICE_PORTS),
        logger: createLogger(def.name, config.LOG_LEVEL),
      });
      services.push(running);
      serviceUrls[def.name] = running.url;
    }
    if (threaded.size > 0) {
      const worker = await startWorker(
        {
          names: [...threaded],
          env,
          databaseUrl,
          keys,
          serviceUrls: { ...serviceUrls },
          ports: Object.fromEntries([...threaded].map((n) => [n, servicePort(n as keyof typeof serviceTable, env, config.SERVICE_PORTS)])),
          logLevel: config.LOG_LEVEL,
        },
        (name, url) => {
          serviceUrls[name] = url;
        },
        log,
      );
      workers.push(worker);
      // the worker's services learn the main thread's (all known by now) and each other's
      worker.post({ type: 'urls', urls: { ...serviceUrls } });
      log.info({ services: [...threaded] }, 'runtime: services in a worker thread');
    }
    const gateway = await startGateway({
      env,
      port: config.PORT,
      host: config.HOST,
      databaseUrl,
      internalPrivateKeyPem: keys.privateKeyPem,
      serviceUrls: { ...serviceUrls },
      bus,
      logger: createLogger('gateway', config.LOG_LEVEL),
    });
    return {
      url: gateway.url,
      databaseUrl,
      services,
      close: async () => {
        await gateway.close();
        await stopAll();
      },
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}

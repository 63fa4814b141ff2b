import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { serviceTable } from '@bop/contracts';
import { addMetricsSource, baseConfigSchema, createBus, createLogger, generateInternalKeyPair, loadConfig, renderError, ServiceUnavailable, startService, type Logger, type MetricsJson, type RunningService } from '@bop/shared';
import { startGateway } from '@bop/gateway';
import { serviceDefinitions } from './services';
import { ensureDataDir, isNodeProcess, startEmbeddedPostgres, type EmbeddedDb } from './embedded-postgres';
import { StartupError } from './start-failure';
import { currentLogFormat } from './log-format';
import { loadRuntimeConfig, type RuntimeConfig } from './config';
import type { MainMessage, WorkerInput, WorkerMessage } from './worker';

export { serviceDefinitions } from './services';
export { openApiDocument } from './openapi-document';
export { startEmbeddedPostgres, isPostgresOfDataDir, postmasterPid } from './embedded-postgres';
export { loadRuntimeConfig, runtimeConfigSchema } from './config';
export { StartupError, describeStartFailure } from './start-failure';

/** What a running runtime records in DATA_DIR/runtime.json (the ops CLI finds its database there). */
export interface RuntimeState {
  pid: number;
  /** the process's start time (Linux: /proc/<pid>/stat), so a reused pid is not taken for the runtime */
  startTime?: string | null;
  databaseUrl: string;
  /** the gateway's port (PORT, or the one taken for PORT=0) */
  port: number;
  url?: string;
  embeddedPgPort?: number;
  services?: Record<string, string>;
}

/**
 * Takes the gateway's port first, before Postgres and the services start, and holds it until the
 * gateway listens: a start fails at once when it is taken (a listen error, as the gateway's own would
 * be), and no service's port the system picks (`auto`, bound as 0) can be this one — a service that
 * was handed it made the gateway's own listen fail once all had started. Meanwhile a request gets 503
 * `service_unavailable` (starting) with Retry-After.
 */
async function reservePort(host: string, port: number, errorsBase: string, log: Logger): Promise<{ release(): Promise<void> }> {
  if (port === 0) return { release: async () => undefined };
  const starting = new ServiceUnavailable('The platform is starting; retry in a moment.', 1);
  const srv = http.createServer((req, res) => {
    res.shouldKeepAlive = false;
    renderError(starting, req, res, errorsBase, log);
  });
  await new Promise<void>((resolve, reject) => {
    srv.once('error', reject);
    srv.listen(port, host, () => {
      srv.off('error', reject);
      resolve();
    });
  });
  let released: Promise<void> | null = null;
  return {
    release: () =>
      (released ??= new Promise<void>((resolve) => {
        srv.closeAllConnections();
        srv.close(() => resolve());
      })),
  };
}

/** A process's start time in clock ticks since boot (Linux), or null. */
function processStartTime(pid: number): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

/** Refuses a second runtime on the same data directory (its runtime.json names a live runtime). */
function refuseRunningInstance(dataDir: string): void {
  try {
    const state = JSON.parse(fs.readFileSync(path.join(dataDir, 'runtime.json'), 'utf8')) as Partial<RuntimeState>;
    const samePid = typeof state.pid === 'number' && (!state.startTime || processStartTime(state.pid) === null || processStartTime(state.pid) === state.startTime);
    if (typeof state.pid === 'number' && state.pid !== process.pid && samePid && isNodeProcess(state.pid)) {
      const where = state.url ?? (state.port ? `port ${state.port}` : 'its port');
      throw new StartupError(`another instance is already running on this data directory (${dataDir}, pid ${state.pid}, ${where}): stop it first, or set DATA_DIR to another directory to run a second one.`);
    }
  } catch (err) {
    if (err instanceof StartupError) throw err;
    /* no runtime.json, or unreadable: none running */
  }
}

/** An explicit SERVICE_PORT_<NAME> wins; else any free port (`auto`, bound as 0) or the service's fixed port. */
function servicePort(name: keyof typeof serviceTable, env: Record<string, string | undefined>, mode: 'fixed' | 'auto'): number {
  const explicit = env[`SERVICE_PORT_${name.toUpperCase()}`];
  if (explicit) return Number(explicit);
  return mode === 'auto' ? 0 : serviceTable[name].port;
}

/**
 * The groups of services to run in worker threads, one thread per group (none when threads are off,
 * on one core, or when running from sources: tests). RUNTIME_THREAD_SERVICES separates groups with
 * `;` and names with `,`; a service named in no group runs on the main thread with the gateway.
 */
export function threadGroups(
  config: Pick<RuntimeConfig, 'RUNTIME_THREADS' | 'RUNTIME_THREAD_SERVICES'>,
  { compiled = __filename.endsWith('.js') && fs.existsSync(path.join(__dirname, 'worker.js')), cores = os.availableParallelism() }: { compiled?: boolean; cores?: number } = {},
): string[][] {
  if (config.RUNTIME_THREADS === 'off' || !compiled || cores < 2) return [];
  const known = new Set(serviceDefinitions.map((d) => d.name as string));
  const seen = new Set<string>();
  const groups: string[][] = [];
  for (const part of config.RUNTIME_THREAD_SERVICES.split(';')) {
    const names = new Set(part.split(',').map((n) => n.trim()).filter(Boolean));
    for (const n of names) {
      if (!known.has(n)) throw new StartupError(`RUNTIME_THREAD_SERVICES names ${n}, which is not a service (${[...known].join(', ')}).`);
      if (seen.has(n)) throw new StartupError(`RUNTIME_THREAD_SERVICES names ${n} twice.`);
      seen.add(n);
    }
    // in the services' start order (identity first: it bootstraps the owner)
    const group = serviceDefinitions.map((d) => d.name as string).filter((n) => names.has(n));
    if (group.length > 0) groups.push(group);
  }
  return groups;
}

interface WorkerHandle {
  /** a message to the worker (e.g. the services' URLs) */
  post(message: MainMessage): void;
  /** the worker thread's metrics registry as JSON (merged into the gateway's scrape) */
  metrics(): Promise<MetricsJson>;
  close(): Promise<void>;
}

/** A worker thread running `input.names`, started (their URLs reported through `onStarted`). */
async function startWorker(input: WorkerInput, onStarted: (name: string, url: string) => void, log: Logger): Promise<WorkerHandle> {
  const worker = new Worker(path.join(__dirname, 'worker.js'), { workerData: input });
  const ready = new Promise<void>((resolve, reject) => {
    worker.on('message', (m: WorkerMessage) => {
      if (m.type === 'started') onStarted(m.name, m.url);
      if (m.type === 'ready') resolve();
      if (m.type === 'failed') {
        // the service's error as it was (a port in use keeps its code, port and address)
        reject(Object.assign(new Error(`worker thread (${input.names.join(', ')}): ${m.message}`), { code: m.code, port: m.port, address: m.address, syscall: m.syscall }));
      }
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
  let asked = 0;
  const answers = new Map<number, (metrics: MetricsJson) => void>();
  worker.on('message', (m: WorkerMessage) => {
    if (m.type === 'metrics') answers.get(m.id)?.(m.metrics);
  });
  return {
    post: (message) => worker.postMessage(message),
    metrics: () =>
      new Promise<MetricsJson>((resolve) => {
        const id = ++asked;
        // a busy or exited worker leaves its series out of this scrape rather than stalling it
        const timer = setTimeout(() => settle([]), 2000);
        const settle = (metrics: MetricsJson) => {
          clearTimeout(timer);
          answers.delete(id);
          resolve(metrics);
        };
        answers.set(id, settle);
        worker.postMessage({ type: 'metrics', id } satisfies MainMessage);
      }),
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
  /** the services running on the main thread (none by default: they run in worker threads, RUNTIME_THREADS) */
  services: RunningService<any>[];
  close(): Promise<void>;
}

/**
 * Starts everything in one process: Postgres (embedded unless DATABASE_URL is set), every service on
 * its own port, and the gateway proxying to them over HTTP exactly as in the distributed mode. With
 * RUNTIME_THREADS=auto the services run in worker threads (RUNTIME_THREAD_SERVICES' groups) and the
 * gateway on the main thread.
 */
export async function startAll(envOverrides: Record<string, string | undefined> = {}, logger?: Logger): Promise<Runtime> {
  const env = { ...process.env, ...envOverrides };
  const config = loadRuntimeConfig(env);
  const log = logger ?? createLogger('runtime', config.LOG_LEVEL);
  let embedded: EmbeddedDb | null = null;
  let databaseUrl = config.DATABASE_URL;
  const dataDir = path.resolve(config.DATA_DIR);
  const writeState = (state: RuntimeState) => fs.writeFileSync(path.join(dataDir, 'runtime.json'), JSON.stringify(state, null, 2));
  if (!databaseUrl) {
    ensureDataDir(dataDir);
    refuseRunningInstance(dataDir);
  }
  const reserved = await reservePort(config.HOST, config.PORT, loadConfig(baseConfigSchema, env).ERRORS_BASE_URL, log);
  let keys: { privateKeyPem: string; publicKeyPem: string };
  let bus: Awaited<ReturnType<typeof createBus>>;
  try {
    if (!databaseUrl) {
      embedded = await startEmbeddedPostgres({ dataDir, port: config.EMBEDDED_PG_PORT, log, callerHandlesSignals: true });
      databaseUrl = embedded.url;
      writeState({ pid: process.pid, startTime: processStartTime(process.pid), databaseUrl, port: config.PORT, embeddedPgPort: embedded.port });
    }
    keys =
      config.INTERNAL_JWT_PRIVATE_KEY && config.INTERNAL_JWT_PUBLIC_KEY
        ? { privateKeyPem: config.INTERNAL_JWT_PRIVATE_KEY, publicKeyPem: config.INTERNAL_JWT_PUBLIC_KEY }
        : await generateInternalKeyPair();
    // one bus for every service of the process (the Postgres adapter: one pool and one LISTEN)
    bus = await createBus(loadConfig(baseConfigSchema, { ...env, DATABASE_URL: databaseUrl }), log);
  } catch (err) {
    await reserved.release();
    if (embedded) await embedded.stop().catch((e) => log.error({ err: e }, 'embedded Postgres stop failed'));
    throw err;
  }
  const services: RunningService<any>[] = [];
  const workers: WorkerHandle[] = [];
  const metricSources: Array<() => void> = [];
  const stopAll = async () => {
    for (const drop of metricSources) drop();
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
    const groups = threadGroups(config);
    const threaded = new Set(groups.flat());
    // the main thread's services first (identity among them unless threaded: it bootstraps the owner)
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
    // one worker thread per group, started in turn (each group's services start in the table's order)
    for (const names of groups) {
      const worker = await startWorker(
        {
          names,
          env,
          databaseUrl,
          keys,
          serviceUrls: { ...serviceUrls },
          ports: Object.fromEntries(names.map((n) => [n, servicePort(n as keyof typeof serviceTable, env, config.SERVICE_PORTS)])),
          logLevel: config.LOG_LEVEL,
          logFormat: currentLogFormat().format,
          colorize: currentLogFormat().colorize,
        },
        (name, url) => {
          serviceUrls[name] = url;
        },
        log,
      );
      workers.push(worker);
      metricSources.push(addMetricsSource(() => worker.metrics()));
      log.info({ services: names }, 'runtime: services in a worker thread');
      // every worker's services learn the URLs known so far (an earlier group's did not know this one's)
      for (const w of workers) w.post({ type: 'urls', urls: { ...serviceUrls } });
    }
    // every service has its port: the gateway takes its own over (a moment of refused connections)
    await reserved.release();
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
    if (embedded) {
      const port = Number(new URL(gateway.url).port);
      writeState({ pid: process.pid, startTime: processStartTime(process.pid), databaseUrl, port, url: gateway.url, embeddedPgPort: embedded.port, services: { ...serviceUrls } });
    }
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
    await reserved.release();
    await stopAll();
    throw err;
  }
}

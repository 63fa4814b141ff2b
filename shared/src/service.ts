import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { type Request, type Response, type NextFunction } from 'express';
import { z } from 'zod';
import type { EntitySchema } from '@mikro-orm/core';
import { successStatuses, serviceTable, isRouteMatch, type AreaService } from '@bop/contracts';
import { baseConfigSchema, loadConfig, type BaseConfig } from './config';
import { createLogger, type Logger } from './logger';
import { createOrm, migrate, pendingMigrations, type MigrationEntry, type Orm } from './db';
import { ApiError, BadRequest, NotFound, Unauthorized } from './errors';
import { INTERNAL_TOKEN_HEADER, InternalTokenSigner, InternalTokenVerifier } from './auth';
import { createBus } from './bus';
import type { Bus } from './bus/types';
import { Relay } from './relay';
import { ConsumerRunner } from './consumer-runner';
import { type ConsumerDef, type WorkerDef } from './consumers';
import { processClock, type Clock } from './clock';
import { ServiceClient } from './service-client';
import { valueRefusedByDatabase } from './db-values';
import { malformedPercentEncoding } from './text-guard';
import type { InternalRouteDef, RouteContext, RouteDef, RouteResult } from './routes';
import { inWork, openWork, type OpenWorkOptions, type Work, type WorkScope } from './work';
import { bindWorker, isWorkerSpec, type Worker, type WorkerSpec } from './worker';
import { logRequestOnFinish, startRequestId } from './request-log';
import { kitRequest, listenHttp, urlHost, type HttpListener, type KitRequest } from './http-server';
import { installServiceMetrics, watchService } from './telemetry/service-metrics';
import { nameServerSpan, serveTraced, useAsyncTraceContext } from './telemetry/trace-context';
import { HOST_PATHS, compileRoutes, undocumented } from './service-routes';
import { hasBody, bodyReadError, guardInput } from './request-input';
import { buildContext, resolveOrgUnitReach } from './request-context';
import { send, renderError } from './response';

export interface ServiceRuntime<C = BaseConfig> {
  name: AreaService;
  schema: string;
  config: C;
  orm: Orm;
  log: Logger;
  /** the event bus (publishing is the relay's job; consumers are the kit's) */
  bus: Bus;
  clock: Clock;
  /** other services' internal commands */
  services: ServiceClient;
  /** a write in a unit of its own, as `system` (start-up work; consumers and workers get theirs from the kit) */
  write<T>(fn: (work: Work) => Promise<T>, opts?: OpenWorkOptions): Promise<T>;
  /** a read in a unit of its own (no transaction; `emit` refuses) */
  read<T>(fn: (work: Work) => Promise<T>): Promise<T>;
}

export interface ServiceDefinition<S extends z.ZodObject = z.ZodObject> {
  name: AreaService;
  /** settings of this service on top of the kit's (validated from env) */
  configSchema?: S;
  entities: EntitySchema<any, any>[];
  migrations: MigrationEntry[];
  routes: (svc: ServiceRuntime<BaseConfig & z.output<S>>) => RouteDef[];
  internalRoutes?: (svc: ServiceRuntime<BaseConfig & z.output<S>>) => InternalRouteDef[];
  /** handlers of events, run at least once and never twice (see ConsumerDef) */
  consumers?: (svc: ServiceRuntime<BaseConfig & z.output<S>>) => ConsumerDef[];
  /** background loops, started after the service listens and stopped first on close */
  workers?: (svc: ServiceRuntime<BaseConfig & z.output<S>>) => Array<WorkerDef | WorkerSpec>;
  onStart?: (svc: ServiceRuntime<BaseConfig & z.output<S>>) => Promise<void>;
  /** runs first on close, before the listener stops: ends long-lived answers (live streams) so closing does not wait out the grace period for them */
  onClosing?: (svc: ServiceRuntime<BaseConfig & z.output<S>>) => Promise<void>;
  onStop?: (svc: ServiceRuntime<BaseConfig & z.output<S>>) => Promise<void>;
  /**
   * The location ids in these org units and their sub-units (from the service's replica of the
   * organization). When given, a person's org-unit reach is resolved before the handler runs:
   * `ctx.reach().locationIds` then holds those locations too (`orgUnitsResolved`). `current` is set for
   * writes: the owner's present answer then decides (read-your-writes), the replica for reads.
   */
  locationsInOrgUnits?: (on: Pick<Work, 'em' | 'services'>, orgUnitIds: string[], opts?: { current?: boolean }) => Promise<string[]>;
}

/** A service's runtime from its parts (`startService`'s, or a command's without the HTTP side). */
export function serviceRuntime<C>(parts: Omit<ServiceRuntime<C>, 'write' | 'read'>): ServiceRuntime<C> {
  const scope: WorkScope = { schema: parts.schema, clock: parts.clock, log: parts.log, services: parts.services };
  return {
    ...parts,
    write: (fn, o) => inWork(parts.orm, scope, fn, o),
    read: (fn) => fn(openWork(scope, parts.orm.em.fork(), false).work),
  };
}

/** Declares a service; `startService` runs it. Checks every route is a catalogue row this service owns. */
export function createService<S extends z.ZodObject = z.ZodObject>(def: ServiceDefinition<S>): ServiceDefinition<S> {
  return def;
}

export interface StartOptions {
  env?: Record<string, string | undefined>;
  /** a bus shared by the services of one process (else one is made from config) */
  bus?: Bus;
  clock?: Clock;
  /** other services' URLs, for internal commands (else SERVICE_URL_<NAME> from env); read at call time */
  serviceUrls?: Partial<Record<AreaService, string>>;
  internalPrivateKeyPem?: string;
  port?: number;
  host?: string;
  databaseUrl?: string;
  internalPublicKeyPem?: string;
  logger?: Logger;
  /** run migrations on start (default true) */
  migrate?: boolean;
  /** run the outbox relay (default: RELAY_ENABLED); tests turn it off to hold events back */
  relay?: boolean;
  /** start the declared workers' loops (default true); tests turn them off and call `worker(name).runOnce()` */
  workers?: boolean;
}

export interface RunningService<C = BaseConfig> {
  name: AreaService;
  url: string;
  port: number;
  runtime: ServiceRuntime<C>;
  relay: Relay | null;
  consumers: ConsumerRunner;
  served: string[];
  /** a declared worker (defineWorker), for `runOnce()` */
  worker(name: string): Worker;
  ready(): Promise<{ ok: boolean; pending: string[]; error?: string }>;
  close(): Promise<void>;
}


export async function startService<S extends z.ZodObject>(def: ServiceDefinition<S>, opts: StartOptions = {}): Promise<RunningService<BaseConfig & z.output<S>>> {
  // with tracing on, this thread's trace context follows awaits from now on (handlers, queries, outbox rows, consumers)
  useAsyncTraceContext();
  const env = { ...process.env, ...(opts.env ?? {}) };
  if (opts.databaseUrl) env.DATABASE_URL = opts.databaseUrl;
  if (opts.internalPublicKeyPem) env.INTERNAL_JWT_PUBLIC_KEY = opts.internalPublicKeyPem;
  const schema = baseConfigSchema.extend(def.configSchema?.shape ?? {});
  const config = loadConfig(schema, env) as BaseConfig & z.output<S>;
  if (!config.DATABASE_URL) throw new Error(`${def.name}: DATABASE_URL is required`);
  if (!config.INTERNAL_JWT_PUBLIC_KEY) throw new Error(`${def.name}: INTERNAL_JWT_PUBLIC_KEY is required`);
  const log = opts.logger ?? createLogger(def.name, config.LOG_LEVEL);
  const schemaName = serviceTable[def.name].schema;
  const orm = await createOrm({
    schema: schemaName,
    clientUrl: config.DATABASE_URL,
    entities: def.entities,
    migrations: def.migrations,
    poolMax: config.DB_POOL_MAX,
    debug: config.DB_DEBUG,
  });
  if (opts.migrate !== false) {
    const ran = await migrate(orm, schemaName);
    if (ran.length > 0) log.info({ migrations: ran }, 'migrations applied');
  }
  if (opts.internalPrivateKeyPem) config.INTERNAL_JWT_PRIVATE_KEY = opts.internalPrivateKeyPem;
  const ownBus = opts.bus ? null : await createBus(config, log).catch(async (err) => {
    await orm.close(true);
    throw err;
  });
  const bus = opts.bus ?? ownBus!;
  // read at call time: a runtime may fill it in as its services start (each on a port of its own)
  const serviceUrls: Partial<Record<AreaService, string>> = opts.serviceUrls ?? {};
  for (const name of Object.keys(serviceTable) as AreaService[]) {
    const url = env[`SERVICE_URL_${name.toUpperCase()}`];
    if (url && !serviceUrls[name]) serviceUrls[name] = url;
  }
  const signer = config.INTERNAL_JWT_PRIVATE_KEY ? await InternalTokenSigner.fromPem(config.INTERNAL_JWT_PRIVATE_KEY) : null;
  const runtime = serviceRuntime({ name: def.name, schema: schemaName, config, orm, log, bus, clock: opts.clock ?? processClock, services: new ServiceClient(serviceUrls, signer) });
  const scope: WorkScope = { schema: schemaName, clock: runtime.clock, log, services: runtime.services };
  // the replicas of this service read through from their owners with its client
  const verifier = await InternalTokenVerifier.fromPem(config.INTERNAL_JWT_PUBLIC_KEY);
  const { table, served } = compileRoutes(def.name, def.routes(runtime), def.internalRoutes?.(runtime) ?? []);

  // not ready while the database does not answer (an outage): 503, and 200 again once it is back
  const ready = async () => {
    try {
      const pending = await withinMs(READY_TIMEOUT_MS, 'the database did not answer in time', async () => {
        await orm.em.getConnection().execute('select 1');
        return pendingMigrations(orm);
      });
      return { ok: pending.length === 0, pending };
    } catch (err) {
      return { ok: false, pending: [], error: (err as Error).message };
    }
  };

  // health and readiness go through express; every other request takes the request path below with
  // express's request/response prototypes but without its router (as the gateway does)
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use((req: Request, res: Response, next: NextFunction) => {
    startRequestId(req, res);
    next();
  });
  const observeRequest = installServiceMetrics(app, { service: def.name, config, table });
  const hostPaths = observeRequest ? new Set([...HOST_PATHS, '/metrics']) : HOST_PATHS;
  app.get('/health', (_req, res) => {
    res.json({ status: 'ok', service: def.name });
  });
  app.get('/ready', async (_req, res) => {
    const r = await ready();
    res.status(r.ok ? 200 : 503).json({ status: r.ok ? 'ready' : 'not_ready', service: def.name, ...r });
  });
  app.use((_req: Request, _res: Response) => {
    throw new NotFound('endpoint');
  });
  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    renderError(err, req, res, config.ERRORS_BASE_URL, log);
  });

  const accessLog = log.isLevelEnabled('info');
  const parseJson = express.json({ limit: config.REQUEST_BODY_LIMIT, type: ['application/json', 'application/*+json'] });
  const readBody = (req: KitRequest, res: ServerResponse) =>
    new Promise<void>((resolve, reject) => parseJson(req, res, (err?: unknown) => (err === undefined ? resolve() : reject(bodyReadError(err)))));

  const serve = async (req: KitRequest, res: ServerResponse): Promise<void> => {
    const token = req.headers[INTERNAL_TOKEN_HEADER];
    const principal = typeof token === 'string' ? await verifier.verify(token) : null;
    if (!principal) throw new Unauthorized('Services accept only requests carrying a valid internal token.');
    if (req.path === '/internal/routes' && req.method === 'GET') {
      send(req, res, { body: { service: def.name, served } });
      return;
    }
    const match = table.match(req.method, req.path);
    if (!isRouteMatch(match)) throw new NotFound('endpoint');
    const compiled = match.value;
    nameServerSpan(def.name, req.method, compiled.row?.path ?? compiled.def.key.slice(compiled.def.key.indexOf(' ') + 1), req);
    // internal routes serve the platform only; a public caller reaches nothing but public rows
    if (compiled.row === null && principal.kind !== 'system') throw new ApiError('forbidden', 'Internal routes are for the platform only.');
    if (principal.kind === 'anonymous' && compiled.row?.people !== 'public') throw new Unauthorized();
    guardInput(req, compiled, match.params, config.JSON_MAX_DEPTH);
    const ctx = buildContext(req, principal, compiled, match.params, orm, log, scope);
    // a unit's reach is known before its handler runs: a person without the row's permission is refused here
    // (unless the row lets the caller's own data pass without it, `orSelf`: the handler decides)
    if (!(compiled.row && typeof compiled.row.people === 'object' && compiled.row.people.orSelf)) ctx.reach();
    if (def.locationsInOrgUnits) await resolveOrgUnitReach(ctx, def.locationsInOrgUnits);
    let result: RouteResult;
    try {
      // the kit opens the transaction of every write (unless the route says { transaction: false }) and commits it with the unit's events
      const inTransaction = req.method !== 'GET' && req.method !== 'HEAD' && compiled.def.options?.transaction !== false;
      result = inTransaction ? await ctx.transaction((work) => compiled.def.handler(work as RouteContext)) : await compiled.def.handler(ctx);
    } catch (err) {
      throw valueRefusedByDatabase(err) ?? err; // a value the contract let through but a column cannot hold: the caller's 422
    }
    const status = send(req, res, result, compiled.status);
    if (compiled.row && status !== (compiled.status ?? 200) && !successStatuses(compiled).includes(status)) {
      const key = `${compiled.def.key} ${status}`;
      if (!undocumented.has(key)) log.warn({ key }, 'answered a success status the contracts do not document');
      undocumented.add(key);
    }
  };

  const handler = (rawReq: IncomingMessage, rawRes: ServerResponse): void => {
    const url = rawReq.url ?? '/';
    const q = url.indexOf('?');
    const path = (q < 0 ? url : url.slice(0, q)).toLowerCase();
    if ((rawReq.method === 'GET' || rawReq.method === 'HEAD') && hostPaths.has(path.endsWith('/') ? path.slice(0, -1) : path)) {
      app(rawReq, rawRes);
      return;
    }
    const req = kitRequest(rawReq);
    const res = rawRes;
    startRequestId(req, res);
    observeRequest?.(req, res);
    // the gateway's polling of internal GETs would drown the request log
    if (accessLog && !(req.method === 'GET' && path.startsWith('/internal/'))) logRequestOnFinish(log, req, res);
    const run = async () => {
      try {
        const malformed = malformedPercentEncoding(url);
        if (malformed) throw new BadRequest(malformed);
        if (hasBody(req)) await readBody(req, res);
        await serve(req, res);
      } catch (err) {
        renderError(err, req, res, config.ERRORS_BASE_URL, log);
      }
    };
    serveTraced(req, res, () => void run());
  };

  const host = opts.host ?? config.HOST;
  let listener: HttpListener | null = null;
  const relay = config.RELAY_ENABLED && opts.relay !== false
    ? new Relay({
        schema: schemaName,
        topic: def.name,
        connectionString: config.DATABASE_URL,
        bus,
        log,
        pollMs: config.RELAY_POLL_MS,
        retention: { outboxMs: config.OUTBOX_RETENTION_HOURS * 3_600_000, busMs: config.BUS_RETENTION_HOURS * 3_600_000, checkMs: config.RETENTION_CHECK_MS },
      })
    : null;
  const consumers = new ConsumerRunner(def.consumers?.(runtime) ?? [], { service: def.name, schema: schemaName, orm, bus, log, maxAttempts: config.CONSUMER_MAX_ATTEMPTS, scope });
  const workers = (def.workers?.(runtime) ?? []).map((w) => (isWorkerSpec(w) ? bindWorker(w, orm, scope) : w));
  const runWorkers = opts.workers !== false;
  const stopBackground = async () => {
    if (runWorkers) for (const w of workers) await w.stop();
    await consumers.stop();
    await relay?.stop();
  };
  try {
    listener = await listenHttp(handler, opts.port ?? Number(env.PORT ?? serviceTable[def.name].port), host, { errorsBaseUrl: config.ERRORS_BASE_URL });
    if (def.onStart) await def.onStart(runtime);
    relay?.start();
    await consumers.start();
    if (runWorkers) for (const w of workers) await w.start();
  } catch (err) {
    await stopBackground();
    await listener?.close(0);
    await ownBus?.close();
    await orm.close(true);
    throw err;
  }
  const actualPort = listener.port;
  log.info({ port: actualPort, served: served.length }, `${def.name} listening`);

  const unwatch = watchService({ service: def.name, schema: schemaName, orm, bus, consumers, config });
  let closing: Promise<void> | null = null;
  const close = () =>
    (closing ??= (async () => {
      unwatch();
      if (def.onClosing) await def.onClosing(runtime).catch((err: unknown) => log.warn({ err }, 'onClosing failed'));
      await listener!.close(config.SHUTDOWN_GRACE_MS);
      await stopBackground();
      if (def.onStop) await def.onStop(runtime);
      await ownBus?.close();
      await orm.close(true);
    })());

  const worker = (name: string): Worker => {
    const found = workers.find((w) => w.name === name);
    if (!found || !('runOnce' in found)) throw new Error(`${def.name} declares no worker ${name} (defineWorker)`);
    return found as Worker;
  };
  return { name: def.name, url: `http://${urlHost(host)}:${actualPort}`, port: actualPort, runtime, relay, consumers, served, worker, ready, close };
}


const READY_TIMEOUT_MS = 3000;

/** `work()`, or a rejection after `ms` (a readiness probe answers even when a connection attempt hangs). */
export async function withinMs<T>(ms: number, message: string, work: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  try {
    return await Promise.race([work(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

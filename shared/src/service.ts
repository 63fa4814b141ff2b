import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import express, { type Request, type Response, type NextFunction } from 'express';
import { z } from 'zod';
import fresh from 'fresh';
import type { EntitySchema } from '@mikro-orm/core';
import {
  findEndpoint,
  operationSchemas,
  successStatuses,
  serviceTable,
  RouteTable,
  isRouteMatch,
  type AreaService,
  type EndpointRow,
  type HttpMethod,
} from '@bop/contracts';
import { baseConfigSchema, loadConfig, type BaseConfig } from './config';
import { createLogger, type Logger } from './logger';
import { createOrm, migrate, pendingMigrations, type EntityManager, type MigrationEntry, type Orm } from './db';
import { ApiError, BadRequest, NotFound, ServiceUnavailable, Unauthorized, ValidationError, VersionMismatch } from './errors';
import { isDatabaseUnavailable } from './db-faults';
import { PROBLEM_CONTENT_TYPE, problemBody } from './problem';
import { INTERNAL_TOKEN_HEADER, InternalTokenSigner, InternalTokenVerifier, reachFor, type Principal, type ReachSet } from './auth';
import { createBus } from './bus';
import type { Bus } from './bus/types';
import { Relay } from './relay';
import { ConsumerRunner } from './consumer-runner';
import { type ConsumerDef, type WorkerDef } from './consumers';
import { processClock, type Clock } from './clock';
import { ServiceClient } from './service-client';
import { bindReadThrough } from './read-through';
import { zodFieldErrors } from './validation';
import { valueRefusedByDatabase } from './db-values';
import { badTextInParams, malformedPercentEncoding, scanJson } from './text-guard';
import type { InternalRouteDef, RouteContext, RouteDef, RouteResult } from './routes';
import { newId } from './ids';
import { inWork, openWork, type OpenWorkOptions, type Work, type WorkScope } from './work';
import { writeTransaction } from './write-transaction';
import { bindWorker, isWorkerSpec, type Worker, type WorkerSpec } from './worker';
import { logRequestOnFinish, requestLogger, startRequestId } from './request-log';
import { kitRequest, listenHttp, urlHost, type HttpListener, type KitRequest } from './http-server';
import { installServiceMetrics, watchService } from './telemetry/service-metrics';
import { nameServerSpan, serveTraced, useAsyncTraceContext } from './telemetry/trace-context';

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
  /**
   * The kit opens the transaction of every write (rows other than GET, unless a route says
   * `{ transaction: false }`) and commits it with the unit's events (issue 37). Services not yet moved
   * to units open their own; this flag goes once every service has moved.
   */
  unitOfWork?: boolean;
  onStart?: (svc: ServiceRuntime<BaseConfig & z.output<S>>) => Promise<void>;
  onStop?: (svc: ServiceRuntime<BaseConfig & z.output<S>>) => Promise<void>;
  /**
   * The location ids in these org units and their sub-units (from the service's replica of the
   * organization). When given, a person's org-unit reach is resolved before the handler runs:
   * `ctx.reach().locationIds` then holds those locations too (`orgUnitsResolved`). `current` is set for
   * writes: the owner's present answer then decides (read-your-writes), the replica for reads.
   */
  locationsInOrgUnits?: (em: EntityManager, orgUnitIds: string[], opts?: { current?: boolean }) => Promise<string[]>;
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

interface Compiled {
  def: RouteDef;
  row: EndpointRow | null;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  status?: number;
  alsoStatuses?: readonly number[];
  /** top-level body fields holding a batch's raw records (`z.array(z.unknown())`): judged record by record by the handler */
  recordFields?: ReadonlySet<string>;
}

const undocumented = new Set<string>();

/** Success statuses this process answered that the endpoint's operation schemas do not document (`"<key> <status>"`); a test asserts none. */
export function undocumentedStatuses(): string[] {
  return [...undocumented];
}

/** The body fields whose records a batch handler parses one by one (an array of `unknown` in the contract). */
function recordFieldsOf(body: z.ZodType | undefined): ReadonlySet<string> | undefined {
  if (!(body instanceof z.ZodObject)) return undefined;
  const fields = new Set<string>();
  for (const [key, field] of Object.entries(body.shape as Record<string, z.ZodType>)) {
    if (field instanceof z.ZodArray && field.element instanceof z.ZodUnknown) fields.add(key);
  }
  return fields.size > 0 ? fields : undefined;
}

/** Host-level GETs of a service, answered through express (not access-logged). */
const HOST_PATHS = new Set(['/health', '/ready']);

function compileRoutes(name: AreaService, routes: RouteDef[], internal: InternalRouteDef[]): { table: RouteTable<Compiled>; served: string[] } {
  const table = new RouteTable<Compiled>();
  const served: string[] = [];
  for (const def of routes) {
    const row = findEndpoint(def.key);
    if (!row) throw new Error(`${name}: route ${def.key} is not in the endpoint catalogue`);
    if (row.service !== name) throw new Error(`${name}: route ${def.key} belongs to ${row.service}`);
    const schemas = operationSchemas(def.key) ?? {};
    table.add(row.method, row.path, { def, row, ...schemas, recordFields: recordFieldsOf(schemas.body) });
    served.push(def.key);
  }
  for (const def of internal) {
    const [method, path] = def.key.split(' ');
    if (!path.startsWith('/internal/')) throw new Error(`${name}: internal route ${def.key} must live under /internal/`);
    table.add(method as HttpMethod, path, { def, row: null, body: def.schemas.body, query: def.schemas.query });
  }
  return { table, served };
}

function parseIfMatch(header: string | undefined): number | '*' | null | 'invalid' {
  if (header === undefined) return null;
  const first = header.split(',')[0].trim();
  if (first === '*') return '*';
  const m = /^(?:W\/)?"?(\d+)"?$/.exec(first);
  return m ? Number(m[1]) : 'invalid';
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
  bindReadThrough(orm, runtime.services);
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
    if (def.unitOfWork) ctx.reach();
    if (def.locationsInOrgUnits) await resolveOrgUnitReach(ctx, def.locationsInOrgUnits);
    let result: RouteResult;
    try {
      const inTransaction = def.unitOfWork === true && req.method !== 'GET' && req.method !== 'HEAD' && compiled.def.options?.transaction !== false;
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

/** As body-parser (type-is) decides it: without either header there is no body to read. */
function hasBody(req: IncomingMessage): boolean {
  return req.headers['transfer-encoding'] !== undefined || !Number.isNaN(Number(req.headers['content-length']));
}

/** What reading the body failed on, as the caller's error: a body that does not inflate or decode is a 400, not a 500. */
function bodyReadError(err: unknown): unknown {
  if (err instanceof ApiError || typeof err !== 'object' || err === null) return err;
  const e = err as { type?: unknown; status?: unknown; message?: unknown; limit?: unknown; encoding?: unknown; charset?: unknown };
  if (e.type === 'entity.too.large') return new ApiError('payload_too_large', `The request body is larger than the limit (${e.limit} bytes).`);
  if (e.type === 'entity.parse.failed') return new BadRequest('The body is not valid JSON.');
  if (e.type === 'encoding.unsupported') return new BadRequest(`Content-Encoding ${String(e.encoding)} is not supported; send gzip, deflate, br or none.`);
  if (e.type === 'charset.unsupported') return new BadRequest(`Charset ${String(e.charset)} is not supported; send UTF-8.`);
  if (typeof e.status === 'number' && e.status >= 400 && e.status < 500) return new BadRequest(`The body could not be read (${String(e.message)}).`);
  return err;
}

/**
 * The kit's edge (see text-guard.ts): NUL or a lone surrogate in a path parameter or a query key or
 * value is a 400 naming the parameter; JSON nested deeper than JSON_MAX_DEPTH a 400; bad text in a
 * body string or key a 422 naming the field — except inside a batch's records, which the handler
 * judges one by one (a bad record is `rejected`, the rest are stored).
 */
function guardInput(req: KitRequest, compiled: Compiled, rawParams: Record<string, string>, maxDepth: number): void {
  const inPath = badTextInParams(rawParams);
  if (inPath.length > 0) throw new BadRequest('A path parameter holds text that cannot be accepted.', inPath);
  const query = req.query as Record<string, unknown> | undefined;
  if (query) {
    const inQuery = badTextInParams(query);
    if (inQuery.length > 0) throw new BadRequest('A query parameter holds text that cannot be accepted.', inQuery);
  }
  if (req.body !== null && typeof req.body === 'object') {
    const scan = scanJson(req.body, { maxDepth, skipTextUnder: compiled.recordFields });
    if (scan.tooDeepAt !== null) {
      throw new BadRequest(`The body nests deeper than ${maxDepth} levels (JSON_MAX_DEPTH).`, [{ path: scan.tooDeepAt, message: `Nested deeper than ${maxDepth} levels.` }]);
    }
    if (scan.errors.length > 0) throw new ValidationError(scan.errors, 'The body holds text that cannot be accepted.');
  }
}

function buildContext(req: KitRequest, principal: Principal, compiled: Compiled, rawParams: Record<string, string>, orm: Orm, log: Logger, scope: WorkScope): RouteContext {
  const params = compiled.params ? parseOrThrow(compiled.params, rawParams, 'params') : rawParams;
  const query = compiled.query ? parseOrThrow(compiled.query, req.query, 'query') : req.query;
  let body: unknown = undefined;
  if (compiled.body) {
    const raw = req.body === undefined ? {} : req.body;
    if (req.body === undefined && Number(req.headers['content-length'] ?? 0) > 0) {
      throw new BadRequest('Send the body as JSON with Content-Type: application/json.');
    }
    body = parseOrThrow(compiled.body, raw, 'body');
  }
  const ifMatch = parseIfMatch(req.headers['if-match'] as string | undefined);
  const row = compiled.row;
  const permission = row && typeof row.people === 'object' ? row.people.permission : null;
  let em: EntityManager | undefined;
  const now = scope.clock.now();
  // on `/me` rows a person acts as their employee (supplement: the actor follows from the caller)
  const actor: Principal = row?.path.startsWith('/me') && principal.kind === 'user' && principal.employeeId ? { ...principal, actingAsEmployee: true } : principal;
  const ctx: RouteContext = {
    requestId: (req as any).id,
    principal,
    row,
    params,
    query,
    body,
    // forked and made on first use
    get em() {
      return (em ??= orm.em.fork());
    },
    get log() {
      return requestLogger(req as { id?: string; log?: Logger }, log);
    },
    headers: req.headers,
    request: req,
    now,
    actor,
    schema: scope.schema,
    services: scope.services,
    reach() {
      const reach = reachFor(principal, permission);
      if (!reach) throw new ApiError('forbidden', `You lack the permission ${permission}.`);
      return reach;
    },
    checkVersion(current: number) {
      if (ifMatch === null || ifMatch === '*') return;
      if (ifMatch === 'invalid' || ifMatch !== current) throw new VersionMismatch(current);
    },
    emit(event) {
      throw new Error(`${event.type}: a read records no events (emit in a write: a route other than GET, a consumer, a worker's write)`);
    },
    transaction<T>(fn: (work: Work) => Promise<T>): Promise<T> {
      return writeTransaction(
        orm.em.fork(),
        async (tem) => {
          // the unit on this transaction: the request's context with `em` and `emit` bound to it
          const unit = openWork(scope, tem, true, { actor, now, log: ctx.log });
          const inUnit: RouteContext = Object.create(ctx, { em: { value: tem }, emit: { value: unit.work.emit } });
          const result = await fn(inUnit);
          await unit.flush();
          return result;
        },
        compiled.def.options?.conflict ?? defaultConflict,
        compiled.def.options?.attempts,
      );
    },
  };
  return ctx;
}

const defaultConflict = (): ApiError => new ApiError('conflict', 'A concurrent request wrote the same record; send the request again.');

/** Adds the locations of a person's org-unit reach to the reach the handler sees (one query, only when there are org units). */
async function resolveOrgUnitReach(ctx: RouteContext, resolve: NonNullable<ServiceDefinition['locationsInOrgUnits']>): Promise<void> {
  let reach: ReachSet;
  try {
    reach = ctx.reach();
  } catch {
    return; // no permission: the handler's own ctx.reach() refuses
  }
  if (reach.everyone || reach.orgUnitIds.size === 0) return;
  // a write reaches what organization says now (read-your-writes); reads use the replica
  const ids = await resolve(ctx.em, [...reach.orgUnitIds], { current: ctx.row !== null && ctx.row.method !== 'GET' });
  const resolved: ReachSet = { ...reach, locationIds: new Set([...reach.locationIds, ...ids]), orgUnitsResolved: true };
  ctx.reach = () => resolved;
}

function parseOrThrow(schema: z.ZodType, value: unknown, part: 'params' | 'query' | 'body'): any {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const errors = zodFieldErrors(parsed.error);
  if (part === 'body') throw new ValidationError(errors);
  if (part === 'params') {
    // a typed segment that is malformed (a date such as 2026-13-45) is a bad request naming it; an id that matches nothing stays 404
    const malformed = parsed.error.issues.filter(isMalformedTypedValue);
    if (malformed.length > 0) throw new BadRequest('A path parameter is malformed.', zodFieldErrors(new z.ZodError(malformed)));
    throw new NotFound('record');
  }
  throw new BadRequest('The query parameters are not valid.', errors);
}

const TYPED_FORMATS = new Set(['date', 'datetime', 'time', 'duration']);

function isMalformedTypedValue(issue: z.core.$ZodIssue): boolean {
  if (issue.code === 'invalid_format') return TYPED_FORMATS.has(issue.format);
  return issue.code === 'invalid_type' && (issue.expected === 'number' || issue.expected === 'int');
}

/**
 * Writes a route's answer: its headers, `ETag` from a body's `version`, and the body as JSON — written
 * here rather than by express's `res.json`/`res.send`, which cost 5% of a plain read's CPU (node
 * --cpu-prof under `npm run bench`) for content negotiation and ETag work these answers do not use. As
 * express does, a GET or HEAD whose `If-None-Match` names the current ETag is a 304 without a body.
 */
function send(req: IncomingMessage, res: ServerResponse, result: RouteResult, defaultStatus?: number): number {
  const status = result.status ?? defaultStatus ?? 200;
  if (result.headers) for (const [k, v] of Object.entries(result.headers)) res.setHeader(k, v);
  const body = result.body as { version?: unknown } | undefined;
  if (body && typeof body === 'object' && typeof body.version === 'number') res.setHeader('ETag', `"${body.version}"`);
  res.statusCode = status;
  if (result.stream) {
    sendStream(req, res, result.stream);
    return status;
  }
  if (status === 204 || result.body === undefined) {
    res.end();
    return status;
  }
  const head = req.method === 'HEAD';
  if ((head || req.method === 'GET') && status >= 200 && status < 300 && (req.headers['if-none-match'] || req.headers['if-modified-since'])) {
    if (fresh(req.headers, { etag: res.getHeader('ETag'), 'last-modified': res.getHeader('Last-Modified') })) {
      res.statusCode = 304;
      res.end();
      return status;
    }
  }
  const json = JSON.stringify(result.body);
  const type = res.getHeader('Content-Type');
  if (type === undefined) res.setHeader('Content-Type', 'application/json; charset=utf-8');
  else if (!/;\s*charset=/i.test(String(type))) res.setHeader('Content-Type', `${String(type)}; charset=utf-8`);
  res.setHeader('Content-Length', Buffer.byteLength(json));
  res.end(head ? undefined : json);
  return status;
}

/** Streams stored bytes as the answer; a read that fails midway ends the connection (the length already sent cannot be kept). */
function sendStream(req: IncomingMessage, res: ServerResponse, stream: Readable): void {
  if (req.method === 'HEAD') {
    stream.destroy();
    res.end();
    return;
  }
  pipeline(stream, res).catch(() => {
    stream.destroy();
    res.destroy();
  });
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

/** Maps anything thrown to RFC 9457 problem details; unknown errors are logged and become 500. */
export function renderError(err: unknown, req: IncomingMessage & { id?: string; log?: Logger }, res: ServerResponse, errorsBase: string, log: Logger): void {
  let apiError: ApiError;
  if (err instanceof ApiError) apiError = err;
  else if (isBodyParserError(err)) {
    apiError =
      err.type === 'entity.too.large'
        ? new ApiError('payload_too_large', `The request body is larger than the limit (${err.limit} bytes).`)
        : new BadRequest(err.type === 'entity.parse.failed' ? 'The body is not valid JSON.' : `The body could not be read (${err.type}).`);
  } else if (isDatabaseUnavailable(err)) {
    // an outage (Postgres restarting, unreachable, out of connections), not a fault of this request
    requestLogger(req, log).warn({ err: (err as Error).message }, 'database unavailable');
    apiError = new ServiceUnavailable('The database is not reachable right now; retry with backoff.');
  } else {
    requestLogger(req, log).error({ err }, 'unhandled error');
    apiError = new ApiError('internal_error', 'Something went wrong on our side; retry with backoff and quote the requestId.');
  }
  if (res.headersSent) {
    res.end();
    return;
  }
  const requestId = req.id ?? newId('request');
  if (apiError.headers) for (const [k, v] of Object.entries(apiError.headers)) res.setHeader(k, v);
  const body = JSON.stringify(problemBody(apiError, requestId, errorsBase));
  res.statusCode = apiError.status;
  res.setHeader('Content-Type', `${PROBLEM_CONTENT_TYPE}; charset=utf-8`);
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(req.method === 'HEAD' ? undefined : body);
}

function isBodyParserError(err: unknown): err is { type: string; limit?: number } {
  return typeof err === 'object' && err !== null && typeof (err as { type?: unknown }).type === 'string' && 'expose' in err;
}

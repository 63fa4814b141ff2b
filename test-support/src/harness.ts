/**
 * Test harness: a fresh database per test file on the run's Postgres, services started for real
 * over HTTP, and internal tokens signed with a per-file key pair. No mocks of our database or bus.
 */
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import {
  createPostgresBus,
  generateInternalKeyPair,
  InternalTokenSigner,
  startService,
  createLogger,
  type InternalKeyPair,
  type Principal,
  type Reach,
  type RunningService,
  type ServiceDefinition,
  type Bus,
  type Clock,
} from '@bop/shared';
import { permissionNames } from '@bop/contracts';
import { checkApiResponse, checkServiceResponse } from './openapi-validation';

export function adminUrl(): string {
  const url = process.env.TEST_PG_ADMIN_URL;
  if (!url) throw new Error('TEST_PG_ADMIN_URL is not set: run the tests through jest (global setup starts Postgres)');
  return url;
}

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/**
 * Creates a database for a test. Empty by default (services migrate it when they start); `migrated`: a
 * copy of the run's template with every service's migrations applied (test/global-setup.mjs), which a
 * service finds up to date — what the harness's runtime and service starters use.
 */
export async function freshDatabase(opts: { migrated?: boolean } = {}): Promise<TestDatabase> {
  const name = `t_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const template = opts.migrated ? process.env.TEST_PG_TEMPLATE : undefined;
  const admin = new Client({ connectionString: adminUrl() });
  await admin.connect();
  try {
    await admin.query(`create database "${name}"${template ? ` template "${template}"` : ''}`);
  } finally {
    await admin.end();
  }
  const u = new URL(adminUrl());
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    name,
    async drop() {
      const c = new Client({ connectionString: adminUrl() });
      await c.connect();
      await c.query(`drop database if exists "${name}" with (force)`);
      await c.end();
    },
  };
}

let keysPromise: Promise<{ keys: InternalKeyPair; signer: InternalTokenSigner }> | null = null;
export function testKeys() {
  keysPromise ??= (async () => {
    const keys = await generateInternalKeyPair();
    return { keys, signer: await InternalTokenSigner.fromPem(keys.privateKeyPem) };
  })();
  return keysPromise;
}

export const everyone: Reach[] = [{ type: 'everyone' }];

/** A person with the given permissions (default: every permission at Everyone). */
export function person(perms?: Record<string, Reach[]>, extra: Partial<Principal> = {}): Principal {
  const permissions = perms ?? Object.fromEntries(permissionNames.map((p) => [p, everyone]));
  return { kind: 'user', via: 'session', id: 'usr_test', userId: 'usr_test', permissions, ...extra };
}

export function integration(scopes: string[], extra: Partial<Principal> = {}): Principal {
  return { kind: 'integration', via: 'integration_key', id: 'int_test', integrationId: 'int_test', scopes, ...extra };
}

export const system: Principal = { kind: 'system', via: 'internal', id: 'system' };

export interface HttpResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export async function http<T = any>(
  base: string,
  method: string,
  path: string,
  opts: { body?: unknown; rawBody?: string; headers?: Record<string, string>; direct?: boolean } = {},
): Promise<HttpResult<T>> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  let payload: string | undefined = opts.rawBody;
  if (opts.body !== undefined) {
    payload = JSON.stringify(opts.body);
    headers['content-type'] ??= 'application/json';
  } else if (payload !== undefined) headers['content-type'] ??= 'application/json';
  const res = await fetch(`${base}${path}`, { method, headers, body: payload });
  const text = await res.text();
  let body: any = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // keep text
  }
  if (opts.direct) checkServiceResponse(method, path, res.status, res.headers.get('content-type'), body);
  else checkApiResponse(method, path, res.status, res.headers.get('content-type'), body);
  return { status: res.status, headers: res.headers, body };
}

export interface TestService {
  svc: RunningService<any>;
  db: TestDatabase;
  /** call the service directly with an internal token for `as` (default: a person with every permission) */
  call<T = any>(method: string, path: string, opts?: { as?: Principal; body?: unknown; headers?: Record<string, string> }): Promise<HttpResult<T>>;
  close(): Promise<void>;
}

/** Starts one service on a fresh database (port 0) for a test file. */
/** `workers: false` starts no worker loop: the test runs rounds with `svc.worker(name).runOnce()`. */
export async function startTestService(def: ServiceDefinition<any>, env: Record<string, string> = {}, opts: { clock?: Clock; workers?: boolean } = {}): Promise<TestService> {
  const db = await freshDatabase({ migrated: true });
  const { keys, signer } = await testKeys();
  const svc = await startService(def, {
    databaseUrl: db.url,
    internalPublicKeyPem: keys.publicKeyPem,
    port: 0,
    host: '127.0.0.1',
    clock: opts.clock,
    workers: opts.workers,
    env: { LOG_LEVEL: 'silent', ...env },
    logger: createLogger(def.name, process.env.TEST_LOG_LEVEL ?? 'silent'),
  });
  return {
    svc,
    db,
    async call(method, path, opts = {}) {
      const token = await signer.sign(opts.as ?? person());
      return http(svc.url, method, path, { body: opts.body, headers: { 'x-internal-token': token, ...(opts.headers ?? {}) }, direct: true });
    },
    async close() {
      await svc.close();
      await db.drop();
    },
  };
}

export interface TestServices {
  db: TestDatabase;
  /** the bus every service of the stack shares (the real `postgres` adapter, or the one given) */
  bus: Bus;
  /** each service by name, callable with an internal token like `startTestService` */
  services: Record<string, TestService>;
  close(): Promise<void>;
}

/**
 * Starts several services on one fresh database and one bus, each knowing the others' URLs and
 * holding the signing key for internal commands (as the runtime wires them).
 */
export async function startTestServices(
  defs: ServiceDefinition<any>[],
  env: Record<string, string> = {},
  opts: { clock?: Clock; relay?: boolean; workers?: boolean; bus?: Bus } = {},
): Promise<TestServices> {
  const db = await freshDatabase({ migrated: true });
  const { keys, signer } = await testKeys();
  // `bus`: another adapter (a Kafka suite's), closed with the stack; else the Postgres bus on the stack's database
  const bus = opts.bus ?? (await createPostgresBus({ connectionString: db.url, log: createLogger('bus', 'silent') }));
  // each service binds a port of its own (0) and is published here as it starts: no port race with
  // other test files running in parallel
  const serviceUrls: Record<string, string> = {};
  const running: RunningService<any>[] = [];
  const services: Record<string, TestService> = {};
  const closeAll = async () => {
    for (const r of running.reverse()) await r.close();
    await bus.close();
  };
  try {
    for (const def of defs) {
      const svc = await startService(def, {
        databaseUrl: db.url,
        internalPublicKeyPem: keys.publicKeyPem,
        internalPrivateKeyPem: keys.privateKeyPem,
        bus,
        serviceUrls,
        clock: opts.clock,
        relay: opts.relay,
        workers: opts.workers,
        port: 0,
        host: '127.0.0.1',
        env: { LOG_LEVEL: 'silent', ...env },
        logger: createLogger(def.name, process.env.TEST_LOG_LEVEL ?? 'silent'),
      });
      running.push(svc);
      serviceUrls[def.name] = svc.url;
      services[def.name] = {
        svc,
        db,
        async call(method, path, o = {}) {
          const token = await signer.sign(o.as ?? person());
          return http(svc.url, method, path, { body: o.body, headers: { 'x-internal-token': token, ...(o.headers ?? {}) }, direct: true });
        },
        close: () => svc.close(),
      };
    }
  } catch (err) {
    await closeAll();
    await db.drop();
    throw err;
  }
  return {
    db,
    bus,
    services,
    async close() {
      await closeAll();
      await db.drop();
    },
  };
}

/** Polls until `check` returns a value (not undefined/false) or the time is up (30 s by default: where a test gives up, which a loaded CI machine may need). */
export async function eventually<T>(check: () => Promise<T | undefined | false>, ms = 30_000, every = 50): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value as T;
    if (Date.now() > until) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((r) => setTimeout(r, every));
  }
}

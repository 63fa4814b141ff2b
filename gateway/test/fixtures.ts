import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLogger, InternalTokenVerifier, startService, type Principal, type RunningService } from '@bop/shared';
import type { AreaService } from '@bop/contracts';
import { identityService } from '@svc/identity';
import { organizationService } from '@svc/organization';
import { freshDatabase, http as call, system, testKeys, type HttpResult, type TestDatabase } from '@bop/test-support';
import { startGateway, type RunningGateway } from '../src';

export const ADMIN_EMAIL = 'owner@example.com';
export const ADMIN_PASSWORD = 'correct-horse-battery-staple';
const silent = (name: string) => createLogger(name, process.env.TEST_LOG_LEVEL ?? 'silent');

export interface Stack {
  db: TestDatabase;
  identity: RunningService<any>;
  organization: RunningService<any>;
  services: Partial<Record<AreaService, string>>;
  /** starts a gateway over the stack's services (closed with the stack) */
  gateway(env?: Record<string, string>, extraServices?: Partial<Record<AreaService, string>>): Promise<RunningGateway>;
  /** calls a service directly as the platform (system principal) */
  internal<T = any>(svc: RunningService<any>, method: string, path: string, body?: unknown): Promise<HttpResult<T>>;
  close(): Promise<void>;
}

/** Identity and organization for real on a fresh database, and gateways in front of them. */
export async function startStack(): Promise<Stack> {
  const db = await freshDatabase();
  const { keys, signer } = await testKeys();
  const common = { databaseUrl: db.url, internalPublicKeyPem: keys.publicKeyPem, port: 0, host: '127.0.0.1' };
  const identity = await startService(identityService, {
    ...common,
    env: { LOG_LEVEL: 'silent', BOOTSTRAP_ADMIN_EMAIL: ADMIN_EMAIL, BOOTSTRAP_ADMIN_PASSWORD: ADMIN_PASSWORD },
    logger: silent('identity'),
  });
  const organization = await startService(organizationService, { ...common, env: { LOG_LEVEL: 'silent' }, logger: silent('organization') });
  const services = { identity: identity.url, organization: organization.url };
  const gateways: RunningGateway[] = [];
  return {
    db,
    identity,
    organization,
    services,
    async gateway(env = {}, extra = {}) {
      const gw = await startGateway({
        env: { LOG_LEVEL: 'silent', ...env },
        databaseUrl: db.url,
        internalPrivateKeyPem: keys.privateKeyPem,
        serviceUrls: { ...services, ...extra },
        port: 0,
        host: '127.0.0.1',
        logger: silent('gateway'),
      });
      gateways.push(gw);
      return gw;
    },
    async internal(svc, method, path, body) {
      return call(svc.url, method, path, { body, headers: { 'x-internal-token': await signer.sign(system) } });
    },
    async close() {
      for (const gw of gateways) await gw.close();
      await organization.close();
      await identity.close();
      await db.drop();
    },
  };
}

export async function signIn(base: string, email = ADMIN_EMAIL, password = ADMIN_PASSWORD): Promise<string> {
  const r = await call(base, 'POST', '/api/v1/auth/sign-in', { body: { email, password } });
  if (r.status !== 200) throw new Error(`sign-in failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.token as string;
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

export interface FakeService {
  url: string;
  /** requests it received (after the gateway) */
  seen: Array<{ method: string; url: string; headers: http.IncomingHttpHeaders; body: string; principal: Principal | null }>;
  close(): Promise<void>;
}

/**
 * A stand-in service (a real local HTTP server) for behaviour the real services cannot be made to show
 * on demand: slow answers, 5xx answers. It checks the internal token like a real service.
 */
export async function startFakeService(service: AreaService, served: string[]): Promise<FakeService> {
  const { keys } = await testKeys();
  const verifier = await InternalTokenVerifier.fromPem(keys.publicKeyPem);
  const seen: FakeService['seen'] = [];
  let n = 0;
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const token = req.headers['x-internal-token'];
    const principal = typeof token === 'string' ? await verifier.verify(token) : null;
    const json = (status: number, value: unknown, type = 'application/json') => {
      res.writeHead(status, { 'content-type': type });
      res.end(JSON.stringify(value));
    };
    if (req.url === '/ready' || req.url === '/health') return json(200, { status: 'ready', pending: [] });
    if (!principal) return json(401, { code: 'unauthorized' }, 'application/problem+json');
    if (req.url === '/internal/routes') return json(200, { service, served });
    seen.push({ method: req.method!, url: req.url!, headers: req.headers, body, principal });
    const input = body ? JSON.parse(body) : {};
    if (input.delayMs) await new Promise((r) => setTimeout(r, input.delayMs));
    if (input.fail) return json(500, { code: 'internal_error', status: 500 }, 'application/problem+json');
    if (req.method === 'GET') return json(200, { data: [], nextCursor: null, hasMore: false, url: req.url });
    res.writeHead(201, { 'content-type': 'application/json', location: `/things/${++n}`, etag: '"1"' });
    res.end(JSON.stringify({ n, input, principal: principal.id, requestId: req.headers['x-request-id'] }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

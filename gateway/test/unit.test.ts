import { buildOpenApi, endpointKey, endpoints, features, type EndpointRow } from '@bop/contracts';
import type { Principal } from '@bop/shared';
import { accessDenial } from '../src/steps/authorize';
import { compileRouteTable, lookupRoute } from '../src/steps/route-match';
import { featureCheck, FeatureSwitches } from '../src/steps/features';
import http from 'node:http';
import net from 'node:net';
import { parseByteSize, readBody } from '../src/steps/idempotency';
import { bucketOf } from '../src/steps/authenticate';
import { CachedToken } from '../src/internal';
import type { GatewayRequest } from '../src/context';
import { validateOpenApi } from './openapi-validate';

const apiRows = endpoints.filter((r) => !(r.service === 'gateway' && r.path.startsWith('/api/')));

/** A concrete request path for a template: each `{param}` becomes a sample value. */
function samplePath(row: EndpointRow): { path: string; params: Record<string, string> } {
  const params: Record<string, string> = {};
  const path = row.path.replace(/\{([A-Za-z0-9_]+)\}/g, (_m, name: string) => {
    params[name] = `v_${name}-1`;
    return params[name];
  });
  return { path, params };
}

describe('route matching over the whole catalogue', () => {
  const table = compileRouteTable();

  it('matches every row to itself, with its parameters', () => {
    expect(apiRows.length).toBeGreaterThan(300);
    for (const row of apiRows) {
      const { path, params } = samplePath(row);
      const found = lookupRoute(table, row.method, path);
      expect(found && 'route' in found ? found.route.key : found).toBe(endpointKey(row));
      if (found && 'route' in found) expect(found.params).toEqual(params);
    }
  });

  it('tells custom `:verb` actions apart from the plain resource', () => {
    const claim = lookupRoute(table, 'POST', '/shifts/shf_1:claim');
    expect(claim && 'route' in claim && claim.route.key).toBe('POST /shifts/{id}:claim');
    expect(claim && 'route' in claim && claim.params).toEqual({ id: 'shf_1' });
    const plain = lookupRoute(table, 'GET', '/shifts/shf_1');
    expect(plain && 'route' in plain && plain.route.key).toBe('GET /shifts/{id}');
    const disable = lookupRoute(table, 'POST', '/features/inventory.waste:disable');
    expect(disable && 'route' in disable && disable.route.featureToggle).toBe('disable');
    expect(disable && 'route' in disable && disable.params).toEqual({ key: 'inventory.waste' });
    const unknownVerb = lookupRoute(table, 'POST', '/shifts/shf_1:explode');
    expect(unknownVerb !== null && 'route' in unknownVerb).toBe(false);
  });

  it('decodes parameters and ignores a trailing slash', () => {
    const found = lookupRoute(table, 'GET', '/locations/external/a%20b/');
    expect(found && 'route' in found && found.params).toEqual({ externalId: 'a b' });
  });

  it('answers null for unknown paths and lists the methods of a known path', () => {
    expect(lookupRoute(table, 'GET', '/nothing-here')).toBeNull();
    expect(lookupRoute(table, 'GET', '/')).toBeNull();
    expect(lookupRoute(table, 'GET', '/locations/a/b/c/d')).toBeNull();
    expect(lookupRoute(table, 'PUT', '/locations')).toEqual({ allowed: ['GET', 'POST'] });
  });

  it('knows the gateway row under /api/v1 and leaves host-level rows out', () => {
    const doc = lookupRoute(table, 'GET', '/openapi.json');
    expect(doc && 'route' in doc && doc.route.row.service).toBe('gateway');
    expect(lookupRoute(table, 'GET', '/api/health')).toBeNull();
  });

  it('marks the rows exempt from pending two-factor enrolment and the rows that change identity', () => {
    const exempt = apiRows.filter((r) => {
      const f = lookupRoute(table, r.method, samplePath(r).path);
      return f && 'route' in f && f.route.mfaExempt;
    });
    expect(exempt.map(endpointKey).sort()).toEqual(['GET /auth/session', 'GET /me', 'POST /auth/mfa/enrollment', 'POST /auth/mfa/enrollment:confirm']);
    const signIn = lookupRoute(table, 'POST', '/auth/sign-in');
    expect(signIn && 'route' in signIn && signIn.route.changesIdentity).toBe(false);
    const revoke = lookupRoute(table, 'DELETE', '/auth/api-keys/key_1');
    expect(revoke && 'route' in revoke && revoke.route.changesIdentity).toBe(true);
  });
});

describe('access rules', () => {
  const row = (key: EndpointRow['key'], people: EndpointRow['people']) => ({ key, people });
  const integration = (scopes: string[]): Principal => ({ kind: 'integration', via: 'integration_key', id: 'int_1', integrationId: 'int_1', keyId: 'key_1', scopes });
  const person = (permissions: Principal['permissions'] = {}): Principal => ({ kind: 'user', via: 'session', id: 'usr_1', sessionId: 'ses_1', permissions });

  it('integration keys: scope, any, not allowed; write does not imply read', () => {
    expect(accessDenial(row({ scope: 'sales:read' }, { permission: 'sales.read' }), integration(['sales:read']))).toBeNull();
    expect(accessDenial(row({ scope: 'sales:read' }, { permission: 'sales.read' }), integration(['sales:write']))?.code).toBe('forbidden');
    expect(accessDenial(row('any', 'anyone'), integration([]))).toBeNull();
    expect(accessDenial(row('not_allowed', 'anyone'), integration(['sales:read']))?.code).toBe('forbidden');
    expect(accessDenial(row({ scope: 'sales:write' }, 'integration_only'), integration(['sales:write']))).toBeNull();
  });

  it('people: permission at any reach, orSelf, anyone, self, integration only', () => {
    const reach = [{ type: 'locations' as const, ids: ['loc_1'] }];
    expect(accessDenial(row({ scope: 'x' }, { permission: 'sales.read' }), person({ 'sales.read': reach }))).toBeNull();
    expect(accessDenial(row({ scope: 'x' }, { permission: 'sales.read' }), person({ 'sales.read': [] }))?.code).toBe('forbidden');
    expect(accessDenial(row({ scope: 'x' }, { permission: 'sales.read' }), person())?.detail).toMatch(/sales\.read/);
    expect(accessDenial(row('not_allowed', { permission: 'api_keys.manage', orSelf: true }), person())).toBeNull();
    expect(accessDenial(row('any', 'anyone'), person())).toBeNull();
    expect(accessDenial(row('any', 'self'), person())).toBeNull();
    expect(accessDenial(row({ scope: 'sales:write' }, 'integration_only'), person({ 'sales.read': reach }))?.code).toBe('forbidden');
    expect(accessDenial(row('any', 'anyone'), { kind: 'system', via: 'internal', id: 'system' })?.code).toBe('forbidden');
  });

  it('rate-limit buckets: per key, else per session', () => {
    expect(bucketOf(integration([]))).toBe('key:key_1');
    expect(bucketOf(person())).toBe('ses:ses_1');
    expect(bucketOf({ kind: 'user', via: 'personal_key', id: 'usr_1', keyId: 'key_9' })).toBe('key:key_9');
  });
});

describe('feature switches step', () => {
  const child = features.find((f) => f.parent)!;
  const table = compileRouteTable(
    [...endpoints.filter((r) => r.path === '/locations'), { method: 'GET', path: '/widgets', service: 'sales', key: 'any', people: 'anyone', feature: child.key, summary: 'test', source: 'spec' }] as EndpointRow[],
  );
  const switches = new FeatureSwitches(undefined, {} as CachedToken, { warn() {}, info() {} } as any, 60);
  const step = featureCheck(switches);
  const request = (path: string): GatewayRequest => {
    const found = lookupRoute(table, 'GET', path);
    if (!found || !('route' in found)) throw new Error('no route');
    return { gw: { route: found.route, params: found.params, limited: false, startedAt: 0 } } as unknown as GatewayRequest;
  };

  it('treats unknown switches as on, and a row of a switched-off feature (or ancestor) as feature_disabled', () => {
    expect(() => step(request('/widgets'))).not.toThrow();
    switches.applyToggle(child.parent!, false);
    expect(() => step(request('/widgets'))).toThrow(expect.objectContaining({ code: 'feature_disabled', status: 404 }));
    expect(() => step(request('/locations'))).not.toThrow(); // no feature: always on
    switches.applyToggle(child.parent!, true);
    switches.applyToggle(child.key, false);
    expect(() => step(request('/widgets'))).toThrow(expect.objectContaining({ code: 'feature_disabled' }));
    switches.applyToggle(child.key, true);
    expect(() => step(request('/widgets'))).not.toThrow();
  });

  it('keeps a child’s own state while its parent is off: the parent on again restores it', () => {
    switches.applyToggle(child.parent!, false);
    switches.applyToggle(child.parent!, true);
    expect(() => step(request('/widgets'))).not.toThrow();
    switches.applyToggle(child.key, false);
    switches.applyToggle(child.parent!, false);
    switches.applyToggle(child.parent!, true);
    expect(() => step(request('/widgets'))).toThrow(expect.objectContaining({ code: 'feature_disabled' }));
    switches.applyToggle(child.key, true);
  });
});

describe('OpenAPI description', () => {
  const everything = new Set(endpoints.map(endpointKey));

  it('is valid OpenAPI 3.1 for the whole catalogue', () => {
    const doc = buildOpenApi({ served: everything, enabledFeature: () => true, serverUrl: 'https://api.example.com/api/v1' });
    expect(doc.openapi).toBe('3.1.0');
    const result = validateOpenApi(doc);
    expect(result.errors).toBeNull();
    expect(result.valid).toBe(true);
    expect(Object.keys(doc.paths).length).toBeGreaterThan(200);
    expect(doc.paths['/api/health']).toBeUndefined();
    expect(doc.paths['/openapi.json']).toBeDefined();
  });

  it('lists only served endpoints of enabled features, with access extensions', () => {
    const served = new Set(['GET /locations', 'POST /locations', 'GET /locations/{id}', 'POST /auth/sign-in', 'GET /sales/transactions', 'POST /shifts/{id}:claim']);
    const doc = buildOpenApi({ served, enabledFeature: (k) => k !== 'sales', serverUrl: 'http://localhost/api/v1' });
    expect(validateOpenApi(doc).valid).toBe(true);
    expect(Object.keys(doc.paths).sort()).toEqual(['/auth/sign-in', '/locations', '/locations/{id}', '/shifts/{id}:claim']);
    const list = doc.paths['/locations'].get;
    expect(list['x-required-scope']).toBe('organization:read');
    expect(list['x-required-permission']).toBe('organization.read');
    expect(list['x-feature']).toBeNull();
    expect(list.tags).toEqual(['Organization']);
    expect(list.responses['401'].$ref).toBe('#/components/responses/Unauthorized');
    expect(list.responses.default.$ref).toBe('#/components/responses/Problem');
    expect(doc.paths['/auth/sign-in'].post.security).toEqual([]);
    expect(doc.paths['/auth/sign-in'].post['x-required-scope']).toBe('not_allowed');
    expect(doc.paths['/shifts/{id}:claim'].post['x-feature']).toBe('scheduling.open_shifts');
    expect(doc.paths['/shifts/{id}:claim'].post.parameters.map((p: any) => p.name)).toEqual(expect.arrayContaining(['id', 'Idempotency-Key']));
    expect(doc.components.schemas.Problem).toBeDefined();
    expect(doc.servers).toEqual([{ url: 'http://localhost/api/v1' }]);
  });
});

it('reads body-size settings', () => {
  expect(parseByteSize('10mb')).toBe(10 * 1024 * 1024);
  expect(parseByteSize('512kb')).toBe(512 * 1024);
  expect(parseByteSize('100')).toBe(100);
  expect(parseByteSize('1.5kb')).toBe(1536);
  expect(parseByteSize(' 2MB ')).toBe(2 * 1024 * 1024);
  for (const bad of ['lots', '', '-1mb', '10 parsecs']) expect(() => parseByteSize(bad)).toThrow(/not a size/);
});

describe('readBody (the gateway reads a body once, to hash it and send it on)', () => {
  /** A server that reads each request's body with a 64-byte limit and says what came of it. */
  async function withServer(send: (port: number, arrived: Promise<void>) => Promise<void>): Promise<Array<{ body?: string; code?: string; status?: number; connection?: string }>> {
    const results: Array<{ body?: string; code?: string; status?: number; connection?: string }> = [];
    let settled!: () => void;
    const done = new Promise<void>((r) => (settled = r));
    let arrive!: () => void;
    const arrived = new Promise<void>((r) => (arrive = r));
    const server = http.createServer((req, res) => {
      arrive();
      readBody(req as unknown as GatewayRequest, 64).then(
        (b) => results.push({ body: b.toString() }),
        (e: { code?: string; status?: number; headers?: Record<string, string> }) => results.push({ code: e.code, status: e.status, connection: e.headers?.Connection }),
      ).finally(() => {
        res.end();
        settled();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      await send((server.address() as net.AddressInfo).port, arrived);
      await done;
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
    return results;
  }

  it('gives the bytes as sent', async () => {
    const got = await withServer(async (port) => {
      await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: '{"a":1}' });
    });
    expect(got).toEqual([{ body: '{"a":1}' }]);
  });

  it('refuses a body over the limit with 413 and a closed connection, announced or streamed', async () => {
    for (const chunked of [false, true]) {
      const got = await withServer(async (port) => {
        const body = 'x'.repeat(100);
        await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: chunked ? new Blob([body]).stream() : body, ...(chunked ? { duplex: 'half' } : {}) } as RequestInit).catch(() => undefined);
      });
      expect(got).toEqual([{ code: 'payload_too_large', status: 413, connection: 'close' }]);
    }
  });

  it('answers 400 for a body cut short (the client gone before its announced length)', async () => {
    const got = await withServer(async (port, arrived) => {
      const socket = net.connect(port, '127.0.0.1');
      await new Promise((r) => socket.once('connect', r));
      socket.write('POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 50\r\n\r\n0123456789');
      // the server is reading the body: the client goes away
      await arrived;
      socket.destroy();
    });
    expect(got).toEqual([{ code: 'bad_request', status: 400, connection: undefined }]);
  });
});

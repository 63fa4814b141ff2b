import { Client } from 'pg';
import { identityAdmin } from '@svc/identity';
import { http } from '@bop/test-support';
import type { RunningGateway } from '../src';
import { validateOpenApi } from './openapi-validate';
import { bearer, signIn, startStack, type Stack } from './fixtures';

let stack: Stack;
let gw: RunningGateway;
let admin: string;

beforeAll(async () => {
  stack = await startStack();
  gw = await stack.gateway({ ERRORS_BASE_URL: 'https://errors.test' });
  admin = await signIn(gw.url);
});
afterAll(async () => {
  await stack?.close();
});

const get = (path: string, headers: Record<string, string> = {}) => http(gw.url, 'GET', path, { headers });

function expectProblem(r: { status: number; headers: Headers; body: any }, status: number, code: string) {
  expect({ status: r.status, code: r.body?.code }).toEqual({ status, code });
  expect(r.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(r.body.type).toBe(`https://errors.test/${code}`);
  expect(r.body.status).toBe(status);
  expect(typeof r.body.title).toBe('string');
  expect(r.body.requestId).toMatch(/^req_/);
  expect(r.body.requestId).toBe(r.headers.get('x-request-id'));
}

function expectRateLimitHeaders(r: { headers: Headers }) {
  expect(Number(r.headers.get('ratelimit-limit'))).toBeGreaterThan(0);
  expect(r.headers.get('ratelimit-remaining')).toMatch(/^\d+$/);
  expect(r.headers.get('ratelimit-reset')).toMatch(/^\d+$/);
}

describe('host level', () => {
  it('GET /api/health: the process is up', async () => {
    const r = await get('/api/health');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ status: 'ok' });
    expect(r.headers.get('x-request-id')).toMatch(/^req_/);
  });

  it('GET /api/ready: every service ready and the gateway migrated', async () => {
    const r = await get('/api/ready');
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('ready');
    expect(r.body.gateway).toEqual({ status: 'ready', pending: [] });
    expect(r.body.services.identity.status).toBe('ready');
    expect(r.body.services.organization.status).toBe('ready');
  });

  it('GET /api/ready: 503 naming the service that does not answer', async () => {
    const other = await stack.gateway({}, { sales: 'http://127.0.0.1:9' });
    const r = await http(other.url, 'GET', '/api/ready');
    expect(r.status).toBe(503);
    expect(r.body.services.sales.status).toBe('unreachable');
    expect(r.body.services.identity.status).toBe('ready');
  });

  it('unknown paths anywhere answer a not_found problem', async () => {
    expectProblem(await get('/nothing/here'), 404, 'not_found');
    const r = await get('/api/v1/nothing-here');
    expectProblem(r, 404, 'not_found');
    expectRateLimitHeaders(r);
  });
});

describe('request path', () => {
  it('echoes a sane X-Request-Id and replaces a bad one', async () => {
    const r = await get('/api/v1/locations', { 'x-request-id': 'client-123' });
    expect(r.headers.get('x-request-id')).toBe('client-123');
    expect(r.body.requestId).toBe('client-123');
    const bad = await get('/api/v1/locations', { 'x-request-id': 'no spaces <allowed>' });
    expect(bad.headers.get('x-request-id')).toMatch(/^req_/);
  });

  it('a known path with another method is not_found, with Allow', async () => {
    const r = await http(gw.url, 'PUT', '/api/v1/locations', { body: {}, headers: bearer(admin) });
    expectProblem(r, 404, 'not_found');
    expect(r.headers.get('allow')).toBe('GET, POST');
  });

  it('without credentials: 401 unauthorized, with rate-limit headers', async () => {
    const r = await get('/api/v1/locations');
    expectProblem(r, 401, 'unauthorized');
    expectRateLimitHeaders(r);
    expectProblem(await get('/api/v1/locations', { authorization: 'Basic abc' }), 401, 'unauthorized');
  });

  it("identity's 401 for an unknown token passes through with this request's id", async () => {
    const r = await get('/api/v1/locations', { ...bearer('pk_live_not-a-real-key'), 'x-request-id': 'abc-1' });
    expect({ status: r.status, code: r.body.code }).toEqual({ status: 401, code: 'unauthorized' });
    expect(r.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(r.headers.get('x-request-id')).toBe('abc-1');
    expect(r.body.requestId).toBe('abc-1');
  });

  it('proxies a signed-in person with every header in order', async () => {
    const r = await get('/api/v1/locations?limit=5', bearer(admin));
    expect(r.status).toBe(200);
    expect(r.body).toEqual(expect.objectContaining({ data: expect.any(Array), hasMore: false }));
    expectRateLimitHeaders(r);
    expect(r.headers.get('ratelimit-limit')).toBe('600');
    const me = await get('/api/v1/me', bearer(admin));
    expect(me.status).toBe(200);
  });

  it('a row no running service serves: 404 not_found, not available in this deployment', async () => {
    const r = await get('/api/v1/sales/transactions', bearer(admin));
    expectProblem(r, 404, 'not_found');
    expect(r.body.detail).toMatch(/not available in this deployment/);
  });
});

describe('feature switches', () => {
  it('a switched-off feature answers feature_disabled before authentication; back on, the row is as before', async () => {
    const off = await http(gw.url, 'POST', '/api/v1/features/sales:disable', { headers: bearer(admin) });
    expect(off.status).toBe(200);
    expectProblem(await get('/api/v1/sales/transactions'), 404, 'feature_disabled');
    expectProblem(await get('/api/v1/sales/transactions', bearer(admin)), 404, 'feature_disabled');
    // a child feature follows its parent
    expectProblem(await http(gw.url, 'PUT', '/api/v1/sales-orders/external/o1', { body: {} }), 404, 'feature_disabled');
    // another gateway learns it from identity
    const other = await stack.gateway({ ERRORS_BASE_URL: 'https://errors.test' });
    expectProblem(await http(other.url, 'GET', '/api/v1/sales/transactions'), 404, 'feature_disabled');

    const on = await http(gw.url, 'POST', '/api/v1/features/sales:enable', { headers: bearer(admin) });
    expect(on.status).toBe(200);
    const r = await get('/api/v1/sales/transactions', bearer(admin));
    expectProblem(r, 404, 'not_found');
    // the children come back as they were (their own switches were kept)
    expectProblem(await http(gw.url, 'PUT', '/api/v1/sales-orders/external/o1', { body: {}, headers: bearer(admin) }), 404, 'not_found');
  });
});

describe('integration keys', () => {
  let key: string;
  beforeAll(async () => {
    const minted = await stack.internal(stack.identity, 'POST', '/internal/integration-keys', { integrationId: 'int_test', scopes: ['organization:read'] });
    expect(minted.status).toBe(201);
    key = minted.body.key;
  });

  it('the right scope passes; ingest rate limit applies', async () => {
    const r = await get('/api/v1/locations', bearer(key));
    expect(r.status).toBe(200);
    expect(r.headers.get('ratelimit-limit')).toBe('3000');
  });

  it('a missing scope is forbidden (write needs organization:write)', async () => {
    const r = await http(gw.url, 'POST', '/api/v1/locations', { body: { name: 'X', timezone: 'Europe/Berlin' }, headers: bearer(key) });
    expectProblem(r, 403, 'forbidden');
    expect(r.body.detail).toMatch(/organization:write/);
  });

  it('a not-allowed row is forbidden for keys; a row for any key passes', async () => {
    expectProblem(await get('/api/v1/auth/session', bearer(key)), 403, 'forbidden');
    expectProblem(await get('/api/v1/users', bearer(key)), 403, 'forbidden');
    expect((await get('/api/v1/me', bearer(key))).status).toBe(200);
  });
});

describe('people and permissions', () => {
  let viewerRole: string;
  let nobodyRole: string;
  let userId: string;
  let viewer: string;

  beforeAll(async () => {
    const role = await http(gw.url, 'POST', '/api/v1/roles', { body: { name: 'Viewer', permissions: ['organization.read'] }, headers: bearer(admin) });
    expect(role.status).toBe(201);
    viewerRole = role.body.id;
    const none = await http(gw.url, 'POST', '/api/v1/roles', { body: { name: 'Nothing', permissions: [] }, headers: bearer(admin) });
    expect(none.status).toBe(201);
    nobodyRole = none.body.id;
    const user = await identityAdmin.createAdmin(stack.identity.runtime, { email: 'viewer@example.com', password: 'another-long-password' });
    userId = user.id;
    const put = await http(gw.url, 'PUT', `/api/v1/users/${userId}/assignments`, {
      body: { assignments: [{ roleId: viewerRole, reach: { type: 'everyone' } }] },
      headers: bearer(admin),
    });
    expect(put.status).toBe(200);
    viewer = await signIn(gw.url, 'viewer@example.com', 'another-long-password');
  });

  it('a person without the permission is forbidden; with it passes', async () => {
    expect((await get('/api/v1/locations', bearer(viewer))).status).toBe(200);
    const r = await http(gw.url, 'POST', '/api/v1/locations', { body: { name: 'X', timezone: 'Europe/Berlin' }, headers: bearer(viewer) });
    expectProblem(r, 403, 'forbidden');
    expect(r.body.detail).toMatch(/locations\.manage/);
    expectProblem(await get('/api/v1/users', bearer(viewer)), 403, 'forbidden');
  });

  it('a role change through this gateway applies at the next request (auth cache dropped)', async () => {
    expect((await get('/api/v1/locations', bearer(viewer))).status).toBe(200);
    const put = await http(gw.url, 'PUT', `/api/v1/users/${userId}/assignments`, {
      body: { assignments: [{ roleId: nobodyRole, reach: { type: 'everyone' } }] },
      headers: bearer(admin),
    });
    expect(put.status).toBe(200);
    expectProblem(await get('/api/v1/locations', bearer(viewer)), 403, 'forbidden');
  });
});

describe('idempotency (real organization service)', () => {
  it('replays the stored answer, refuses another body under the same key', async () => {
    const headers = { ...bearer(admin), 'idempotency-key': 'loc-create-1' };
    const body = { name: 'Idempotent Bistro', timezone: 'Europe/Berlin' };
    const first = await http(gw.url, 'POST', '/api/v1/locations', { body, headers });
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await http(gw.url, 'POST', '/api/v1/locations', { body, headers });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('content-type')).toBe(first.headers.get('content-type'));
    expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
    expectRateLimitHeaders(again);

    const other = await http(gw.url, 'POST', '/api/v1/locations', { body: { ...body, name: 'Other' }, headers });
    expectProblem(other, 409, 'conflict');
    const list = await get('/api/v1/locations?limit=200', bearer(admin));
    expect(list.body.data.filter((l: { name: string }) => l.name === 'Idempotent Bistro')).toHaveLength(1);

    // another caller's same key is another key
    const viaKey = await http(gw.url, 'POST', '/api/v1/locations', { body: { ...body, name: 'Second' }, headers: { ...bearer(admin), 'idempotency-key': 'loc-create-2' } });
    expect(viaKey.status).toBe(201);
  });

  it('an expired key is a new key (records last IDEMPOTENCY_TTL_HOURS, 24 by default)', async () => {
    const headers = { ...bearer(admin), 'idempotency-key': 'expiring-1' };
    const first = await http(gw.url, 'POST', '/api/v1/locations', { body: { name: 'Expiring', timezone: 'UTC' }, headers });
    expect(first.status).toBe(201);
    const db = new Client({ connectionString: stack.db.url });
    await db.connect();
    try {
      const row = await db.query(`select state, status, extract(epoch from expires_at - created_at)::int as ttl from gateway.idempotency_keys where key = 'expiring-1'`);
      expect(row.rows[0]).toEqual(expect.objectContaining({ state: 'completed', status: 201 }));
      expect(row.rows[0].ttl).toBe(24 * 3600);
      await db.query(`update gateway.idempotency_keys set expires_at = now() - interval '1 second' where key = 'expiring-1'`);
    } finally {
      await db.end();
    }
    const again = await http(gw.url, 'POST', '/api/v1/locations', { body: { name: 'Expiring 2', timezone: 'UTC' }, headers });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(again.body.id).not.toBe(first.body.id);
  });

  it('stores 4xx answers too, and refuses a key over 255 characters', async () => {
    const headers = { ...bearer(admin), 'idempotency-key': 'bad-body-1' };
    const first = await http(gw.url, 'POST', '/api/v1/locations', { body: { name: '' }, headers });
    expect(first.status).toBe(422);
    const again = await http(gw.url, 'POST', '/api/v1/locations', { body: { name: '' }, headers });
    expect(again.status).toBe(422);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expectProblem(await http(gw.url, 'POST', '/api/v1/locations', { body: { name: 'A', timezone: 'UTC' }, headers: { ...bearer(admin), 'idempotency-key': 'k'.repeat(256) } }), 400, 'bad_request');
  });
});

describe('OpenAPI and docs', () => {
  it('GET /api/v1/openapi.json: valid 3.1, served endpoints of enabled features only', async () => {
    const r = await get('/api/v1/openapi.json');
    expect(r.status).toBe(200);
    expectRateLimitHeaders(r);
    const doc = r.body;
    const result = validateOpenApi(doc);
    expect(result.errors).toBeNull();
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers[0].url).toBe(`${gw.url}/api/v1`);
    expect(doc.paths['/locations'].get['x-required-scope']).toBe('organization:read');
    expect(doc.paths['/locations'].post.requestBody).toBeDefined();
    expect(doc.paths['/auth/sign-in'].post).toBeDefined();
    expect(doc.paths['/openapi.json']).toBeDefined();
    expect(doc.paths['/sales/transactions']).toBeUndefined();
    expect(doc.components.schemas.Problem).toBeDefined();
  });

  it('GET /docs/api: the interactive page and its assets, all from this host', async () => {
    const page = await fetch(`${gw.url}/docs/api`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    const html = await page.text();
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(assets.every((a) => a.startsWith('/docs/api/'))).toBe(true);
    expect(assets).toEqual(expect.arrayContaining(['/docs/api/assets/swagger-ui.css', '/docs/api/assets/swagger-ui-bundle.js', '/docs/api/init.js']));
    for (const a of assets) {
      const res = await fetch(`${gw.url}${a}`);
      expect({ a, status: res.status }).toEqual({ a, status: 200 });
      expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(0);
    }
    const init = await (await fetch(`${gw.url}/docs/api/init.js`)).text();
    expect(init).toContain('/api/v1/openapi.json');
    expect((await fetch(`${gw.url}/docs/api/assets/swagger-ui-bundle.js`)).headers.get('content-type')).toMatch(/javascript/);
  });

  it('GET /docs/errors/<code> describes a code', async () => {
    const r = await fetch(`${gw.url}/docs/errors/feature_disabled`);
    expect(r.status).toBe(200);
    expect(await r.text()).toContain('switched off');
    expect((await fetch(`${gw.url}/docs/errors/nope`)).status).toBe(404);
  });
});

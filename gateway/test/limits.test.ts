import { Redis } from 'ioredis';
import { eventually, http } from '@bop/test-support';
import type { RunningGateway } from '../src';
import { bearer, signIn, startFakeService, startStack, type FakeService, type Stack } from './fixtures';

let stack: Stack;
let main: RunningGateway;
let admin: string;

beforeAll(async () => {
  stack = await startStack();
  main = await stack.gateway();
  admin = await signIn(main.url);
});
afterAll(async () => {
  await stack?.close();
});

describe('rate limits (memory store)', () => {
  let gw: RunningGateway;
  beforeAll(async () => {
    gw = await stack.gateway({ API_RATE_LIMIT_PER_MIN: '5', API_INGEST_RATE_LIMIT_PER_MIN: '7', REDIS_URL: '' });
  });

  it('counts per session: RateLimit-* on each answer, then 429 rate_limited with Retry-After', async () => {
    const token = await signIn(main.url);
    const remaining: string[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await http(gw.url, 'GET', '/api/v1/locations', { headers: bearer(token) });
      expect(r.status).toBe(200);
      expect(r.headers.get('ratelimit-limit')).toBe('5');
      expect(Number(r.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
      remaining.push(r.headers.get('ratelimit-remaining')!);
    }
    expect(remaining).toEqual(['4', '3', '2', '1', '0']);
    const over = await http(gw.url, 'GET', '/api/v1/locations', { headers: bearer(token) });
    expect(over.status).toBe(429);
    expect(over.body.code).toBe('rate_limited');
    expect(over.body.requestId).toBe(over.headers.get('x-request-id'));
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(over.headers.get('ratelimit-remaining')).toBe('0');
    // another session has its own budget
    const other = await signIn(main.url);
    expect((await http(gw.url, 'GET', '/api/v1/locations', { headers: bearer(other) })).status).toBe(200);
  });

  it('integration keys get the ingest limit', async () => {
    const minted = await stack.internal(stack.identity, 'POST', '/internal/integration-keys', { integrationId: 'int_rl', scopes: ['organization:read'] });
    const r = await http(gw.url, 'GET', '/api/v1/locations', { headers: bearer(minted.body.key) });
    expect(r.status).toBe(200);
    expect(r.headers.get('ratelimit-limit')).toBe('7');
  });

  it('unauthenticated callers count per address, errors included', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const r = await http(gw.url, 'GET', '/api/v1/no-such-thing');
      expect(r.headers.get('ratelimit-limit')).toBe('5');
      statuses.push(r.status);
    }
    expect(statuses).toEqual([404, 404, 404, 404, 404, 429]);
  });
});

describe('rate limits with Redis unreachable', () => {
  it('the gateway starts and limits in memory until Redis is back', async () => {
    const gw = await stack.gateway({ API_RATE_LIMIT_PER_MIN: '3', REDIS_URL: 'redis://127.0.0.1:9' });
    const token = await signIn(main.url);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const r = await http(gw.url, 'GET', '/api/v1/locations', { headers: bearer(token) });
      expect(r.headers.get('ratelimit-limit')).toBe('3');
      statuses.push(r.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});

if (process.env.REDIS_URL) {
  describe('rate limits (Redis store, REDIS_URL)', () => {
    it('two gateways share one budget per session, kept in Redis', async () => {
      const a = await stack.gateway({ API_RATE_LIMIT_PER_MIN: '4', REDIS_URL: process.env.REDIS_URL! });
      const b = await stack.gateway({ API_RATE_LIMIT_PER_MIN: '4', REDIS_URL: process.env.REDIS_URL! });
      const token = await signIn(main.url);
      const statuses: number[] = [];
      for (const gw of [a, b, a, b, a]) statuses.push((await http(gw.url, 'GET', '/api/v1/locations', { headers: bearer(token) })).status);
      expect(statuses).toEqual([200, 200, 200, 200, 429]);
      const redis = new Redis(process.env.REDIS_URL!);
      try {
        const keys = await redis.keys('bop:gateway:rl:i:ses:*');
        expect(keys.length).toBeGreaterThan(0);
      } finally {
        redis.disconnect();
      }
    });
  });
}

describe('proxy and idempotency against a stand-in service', () => {
  let fake: FakeService;
  let gw: RunningGateway;
  beforeAll(async () => {
    // the stand-in answers bodies of its own (what it was sent), not the document's: no OpenAPI check here
    process.env.OPENAPI_RESPONSE_CHECK = 'off';
    fake = await startFakeService('scheduling', ['GET /shifts', 'POST /shifts']);
    gw = await stack.gateway({}, { scheduling: fake.url });
  });
  afterAll(async () => {
    delete process.env.OPENAPI_RESPONSE_CHECK;
    await fake?.close();
  });

  it('strips Authorization, forwards the request id, the client address and the path below /api/v1, with a signed principal', async () => {
    const r = await http(gw.url, 'GET', '/api/v1/shifts?limit=3&x=a%20b', { headers: { ...bearer(admin), 'x-internal-token': 'forged' } });
    expect(r.status).toBe(200);
    const seen = fake.seen.at(-1)!;
    expect(seen.url).toBe('/shifts?limit=3&x=a%20b');
    expect(seen.headers.authorization).toBeUndefined();
    expect(seen.headers['x-request-id']).toBe(r.headers.get('x-request-id'));
    expect(seen.headers['x-forwarded-for']).toBe('127.0.0.1');
    expect(seen.principal?.kind).toBe('user');
    const post = await http(gw.url, 'POST', '/api/v1/shifts', { body: { hello: 'world' }, headers: bearer(admin) });
    expect(post.status).toBe(201);
    expect(fake.seen.at(-1)!.body).toBe(JSON.stringify({ hello: 'world' }));
  });

  it('the same key while the first request runs: 409 conflict; afterwards the stored answer', async () => {
    const headers = { ...bearer(admin), 'idempotency-key': 'slow-1' };
    const before = fake.seen.length;
    const first = http(gw.url, 'POST', '/api/v1/shifts', { body: { delayMs: 700 }, headers });
    // the first is in flight once the service has it (it answers after 700 ms)
    await eventually(async () => (fake.seen.length > before ? true : undefined), 10_000, 5);
    const during = await http(gw.url, 'POST', '/api/v1/shifts', { body: { delayMs: 700 }, headers });
    expect(during.status).toBe(409);
    expect(during.body.code).toBe('conflict');
    expect(during.body.detail).toMatch(/still being processed/);
    const done = await first;
    expect(done.status).toBe(201);
    const replay = await http(gw.url, 'POST', '/api/v1/shifts', { body: { delayMs: 700 }, headers });
    expect(replay.status).toBe(201);
    expect(replay.body).toEqual(done.body);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.headers.get('location')).toBe(done.headers.get('location'));
    expect(fake.seen.length - before).toBe(1);
  });

  it('a 5xx answer is not stored: the key is free again', async () => {
    const headers = { ...bearer(admin), 'idempotency-key': 'fail-1' };
    const failed = await http(gw.url, 'POST', '/api/v1/shifts', { body: { fail: true }, headers });
    expect(failed.status).toBe(500);
    const retried = await http(gw.url, 'POST', '/api/v1/shifts', { body: { fixed: true }, headers });
    expect(retried.status).toBe(201);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
  });

  it('public rows key idempotency by client address', async () => {
    const headers = { 'idempotency-key': 'sign-in-1' };
    const body = { email: 'owner@example.com', password: 'wrong-password-123' };
    const first = await http(gw.url, 'POST', '/api/v1/auth/sign-in', { body, headers });
    expect(first.status).toBe(401);
    const again = await http(gw.url, 'POST', '/api/v1/auth/sign-in', { body, headers });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
  });

  it('an idempotent POST over the body limit: 413 payload_too_large', async () => {
    const small = await stack.gateway({ REQUEST_BODY_LIMIT: '1kb' }, { scheduling: fake.url });
    const r = await http(small.url, 'POST', '/api/v1/shifts', { body: { pad: 'x'.repeat(2048) }, headers: { ...bearer(admin), 'idempotency-key': 'big-1' } });
    expect(r.status).toBe(413);
    expect(r.body.code).toBe('payload_too_large');
    const ok = await http(small.url, 'POST', '/api/v1/shifts', { body: { pad: 'x' }, headers: { ...bearer(admin), 'idempotency-key': 'big-1' } });
    expect(ok.status).toBe(201);
  });

  it('upstream down: 503 service_unavailable, and an idempotency key is released', async () => {
    await fake.close();
    const r = await http(gw.url, 'GET', '/api/v1/shifts', { headers: bearer(admin) });
    expect(r.status).toBe(503);
    expect(r.body.code).toBe('service_unavailable');
    expect(r.body.requestId).toBe(r.headers.get('x-request-id'));
    expect(r.headers.get('ratelimit-limit')).toBe('600');
    const headers = { ...bearer(admin), 'idempotency-key': 'down-1' };
    expect((await http(gw.url, 'POST', '/api/v1/shifts', { body: { a: 1 }, headers })).status).toBe(503);
    const again = await http(gw.url, 'POST', '/api/v1/shifts', { body: { a: 2 }, headers });
    expect(again.status).toBe(503); // not 409: the key was released
  });
});

describe('two-factor enrolment pending (runs last: it locks the owner out of most rows)', () => {
  it('403 mfa_enrollment_required except on the enrolment rows, the session and /me', async () => {
    const gw = await stack.gateway();
    const token = await signIn(main.url);
    const on = await http(gw.url, 'PATCH', '/api/v1/company-settings', { body: { requireTwoFactor: true }, headers: bearer(token) });
    expect(on.status).toBe(200);
    const r = await http(gw.url, 'GET', '/api/v1/locations', { headers: bearer(token) });
    expect(r.status).toBe(403);
    expect(r.body.code).toBe('mfa_enrollment_required');
    expect((await http(gw.url, 'GET', '/api/v1/me', { headers: bearer(token) })).status).toBe(200);
    expect((await http(gw.url, 'GET', '/api/v1/auth/session', { headers: bearer(token) })).status).toBe(200);
    expect((await http(gw.url, 'POST', '/api/v1/auth/mfa/enrollment', { headers: bearer(token) })).status).not.toBe(403);
  });
});

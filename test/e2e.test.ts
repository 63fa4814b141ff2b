/**
 * End to end: starts the all-in-one runtime as `npm start` does (embedded Postgres, every service,
 * the gateway) in a child process and drives it over HTTP. Needs the build (`npm test` builds first).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '@bop/shared';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { eventually, http } from '@bop/test-support';

const root = path.resolve(__dirname, '..');
let child: ChildProcess;
let base: string;
let output = '';
let dataDir: string;

/** The base URL the runtime prints once it is up (`API:   http://127.0.0.1:<port>/api/v1`). */
async function waitPrinted(ms: number): Promise<string> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const m = /API:\s+(http:\/\/[^\s]+)\/api\/v1/.exec(output);
    if (m) return m[1];
    if (child.exitCode !== null) throw new Error(`runtime exited with ${child.exitCode}:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no base URL printed within ${ms} ms:\n${output}`);
}

async function waitReady(url: string, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    try {
      const res = await fetch(`${url}/api/ready`);
      if (res.status === 200) return;
    } catch {
      // not up yet
    }
    if (child.exitCode !== null) throw new Error(`runtime exited with ${child.exitCode}:\n${output}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`not ready within ${ms} ms:\n${output}`);
}

beforeAll(async () => {
  if (!fs.existsSync(path.join(root, 'runtime/dist/start.js'))) throw new Error('build first: npm run build');
  dataDir = path.join(os.tmpdir(), `bop-e2e-${process.pid}-${Date.now()}`);
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o755 });
  const env: Record<string, string | undefined> = {
    ...process.env,
    // the gateway takes any free port and prints its URL (no probing race with parallel tests)
    PORT: '0',
    DATA_DIR: dataDir,
    EMBEDDED_PG_PORT: String(await freePort()),
    SERVICE_PORTS: 'auto',
    BOOTSTRAP_ADMIN_EMAIL: 'owner@example.com',
    BOOTSTRAP_ADMIN_PASSWORD: undefined,
    LOG_LEVEL: 'warn',
    // the receiver below listens on loopback
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    RELAY_POLL_MS: '200',
    BUS_POLL_MS: '200',
  };
  delete env.DATABASE_URL; // the embedded default, as on a fresh machine
  child = spawn(process.execPath, [path.join(root, 'runtime/dist/start.js')], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (d) => (output += String(d)));
  child.stderr?.on('data', (d) => (output += String(d)));
  base = await waitPrinted(90_000);
  await waitReady(base, 90_000);
}, 120_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

describe('npm start (embedded default)', () => {
  it('prints the base URL and a generated owner password once, and serves the API', async () => {
    expect(output).toContain(`${base}/api/v1`);
    const match = /password[^\n]*?:\s*(\S+)/i.exec(output);
    expect(match).not.toBeNull();
    const password = match![1];

    expect((await http(base, 'GET', '/api/health')).status).toBe(200);

    const signIn = await http(base, 'POST', '/api/v1/auth/sign-in', { body: { email: 'owner@example.com', password } });
    expect(signIn.status).toBe(200);
    const session = signIn.body.token as string;

    const key = await http(base, 'POST', '/api/v1/auth/api-keys', { body: { name: 'e2e' }, headers: { authorization: `Bearer ${session}` } });
    expect(key.status).toBe(201);
    expect(key.body.key).toMatch(/^pk_live_/);
    const auth = { authorization: `Bearer ${key.body.key}` };

    const created = await http(base, 'POST', '/api/v1/locations', {
      body: { name: 'E2E store', timezone: 'Europe/Paris', businessDayCutoff: '03:00', externalId: 'E2E-1' },
      headers: { ...auth, 'Idempotency-Key': 'e2e-create-1' },
    });
    expect(created.status).toBe(201);
    const replay = await http(base, 'POST', '/api/v1/locations', {
      body: { name: 'E2E store', timezone: 'Europe/Paris', businessDayCutoff: '03:00', externalId: 'E2E-1' },
      headers: { ...auth, 'Idempotency-Key': 'e2e-create-1' },
    });
    expect(replay.status).toBe(201);
    expect(replay.body).toEqual(created.body);

    const list = await http(base, 'GET', '/api/v1/locations', { headers: auth });
    expect(list.status).toBe(200);
    expect(list.body.data.map((l: { id: string }) => l.id)).toEqual([created.body.id]);
    expect(list.headers.get('ratelimit-limit')).toBe('600');

    const me = await http(base, 'GET', '/api/v1/me', { headers: auth });
    expect(me.status).toBe(200);

    const openapi = await http(base, 'GET', '/api/v1/openapi.json');
    expect(openapi.status).toBe(200);
    expect(openapi.body.openapi).toMatch(/^3\.1/);
    expect(Object.keys(openapi.body.paths)).toContain('/locations');

    const missing = await http(base, 'GET', '/api/v1/nothing-here', { headers: auth });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('not_found');
    expect(missing.body.requestId).toBe(missing.headers.get('x-request-id'));
  });
});

describe('events end to end (outbox → bus → webhooks → a receiver)', () => {
  let receiver: Server;
  const received: Array<{ headers: Record<string, string | string[] | undefined>; raw: string }> = [];

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        received.push({ headers: req.headers, raw });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  });
  afterAll(async () => {
    await new Promise((r) => receiver.close(r));
  });

  it('delivers location.updated, signed, with the spec envelope and the old values', async () => {
    const password = /password[^\n]*?:\s*(\S+)/i.exec(output)![1];
    const session = (await http(base, 'POST', '/api/v1/auth/sign-in', { body: { email: 'owner@example.com', password } })).body.token;
    const auth = { authorization: `Bearer ${session}` };
    const port = (receiver.address() as { port: number }).port;
    const endpoint = await http(base, 'POST', '/api/v1/webhook-endpoints', {
      headers: auth,
      body: { url: `http://127.0.0.1:${port}/hook`, events: ['location.updated'], description: 'e2e receiver' },
    });
    expect(endpoint.status).toBe(201);
    const secret: string = endpoint.body.secret;
    expect(secret).toMatch(/^whsec_/);

    const loc = await http(base, 'POST', '/api/v1/locations', { headers: auth, body: { name: 'Hooked', timezone: 'Europe/Oslo' } });
    const changed = await http(base, 'PATCH', `/api/v1/locations/${loc.body.id}`, { headers: auth, body: { name: 'Hooked again' } });
    expect(changed.status).toBe(200);

    const got = await eventually(async () => received.find((r) => r.raw.includes(loc.body.id)), 20_000);
    const body = JSON.parse(got.raw);
    expect(body).toEqual({
      id: got.headers['service-event-id'],
      type: 'location.updated',
      createdAt: expect.any(String),
      apiVersion: 'v1',
      actor: { type: 'user', id: expect.stringMatching(/^usr_/) },
      locationId: loc.body.id,
      data: { object: changed.body, previous: { name: 'Hooked' } },
    });
    expect(got.headers['service-event-type']).toBe('location.updated');
    expect(got.headers['user-agent']).toBe('Service-Webhooks/1');
    // verify as a receiver would: HMAC-SHA256 keyed with the secret as issued over "<t>.<raw body>", constant-time compare
    const sig = String(got.headers['service-signature']);
    const t = /t=(\d+)/.exec(sig)![1];
    expect(Math.abs(Date.now() / 1000 - Number(t))).toBeLessThan(300);
    const expected = createHmac('sha256', secret).update(`${t}.${got.raw}`).digest();
    const offered = [...sig.matchAll(/v1=([0-9a-f]+)/g)].map((m) => Buffer.from(m[1], 'hex'));
    expect(offered.some((o) => o.length === expected.length && timingSafeEqual(o, expected))).toBe(true);
    // subscribed to location.updated only: the creation was not sent
    expect(received.filter((r) => r.raw.includes(loc.body.id)).every((r) => JSON.parse(r.raw).type === 'location.updated')).toBe(true);
  });
});

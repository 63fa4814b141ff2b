/**
 * The distributed mode as separate processes, without Docker: the gateway and each service in a Node
 * process of its own, started from their dist entries as the image's command runs them, with the
 * settings docker-compose.yml gives them — hosts and ports rewritten to this machine, the run's
 * Postgres (a fresh database; each service on its own schema) through DATABASE_URL, and the Postgres
 * bus instead of Kafka. Then one flow through the gateway: a sale in, stock and cash updated, a
 * webhook delivered to a real local receiver.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { createServer, type Server } from 'node:http';
import { generateInternalKeyPair } from '@bop/shared';
import { eventually, freshDatabase, http, type TestDatabase } from '@bop/test-support';
import { ROOT, existingServices, interpolate, readCompose, type AppName, type ComposeApp } from './deploy-files';

jest.setTimeout(240_000);

const ADMIN = { email: 'admin@example.com', password: 'distributed-owner-1234' };

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** what this test replaces in the compose settings, and why (everything else is taken as written) */
const DROPPED = new Set([
  'KAFKA_BROKERS', // the Postgres bus instead (BUS=postgres below)
  'SCHEMA_REGISTRY_URL',
  'REDIS_URL', // the gateway's rate limits in memory
  'OTEL_EXPORTER_OTLP_ENDPOINT', // no collector here
]);

/**
 * One process's environment from its compose settings: `${VAR}` from `vars`, compose hosts → 127.0.0.1
 * with each app's port → the local port chosen for it, DATABASE_URL → the test's database, BUS=postgres.
 */
function localEnv(
  app: ComposeApp,
  compose: Map<AppName, ComposeApp>,
  localPorts: Map<AppName, number>,
  databaseUrl: string,
  vars: Record<string, string>,
): Record<string, string> {
  const byHost = new Map([...compose.values()].map((a) => [`${a.service}:${a.env.PORT}`, localPorts.get(a.name)!]));
  const env: Record<string, string> = {};
  for (const [key, raw] of Object.entries(app.env)) {
    if (DROPPED.has(key)) continue;
    let value = interpolate(raw, vars);
    if (key === 'DATABASE_URL') value = databaseUrl;
    else if (key === 'BUS') value = 'postgres';
    else if (key === 'HOST') value = '127.0.0.1';
    else if (key === 'PORT') value = String(localPorts.get(app.name));
    else if (key.startsWith('SERVICE_URL_')) {
      const u = new URL(value);
      const port = byHost.get(`${u.hostname}:${u.port}`);
      if (port === undefined) throw new Error(`${app.service}: ${key}=${value} names no app of docker-compose.yml`);
      value = `http://127.0.0.1:${port}`;
    }
    if (value !== '') env[key] = value;
  }
  return env;
}

interface Proc {
  name: AppName;
  child: ChildProcess;
  output: string[];
  exited: Promise<number | null>;
}

function startProcess(name: AppName, entry: string, env: Record<string, string>): Proc {
  const child = spawn(process.execPath, [entry], { cwd: ROOT, env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  const keep = (chunk: Buffer) => {
    output.push(chunk.toString());
    if (output.length > 200) output.shift();
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { name, child, output, exited };
}

async function untilReady(proc: Proc, url: string, ms = 120_000): Promise<void> {
  let exitCode: number | null | undefined;
  void proc.exited.then((code) => (exitCode = code));
  await eventually(
    async () => {
      if (exitCode !== undefined) throw new Error(`${proc.name} exited (${exitCode}) before it was ready:\n${proc.output.join('').slice(-3000)}`);
      try {
        return (await fetch(url, { signal: AbortSignal.timeout(2000) })).status === 200;
      } catch {
        return false;
      }
    },
    ms,
    200,
  ).catch((err: Error) => {
    throw new Error(`${err.message} (${proc.name} at ${url})\n${proc.output.join('').slice(-3000)}`);
  });
}

const compose = readCompose();
const services = existingServices();
const procs: Proc[] = [];
let db: TestDatabase;
let base: string;
let receiver: Server;
let receiverUrl: string;
const received: Array<{ headers: Record<string, string | string[] | undefined>; body: string }> = [];

beforeAll(async () => {
  for (const name of [...services, 'gateway' as const]) {
    const entry = path.join(ROOT, compose.apps.get(name)!.entry);
    if (!fs.existsSync(entry)) throw new Error(`${entry} is missing: build first (npm run build)`);
  }
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString() });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as net.AddressInfo).port}/hook`;

  db = await freshDatabase();
  const keys = await generateInternalKeyPair();
  const vars = {
    INTERNAL_JWT_PUBLIC_KEY: Buffer.from(keys.publicKeyPem).toString('base64'),
    INTERNAL_JWT_PRIVATE_KEY: Buffer.from(keys.privateKeyPem).toString('base64'),
    BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
    BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
  };
  const localPorts = new Map<AppName, number>();
  for (const name of compose.apps.keys()) localPorts.set(name, await freePort());
  /** test-only settings on top of compose's: the receiver is on loopback, quieter logs */
  const extra: Partial<Record<AppName, Record<string, string>>> = { webhooks: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' } };
  const envOf = (name: AppName) => ({ ...localEnv(compose.apps.get(name)!, compose.apps, localPorts, db.url, vars), LOG_LEVEL: 'warn', ...(extra[name] ?? {}) });

  // the services (in compose's order: each may migrate its schema at once), then the gateway in front of them
  const started = services.map((name) => startProcess(name, compose.apps.get(name)!.entry, envOf(name)));
  procs.push(...started);
  await Promise.all(started.map((p) => untilReady(p, `http://127.0.0.1:${localPorts.get(p.name)}/ready`)));
  const gateway = startProcess('gateway', compose.apps.get('gateway')!.entry, envOf('gateway'));
  procs.push(gateway);
  base = `http://127.0.0.1:${localPorts.get('gateway')}`;
  await untilReady(gateway, `${base}/api/ready`);
});

afterAll(async () => {
  for (const p of procs) if (p.child.exitCode === null) p.child.kill('SIGTERM');
  await Promise.all(
    procs.map(async (p) => {
      // a graceful stop (SHUTDOWN_GRACE_MS), else killed
      const timer = setTimeout(() => p.child.kill('SIGKILL'), 15_000);
      await p.exited;
      clearTimeout(timer);
    }),
  );
  receiver?.closeAllConnections();
  await new Promise((r) => receiver?.close(r));
  await db?.drop().catch(() => undefined);
});

describe('the distributed mode as separate processes (docker-compose.yml settings, the Postgres bus)', () => {
  it('runs each service in a process of its own', () => {
    expect(procs.map((p) => p.name).sort()).toEqual([...services, 'gateway'].sort());
    expect(new Set(procs.map((p) => p.child.pid)).size).toBe(procs.length);
  });

  it('a sale through the gateway decreases stock, updates the expected cash and delivers a webhook', async () => {
    const signIn = await http(base, 'POST', '/api/v1/auth/sign-in', { body: ADMIN });
    expect(signIn.status).toBe(200);
    const auth = { authorization: `Bearer ${signIn.body.token}` };

    const loc = await http(base, 'POST', '/api/v1/locations', { headers: auth, body: { name: 'Distributed cafe', timezone: 'America/New_York', businessDayCutoff: '04:00', externalId: 'DIST-1' } });
    expect(loc.status).toBe(201);
    const item = await http(base, 'POST', '/api/v1/items', { headers: auth, body: { name: 'Cola', sku: 'DIST-COLA', baseUnit: 'each' } });
    expect(item.status).toBe(201);
    const stocked = await http(base, 'POST', '/api/v1/inventory/adjustments', {
      headers: auth,
      body: { locationId: loc.body.id, reason: 'opening_balance', lines: [{ itemId: item.body.id, quantity: '10' }] },
    });
    expect(stocked.status).toBe(201);
    const level = async () => {
      const r = await http(base, 'GET', `/api/v1/stock-levels?itemId=${item.body.id}&locationId=${loc.body.id}`, { headers: auth });
      return r.status === 200 ? (r.body.data[0]?.onHand as string | undefined) : undefined;
    };
    expect(await eventually(async () => (await level()) === '10' && '10', 30_000, 200)).toBe('10');

    const endpoint = await http(base, 'POST', '/api/v1/webhook-endpoints', { headers: auth, body: { url: receiverUrl, events: ['stock.level_changed'] } });
    expect(endpoint.status).toBe(201);
    const secret: string = endpoint.body.secret;

    const integration = await http(base, 'POST', '/api/v1/integrations', {
      headers: auth,
      body: { manifest: { name: 'Distributed POS', version: '1.0.0', description: 'distributed mode test', scopes: ['sales:write', 'sales:read'], webhooks: [] } },
    });
    expect(integration.status).toBe(201);
    const key: string = integration.body.apiKey;
    expect(key).toMatch(/^pk_/);

    // yesterday at noon in New York: business day = that date (cut-off 04:00)
    const day = new Date(Date.now() - 24 * 3600_000).toISOString().slice(0, 10);
    const batch = await http(base, 'POST', '/api/v1/sales/transactions:batch', {
      headers: { authorization: `Bearer ${key}` },
      body: {
        source: 'dist-pos',
        transactions: [
          {
            externalId: 'DIST-SALE-1',
            locationExternalId: 'DIST-1',
            registerId: 'R1',
            occurredAt: `${day}T16:00:00.000Z`,
            lines: [{ itemSku: 'DIST-COLA', name: 'Cola', quantity: '3', unitPrice: '2.00', tax: '0.00' }],
            tenders: [{ type: 'cash', amount: '6.00' }],
            subtotal: '6.00',
            tax: '0.00',
            total: '6.00',
            currency: 'USD',
          },
        ],
      },
    });
    expect(batch.status).toBe(202);
    expect(batch.body).toMatchObject({ received: 1, created: 1 });

    // stock: 10 − 3 (inventory depletes the sale it got over the bus)
    expect(await eventually(async () => (await level()) === '7' && '7', 60_000, 200)).toBe('7');

    // cash: the day's expected cash from the sale (cash consumed it over the bus)
    const expectedCash = await eventually(
      async () => {
        const r = await http(base, 'GET', `/api/v1/cash/business-days?locationId=${loc.body.id}&from=${day}&to=${day}`, { headers: auth });
        const figures = r.status === 200 ? r.body.data[0]?.figures : undefined;
        return figures?.expectedCash === '6.00' ? figures.expectedCash : undefined;
      },
      60_000,
      200,
    );
    expect(expectedCash).toBe('6.00');

    // the webhook: stock.level_changed with the new level, signed with the endpoint's secret
    const delivery = await eventually(
      async () =>
        received.find((d) => {
          const event = JSON.parse(d.body);
          return event.type === 'stock.level_changed' && event.data?.object?.itemId === item.body.id && event.data.object.onHand === '7';
        }),
      60_000,
      200,
    );
    const event = JSON.parse(delivery.body);
    expect(event).toMatchObject({ type: 'stock.level_changed', apiVersion: 'v1', locationId: loc.body.id });
    const signature = String(delivery.headers['service-signature']);
    const t = /t=(\d+)/.exec(signature)![1];
    const expected = createHmac('sha256', secret).update(`${t}.${delivery.body}`).digest('hex');
    expect(signature.split(',')).toContain(`v1=${expected}`);
  });
});

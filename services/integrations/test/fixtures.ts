import { Client } from 'pg';
import type { Principal } from '@bop/shared';
import { system, type TestService, type TestServices } from '@bop/test-support';

/** A clock that runs with real time plus an offset the test moves (heartbeat overdue checks). */
export function movableClock() {
  let offsetMs = 0;
  return {
    now: () => new Date(Date.now() + offsetMs),
    advance(seconds: number) {
      offsetMs += seconds * 1000;
    },
    reset() {
      offsetMs = 0;
    },
  };
}

/** identity prints a generated bootstrap password unless one is given */
export const quietIdentity = { BOOTSTRAP_ADMIN_PASSWORD: 'a-good-long-password-123' };

let n = 0;
export function manifestBody(over: Record<string, unknown> = {}) {
  n += 1;
  return {
    name: `POS bridge ${n}`,
    version: '1.0.0',
    description: 'Sends sales from the till',
    scopes: ['sales:write', 'organization:read'],
    ...over,
  };
}

export interface Registered {
  integration: { id: string; version: number; [k: string]: any };
  apiKey: string;
  webhookSecret: string | null;
}

export async function register(t: TestService, manifest: Record<string, unknown> = {}, config?: Record<string, unknown>): Promise<Registered> {
  const res = await t.call('POST', '/integrations', { body: { manifest: manifestBody(manifest), ...(config ? { config } : {}) } });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as Registered;
}

/** What identity's /internal/authenticate answers for a key (the gateway's view of it). */
export async function authenticate(stack: TestServices, key: string) {
  return stack.services.identity.call('POST', '/internal/authenticate', { as: system, body: { token: key } });
}

export async function principalOf(stack: TestServices, key: string): Promise<Principal> {
  const r = await authenticate(stack, key);
  if (r.status !== 200) throw new Error(`authenticate: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.principal as Principal;
}

export async function sql<T = any>(stack: TestServices, text: string, params: unknown[] = []): Promise<T[]> {
  const c = new Client({ connectionString: stack.db.url });
  await c.connect();
  try {
    return (await c.query(text, params)).rows as T[];
  } finally {
    await c.end();
  }
}

export async function outbox(stack: TestServices, aggregateId: string) {
  return sql<{ type: string; payload: any }>(stack, 'select type, payload from integrations.outbox where aggregate_id = $1 order by seq', [aggregateId]);
}

/** Counts of what the integrations schema holds for an integration. */
export async function stored(stack: TestServices, integrationId: string) {
  const [row] = await sql<{ integrations: string; keys: string; logs: string; batches: string }>(
    stack,
    `select (select count(*) from integrations.integrations where id = $1) as integrations,
            (select count(*) from integrations.integration_keys where integration_id = $1) as keys,
            (select count(*) from integrations.integration_logs where integration_id = $1) as logs,
            (select count(*) from integrations.ingestion_batches where integration_id = $1) as batches`,
    [integrationId],
  );
  return { integrations: Number(row.integrations), keys: Number(row.keys), logs: Number(row.logs), batches: Number(row.batches) };
}

export interface Received {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A real local webhook receiver (not a mock of ours): answers 200 and keeps what it got. */
export async function startReceiver(): Promise<{ url: string; received: Received[]; close(): Promise<void> }> {
  const { createServer } = await import('node:http');
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** spec: Events, Signature — hex HMAC-SHA256 over `<t>.<raw body>`, keyed with the secret as issued (`whsec_…` text). */
export function signatureValid(secret: string, header: string, body: string): boolean {
  const { createHmac, timingSafeEqual } = require('node:crypto') as typeof import('node:crypto');
  const parts = header.split(',');
  const t = parts.find((p) => p.startsWith('t='))!.slice(2);
  const expected = Buffer.from(createHmac('sha256', secret).update(`${t}.${body}`).digest('hex'));
  return parts.filter((p) => p.startsWith('v1=')).some((p) => {
    const got = Buffer.from(p.slice(3));
    return got.length === expected.length && timingSafeEqual(got, expected);
  });
}

/** A catalogue event published on the bus as its area's relay would. */
export async function publishEvent(stack: TestServices, topic: string, type: string, object: Record<string, unknown>) {
  const { newIdWithPrefix } = await import('@bop/shared');
  const envelope = { id: newIdWithPrefix('evt'), type, createdAt: new Date().toISOString(), apiVersion: 'v1', actor: { type: 'system', id: null }, locationId: (object.id as string) ?? null, data: { object } };
  await stack.bus.publish([{ topic, key: String(object.id), eventId: envelope.id, type, payload: envelope }]);
  return envelope;
}

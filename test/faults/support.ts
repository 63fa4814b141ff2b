/**
 * Shared by the fault tests: the compiled runtime in a child process (bench/runtime-process), a signed-in
 * owner, a location, an integration key and an item that sales lines match, and a sales client that
 * keeps every record until an answer acknowledges it, re-sending batches that got no answer.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { BENCH_OWNER, startRuntimeProcess, type RuntimeProcess } from '../../bench/runtime-process';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface Answer {
  status: number;
  body: any;
  headers: Headers;
}

/** A request to the runtime; `null` when no answer came (connection refused or reset: the runtime is down). */
export async function call(base: string, method: string, p: string, body?: unknown, auth?: string): Promise<Answer | null> {
  try {
    const res = await fetch(`${base}${p}`, {
      method,
      headers: { 'content-type': 'application/json', ...(auth ? { authorization: `Bearer ${auth}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(20_000),
    });
    const text = await res.text();
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = text;
    }
    return { status: res.status, body: parsed, headers: res.headers };
  } catch {
    return null;
  }
}

/** `call` that must answer with a 2xx. */
export async function must(base: string, method: string, p: string, body?: unknown, auth?: string): Promise<any> {
  const r = await call(base, method, p, body, auth);
  if (!r || r.status >= 300) throw new Error(`${method} ${p}: ${r ? `${r.status} ${JSON.stringify(r.body).slice(0, 300)}` : 'no answer'}`);
  return r.body;
}

/** Polls `check` every 200 ms for at most `ms`; the last value it returned. */
export async function waitFor<T>(ms: number, check: () => Promise<T | null | false | undefined>): Promise<T | null> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await check().catch(() => null);
    if (v) return v;
    if (Date.now() > until) return null;
    await sleep(200);
  }
}

export interface Stack {
  rt: RuntimeProcess;
  dataDir: string;
  output: string;
  session: string;
  key: string;
  locationId: string;
  itemId: string;
  sku: string;
  db(): Promise<Client>;
  /** stops the runtime and any Postgres it left, removes the data */
  stop(): Promise<void>;
}

/** The runtime, an owner, a location, an integration key and an item sold by SKU, with the sales pipeline warmed up. */
export async function startStack(env: Record<string, string> = {}, opts: { warmSales?: boolean } = {}): Promise<Stack> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bop-faults-'));
  const output = path.join(dataDir, 'runtime.log');
  const rt = await startRuntimeProcess({ API_INGEST_RATE_LIMIT_PER_MIN: '100000000', API_RATE_LIMIT_PER_MIN: '100000000', ...env }, { dataDir, output });
  const clients: Client[] = [];
  const stack: Stack = {
    rt,
    dataDir,
    output,
    session: '',
    key: '',
    locationId: '',
    itemId: '',
    sku: 'FAULT-1',
    async db() {
      const c = new Client({ connectionString: `postgres://postgres:postgres@127.0.0.1:${rt.pgPort}/bop` });
      c.on('error', () => undefined); // the server is killed in some tests
      await c.connect();
      clients.push(c);
      return c;
    },
    async stop() {
      for (const c of clients) await c.end().catch(() => undefined);
      await rt.stop().catch(() => undefined);
      // a Postgres left by a killed runtime
      try {
        const pid = Number(fs.readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
        if (pid > 0) process.kill(pid, 'SIGKILL');
      } catch {
        /* none */
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  try {
    const base = rt.base;
    stack.session = (await must(base, 'POST', '/api/v1/auth/sign-in', BENCH_OWNER)).token;
    stack.locationId = (await must(base, 'POST', '/api/v1/locations', { name: 'Fault store', timezone: 'UTC', businessDayCutoff: '04:00', externalId: 'FAULT-LOC' }, stack.session)).id;
    const reg = await must(base, 'POST', '/api/v1/integrations', { manifest: { name: 'Fault POS', version: '1.0.0', description: 'fault tests', scopes: ['sales:write', 'sales:read', 'inventory:read', 'inventory:write'], webhooks: [] } }, stack.session);
    stack.key = reg.apiKey;
    stack.itemId = (await must(base, 'POST', '/api/v1/items', { name: 'Fault burger', sku: stack.sku, baseUnit: 'each' }, stack.session)).id;
    if (opts.warmSales === false) return stack;
    // the location and the item reach sales' replicas, the location inventory's, through the bus: a
    // probe sale is matched and depleted once all of that is in place (a minute: a loaded CI machine
    // starting every service of the runtime took over 30 s)
    const probe = await waitFor(60_000, async () => {
      const r = await call(base, 'POST', '/api/v1/sales/transactions:batch', { source: 'fault-probe', transactions: [sale('PROBE-0', stack.sku)] }, stack.key);
      return r?.status === 202 && r.body.results[0].status !== 'rejected' ? r : null;
    });
    if (!probe) throw new Error('sales never accepted the probe sale');
    const depleted = await waitFor(60_000, async () => (await onHand(stack)) === '-1');
    if (!depleted) throw new Error(`the probe sale was not depleted (on hand ${await onHand(stack)})`);
    return stack;
  } catch (err) {
    await stack.stop();
    throw err;
  }
}

/** One sale of one unit of `sku` (total 9.18, card). */
export function sale(externalId: string, sku: string, i = 0) {
  return {
    externalId,
    locationExternalId: 'FAULT-LOC',
    occurredAt: new Date(Date.UTC(2026, 9, 1) + i * 7_000).toISOString(),
    type: 'sale',
    lines: [{ itemSku: sku, name: 'Burger', quantity: '1', unitPrice: '8.50', discount: '0.00', tax: '0.68' }],
    tenders: [{ type: 'card', amount: '9.18' }],
    subtotal: '8.50',
    tax: '0.68',
    total: '9.18',
    currency: 'USD',
  };
}

/** The fault item's on-hand quantity at the location (sales deplete it: no stock was received). */
export async function onHand(stack: Stack): Promise<string | null> {
  const r = await call(stack.rt.base, 'GET', `/api/v1/stock-levels?itemId=${stack.itemId}&locationId=${stack.locationId}`, undefined, stack.session);
  if (!r || r.status !== 200) return null;
  const level = (r.body.data as Array<{ onHand: string }>)[0];
  return level ? String(Number(level.onHand)) : null;
}

export interface SalesLoad {
  /** externalIds the server acknowledged (202 with created / updated / unchanged) */
  acked: Set<string>;
  /** answers by status ('none' = no answer), for the assertions on what clients saw */
  statuses: Record<string, number>;
  /** the answers other than 202 (status, code, Retry-After) */
  refusals: Array<{ status: number; code?: string; retryAfter: string | null }>;
  /** resolves when every planned batch was acknowledged (or the deadline passed) */
  done: Promise<void>;
  /** batches acknowledged so far */
  ackedBatches(): number;
}

/**
 * `clients` POS clients sending `batches` batches of `size` sales (externalIds `<prefix>-<n>`), each
 * batch re-sent until an answer acknowledges it: no answer (the runtime is down) or a 503 is retried
 * after a short pause (Retry-After, at most 1 s), as a POS does. Bounded by `deadlineMs`.
 */
export function sendSales(stack: Stack, opts: { prefix: string; batches: number; size: number; clients: number; deadlineMs: number; pauseMs?: number }): SalesLoad {
  const acked = new Set<string>();
  const statuses: Record<string, number> = {};
  const refusals: SalesLoad['refusals'] = [];
  let next = 0;
  let ackedBatches = 0;
  const until = Date.now() + opts.deadlineMs;
  const client = async () => {
    while (next < opts.batches && Date.now() < until) {
      const b = next++;
      const records = Array.from({ length: opts.size }, (_, j) => sale(`${opts.prefix}-${b * opts.size + j}`, stack.sku, b * opts.size + j));
      while (Date.now() < until) {
        const r = await call(stack.rt.base, 'POST', '/api/v1/sales/transactions:batch', { source: 'fault-pos', transactions: records }, stack.key);
        const label = r ? String(r.status) : 'none';
        statuses[label] = (statuses[label] ?? 0) + 1;
        if (r && r.status === 202) {
          for (const [i, res] of (r.body.results as Array<{ status: string }>).entries()) {
            if (res.status === 'rejected') throw new Error(`a sale was rejected: ${JSON.stringify(res)}`);
            acked.add(records[i].externalId);
          }
          ackedBatches += 1;
          break;
        }
        if (r) refusals.push({ status: r.status, code: r.body?.code, retryAfter: r.headers.get('retry-after') });
        await sleep(r ? Math.min(1000, 1000 * Number(r.headers.get('retry-after') ?? '0.2')) : 200);
      }
      if (opts.pauseMs) await sleep(opts.pauseMs);
    }
  };
  const done = Promise.all(Array.from({ length: opts.clients }, client)).then(() => undefined);
  return { acked, statuses, refusals, done, ackedBatches: () => ackedBatches };
}

/** The fault sales stored: externalId → how many rows (a duplicate would show 2). */
export async function storedSales(stack: Stack, prefix: string): Promise<Map<string, number>> {
  const db = await stack.db();
  const { rows } = await db.query<{ external_id: string; n: number }>(
    `select external_id, count(*)::int as n from sales.transactions where source = 'fault-pos' and external_id like $1 group by external_id`,
    [`${prefix}-%`],
  );
  return new Map(rows.map((r) => [r.external_id, r.n]));
}

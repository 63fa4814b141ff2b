/**
 * Webhook delivery: deliveries/s to a local receiver and p50/p99 latency from the commit of an event
 * (in organization's outbox) to its receipt, through the whole path: outbox → relay → bus (postgres)
 * → webhooks fan-out → delivery worker → HTTP receiver.
 * Target (issue): at least 1,000 deliveries/s and p99 under 1 s on the embedded default.
 *
 *   npm run build && node bench/dist/webhooks.js
 *   BENCH_EVENTS=10000 BENCH_RATE=1250 BENCH_BATCH=25 BENCH_RECORDS=1000 change the load;
 *   DATABASE_URL=postgres://… uses that database (a fresh one is better) instead of embedded Postgres.
 *
 * Two runs of BENCH_EVENTS events each (after a warm-up):
 *   paced  — events committed at BENCH_RATE per second in transactions of BENCH_BATCH: the latency
 *            figures (commit → receipt) under a load at or above the target;
 *   burst  — every event committed at once (transactions of 500): the most the path delivers per second.
 * The services run in this process as in the embedded default (default pools and settings); the
 * receiver runs in a child process so its work does not share this event loop.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  createLogger,
  createPostgresBus,
  freePort,
  generateInternalKeyPair,
  InternalTokenSigner,
  startService,
  type Principal,
  type RunningService,
} from '@bop/shared';
import { startEmbeddedPostgres } from '@bop/runtime';
import { organizationService } from '@svc/organization';
import { webhooksService } from '@svc/webhooks';
import { runBench } from './entry';

const events = Number(process.env.BENCH_EVENTS ?? 10_000);
const rate = Number(process.env.BENCH_RATE ?? 1_250);
const batch = Number(process.env.BENCH_BATCH ?? 25);
const records = Number(process.env.BENCH_RECORDS ?? 1_000);
const log = createLogger('bench', process.env.LOG_LEVEL ?? 'warn');

/** The receiver: answers 200 at once and reports (event id, receipt time) pairs to the parent. */
const RECEIVER = `
const http = require('node:http');
let buf = [];
const flush = () => { if (buf.length) { process.send(buf); buf = []; } };
setInterval(flush, 20);
const server = http.createServer((req, res) => {
  const id = req.headers['service-event-id'];
  req.resume();
  req.on('end', () => { buf.push([id, Date.now()]); res.writeHead(200); res.end(); });
});
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
`;

interface Receipts {
  port: number;
  at: Map<string, number>;
  waitFor(ids: string[], timeoutMs: number): Promise<void>;
  stop(): void;
}

async function startReceiver(): Promise<Receipts> {
  const child = spawn(process.execPath, ['-e', RECEIVER], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const at = new Map<string, number>();
  let notify: (() => void) | null = null;
  const port = await new Promise<number>((resolve, reject) => {
    child.once('error', reject);
    child.on('message', (m: unknown) => {
      if (Array.isArray(m)) {
        for (const [id, t] of m as Array<[string, number]>) if (!at.has(id)) at.set(id, t);
        notify?.();
      } else resolve((m as { port: number }).port);
    });
  });
  return {
    port,
    at,
    async waitFor(ids, timeoutMs) {
      const until = Date.now() + timeoutMs;
      while (!ids.every((id) => at.has(id))) {
        if (Date.now() > until) throw new Error(`only ${ids.filter((id) => at.has(id)).length} of ${ids.length} events arrived within ${timeoutMs} ms`);
        await new Promise<void>((r) => {
          notify = r;
          setTimeout(r, 100);
        });
      }
    },
    stop: () => void child.kill(),
  };
}

const quantile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];

/** Commits `n` location.updated events into organization's outbox, `perCommit` per transaction, paced at `perSecond`. */
async function produce(org: RunningService<any>, n: number, perCommit: number, perSecond: number | null, round: number): Promise<{ committedAt: Map<string, number>; ids: string[]; startedAt: number }> {
  const committedAt = new Map<string, number>();
  const ids: string[] = [];
  const startedAt = Date.now();
  let sent = 0;
  while (sent < n) {
    const size = Math.min(perCommit, n - sent);
    const mine: string[] = [];
    // organization's unit of work: its events written when the transaction commits
    await org.runtime.write(async (w) => {
      for (let i = 0; i < size; i++) {
        const k = sent + i;
        const id = `loc_bench${String(k % records).padStart(6, '0')}`;
        const version = round * 1_000_000 + Math.floor(k / records) + 1;
        const object = { id, name: `Bench ${k}`, externalId: null, timezone: 'UTC', businessDayCutoff: '04:00', orgUnitId: null, address: null, status: 'active', version, createdAt: new Date(startedAt).toISOString(), updatedAt: new Date().toISOString(), archivedAt: null };
        const env = w.emit({ type: 'location.updated', aggregateType: 'location', aggregateId: id, locationId: id, object, previous: { name: `Bench ${k - 1}` } });
        mine.push(env.id);
      }
    });
    const t = Date.now();
    for (const id of mine) {
      committedAt.set(id, t);
      ids.push(id);
    }
    sent += size;
    if (perSecond) {
      const due = startedAt + (sent / perSecond) * 1000;
      const wait = due - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    }
  }
  return { committedAt, ids, startedAt };
}

function report(label: string, run: { committedAt: Map<string, number>; ids: string[]; startedAt: number }, receipts: Receipts): void {
  const latencies = run.ids.map((id) => receipts.at.get(id)! - run.committedAt.get(id)!).sort((a, b) => a - b);
  const last = Math.max(...run.ids.map((id) => receipts.at.get(id)!));
  const seconds = (last - run.startedAt) / 1000;
  const committedIn = (Math.max(...run.committedAt.values()) - run.startedAt) / 1000;
  console.log(
    `${label.padEnd(12)} ${run.ids.length} events committed in ${committedIn.toFixed(2)} s, all received after ${seconds.toFixed(2)} s: ` +
      `${(run.ids.length / seconds).toFixed(0).padStart(5)} deliveries/s   commit→receipt p50 ${quantile(latencies, 0.5).toFixed(0)} ms  p99 ${quantile(latencies, 0.99).toFixed(0)} ms  max ${latencies[latencies.length - 1]} ms`,
  );
}

async function main(): Promise<void> {
  let dataDir: string | null = null;
  let embedded: { url: string; stop(): Promise<void> } | null = null;
  let databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bop-bench-webhooks-'));
    fs.chmodSync(dataDir, 0o755);
    embedded = await startEmbeddedPostgres({ dataDir, port: await freePort(), log });
    databaseUrl = embedded.url;
  }
  const keys = await generateInternalKeyPair();
  const bus = await createPostgresBus({ connectionString: databaseUrl, log, pollMs: Number(process.env.BUS_POLL_MS ?? 1000) });
  const receiver = await startReceiver();
  const common = { databaseUrl, internalPublicKeyPem: keys.publicKeyPem, internalPrivateKeyPem: keys.privateKeyPem, bus, host: '127.0.0.1', logger: log };
  const env = { LOG_LEVEL: 'warn', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', ...(process.env.RELAY_POLL_MS ? { RELAY_POLL_MS: process.env.RELAY_POLL_MS } : {}) };
  const services: RunningService<any>[] = [];
  try {
    services.push(await startService(organizationService, { ...common, port: await freePort(), env }));
    services.push(await startService(webhooksService, { ...common, port: await freePort(), env }));
    const [org, wh] = services;
    const signer = await InternalTokenSigner.fromPem(keys.privateKeyPem);
    const admin: Principal = { kind: 'user', via: 'session', id: 'usr_bench', userId: 'usr_bench', permissions: { 'webhooks.manage': [{ type: 'everyone' }] } };
    const res = await fetch(`${wh.url}/webhook-endpoints`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-internal-token': await signer.sign(admin) },
      body: JSON.stringify({ url: `http://127.0.0.1:${receiver.port}/hooks`, events: ['location.updated'] }),
    });
    if (res.status !== 201) throw new Error(`endpoint not created: ${res.status} ${await res.text()}`);

    console.log(`webhooks: ${events} location.updated events over ${records} records, one standalone endpoint, node ${process.versions.node}, ${os.cpus().length} cores, ${embedded ? 'embedded Postgres' : 'DATABASE_URL'}, WEBHOOK_CONCURRENCY default`);
    const warm = await produce(org, 500, batch, 2_000, 0);
    await receiver.waitFor(warm.ids, 60_000);

    const paced = await produce(org, events, batch, rate, 1);
    await receiver.waitFor(paced.ids, 120_000);
    report(`paced ${rate}/s`, paced, receiver);

    const burst = await produce(org, events, 500, null, 2);
    await receiver.waitFor(burst.ids, 180_000);
    report('burst', burst, receiver);
    if (process.env.BENCH_DEBUG) {
      const conn = wh.runtime.orm.em.getConnection();
      const stage = async (label: string, ids: string[], from: number) => {
        const [r] = await conn.execute(`select extract(epoch from min(created_at)) * 1000 as c0, extract(epoch from max(created_at)) * 1000 as c1, extract(epoch from min(last_attempt_at)) * 1000 as a0, extract(epoch from max(last_attempt_at)) * 1000 as a1 from webhooks.deliveries where event_id in (${ids.map(() => '?').join(',')})`, ids);
        const [b] = await conn.execute(`select extract(epoch from min(published_at)) * 1000 as p0, extract(epoch from max(published_at)) * 1000 as p1 from bus.messages where event_id in (${ids.map(() => '?').join(',')})`, ids);
        const f = (x: number) => ((Number(x) - from) / 1000).toFixed(2);
        console.log(`${label}: bus ${f(b.p0)}..${f(b.p1)} s, deliveries created ${f(r.c0)}..${f(r.c1)} s, attempted ${f(r.a0)}..${f(r.a1)} s`);
      };
      await stage('paced', paced.ids, paced.startedAt);
      await stage('burst', burst.ids, burst.startedAt);
    }
    console.log('target: >= 1,000 deliveries/s and p99 < 1,000 ms (paced run)');
  } finally {
    for (const s of services.reverse()) await s.close();
    await bus.close();
    receiver.stop();
    await embedded?.stop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

runBench(main);

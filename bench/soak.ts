/**
 * Soak: a steady mix through the gateway for BENCH_MINUTES (default 60), with latency and memory per
 * minute, to see whether anything grows with the history the load leaves behind (issue 38, item 11).
 * Every second, whatever the answers take (open loop): 2 sales batches of 200 transactions, 10 list
 * reads (2 each of sales transactions, locations, stock levels, items and cash business days) and
 * 5 location PATCHes. It prints per minute the p50/p99 of the batches, the reads (all and each
 * endpoint) and the PATCHes, the runtime's RSS and heap, and at the end last-minute p99 / first-minute p99.
 * Target (issue 38): over 60 minutes the last minute's p99 within 1.5× of the first's.
 *
 *   npm run bench:soak     (BENCH_MINUTES=60; BENCH_PRELOAD=0 sales stored before the clock starts;
 *                           BENCH_DATA_DIR=<dir> keeps the runtime's data, and a second run on it
 *                           skips the set-up and the preload already done;
 *                           BENCH_SALES_AT=now|spread)
 *
 * The sales go round robin to 5 locations. With BENCH_SALES_AT=now (the default) each happens when
 * it is sent, as a POS sends them: each location's business day grows by 80 sales a second (an hour
 * is 1.44 M sales on five days). With `spread` they fall 15 s apart from 2025-01-01, so an hour of
 * soak spans 250 business days a location (history grows, days stay small). Each sale has 3 menu lines,
 * each menu item a usage recipe of 2 ingredients: inventory depletes every sale, cash keeps each
 * business day's expected amounts, sales' summaries and review see every batch.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { Pool } from 'undici';
import { benchRequest, benchSession, startRuntimeProcess } from './runtime-process';
import { runBench } from './entry';

const minutes = Number(process.env.BENCH_MINUTES ?? 60);
const preload = Number(process.env.BENCH_PRELOAD ?? 0);
/** the same mix run first and not counted (JIT, caches, the pools' connections) */
const warmup = Number(process.env.BENCH_WARMUP_SECONDS ?? 30);
const BATCHES_PER_S = 2;
const BATCH = 200;
const READS_PER_S = 10;
const PATCHES_PER_S = 5;
const LOCATIONS = 5;
const MENU = 20;
const INGREDIENTS = 20;
/** `now`: each sale happens when it is sent (one business day a location grows all run); `spread`: sale i at START + i × 15 s */
const salesAt = (process.env.BENCH_SALES_AT ?? 'now') as 'now' | 'spread';
if (salesAt !== 'now' && salesAt !== 'spread') throw new Error('BENCH_SALES_AT is now or spread');
const START = Date.parse('2025-01-01T00:00:00Z');
const SALE_EVERY_MS = 15_000;
const occurredAt = (i: number) => (salesAt === 'now' ? new Date(Date.now() - 1000) : new Date(START + i * SALE_EVERY_MS)).toISOString();

interface State {
  locations: Array<{ id: string; externalId: string }>;
  key: string;
  /** sales stored so far (the next sale's index) */
  sales: number;
}

function sale(i: number, state: State) {
  const loc = state.locations[i % LOCATIONS];
  const lines = [0, 7, 13].map((k) => ({ itemSku: `MENU-${(i + k) % MENU}`, name: 'Menu item', quantity: '1', unitPrice: '5.00', tax: '0.40' }));
  const tenders = i % 3 === 0 ? [{ type: 'cash', amount: '20.00', change: '3.80' }] : [{ type: 'card', amount: '16.20' }];
  return {
    externalId: `S-${i}`,
    locationExternalId: loc.externalId,
    registerId: `R${i % 3}`,
    occurredAt: occurredAt(i),
    lines,
    tenders,
    subtotal: '15.00',
    tax: '1.20',
    total: '16.20',
    currency: 'USD',
  };
}

const batchBody = (from: number, n: number, state: State) => JSON.stringify({ source: 'soak', transactions: Array.from({ length: n }, (_, j) => sale(from + j, state)) });

function quantile(xs: number[], p: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))];
}

async function setUp(base: string, pg: Client): Promise<State> {
  const session = await benchSession(base);
  const request = (method: string, p: string, body: unknown) => benchRequest(base, method, p, body, session);
  const locations: State['locations'] = [];
  for (let l = 0; l < LOCATIONS; l++) {
    const externalId = `SOAK-${l}`;
    const loc = await request('POST', '/api/v1/locations', { name: `Soak store ${l}`, timezone: 'America/New_York', businessDayCutoff: '04:00', externalId });
    locations.push({ id: loc.id, externalId });
  }
  const reg = await request('POST', '/api/v1/integrations', { manifest: { name: 'Soak POS', version: '1.0.0', description: 'bench', scopes: ['sales:write', 'sales:read'], webhooks: [] } });
  const ingredient: string[] = [];
  for (let i = 0; i < INGREDIENTS; i++) ingredient.push((await request('POST', '/api/v1/items', { name: `Ingredient ${i}`, baseUnit: 'g', cost: '0.01' })).id);
  for (let m = 0; m < MENU; m++) {
    const menu = (await request('POST', '/api/v1/items', { name: `Menu ${m}`, sku: `MENU-${m}`, baseUnit: 'each' })).id;
    await request('PUT', `/api/v1/usage-recipes/${menu}`, { components: [{ itemId: ingredient[m % INGREDIENTS], quantity: '120' }, { itemId: ingredient[(m + 7) % INGREDIENTS], quantity: '30' }] });
  }
  // sales' replicas (items, locations) and cash's are fed through the bus
  for (let i = 0; ; i++) {
    const r = await pg.query(
      `select (select count(*) from sales.items where sku like 'MENU-%')::int as items, (select count(*) from sales.locations where external_id like 'SOAK-%')::int as sales,
              (select count(*) from cash.locations)::int as cash`,
    );
    if (r.rows[0].items === MENU && r.rows[0].sales === LOCATIONS && r.rows[0].cash >= LOCATIONS) break;
    if (i > 600) throw new Error(`the replicas never caught up: ${JSON.stringify(r.rows[0])}`);
    await new Promise((res) => setTimeout(res, 100));
  }
  return { locations, key: reg.apiKey, sales: 0 };
}

/** until inventory has depleted and cash has taken every stored sale (the preload's backlog drained) */
async function drained(pg: Client, total: number): Promise<void> {
  for (let i = 0; ; i++) {
    const r = await pg.query(`select (select count(*) from inventory.sale_depletions)::int as depleted, (select count(*) from cash.sales_transactions)::int as cash`);
    if (r.rows[0].depleted >= total && r.rows[0].cash >= total) return;
    if (i % 60 === 0) console.log(`  waiting for the consumers: depleted ${r.rows[0].depleted}, cash ${r.rows[0].cash} of ${total}`);
    await new Promise((res) => setTimeout(res, 1000));
  }
}

interface Sample {
  minute: number;
  kind: string;
  ms: number;
  ok: boolean;
}

async function main(): Promise<void> {
  const dataDir = process.env.BENCH_DATA_DIR;
  const memoryDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bop-soak-memory-'));
  process.env.BENCH_NODE_FLAGS = [process.env.BENCH_NODE_FLAGS, `-r ${path.join(__dirname, 'memory-probe.js')}`].filter(Boolean).join(' ');
  const rt = await startRuntimeProcess(
    { API_INGEST_RATE_LIMIT_PER_MIN: '100000000', API_RATE_LIMIT_PER_MIN: '100000000', BENCH_MEMORY_DIR: memoryDir },
    { dataDir, readyTimeoutMs: 300_000 },
  );
  const pg = new Client({ connectionString: `postgres://postgres:postgres@127.0.0.1:${rt.pgPort}/bop` });
  pg.on('error', () => {}); // the runtime's Postgres stops after the run
  const stateFile = dataDir ? path.join(dataDir, 'soak-state.json') : null;
  try {
    await pg.connect();
    let state: State = stateFile && fs.existsSync(stateFile) ? JSON.parse(fs.readFileSync(stateFile, 'utf8')) : await setUp(rt.base, pg);
    const save = () => stateFile && fs.writeFileSync(stateFile, JSON.stringify(state));
    save();
    const session = await benchSession(rt.base);
    const origin = new URL(rt.base).origin;
    const http = new Pool(origin, { connections: 64, pipelining: 1 });
    const call = async (method: string, p: string, auth: string, body?: string) => {
      const res = await http.request({ method: method as any, path: p, headers: { authorization: `Bearer ${auth}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body });
      const text = await res.body.text();
      return { status: res.statusCode, text };
    };

    if (state.sales < preload) {
      const t0 = performance.now();
      console.log(`preloading ${preload - state.sales} sales (1,000 a batch, 2 clients)`);
      let next = state.sales;
      await Promise.all(
        [0, 1].map(async () => {
          while (next < preload) {
            const from = next;
            const n = Math.min(1000, preload - from);
            next += n;
            const r = await call('POST', '/api/v1/sales/transactions:batch', state.key, batchBody(from, n, state));
            if (r.status !== 202) throw new Error(`preload batch: ${r.status} ${r.text.slice(0, 300)}`);
          }
        }),
      );
      state = { ...state, sales: preload };
      save();
      console.log(`  stored in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
    }
    await drained(pg, state.sales);
    await pg.query('vacuum analyze').catch(() => {}); // what autovacuum would have reached over the hours the history took
    const history = state.sales;

    // each read: a label and a path; the sales and business-day reads name a location, the days a recent week
    const today = () => (salesAt === 'now' ? new Date() : new Date(START + state.sales * SALE_EVERY_MS));
    const day = (d: Date) => d.toISOString().slice(0, 10);
    const reads: Array<[string, (k: number) => string]> = [
      ['sales', (k) => `/api/v1/sales/transactions?locationId=${state.locations[k % LOCATIONS].id}&limit=50`],
      ['locations', () => `/api/v1/locations?limit=20`],
      ['stock', (k) => `/api/v1/stock-levels?locationId=${state.locations[k % LOCATIONS].id}&limit=100`],
      ['items', () => `/api/v1/items?limit=50`],
      ['business-days', (k) => `/api/v1/cash/business-days?locationId=${state.locations[k % LOCATIONS].id}&from=${day(new Date(today().getTime() - 7 * 86_400_000))}&to=${day(today())}`],
    ];
    const samples: Sample[] = [];
    const memory: Array<{ rss: number; heap: number }> = [];
    const started = performance.now();
    const timed = async (kind: string, run: () => Promise<{ status: number; text: string }>, expect: number) => {
      const t0 = performance.now();
      const minute = Math.floor((t0 - started - warmup * 1000) / 60_000);
      let ok = false;
      try {
        const r = await run();
        ok = r.status === expect;
        if (!ok && samples.filter((s) => !s.ok).length < 5) console.log(`  ${kind}: ${r.status} ${r.text.slice(0, 200)}`);
      } catch (err) {
        if (samples.filter((s) => !s.ok).length < 5) console.log(`  ${kind}: ${(err as Error).message}`);
      }
      if (minute >= 0) samples.push({ minute, kind, ms: performance.now() - t0, ok });
    };
    const readMemory = () => {
      let rss = 0;
      let heap = 0;
      for (const f of fs.readdirSync(memoryDir)) {
        const m = JSON.parse(fs.readFileSync(path.join(memoryDir, f), 'utf8'));
        if (!f.startsWith(`${rt.child()?.pid}-`)) continue;
        if (m.threadId === 0) rss = m.rss;
        heap += m.heapUsed;
      }
      return { rss, heap };
    };

    const pct = (xs: number[]) => `${quantile(xs, 0.5).toFixed(0).padStart(5)} ${quantile(xs, 0.99).toFixed(0).padStart(5)}`;
    const kinds = ['batch', 'read', ...reads.map(([k]) => k), 'patch'];
    console.log(
      `soak: ${minutes} min after ${warmup} s of warm-up, sales at ${salesAt}, every second ${BATCHES_PER_S} batches of ${BATCH} sales, ${READS_PER_S} reads, ${PATCHES_PER_S} location PATCHes, through the gateway; ${history} sales stored before; node ${process.versions.node}, ${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(1)}`,
    );
    console.log(`p50 p99 in ms by minute; memory of the runtime (RSS, heap of all its threads) at the minute's end`);
    console.log(`min ${kinds.map((k) => k.padStart(11)).join(' ')}   all p99  errors  sales stored  RSS MiB heap MiB  load`);
    const printMinute = (m: number) => {
      const of = samples.filter((s) => s.minute === m);
      const cols = kinds.map((k) => pct(of.filter((s) => (k === 'read' ? reads.some(([r]) => r === s.kind) : s.kind === k)).map((s) => s.ms)));
      const mem = readMemory();
      memory.push({ rss: mem.rss, heap: mem.heap });
      console.log(
        `${String(m + 1).padStart(3)} ${cols.join(' ')}   ${quantile(of.map((s) => s.ms), 0.99).toFixed(0).padStart(7)} ${String(of.filter((s) => !s.ok).length).padStart(7)} ${String(state.sales).padStart(13)} ${(mem.rss / 2 ** 20).toFixed(0).padStart(8)} ${(mem.heap / 2 ** 20).toFixed(0).padStart(8)} ${os.loadavg()[0].toFixed(1).padStart(5)}`,
      );
    };

    const inFlight = new Set<Promise<void>>();
    const fire = (p: Promise<void>) => {
      inFlight.add(p);
      void p.finally(() => inFlight.delete(p));
    };
    let printed = 0;
    for (let s = 0; s < warmup + minutes * 60; s++) {
      const due = started + s * 1000;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((res) => setTimeout(res, wait));
      for (let b = 0; b < BATCHES_PER_S; b++) {
        const body = batchBody(state.sales, BATCH, state);
        state.sales += BATCH;
        fire(timed('batch', () => call('POST', '/api/v1/sales/transactions:batch', state.key, body), 202));
      }
      for (let r = 0; r < READS_PER_S; r++) {
        const [kind, pathOf] = reads[r % reads.length];
        fire(timed(kind, () => call('GET', pathOf(s * READS_PER_S + r), session), 200));
      }
      for (let p = 0; p < PATCHES_PER_S; p++) {
        const loc = state.locations[(s * PATCHES_PER_S + p) % LOCATIONS];
        fire(timed('patch', () => call('PATCH', `/api/v1/locations/${loc.id}`, session, JSON.stringify({ name: `Soak store ${loc.externalId} ${s}` })), 200));
      }
      const counted = s + 1 - warmup;
      if (counted > 0 && counted % 60 === 0) {
        // the minute's last requests are answered (or counted in the next minute's report) a few seconds on
        const m = printed++;
        setTimeout(() => printMinute(m), 5000);
      }
    }
    await Promise.all([...inFlight]);
    await new Promise((res) => setTimeout(res, 5500));
    save();
    await http.close();

    const p99Of = (m: number, kind?: string) => quantile(samples.filter((s) => s.minute === m && (!kind || s.kind === kind || (kind === 'read' && reads.some(([r]) => r === s.kind)))).map((s) => s.ms), 0.99);
    const last = minutes - 1;
    console.log(`\nlast minute / first minute, p99: all ${(p99Of(last) / p99Of(0)).toFixed(2)}× (target <= 1.5×: ${p99Of(last) / p99Of(0) <= 1.5 ? 'met' : 'not met'}), batches ${(p99Of(last, 'batch') / p99Of(0, 'batch')).toFixed(2)}×, reads ${(p99Of(last, 'read') / p99Of(0, 'read')).toFixed(2)}×, PATCHes ${(p99Of(last, 'patch') / p99Of(0, 'patch')).toFixed(2)}×`);
    console.log(`requests ${samples.length}, errors ${samples.filter((s) => !s.ok).length}; sales stored ${history} → ${state.sales}; RSS ${(memory[0]?.rss / 2 ** 20).toFixed(0)} → ${(memory[memory.length - 1]?.rss / 2 ** 20).toFixed(0)} MiB`);
  } finally {
    await pg.end().catch(() => {});
    await rt.stop();
    fs.rmSync(memoryDir, { recursive: true, force: true });
  }
}

runBench(main);

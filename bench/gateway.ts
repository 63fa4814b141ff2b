/**
 * The read path against the bare metal: requests/s and p50/p99 latency of two reads, each served by
 * a bare `node:http` + `pg` server running the same query (bench/bare-server.ts, its own process),
 * by the owning service directly, and through the gateway, in the same run, as ratios of the bare figure.
 *   - `GET /locations?limit=20` (organization, the ORM's find): 20 locations
 *   - `GET /stock-levels?locationId=…&limit=100` (inventory, filters, keyset order, numerics): one
 *     location holding 500 items
 * Targets (issue 14): the service keeps >= 50% of the bare req/s at 16 connections, the gateway >= 35%,
 * and the gateway adds < 0.5 ms at p50.
 *
 *   npm run bench            (BENCH_SECONDS=10 BENCH_CONCURRENCY=32 BENCH_ROUNDS=5 change the load)
 *
 * The whole run is made with telemetry off, then with tracing on (an OTLP endpoint set to a local
 * receiver, 10% of traces sampled: bench/telemetry.ts), and the throughput of each is printed as a
 * share of the other (issue 15: under 5% cost). BENCH_TELEMETRY=off or on runs one of them.
 *
 * The servers run in a child process started like `npm start` (embedded Postgres unless DATABASE_URL is
 * set); the load comes from this process over keep-alive connections. Rounds of the three paths
 * interleave and medians are reported, so drift on a busy machine hits all of them alike; the serving
 * process's CPU time per request (Linux /proc) is printed too, a figure other load on the machine
 * moves much less than req/s (the runtime's figure holds the gateway and every service).
 */
import { spawn } from 'node:child_process';
import { isDeepStrictEqual } from 'node:util';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Pool } from 'undici';
import { freePort, generateInternalKeyPair, InternalTokenSigner, type Principal } from '@bop/shared';
import { benchRequest, benchSession, startRuntimeProcess } from './runtime-process';
import { inEachMode, telemetryCost, telemetryFor, type TelemetryMode } from './telemetry';

const seconds = Number(process.env.BENCH_SECONDS ?? 6);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 16);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const ITEMS = 500;

interface Result {
  /** CPU of the serving process per request (µs) */
  cpu?: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

interface Target {
  label: string;
  origin: string;
  path: string;
  headers: Record<string, string>;
  /** the process serving it (its CPU time per request is printed: a figure a busy machine moves less than req/s) */
  pid: number;
}

/** user + system CPU of a process so far, in ms (Linux /proc; 0 elsewhere) */
function cpuMs(pid: number): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in clock ticks (USER_HZ 100)
  } catch {
    return 0;
  }
}

function medianOf(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** the round with the median of `by` */
function median(rs: Result[], by: (r: Result) => number): Result {
  return [...rs].sort((a, b) => by(a) - by(b))[Math.floor(rs.length / 2)];
}

async function load(t: Target, durationS: number, connections: number): Promise<Result> {
  const pool = new Pool(t.origin, { connections, pipelining: 1 });
  const latencies: number[] = [];
  let errors = 0;
  const until = performance.now() + durationS * 1000;
  const worker = async () => {
    while (performance.now() < until) {
      const t0 = performance.now();
      const res = await pool.request({ method: 'GET', path: t.path, headers: t.headers });
      await res.body.text();
      const dt = performance.now() - t0;
      if (res.statusCode !== 200) errors += 1;
      latencies.push(dt);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: connections }, worker));
  const elapsed = (performance.now() - started) / 1000;
  await pool.close();
  latencies.sort((a, b) => a - b);
  const q = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))];
  return { rps: latencies.length / elapsed, p50: q(0.5), p99: q(0.99), errors };
}

async function body(t: Target): Promise<unknown> {
  const res = await fetch(`${t.origin}${t.path}`, { headers: t.headers });
  if (res.status !== 200) throw new Error(`${t.label} ${t.path}: ${res.status} ${(await res.text()).slice(0, 300)}`);
  return res.json();
}

/** Measures bare, direct and gateway paths of one read and prints them as ratios of the bare one. */
async function measure(title: string, bare: Target, direct: Target, gateway: Target): Promise<{ service: number; gateway: number; bare: number }> {
  const [b, d, g] = await Promise.all([body(bare), body(direct), body(gateway)]);
  const same = isDeepStrictEqual(b, d) && isDeepStrictEqual(d, g);
  const paths = [bare, direct, gateway];
  for (const p of paths) await load(p, 2, concurrency); // warm-up
  const lat: Result[][] = paths.map(() => []);
  const thr: Result[][] = paths.map(() => []);
  for (let i = 0; i < rounds; i++) for (const [k, p] of paths.entries()) lat[k].push(await load(p, seconds / rounds, 1));
  // what each serving process burns with no requests (relays, pollers, timers) is not the requests' cost
  const idle = new Map<number, number>();
  for (const pid of new Set(paths.map((p) => p.pid))) {
    const before = cpuMs(pid);
    await new Promise((r) => setTimeout(r, 3000));
    idle.set(pid, (cpuMs(pid) - before) / 3000);
  }
  const cpu = paths.map(() => ({ ms: 0, requests: 0 }));
  for (let i = 0; i < rounds; i++) {
    for (const [k, p] of paths.entries()) {
      const before = cpuMs(p.pid);
      const t0 = performance.now();
      const r = await load(p, seconds / rounds, concurrency);
      cpu[k].ms += cpuMs(p.pid) - before - idle.get(p.pid)! * (performance.now() - t0);
      cpu[k].requests += r.rps * (seconds / rounds);
      thr[k].push(r);
    }
  }
  const latency = lat.map((rs) => median(rs, (r) => r.p50));
  const throughput = thr.map((rs) => median(rs, (r) => r.rps));
  const added = medianOf(lat[1].map((dr, i) => lat[2][i].p50 - dr.p50));
  const fmt = (r: Result, base: Result) =>
    `${r.rps.toFixed(0).padStart(6)} req/s (${((r.rps / base.rps) * 100).toFixed(0).padStart(3)}%)   p50 ${r.p50.toFixed(2).padStart(6)} ms   p99 ${r.p99.toFixed(2).padStart(6)} ms   errors ${r.errors}`;
  console.log(`\n${title}   (the three bodies are ${same ? 'identical' : 'NOT identical'})`);
  console.log(`latency, 1 connection (median of ${rounds} interleaved rounds):`);
  for (const [k, p] of paths.entries()) console.log(`  ${p.label.padEnd(22)} ${fmt(latency[k], latency[0])}`);
  console.log(`throughput, ${concurrency} connections (median of ${rounds} interleaved rounds):`);
  for (const [k, p] of paths.entries()) console.log(`  ${p.label.padEnd(22)} ${fmt(throughput[k], throughput[0])}`);
  const perRequest = cpu.map((c) => (c.ms * 1000) / c.requests);
  console.log(`  server CPU per request (all ${rounds} rounds, less the process's idle rate): ${paths.map((p, k) => `${p.label} ${perRequest[k].toFixed(0)} µs (${(perRequest[0] / perRequest[k] * 100).toFixed(0)}% of bare's rate)`).join(', ')}`);
  console.log(`  service / bare ${((throughput[1].rps / throughput[0].rps) * 100).toFixed(1)}% (target >= 50%), gateway / bare ${((throughput[2].rps / throughput[0].rps) * 100).toFixed(1)}% (target >= 35%)`);
  console.log(`  gateway adds ${added.toFixed(2)} ms at p50 (target < 0.5 ms), keeps ${((throughput[2].rps / throughput[1].rps) * 100).toFixed(1)}% of the service's req/s`);
  return { bare: throughput[0].rps, service: throughput[1].rps, gateway: throughput[2].rps };
}

type Figures = Record<'locations' | 'stock', { service: number; gateway: number; bare: number }>;

async function startBare(pgPort: number): Promise<{ origin: string; pid: number; stop(): Promise<void> }> {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(__dirname, 'bare-server.js')], {
    env: { ...process.env, BARE_PORT: String(port), BARE_DATABASE_URL: process.env.DATABASE_URL ?? `postgres://postgres:postgres@127.0.0.1:${pgPort}/bop`, BARE_POOL_MAX: process.env.DB_POOL_MAX ?? '5' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const origin = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (await fetch(`${origin}/`).then(() => true, () => false)) break;
    if (i > 100 || child.exitCode !== null) throw new Error('the bare server did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    origin,
    pid: child.pid ?? 0,
    stop: async () => {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

async function main(): Promise<void> {
  await inEachMode<Figures>(run, (off, on) => [
    telemetryCost(`GET /locations, service, ${concurrency} connections`, off.locations.service, on.locations.service),
    telemetryCost('GET /locations, through the gateway', off.locations.gateway, on.locations.gateway),
    telemetryCost('GET /stock-levels, service', off.stock.service, on.stock.service),
    telemetryCost('GET /stock-levels, through the gateway', off.stock.gateway, on.stock.gateway),
    `  (the bare server, untouched by telemetry, measured ${on.locations.bare.toFixed(0)} / ${off.locations.bare.toFixed(0)} req/s in the two runs: the machine's drift between them)`,
  ]);
}

async function run(mode: TelemetryMode): Promise<Figures> {
  const telemetry = await telemetryFor(mode);
  const keys = await generateInternalKeyPair();
  const orgPort = await freePort();
  const invPort = await freePort();
  const rt = await startRuntimeProcess({
    SERVICE_PORT_ORGANIZATION: String(orgPort),
    SERVICE_PORT_INVENTORY: String(invPort),
    INTERNAL_JWT_PRIVATE_KEY: keys.privateKeyPem,
    INTERNAL_JWT_PUBLIC_KEY: keys.publicKeyPem,
    API_RATE_LIMIT_PER_MIN: '100000000',
    ...telemetry.env,
  });
  const base = rt.base;
  let bare: Awaited<ReturnType<typeof startBare>> | null = null;
  try {
    const session = await benchSession(base);
    const key = (await benchRequest(base, 'POST', '/api/v1/auth/api-keys', { name: 'bench' }, session)).key as string;
    const locations: string[] = [];
    for (let i = 0; i < 20; i++) locations.push((await benchRequest(base, 'POST', '/api/v1/locations', { name: `Bench ${i}`, timezone: 'UTC' }, key)).id);
    const stockAt = locations[0];
    const items: string[] = [];
    for (let i = 0; i < ITEMS; i += 10) {
      const batch = Array.from({ length: Math.min(10, ITEMS - i) }, (_, j) => benchRequest(base, 'POST', '/api/v1/items', { name: `Bench item ${i + j}`, baseUnit: 'each', cost: '1.25' }, key));
      for (const item of await Promise.all(batch)) items.push(item.id);
    }
    const lines = items.map((itemId, i) => ({ itemId, quantity: String(10 + (i % 17)), unitCost: `${1 + (i % 5)}.5` }));
    // inventory learns of the new location through the bus
    for (let i = 0; ; i++) {
      try {
        await benchRequest(base, 'POST', '/api/v1/inventory/adjustments', { locationId: stockAt, reason: 'opening_balance', lines }, key);
        break;
      } catch (err) {
        if (i > 120) throw err;
        await new Promise((r) => setTimeout(r, 250));
      }
    }
    for (const [i, itemId] of items.entries()) {
      if (i % 5 === 0) await benchRequest(base, 'POST', '/api/v1/stock-levels:configure', { locationId: stockAt, itemId, parLevel: '40', reorderPoint: '20' }, key);
    }

    // the direct paths get the token the gateway would send for this key
    const me = (await benchRequest(base, 'GET', '/api/v1/me', undefined, key)) as { user?: { id: string } };
    const signer = await InternalTokenSigner.fromPem(keys.privateKeyPem);
    const everyone = [{ type: 'everyone' as const }];
    const principal: Principal = { kind: 'user', via: 'personal_key', id: me.user?.id ?? 'usr_bench', userId: me.user?.id, permissions: { 'organization.read': everyone, 'inventory.read': everyone } };
    const token = await signer.sign(principal, 3600);
    bare = await startBare(rt.pgPort);

    const runtimePid = rt.child()?.pid ?? 0;
    const viaKey = { authorization: `Bearer ${key}` };
    const internal = { 'x-internal-token': token };
    console.log(`node ${process.versions.node}, ${os.cpus().length} cores, ${seconds} s per path and measure, LOG_LEVEL=${process.env.LOG_LEVEL ?? 'info'}`);
    const locationsFigures = await measure(
      'GET /locations?limit=20 (20 locations)',
      { label: 'bare node:http + pg', origin: bare.origin, path: '/locations?limit=20', headers: {}, pid: bare.pid },
      { label: 'service (organization)', origin: `http://127.0.0.1:${orgPort}`, path: '/locations?limit=20', headers: internal, pid: runtimePid },
      { label: 'through the gateway', origin: base, path: '/api/v1/locations?limit=20', headers: viaKey, pid: runtimePid },
    );
    const stock = `/stock-levels?locationId=${stockAt}&limit=100`;
    const stockFigures = await measure(
      `GET /stock-levels?locationId=…&limit=100 (one location, ${ITEMS} items)`,
      { label: 'bare node:http + pg', origin: bare.origin, path: stock, headers: {}, pid: bare.pid },
      { label: 'service (inventory)', origin: `http://127.0.0.1:${invPort}`, path: stock, headers: internal, pid: runtimePid },
      { label: 'through the gateway', origin: base, path: `/api/v1${stock}`, headers: viaKey, pid: runtimePid },
    );
    if (mode === 'on') console.log(`  spans exported: ${telemetry.received().requests} OTLP requests, ${(telemetry.received().bytes / 1e6).toFixed(1)} MB`);
    return { locations: locationsFigures, stock: stockFigures };
  } finally {
    await bare?.stop();
    await rt.stop();
    await telemetry.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

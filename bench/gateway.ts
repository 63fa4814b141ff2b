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
 *   npm run bench            (BENCH_SECONDS=10 BENCH_CONCURRENCY=32 BENCH_ROUNDS=5 BENCH_GENERATIONS=4 change the load)
 *
 * Two runtimes run side by side, one with telemetry off and one with tracing on (an OTLP endpoint
 * set to a local receiver, 10% of traces sampled: bench/telemetry.ts), and what tracing costs is the
 * median of their round-by-round throughput ratio over BENCH_GENERATIONS pairs of processes (the
 * pair restarted between them; issue 15: under 5%), the paths through the gateway warmed for
 * BENCH_WARMUP_SECONDS (30) in each process first (bench/telemetry.ts). BENCH_TELEMETRY=off or on
 * runs one of them (and must, with DATABASE_URL set: two runtimes cannot share a database).
 *
 * The servers run in child processes started like `npm start` (embedded Postgres unless DATABASE_URL is
 * set); the load comes from this process over keep-alive connections. Rounds of the paths interleave
 * (the order reversed every other round) and medians are reported, so drift on a busy machine hits
 * all of them alike; the serving
 * process's CPU time per request (Linux /proc) is printed too, a figure other load on the machine
 * moves much less than req/s (the runtime's figure holds the gateway and every service).
 */
import { spawn } from 'node:child_process';
import { isDeepStrictEqual } from 'node:util';
import os from 'node:os';
import path from 'node:path';
import { freePort, generateInternalKeyPair, InternalTokenSigner, type Principal } from '@bop/shared';
import { cpuMs, load, medianOf, type LoadResult } from './http-load';
import { benchRequest, benchSession, startRuntimeProcess } from './runtime-process';
import { telemetryCost, telemetryFor, telemetryLabel, telemetryModes, stopWithTelemetry, warmupSeconds, type OtlpReceiver, type TelemetryMode } from './telemetry';
import { runBench } from './entry';

const seconds = Number(process.env.BENCH_SECONDS ?? 6);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 16);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const ITEMS = 500;

type Result = LoadResult;

interface Target {
  label: string;
  origin: string;
  path: string;
  headers: Record<string, string>;
  /** the process serving it (its CPU time per request is printed: a figure a busy machine moves less than req/s) */
  pid: number;
  /** seconds of load before its rounds (2 unless tracing is measured on it: bench/telemetry.ts) */
  warmup?: number;
}

/** the round with the median of `by` */
function median(rs: Result[], by: (r: Result) => number): Result {
  return [...rs].sort((a, b) => by(a) - by(b))[Math.floor(rs.length / 2)];
}

async function body(t: Target): Promise<unknown> {
  const res = await fetch(`${t.origin}${t.path}`, { headers: t.headers });
  if (res.status !== 200) throw new Error(`${t.label} ${t.path}: ${res.status} ${(await res.text()).slice(0, 300)}`);
  return res.json();
}

interface Measured {
  /** per path: the round with the median p50 at one connection, the round with the median req/s at `concurrency` */
  latency: Result[];
  throughput: Result[];
  /** per path and round, the req/s at `concurrency` and the results at one connection (for figures taken round by round) */
  rounds: number[][];
  latencyRounds: Result[][];
  /** per path: server CPU per request (µs) over all rounds, less the process's idle rate */
  cpu: number[];
  /** each path's body (before the load) */
  bodies: unknown[];
}

/**
 * `rounds` rounds of `each` over every path in turn, the order reversed every other round so no
 * path always follows the same one (after a warm-up of every path at `concurrency`).
 */
async function inTurn(paths: Target[], each: (k: number, p: Target) => Promise<void>): Promise<void> {
  for (const p of paths) await load(p, p.warmup ?? 2, concurrency); // warm-up
  for (let i = 0; i < rounds; i++) for (const k of i % 2 === 0 ? [...paths.keys()] : [...paths.keys()].reverse()) await each(k, paths[k]);
}

/** Loads each path in turn (inTurn), first at one connection (latency), then at `concurrency` (throughput). */
async function measure(paths: Target[]): Promise<Measured> {
  const bodies = await Promise.all(paths.map(body));
  const lat: Result[][] = paths.map(() => []);
  const thr: Result[][] = paths.map(() => []);
  await inTurn(paths, async (k, p) => void lat[k].push(await load(p, seconds / rounds, 1)));
  // what each serving process burns with no requests (relays, pollers, timers) is not the requests' cost
  const idle = new Map<number, number>();
  for (const pid of new Set(paths.map((p) => p.pid))) {
    const before = cpuMs(pid);
    await new Promise((r) => setTimeout(r, 3000));
    idle.set(pid, (cpuMs(pid) - before) / 3000);
  }
  const cpu = paths.map(() => ({ ms: 0, requests: 0 }));
  await inTurn(paths, async (k, p) => {
    const before = cpuMs(p.pid);
    const t0 = performance.now();
    const r = await load(p, seconds / rounds, concurrency);
    cpu[k].ms += cpuMs(p.pid) - before - idle.get(p.pid)! * (performance.now() - t0);
    cpu[k].requests += r.rps * (seconds / rounds);
    thr[k].push(r);
  });
  return {
    latency: lat.map((rs) => median(rs, (r) => r.p50)),
    throughput: thr.map((rs) => median(rs, (r) => r.rps)),
    rounds: thr.map((rs) => rs.map((r) => r.rps)),
    latencyRounds: lat,
    cpu: cpu.map((c) => (c.ms * 1000) / c.requests),
    bodies,
  };
}

/** Prints the bare, direct and gateway paths of one read (indexes into `m`) as ratios of the bare one. */
function report(m: Measured, paths: Target[], idx: [number, number, number]): void {
  const lat = m.latencyRounds;
  const [b, d, g] = idx;
  const fmt = (r: Result, base: Result) =>
    `${r.rps.toFixed(0).padStart(6)} req/s (${((r.rps / base.rps) * 100).toFixed(0).padStart(3)}%)   p50 ${r.p50.toFixed(2).padStart(6)} ms   p99 ${r.p99.toFixed(2).padStart(6)} ms   errors ${r.errors}`;
  console.log(`latency, 1 connection (median of ${rounds} interleaved rounds):`);
  for (const k of idx) console.log(`  ${paths[k].label.padEnd(22)} ${fmt(m.latency[k], m.latency[b])}`);
  console.log(`throughput, ${concurrency} connections (median of ${rounds} interleaved rounds):`);
  for (const k of idx) console.log(`  ${paths[k].label.padEnd(22)} ${fmt(m.throughput[k], m.throughput[b])}`);
  console.log(`  server CPU per request (all ${rounds} rounds, less the process's idle rate): ${idx.map((k) => `${paths[k].label} ${m.cpu[k].toFixed(0)} µs (${((m.cpu[b] / m.cpu[k]) * 100).toFixed(0)}% of bare's rate)`).join(', ')}`);
  const service = m.throughput[d].rps;
  const gateway = m.throughput[g].rps;
  const bare = m.throughput[b].rps;
  console.log(`  service / bare ${((service / bare) * 100).toFixed(1)}% (target >= 50%), gateway / bare ${((gateway / bare) * 100).toFixed(1)}% (target >= 35%)`);
  // the gateway's added latency, round by round (the same round's direct and gateway p50)
  const added = medianOf(lat[d].map((dr, i) => lat[g][i].p50 - dr.p50));
  console.log(`  gateway adds ${added.toFixed(2)} ms at p50 (target < 0.5 ms), keeps ${((gateway / service) * 100).toFixed(1)}% of the service's req/s`);
}

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
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** One runtime (telemetry off or on) with the bench's data, and its direct and gateway targets of each read. */
interface Setup {
  mode: TelemetryMode;
  rt: Awaited<ReturnType<typeof startRuntimeProcess>>;
  telemetry: OtlpReceiver;
  stockAt: string;
  direct: Record<'locations' | 'stock', Target>;
  gateway: Record<'locations' | 'stock', Target>;
}

async function setUp(mode: TelemetryMode): Promise<Setup> {
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
    const pid = rt.child()?.pid ?? 0;
    const viaKey = { authorization: `Bearer ${key}` };
    const internal = { 'x-internal-token': token };
    const suffix = modes.length > 1 ? `, ${mode}` : '';
    // the paths that traces start on, when tracing's cost is measured
    const tracedWarmup = modes.length > 1 ? warmupSeconds : undefined;
    const stock = `/stock-levels?locationId=${stockAt}&limit=100`;
    return {
      mode,
      rt,
      telemetry,
      stockAt,
      direct: {
        locations: { label: `service${suffix}`, origin: `http://127.0.0.1:${orgPort}`, path: '/locations?limit=20', headers: internal, pid },
        stock: { label: `service${suffix}`, origin: `http://127.0.0.1:${invPort}`, path: stock, headers: internal, pid },
      },
      gateway: {
        locations: { label: `gateway${suffix}`, origin: base, path: '/api/v1/locations?limit=20', headers: viaKey, pid, warmup: tracedWarmup },
        stock: { label: `gateway${suffix}`, origin: base, path: `/api/v1${stock}`, headers: viaKey, pid, warmup: tracedWarmup },
      },
    };
  } catch (err) {
    await stopWithTelemetry(rt, telemetry);
    throw err;
  }
}

const modes = telemetryModes();
/** pairs of processes (off and on) the tracing cost is read over: BENCH_GENERATIONS */
const generations = Number(process.env.BENCH_GENERATIONS ?? 4);

function chunks<T>(xs: T[], n: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += n) out.push(xs.slice(i, i + n));
  return out;
}

/**
 * With both modes (the default), the two runtimes run side by side and are loaded in the same
 * interleaved rounds, so what tracing costs is read round by round (on / off of adjacent loads)
 * rather than across two runs minutes apart, between which a busy machine drifts by more than the
 * cost being measured.
 */
async function main(): Promise<void> {
  if (modes.length > 1 && process.env.DATABASE_URL) throw new Error('with DATABASE_URL set, run one mode at a time: BENCH_TELEMETRY=off or on (two runtimes cannot share a database)');
  const setups: Setup[] = [];
  let bare: Awaited<ReturnType<typeof startBare>> | null = null;
  try {
    for (const mode of modes) setups.push(await setUp(mode));
    bare = await startBare(setups[0].rt.pgPort);
    console.log(`node ${process.versions.node}, ${os.cpus().length} cores, ${seconds} s per path and measure, LOG_LEVEL=${process.env.LOG_LEVEL ?? 'info'}`);
    console.log(`runtimes: ${setups.map((s) => telemetryLabel(s.mode)).join('; ')}${setups.length > 1 ? ' (side by side, loaded in turn)' : ''}`);
    // on / off of adjacent loads, per read and path, over every round of every pair of processes
    const ratios = new Map<string, number[]>(['locations service', 'locations gateway', 'stock service', 'stock gateway'].map((k) => [k, []]));
    /** `rps`: per round, the req/s of off's service and gateway, then on's */
    const addRatios = (read: 'locations' | 'stock', rps: number[][]) => {
      for (const [k, what] of [[0, 'service'], [1, 'gateway']] as const) ratios.get(`${read} ${what}`)!.push(...rps[k + 2].map((on, i) => on / rps[k][i]));
    };
    for (const read of ['locations', 'stock'] as const) {
      const title =
        read === 'locations' ? 'GET /locations?limit=20 (20 locations)' : `GET /stock-levels?locationId=…&limit=100 (one location, ${ITEMS} items)`;
      const barePath = read === 'locations' ? '/locations?limit=20' : `/stock-levels?locationId=${setups[0].stockAt}&limit=100`;
      const paths: Target[] = [{ label: 'bare node:http + pg', origin: bare.origin, path: barePath, headers: {}, pid: bare.pid }];
      for (const s of setups) paths.push(s.direct[read], s.gateway[read]);
      const m = await measure(paths);
      // the bare server reads the first runtime's database: its bodies match that runtime's; each runtime's direct and gateway bodies match
      const same = isDeepStrictEqual(m.bodies[0], m.bodies[1]) && setups.every((_, i) => isDeepStrictEqual(m.bodies[1 + 2 * i], m.bodies[2 + 2 * i]));
      console.log(`\n${title}   (the bodies are ${same ? 'identical' : 'NOT identical'}: bare, service and gateway${setups.length > 1 ? ' of the first runtime; service and gateway of the other' : ''})`);
      for (const [i, s] of setups.entries()) {
        if (setups.length > 1) console.log(`-- ${telemetryLabel(s.mode)}`);
        report(m, paths, [0, 1 + 2 * i, 2 + 2 * i]);
      }
      if (setups.length > 1) addRatios(read, m.rounds.slice(1));
    }
    const on = setups.find((s) => s.mode === 'on');
    if (on) console.log(`\nspans exported: ${on.telemetry.received().requests} OTLP requests, ${(on.telemetry.received().bytes / 1e6).toFixed(1)} MB`);
    if (setups.length > 1) {
      // Two processes of the same build differ by a tenth or more in throughput however long they are
      // loaded (JIT and memory layout), more than the cost being measured: the pair is started again
      // (same data and ports) and loaded again, and the cost is read over every pair.
      for (let g = 1; g < generations; g++) {
        for (const s of setups) await s.rt.restart();
        for (const read of ['locations', 'stock'] as const) {
          const paths = setups.flatMap((s) => [s.direct[read], s.gateway[read]]);
          const thr: number[][] = paths.map(() => []);
          await inTurn(paths, async (k, p) => void thr[k].push((await load(p, seconds / rounds, concurrency)).rps));
          addRatios(read, thr);
        }
      }
      console.log(`\n=== what tracing costs (on / off: the median ratio of adjacent loads, ${rounds} rounds in each of ${generations} pairs of processes)`);
      for (const [key, label] of [
        ['locations service', `GET /locations, service, ${concurrency} connections`],
        ['locations gateway', 'GET /locations, through the gateway'],
        ['stock service', 'GET /stock-levels, service'],
        ['stock gateway', 'GET /stock-levels, through the gateway'],
      ]) {
        const rs = ratios.get(key)!;
        console.log(`${telemetryCost(label, medianOf(rs))}; the pairs' medians ${chunks(rs, rounds).map((c) => `${(medianOf(c) * 100).toFixed(1)}%`).join(', ')}`);
      }
      console.log('  (a direct call to a service carries an internal token and no traceparent: a platform hop, never traced itself, so its line is what tracing costs an untraced request)');
    }
  } finally {
    await bare?.stop();
    for (const s of setups) {
      await stopWithTelemetry(s.rt, s.telemetry);
    }
  }
}

runBench(main);

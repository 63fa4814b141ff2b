/**
 * What tracing costs (issue 15: under 5% of the throughput with tracing on and 10% of traces sampled),
 * read with enough pairs of processes to tell a few percent from noise:
 *
 *   npm run bench:tracing     (BENCH_PAIRS=8 BENCH_ROUNDS=6 BENCH_ROUND_SECONDS=2 BENCH_CONCURRENCY=16 BENCH_TRACE_RATIO=0.1
 *                              BENCH_WARMUP_SECONDS=30)
 *
 * Two runtimes run side by side, one with telemetry off and one with tracing on (an OTLP endpoint set
 * to a local receiver, BENCH_TRACE_RATIO of the traces sampled: bench/telemetry.ts), each with the same
 * 20 locations. `GET /api/v1/locations?limit=20` through the gateway (authentication, the proxy hop
 * and the service's read: the path a traced request takes end to end) loads them in turn, in rounds
 * whose order flips every round, and the cost is read round by round as on / off of adjacent loads, after each process of the pair
 * has served BENCH_WARMUP_SECONDS of load (bench/telemetry.ts says why that long).
 *
 * Why pairs: two processes of one build differ by up to a tenth in throughput however long they are
 * loaded (JIT and memory layout), and a busy machine's speed drifts by more than that within minutes.
 * Adjacent rounds cancel the drift; restarting the pair (same data and ports) BENCH_PAIRS times and
 * pooling every round cancels the processes' luck. The figure is the median of all rounds' ratios, with
 * a 90% interval from resampling the pairs (bootstrap), so a reader sees how far it can be trusted.
 * Per-thread CPU per request (Linux /proc) shows where the cost falls: the gateway's thread, the
 * busiest other thread (the organization service's, which answers the read), and the rest (the other
 * services' threads, V8's and libuv's helpers).
 */
import os from 'node:os';
import { load, medianOf, threadCpuMs, type LoadTarget } from './http-load';
import { seededRandom } from './seeded-random';
import { benchRequest, benchSession, startRuntimeProcess } from './runtime-process';
import { telemetryCost, telemetryFor, telemetryLabel, traceRatio, stopWithTelemetry, warmupSeconds, type OtlpReceiver, type TelemetryMode } from './telemetry';
import { runBench } from './entry';

const pairs = Number(process.env.BENCH_PAIRS ?? 8);
const rounds = Number(process.env.BENCH_ROUNDS ?? 6);
const roundSeconds = Number(process.env.BENCH_ROUND_SECONDS ?? 2);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 16);
const PATH = '/api/v1/locations?limit=20';

interface Side {
  mode: TelemetryMode;
  rt: Awaited<ReturnType<typeof startRuntimeProcess>>;
  telemetry: OtlpReceiver;
  target: LoadTarget;
}

async function setUp(mode: TelemetryMode): Promise<Side> {
  const telemetry = await telemetryFor(mode);
  const rt = await startRuntimeProcess({ API_RATE_LIMIT_PER_MIN: '100000000', ...telemetry.env });
  try {
    const session = await benchSession(rt.base);
    const key = (await benchRequest(rt.base, 'POST', '/api/v1/auth/api-keys', { name: 'bench' }, session)).key as string;
    for (let i = 0; i < 20; i++) await benchRequest(rt.base, 'POST', '/api/v1/locations', { name: `Bench ${i}`, timezone: 'UTC' }, key);
    return { mode, rt, telemetry, target: { origin: rt.base, path: PATH, headers: { authorization: `Bearer ${key}` } } };
  } catch (err) {
    await stopWithTelemetry(rt, telemetry);
    throw err;
  }
}

/** CPU (ms) a side's threads burned during its loads: the gateway's (main) thread, the busiest other, the rest */
interface Burned {
  byThread: Map<number, number>;
  requests: number;
}


/** The 5th and 95th percentiles of the pooled median over pairs drawn with replacement. */
function interval(byPair: number[][], draws = 2000): [number, number] {
  const next = seededRandom(byPair.flat().length); // the same interval for the same figures
  const medians: number[] = [];
  for (let d = 0; d < draws; d++) {
    const pooled: number[] = [];
    for (let i = 0; i < byPair.length; i++) pooled.push(...byPair[Math.floor(next() * byPair.length)]);
    medians.push(medianOf(pooled));
  }
  medians.sort((a, b) => a - b);
  return [medians[Math.floor(0.05 * draws)], medians[Math.floor(0.95 * draws)]];
}

function perRequest(b: Burned, pid: number): { total: number; gateway: number; busiest: number; rest: number } {
  const others = [...b.byThread.entries()].filter(([tid]) => tid !== pid).map(([, ms]) => ms);
  const busiest = Math.max(0, ...others);
  const total = [...b.byThread.values()].reduce((a, v) => a + v, 0);
  const gateway = b.byThread.get(pid) ?? 0;
  const us = (ms: number) => (ms * 1000) / b.requests;
  return { total: us(total), gateway: us(gateway), busiest: us(busiest), rest: us(total - gateway - busiest) };
}

async function main(): Promise<void> {
  const sides = [await setUp('off'), await setUp('on')];
  try {
    console.log(`node ${process.versions.node}, ${os.cpus().length} cores; GET ${PATH} through the gateway, ${concurrency} connections`);
    console.log(`${pairs} pairs of processes x ${rounds} rounds of ${roundSeconds} s each side, loaded in turn:`);
    for (const s of sides) console.log(`  ${s.mode}: ${telemetryLabel(s.mode)}`);
    const byPair: number[][] = [];
    const cpu = sides.map(() => ({ total: 0, gateway: 0, busiest: 0, rest: 0 }));
    for (let p = 0; p < pairs; p++) {
      if (p > 0) for (const s of sides) await s.rt.restart();
      for (const s of sides) await load(s.target, warmupSeconds, concurrency); // warm-up (bench/telemetry.ts says why this long)
      const rps: number[][] = sides.map(() => []);
      const burned: Burned[] = sides.map(() => ({ byThread: new Map(), requests: 0 }));
      for (let r = 0; r < rounds; r++) {
        for (const k of r % 2 === 0 ? [0, 1] : [1, 0]) {
          const pid = sides[k].rt.child()?.pid ?? 0;
          const before = threadCpuMs(pid);
          const res = await load(sides[k].target, roundSeconds, concurrency);
          for (const [tid, ms] of threadCpuMs(pid)) burned[k].byThread.set(tid, (burned[k].byThread.get(tid) ?? 0) + ms - (before.get(tid) ?? 0));
          burned[k].requests += res.requests;
          if (res.errors > 0) throw new Error(`${sides[k].mode}: ${res.errors} answers other than 200`);
          rps[k].push(res.rps);
        }
      }
      const ratios = rps[1].map((on, i) => on / rps[0][i]);
      byPair.push(ratios);
      const per = sides.map((s, k) => perRequest(burned[k], s.rt.child()?.pid ?? 0));
      per.forEach((x, k) => {
        for (const f of ['total', 'gateway', 'busiest', 'rest'] as const) cpu[k][f] += x[f] / pairs;
      });
      console.log(
        `pair ${p + 1}: off ${medianOf(rps[0]).toFixed(0)} req/s, on ${medianOf(rps[1]).toFixed(0)} req/s, on / off ${(medianOf(ratios) * 100).toFixed(1)}%;` +
          ` CPU per request off ${per[0].total.toFixed(0)} µs, on ${per[1].total.toFixed(0)} µs`,
      );
    }
    const all = byPair.flat();
    const [lo, hi] = interval(byPair);
    console.log(`\n=== what tracing costs (${(traceRatio * 100).toFixed(0)}% of traces sampled; on / off, the median of ${all.length} adjacent-round ratios over ${pairs} pairs)`);
    console.log(telemetryCost(`GET ${PATH} through the gateway`, medianOf(all)));
    console.log(`  90% interval (pairs resampled): ${(lo * 100).toFixed(1)}% to ${(hi * 100).toFixed(1)}% of off (cost ${(100 - hi * 100).toFixed(1)}% to ${(100 - lo * 100).toFixed(1)}%)`);
    console.log(`  the pairs' medians: ${byPair.map((r) => `${(medianOf(r) * 100).toFixed(1)}%`).join(', ')}`);
    // early and late rounds (two at a time: one of each order, the side loaded second in a round reading a few points lower)
    const twoRounds = Array.from({ length: Math.floor(rounds / 2) }, (_, r) => medianOf(byPair.flatMap((p) => [p[2 * r], p[2 * r + 1]])));
    console.log(`  by rounds, two at a time from the first (the median over the pairs): ${twoRounds.map((x) => `${(x * 100).toFixed(1)}%`).join(', ')}`);
    const f = (x: (typeof cpu)[number]) => `${x.total.toFixed(0)} µs (gateway thread ${x.gateway.toFixed(0)}, busiest other ${x.busiest.toFixed(0)}, rest ${x.rest.toFixed(0)})`;
    console.log(`  CPU per request, mean of the pairs: off ${f(cpu[0])}; on ${f(cpu[1])}`);
    console.log(`  spans exported: ${sides[1].telemetry.received().requests} OTLP requests, ${(sides[1].telemetry.received().bytes / 1e6).toFixed(1)} MB`);
  } finally {
    for (const s of sides) {
      await stopWithTelemetry(s.rt, s.telemetry);
    }
  }
}

runBench(main);

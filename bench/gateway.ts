/**
 * Gateway overhead: requests/s and p50/p99 latency of `GET /api/v1/locations` through the gateway and
 * directly against the organization service, in the same run, and the ratio.
 * Target (issue): the gateway adds under 1 ms at p50 and keeps at least 60% of the direct throughput.
 *
 *   npm run bench            (BENCH_SECONDS=10 BENCH_CONCURRENCY=32 BENCH_ROUNDS=5 change the load)
 *
 * The servers run in a child process started like `npm start` (embedded Postgres unless DATABASE_URL is
 * set); the load comes from this process over keep-alive connections.
 */
import os from 'node:os';
import { Pool } from 'undici';
import { freePort, generateInternalKeyPair, InternalTokenSigner, type Principal } from '@bop/shared';
import { BENCH_OWNER, startRuntimeProcess } from './runtime-process';

const seconds = Number(process.env.BENCH_SECONDS ?? 6);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 16);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);

interface Result {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

function medianOf(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** the round with the median p50 */
function median(rs: Result[]): Result {
  return [...rs].sort((a, b) => a.p50 - b.p50)[Math.floor(rs.length / 2)];
}

async function load(origin: string, path: string, headers: Record<string, string>, durationS: number, connections: number): Promise<Result> {
  const pool = new Pool(origin, { connections, pipelining: 1 });
  const latencies: number[] = [];
  let errors = 0;
  const until = performance.now() + durationS * 1000;
  const worker = async () => {
    while (performance.now() < until) {
      const t0 = performance.now();
      const res = await pool.request({ method: 'GET', path, headers });
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

async function main(): Promise<void> {
  const keys = await generateInternalKeyPair();
  const orgPort = await freePort();
  const rt = await startRuntimeProcess({
    SERVICE_PORT_ORGANIZATION: String(orgPort),
    INTERNAL_JWT_PRIVATE_KEY: keys.privateKeyPem,
    INTERNAL_JWT_PUBLIC_KEY: keys.publicKeyPem,
    API_RATE_LIMIT_PER_MIN: '100000000',
  });
  const base = rt.base;
  try {
    const signIn = (await (await fetch(`${base}/api/v1/auth/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(BENCH_OWNER) })).json()) as { token: string };
    const key = (await (await fetch(`${base}/api/v1/auth/api-keys`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${signIn.token}` }, body: JSON.stringify({ name: 'bench' }) })).json()) as { key: string };
    for (let i = 0; i < 20; i++) {
      await fetch(`${base}/api/v1/locations`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key.key}` }, body: JSON.stringify({ name: `Bench ${i}`, timezone: 'UTC' }) });
    }
    // the direct path gets the token the gateway would send for this key
    const principal = (await (await fetch(`${base}/api/v1/me`, { headers: { authorization: `Bearer ${key.key}` } })).json()) as { user?: { id: string } };
    const signer = await InternalTokenSigner.fromPem(keys.privateKeyPem);
    const direct: Principal = { kind: 'user', via: 'personal_key', id: principal.user?.id ?? 'usr_bench', userId: principal.user?.id, permissions: { 'organization.read': [{ type: 'everyone' }] } };
    const token = await signer.sign(direct, 3600);

    const viaGateway = (c: number, s: number) => load(base, '/api/v1/locations?limit=20', { authorization: `Bearer ${key.key}` }, s, c);
    const viaDirect = (c: number, s: number) => load(`http://127.0.0.1:${orgPort}`, '/locations?limit=20', { 'x-internal-token': token }, s, c);
    await viaDirect(concurrency, 2);
    await viaGateway(concurrency, 2); // warm-up of both paths
    // latency: one request at a time, so p50 is the path's own cost and not queueing; rounds of both
    // paths interleave and the medians are reported, so drift on a busy machine hits both alike
    const dls: Result[] = [];
    const gls: Result[] = [];
    for (let i = 0; i < rounds; i++) {
      dls.push(await viaDirect(1, seconds / rounds));
      gls.push(await viaGateway(1, seconds / rounds));
    }
    const dl = median(dls);
    const gl = median(gls);
    const added = medianOf(dls.map((d, i) => gls[i].p50 - d.p50));
    // throughput: many connections, the servers saturated
    const dt = await viaDirect(concurrency, seconds);
    const gt = await viaGateway(concurrency, seconds);
    const fmt = (r: Result) => `${r.rps.toFixed(0).padStart(6)} req/s   p50 ${r.p50.toFixed(2).padStart(6)} ms   p99 ${r.p99.toFixed(2).padStart(6)} ms   errors ${r.errors}`;
    console.log(`GET /api/v1/locations?limit=20 (20 locations), ${seconds} s per run, node ${process.versions.node}, ${os.cpus().length} cores, LOG_LEVEL=${process.env.LOG_LEVEL ?? 'info'}`);
    console.log(`latency, 1 connection (median of ${rounds} rounds):`);
    console.log(`  direct (organization)  ${fmt(dl)}`);
    console.log(`  through the gateway    ${fmt(gl)}`);
    console.log(`throughput, ${concurrency} connections:`);
    console.log(`  direct (organization)  ${fmt(dt)}`);
    console.log(`  through the gateway    ${fmt(gt)}`);
    console.log(`gateway adds ${added.toFixed(2)} ms at p50 (median over ${rounds} interleaved rounds; target < 1 ms)`);
    console.log(`gateway keeps ${((gt.rps / dt.rps) * 100).toFixed(1)}% of direct throughput (target >= 60%)`);
  } finally {
    await rt.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

/**
 * What the HTTP benches share: a closed-loop GET load over keep-alive connections, the CPU a process
 * (or each of its threads) has burned (Linux /proc), and medians.
 */
import fs from 'node:fs';
import { Pool } from 'undici';

export interface LoadTarget {
  origin: string;
  path: string;
  headers: Record<string, string>;
}

export interface LoadResult {
  /** requests answered */
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  /** answers other than 200 */
  errors: number;
}

/** `connections` clients each sending the next GET when the last is answered, for `durationS` seconds. */
export async function load(t: LoadTarget, durationS: number, connections: number): Promise<LoadResult> {
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
  return { requests: latencies.length, rps: latencies.length / elapsed, p50: q(0.5), p99: q(0.99), errors };
}

/** user + system CPU of a /proc stat line, in ms (USER_HZ 100) */
function statCpuMs(stat: string): number {
  const fields = stat.split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/** user + system CPU of a process so far, in ms (Linux /proc; 0 elsewhere) */
export function cpuMs(pid: number): number {
  try {
    return statCpuMs(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return 0;
  }
}

/** user + system CPU of each thread of a process so far, in ms, by thread id (Linux /proc; empty elsewhere) */
export function threadCpuMs(pid: number): Map<number, number> {
  const out = new Map<number, number>();
  let tids: string[] = [];
  try {
    tids = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tids) {
    try {
      out.set(Number(tid), statCpuMs(fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8')));
    } catch {
      // the thread ended
    }
  }
  return out;
}

export function medianOf(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

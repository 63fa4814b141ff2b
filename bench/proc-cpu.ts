/**
 * CPU time by part, from /proc (Linux): this Node process's main thread (the producing service:
 * writers + relay) and its other threads (the consuming worker thread, V8's and libuv's helpers),
 * and this process's descendants by kind — Postgres (its postmaster and backends), the Kafka broker
 * (`kafka.Kafka`), any other Java (the registry). Stable under load where wall-clock rates are not.
 * Empty figures where /proc is missing.
 */
import fs from 'node:fs';

export interface CpuParts {
  /** CPU ms per part */
  [part: string]: number;
}

const TICK_MS = 10; // USER_HZ = 100 on Linux

function statFields(file: string): string[] | null {
  try {
    const text = fs.readFileSync(file, 'utf8');
    // the command name (field 2) may hold spaces: the fields after it follow its closing parenthesis
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** utime + stime (and the reaped children's, for a postmaster whose backends came and went), ms */
function cpuMs(fields: string[], withChildren: boolean): number {
  // after the name: [0] state, [1] ppid, ... [11] utime, [12] stime, [13] cutime, [14] cstime
  const own = Number(fields[11]) + Number(fields[12]);
  return (own + (withChildren ? Number(fields[13]) + Number(fields[14]) : 0)) * TICK_MS;
}

function kindOf(pid: number): string {
  try {
    const argv = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    const exe = argv[0] ?? '';
    if (/postgres$/.test(exe) || argv[0]?.startsWith('postgres:')) return 'postgres';
    if (/java$/.test(exe)) return argv.includes('kafka.Kafka') ? 'broker' : 'registry';
    return 'other';
  } catch {
    return 'other';
  }
}

/** CPU ms so far by part (node main thread, node other threads, postgres, broker, registry). */
export function cpuNow(): CpuParts {
  const parts: CpuParts = {};
  const add = (part: string, ms: number) => (parts[part] = (parts[part] ?? 0) + ms);
  if (!fs.existsSync('/proc/self/task')) return parts;
  for (const tid of fs.readdirSync('/proc/self/task')) {
    const f = statFields(`/proc/self/task/${tid}/stat`);
    if (f) add(Number(tid) === process.pid ? 'node main' : 'node other', cpuMs(f, false));
  }
  // descendants of this process
  const children = new Map<number, number[]>();
  const stats = new Map<number, string[]>();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const f = statFields(`/proc/${name}/stat`);
    if (!f) continue;
    const pid = Number(name);
    stats.set(pid, f);
    const ppid = Number(f[1]);
    children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  }
  const walk = (pid: number, inherited: string | null) => {
    for (const child of children.get(pid) ?? []) {
      const kind = inherited ?? kindOf(child);
      const f = stats.get(child)!;
      // a Postgres or Java root counts its reaped children; their live children are counted by the walk
      add(kind, cpuMs(f, inherited === null));
      walk(child, kind === 'other' ? null : kind);
    }
  };
  walk(process.pid, null);
  return parts;
}

export function cpuSince(before: CpuParts): CpuParts {
  const now = cpuNow();
  const out: CpuParts = {};
  for (const [k, v] of Object.entries(now)) out[k] = v - (before[k] ?? 0);
  return out;
}

/** CPU ms so far by thread name (digits dropped) of this process's descendants of one kind (`broker`, `postgres`, …). */
export function threadCpuNow(kind: string): CpuParts {
  const parts: CpuParts = {};
  if (!fs.existsSync('/proc/self/task')) return parts;
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || kindOf(Number(name)) !== kind) continue;
    let tids: string[] = [];
    try {
      tids = fs.readdirSync(`/proc/${name}/task`);
    } catch {
      continue;
    }
    for (const tid of tids) {
      const f = statFields(`/proc/${name}/task/${tid}/stat`);
      let comm = '';
      try {
        comm = fs.readFileSync(`/proc/${name}/task/${tid}/comm`, 'utf8').trim().replace(/\d+/g, '#');
      } catch {
        continue;
      }
      if (f) parts[comm] = (parts[comm] ?? 0) + cpuMs(f, false);
    }
  }
  return parts;
}

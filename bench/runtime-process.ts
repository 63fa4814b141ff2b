/**
 * The all-in-one runtime in a child process, started as `npm start` does (embedded Postgres in a
 * data directory of its own), for benchmarks whose load must not share the servers' event loop and
 * for fault tests that kill it (`kill('SIGKILL')`) and start it again on the same data (`restart()`).
 * Runs the compiled runtime (`npm run build` first).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '@bop/shared';

export const BENCH_OWNER = { email: 'bench@example.com', password: 'bench-password-123456' };

export interface RuntimeProcessOptions {
  /** keep the data here (created 0755 when missing); default a fresh temporary directory, removed on stop */
  dataDir?: string;
  /** the gateway's port (default a free one, kept across restarts) */
  port?: number;
  /** the embedded Postgres' port (default BENCH_PG_PORT or a free one, kept across restarts) */
  pgPort?: number;
  /** the child's stdout/stderr: 'ignore', 'inherit' or a file path to append to (default: stdout ignored, stderr inherited) */
  output?: 'ignore' | 'inherit' | string;
  /** how long to wait for /api/ready (ms, default 60 s) */
  readyTimeoutMs?: number;
}

export interface RuntimeProcess {
  base: string;
  /** the embedded Postgres' port (its database is `bop`, user and password `postgres`) */
  pgPort: number;
  dataDir: string;
  /** the running child (its pid; null between a kill and a restart) */
  child(): ChildProcess | null;
  /** sends a signal to the runtime and waits for it to exit (SIGKILL: a crash, nothing runs on the way out) */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** starts the runtime again on the same data and ports, and waits until it is ready */
  restart(): Promise<void>;
  /** SIGTERM (a graceful stop), then removes a temporary data directory */
  stop(): Promise<void>;
}

export async function startRuntimeProcess(env: Record<string, string>, opts: RuntimeProcessOptions = {}): Promise<RuntimeProcess> {
  // bench/dist when compiled, bench/ when a test imports the source
  const root = fs.existsSync(path.resolve(__dirname, '..', 'runtime')) ? path.resolve(__dirname, '..') : path.resolve(__dirname, '..', '..');
  const port = opts.port ?? (await freePort());
  const pgPort = opts.pgPort ?? (process.env.BENCH_PG_PORT ? Number(process.env.BENCH_PG_PORT) : await freePort());
  const temporary = !opts.dataDir;
  const dataDir = opts.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'bop-bench-'));
  fs.mkdirSync(dataDir, { recursive: true });
  fs.chmodSync(dataDir, 0o755);
  // BENCH_PROFILE_DIR=/tmp/prof writes a V8 CPU profile of the runtime (open it in Chrome DevTools)
  const profile = process.env.BENCH_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`] : [];
  const base = `http://127.0.0.1:${port}`;
  let child: ChildProcess | null = null;

  const spawnChild = () => {
    // BENCH_RUNTIME_LOG=/tmp/runtime.log keeps the runtime's log lines (errors included) in a file
    const out = opts.output ?? process.env.BENCH_RUNTIME_LOG ?? null;
    const fd = out && out !== 'ignore' && out !== 'inherit' ? fs.openSync(out, 'a') : null;
    const stdio: any = fd !== null ? ['ignore', fd, fd] : out === 'inherit' ? ['ignore', 'inherit', 'inherit'] : out === 'ignore' ? 'ignore' : ['ignore', 'ignore', 'inherit'];
    child = spawn(process.execPath, [...profile, ...(process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean), path.join(root, 'runtime/dist/start.js')], {
      env: {
        ...process.env,
        PORT: String(port),
        DATA_DIR: dataDir,
        EMBEDDED_PG_PORT: String(pgPort),
        SERVICE_PORTS: 'auto',
        BOOTSTRAP_ADMIN_EMAIL: BENCH_OWNER.email,
        BOOTSTRAP_ADMIN_PASSWORD: BENCH_OWNER.password,
        LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
        ...env,
      },
      stdio,
    });
    if (fd !== null) fs.closeSync(fd);
  };

  const kill = async (signal: NodeJS.Signals = 'SIGKILL') => {
    const c = child;
    if (!c || c.exitCode !== null || c.signalCode !== null) {
      child = null;
      return;
    }
    const exited = new Promise((r) => c.once('exit', r));
    c.kill(signal);
    await exited;
    child = null;
  };

  /** the last lines the runtime wrote, when they went to a file: a failed start says why */
  const logTail = () => {
    const out = opts.output ?? process.env.BENCH_RUNTIME_LOG;
    if (!out || out === 'ignore' || out === 'inherit') return '';
    try {
      return `; its last lines (${out}):\n${fs.readFileSync(out, 'utf8').trimEnd().split('\n').slice(-20).join('\n')}`;
    } catch {
      return '';
    }
  };

  const waitReady = async () => {
    const until = Date.now() + (opts.readyTimeoutMs ?? 60_000);
    for (;;) {
      if (await fetch(`${base}/api/ready`).then((r) => r.status === 200, () => false)) return;
      const c = child as ChildProcess | null;
      if (Date.now() > until || !c || c.exitCode !== null) throw new Error(`the runtime did not become ready (exit ${c?.exitCode ?? 'none'})${logTail()}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  };

  const stop = async () => {
    await kill('SIGTERM');
    if (temporary) fs.rmSync(dataDir, { recursive: true, force: true });
  };

  spawnChild();
  try {
    await waitReady();
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    base,
    pgPort,
    dataDir,
    child: () => child,
    kill,
    async restart() {
      await kill('SIGKILL');
      spawnChild();
      await waitReady();
    },
    stop,
  };
}

/** A JSON call to the runtime that throws on any status of 300 or more (a bench's set-up must not half-succeed). */
export async function benchRequest(base: string, method: string, p: string, body: unknown, auth?: string): Promise<any> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (auth) headers.authorization = `Bearer ${auth}`;
  const res = await fetch(`${base}${p}`, { method, headers, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) });
  const parsed = (await res.json().catch(() => null)) as any;
  if (res.status >= 300) throw new Error(`${method} ${p}: ${res.status} ${JSON.stringify(parsed).slice(0, 300)}`);
  return parsed;
}

/** A session token of the bench's owner. */
export async function benchSession(base: string): Promise<string> {
  return (await benchRequest(base, 'POST', '/api/v1/auth/sign-in', BENCH_OWNER)).token as string;
}

/**
 * The all-in-one runtime in a child process, started as `npm start` does (embedded Postgres in a
 * temporary data directory), for benchmarks whose load must not share the servers' event loop.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '@bop/shared';

export const BENCH_OWNER = { email: 'bench@example.com', password: 'bench-password-123456' };

export interface RuntimeProcess {
  base: string;
  /** the embedded Postgres' port (its database is `bop`, user and password `postgres`) */
  pgPort: number;
  stop(): Promise<void>;
}

export async function startRuntimeProcess(env: Record<string, string>): Promise<RuntimeProcess> {
  const root = path.resolve(__dirname, '..', '..');
  const port = await freePort();
  const pgPort = process.env.BENCH_PG_PORT ? Number(process.env.BENCH_PG_PORT) : await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bop-bench-'));
  fs.chmodSync(dataDir, 0o755);
  // BENCH_PROFILE_DIR=/tmp/prof writes a V8 CPU profile of the runtime (open it in Chrome DevTools)
  const profile = process.env.BENCH_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`] : [];
  const child = spawn(process.execPath, [...profile, ...(process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean), path.join(root, 'runtime/dist/start.js')], {
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
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (await fetch(`${base}/api/ready`).then((r) => r.status === 200, () => false)) break;
    if (i > 240 || child.exitCode !== null) {
      await stop();
      throw new Error('the runtime did not become ready');
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return { base, pgPort, stop };
}

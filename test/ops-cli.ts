import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
/** The built operations CLI (`npm run build` makes it). */
export const opsCli = path.resolve(__dirname, '..', 'runtime', 'dist', 'ops.js');

/** Runs `ops <args>` with exactly `env`; a non-zero exit is answered, not thrown. */
export async function runOps(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; out: string; err: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [opsCli, ...args], { env });
    return { code: 0, out: stdout, err: stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: e.stdout, err: e.stderr };
  }
}

import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { freshDatabase, testKeys } from './harness';

/** A compiled service running alone in a child process, for tests that measure the service's own memory. */
export interface ServiceProcess {
  url: string;
  /** the memory held now (after a full collection) becomes the baseline and the peak */
  resetMemory(): Promise<void>;
  /** bytes held (heap used + external, after a full collection) at the baseline and at most since */
  memory(): Promise<{ baseline: number; peak: number }>;
  close(): Promise<void>;
}

/**
 * Starts `require(moduleName)[exportName]` (a compiled service definition, e.g. `@svc/files`,
 * `filesService`) on a fresh database in a child process with its own heap: what the service holds is
 * measured there, apart from the test's client and from whatever earlier test files left in the test
 * worker's heap (forcing full collections of that heap would slow every request the test makes).
 */
export async function startServiceProcess(moduleName: string, exportName: string, env: Record<string, string> = {}): Promise<ServiceProcess> {
  const db = await freshDatabase({ migrated: true });
  const { keys } = await testKeys();
  const child: ChildProcess = fork(path.join(__dirname, '../dist/service-process-child.js'), [moduleName, exportName], {
    execArgv: ['--expose-gc'],
    env: { ...process.env, DATABASE_URL: db.url, INTERNAL_JWT_PUBLIC_KEY: keys.publicKeyPem, LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = <T>(type: string) =>
    new Promise<T>((resolve, reject) => {
      const onMessage = (m: { type: string }) => {
        if (m.type !== type) return;
        child.off('exit', onExit);
        child.off('message', onMessage);
        resolve(m as T);
      };
      const onExit = (code: number | null) => {
        child.off('message', onMessage);
        reject(new Error(`the ${exportName} process exited (code ${code}) before answering ${type}`));
      };
      child.on('message', onMessage);
      child.once('exit', onExit);
    });
  try {
    const { url } = await next<{ url: string }>('ready');
    return {
      url,
      async resetMemory() {
        const answer = next('reset');
        child.send({ type: 'reset' });
        await answer;
      },
      async memory() {
        const answer = next<{ baseline: number; peak: number }>('memory');
        child.send({ type: 'memory' });
        return answer;
      },
      async close() {
        if (child.exitCode === null) {
          const exited = new Promise((r) => child.once('exit', r));
          child.send({ type: 'stop' });
          let timer: NodeJS.Timeout | undefined;
          await Promise.race([exited, new Promise((r) => (timer = setTimeout(r, 10_000)))]);
          clearTimeout(timer);
          if (child.exitCode === null) child.kill('SIGKILL');
        }
        await db.drop();
      },
    };
  } catch (err) {
    child.kill('SIGKILL');
    await db.drop();
    throw err;
  }
}

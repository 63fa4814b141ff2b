import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Command } from 'commander';
import { openStorage, storageSettingsFromEnv, type ObjectStorage } from '@bop/shared';
import { loadRuntimeConfig } from '../config';
import { exits } from './context';

/** The attachment storage the files service uses: STORAGE_S3_* when a bucket is set, else FILES_DIR or DATA_DIR/files. */
export function attachmentStorage(): ObjectStorage {
  const config = loadRuntimeConfig();
  return openStorage(storageSettingsFromEnv({ ...process.env, DATA_DIR: config.DATA_DIR, FILES_DIR: config.FILES_DIR }));
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const reason = (err: unknown) => {
  const e = err as NodeJS.ErrnoException;
  if (e.code === 'EACCES' || e.code === 'EPERM' || e.code === 'EROFS') return `not writable (${e.code}: ${e.message})`;
  if (e.code === 'ENOTDIR' || e.code === 'EEXIST') return `not a directory (${e.code}: ${e.message})`;
  if (e.code === 'ENOSPC') return `no space left (${e.message})`;
  return e.message;
};

/** `storage test`: write, read back, compare sha256, delete; exit 1 with the step and reason. */
async function storageTest(opts: { json?: boolean }): Promise<number> {
  const storage = attachmentStorage();
  const key = `.ops-storage-test/${randomBytes(8).toString('hex')}`;
  const content = randomBytes(256 * 1024);
  const expected = createHash('sha256').update(content).digest('hex');
  const steps: { step: string; ok: boolean; detail?: string }[] = [];
  const step = async (name: string, fn: () => Promise<string | undefined>): Promise<boolean> => {
    try {
      const detail = await fn();
      steps.push({ step: name, ok: true, detail });
      return true;
    } catch (err) {
      steps.push({ step: name, ok: false, detail: reason(err) });
      return false;
    }
  };
  const ok =
    (await step('write', async () => {
      const stored = await storage.put(key, Readable.from([content]));
      if (stored.sha256 !== expected) throw new Error(`written sha256 ${stored.sha256} is not ${expected}`);
      return `${stored.size} bytes`;
    })) &&
    (await step('read', async () => {
      const body = await storage.get(key);
      if (!body) throw new Error('the object written is not there');
      const actual = createHash('sha256').update(await readAll(body)).digest('hex');
      if (actual !== expected) throw new Error(`read back sha256 ${actual} differs from the written ${expected}`);
      return `sha256 ${actual}`;
    })) &&
    (await step('delete', async () => {
      if (!(await storage.delete(key))) throw new Error('nothing to delete');
      if (await storage.head(key)) throw new Error('still there after delete');
      return undefined;
    }));
  if (opts.json) console.log(JSON.stringify({ ok, location: storage.location, steps }, null, 2));
  else {
    console.log(`attachment storage: ${storage.location}`);
    for (const s of steps) console.log(`  ${s.ok ? 'ok  ' : 'FAIL'}  ${s.step}${s.detail ? `: ${s.detail}` : ''}`);
  }
  if (!ok) {
    const failed = steps.find((s) => !s.ok)!;
    console.error(`error: storage ${failed.step} failed in ${storage.location}: ${failed.detail} (FILES_DIR moves the local directory; STORAGE_S3_* names a bucket)`);
  }
  return ok ? 0 : 1;
}

/** `storage test`. */
export function addStorageCommands(program: Command): void {
  const group = program.command('storage').description('test: the attachment storage (FILES_DIR, default DATA_DIR/files)');
  group
    .command('test')
    .description('writes, reads back (sha256 compared) and deletes an object (exit 1 with the reason)')
    .option('--json', 'the result as JSON')
    .action(exits(storageTest));
}

/**
 * `ops backup` on the embedded Postgres (no DATABASE_URL, no pg_dump): each command starts the
 * embedded database on DATA_DIR for itself, as an operator's would with the runtime stopped.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '@bop/shared';
import { runOps } from './ops-cli';

let dataDir: string;
let env: Record<string, string | undefined>;

const ops = (args: string[]) => runOps(args, env);

/** Each table file's sha256: equal files (same rows in the same order, gzip without a timestamp) are equal data. */
function files(name: string): Record<string, string> {
  const manifest = JSON.parse(fs.readFileSync(path.join(dataDir, 'backups', name, 'manifest.json'), 'utf8')) as { schemas: { name: string; tables: { name: string; sha256: string; rows: number }[] }[] };
  return Object.fromEntries(manifest.schemas.flatMap((s) => s.tables.map((t) => [`${s.name}.${t.name}`, `${t.rows} ${t.sha256}`])));
}

beforeAll(async () => {
  dataDir = path.join(os.tmpdir(), `bop-ops-embedded-${process.pid}-${Date.now()}`);
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o755 });
  env = { ...process.env, DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(await freePort()), PORT: '1', LOG_LEVEL: 'silent' };
  delete env.DATABASE_URL;
  delete env.BUS_DATABASE_URL;
});
afterAll(() => {
  fs.rmSync(dataDir, { recursive: true, force: true });
});

it('backup → change and add rows → restore on the embedded Postgres: every table equal to the backup again', async () => {
  expect((await ops(['users', 'create-admin', '--email', 'first@example.com', '--password', 'a-long-password-123'])).code).toBe(0);
  expect((await ops(['migrate'])).code).toBe(0);
  const created = await ops(['backup', 'create', 'before']);
  expect(created.err).toBe('');
  expect(created.code).toBe(0);
  const featuresBefore = (await ops(['features', 'list'])).out;

  expect((await ops(['features', 'disable', 'scheduling'])).code).toBe(0);
  expect((await ops(['users', 'create-admin', '--email', 'second@example.com', '--password', 'a-long-password-123'])).code).toBe(0);
  expect((await ops(['backup', 'create', 'changed'])).code).toBe(0);
  expect(files('changed')).not.toEqual(files('before'));

  const restored = await ops(['backup', 'restore', 'before']);
  expect(restored.err).toBe('');
  expect(restored.code).toBe(0);
  expect((await ops(['features', 'list'])).out).toBe(featuresBefore);
  expect((await ops(['backup', 'create', 'after'])).code).toBe(0);
  expect(files('after')).toEqual(files('before'));
  const list = await ops(['backup', 'list']);
  expect(list.out).toContain('3 backup(s)');
}, 240_000);

/** `ops backup` and `ops storage` as real processes on a fresh database of the run's Postgres (needs the build). */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { freshDatabase, type TestDatabase } from '@bop/test-support';
import { runOps } from './ops-cli';

let db: TestDatabase;
let dataDir: string;

const ops = (args: string[], env: Record<string, string> = {}) => runOps(args, { ...process.env, DATABASE_URL: db.url, DATA_DIR: dataDir, PORT: '1', LOG_LEVEL: 'silent', ...env });

/** Every row of every platform table, as text, in a stable order. */
async function snapshot(c: Client): Promise<Record<string, string[]>> {
  const { rows: tables } = await c.query<{ s: string; t: string }>(
    `select schemaname as s, tablename as t from pg_tables where schemaname not in ('pg_catalog', 'information_schema') order by 1, 2`,
  );
  const out: Record<string, string[]> = {};
  for (const { s, t } of tables) {
    const { rows } = await c.query<{ r: string }>(`select x::text as r from "${s}"."${t}" x`);
    out[`${s}.${t}`] = rows.map((r) => r.r).sort();
  }
  return out;
}

beforeAll(async () => {
  db = await freshDatabase();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bop-ops-backup-'));
});
afterAll(async () => {
  await db?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('ops storage test', () => {
  it('writes, reads back and deletes in DATA_DIR/files', async () => {
    const r = await ops(['storage', 'test']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toContain(path.join(dataDir, 'files'));
    expect(r.out).toMatch(/ok\s+read: sha256 [0-9a-f]{64}/);
    expect(fs.readdirSync(path.join(dataDir, 'files', '.ops-storage-test'))).toEqual([]);
    const json = JSON.parse((await ops(['storage', 'test', '--json'])).out) as { ok: boolean; steps: unknown[] };
    expect(json.ok).toBe(true);
    expect(json.steps).toHaveLength(3);
  });

  it('exits 1 with the reason when FILES_DIR is not writable', async () => {
    const readOnly = path.join(dataDir, 'read-only');
    fs.mkdirSync(readOnly);
    fs.chmodSync(readOnly, 0o555);
    try {
      // root writes anywhere: a path under a regular file is unwritable for everyone
      const target = process.getuid?.() === 0 ? path.join(dataDir, 'a-file', 'files') : readOnly;
      fs.writeFileSync(path.join(dataDir, 'a-file'), 'x');
      const r = await ops(['storage', 'test'], { FILES_DIR: target });
      expect(r.code).toBe(1);
      expect(r.err).toMatch(/storage write failed in .*: not (writable|a directory)/);
      expect(r.out).toMatch(/FAIL\s+write/);
    } finally {
      fs.chmodSync(readOnly, 0o755);
    }
  });
});

describe('ops backup', () => {
  it('creates, lists, and restores a backup after rows were lost and changed, with the data equal afterwards', async () => {
    expect((await ops(['migrate'])).code).toBe(0);
    expect((await ops(['users', 'create-admin', '--email', 'backup@example.com', '--password', 'a-long-password-123'])).code).toBe(0);
    const c = new Client({ connectionString: db.url });
    await c.connect();
    try {
      await c.query(`insert into identity.outbox (event_id, type, aggregate_type, aggregate_id, payload, created_at) values ('evt_BACKUP1', 'x.y', 'x', '1', '{"a":"é\\u00e9 tab\\t"}', now())`);
      // a partitioned table (COPY refuses its parent): operations' sensor readings
      await c.query(`insert into operations.sensor_readings (sensor_id, read_at, value, source, received_at) values ('sen_BACKUP', now(), 4.5, 'probe', now()), ('sen_BACKUP', '2001-01-01T00:00:00Z', -18, 'probe', now())`);
      const before = await snapshot(c);
      expect(before['identity.users']).toHaveLength(1);
      expect(before['operations.sensor_readings']).toHaveLength(2);

      const created = await ops(['backup', 'create', 'first']);
      expect(created.err).toBe('');
      expect(created.code).toBe(0);
      expect(created.out).toMatch(/backup first created in .*backups\/first: \d+ schema\(s\)/);
      const manifest = JSON.parse(fs.readFileSync(path.join(dataDir, 'backups', 'first', 'manifest.json'), 'utf8'));
      const identity = manifest.schemas.find((s: { name: string }) => s.name === 'identity');
      expect(identity.migrations).toContain('Migration20261121060000');
      expect(identity.tables.find((t: { name: string }) => t.name === 'users').rows).toBe(1);
      expect((await ops(['backup', 'create', 'first'])).code).toBe(1);

      const list = await ops(['backup', 'list']);
      expect(list.code).toBe(0);
      expect(list.out).toMatch(/^first\s+\d{4}-\d\d-\d\dT/m);
      expect(list.out).toContain('1 backup(s)');

      // the wipe: a table emptied, a row changed, a row added, the outbox sequence moved on
      await c.query(`delete from identity.assignments`);
      await c.query(`delete from identity.users`);
      await c.query(`delete from operations.sensor_readings where read_at < '2002-01-01'`);
      await c.query(`update identity.feature_switches set enabled = not enabled`);
      await c.query(`insert into identity.outbox (event_id, type, aggregate_type, aggregate_id, payload, created_at) values ('evt_BACKUP2', 'x.y', 'x', '2', '{}', now())`);
      expect(await snapshot(c)).not.toEqual(before);

      const restored = await ops(['backup', 'restore', 'first']);
      expect(restored.err).toBe('');
      expect(restored.code).toBe(0);
      expect(restored.out).toContain('row counts match the manifest');
      expect(await snapshot(c)).toEqual(before);
      // the sequence is back where the backup left it: the next outbox row follows the restored ones
      const { rows } = await c.query<{ seq: string }>(`insert into identity.outbox (event_id, type, aggregate_type, aggregate_id, payload, created_at) values ('evt_BACKUP3', 'x.y', 'x', '3', '{}', now()) returning seq`);
      const { rows: max } = await c.query<{ m: string }>(`select max(seq) as m from identity.outbox where event_id <> 'evt_BACKUP3'`);
      expect(BigInt(rows[0].seq)).toBe(BigInt(max[0].m) + 1n);
    } finally {
      await c.end();
    }
  });

  it('restores into an empty database (the schemas made first) with the same data', async () => {
    const empty = await freshDatabase();
    const source = new Client({ connectionString: db.url });
    const target = new Client({ connectionString: empty.url });
    await source.connect();
    await target.connect();
    try {
      const r = await ops(['backup', 'restore', 'first'], { DATABASE_URL: empty.url });
      expect(r.err).toBe('');
      expect(r.code).toBe(0);
      const expected = await snapshot(source);
      const actual = await snapshot(target);
      expect(actual['identity.users']).toEqual(expected['identity.users']);
      expect(actual['identity.outbox']).toEqual(expected['identity.outbox'].filter((row) => !row.includes('evt_BACKUP3')));
    } finally {
      await source.end();
      await target.end();
      await empty.drop();
    }
  });

  it('restores as a role that is not a superuser (foreign keys followed instead of switched off)', async () => {
    const c = new Client({ connectionString: db.url });
    await c.connect();
    const role = `ops_plain_${process.pid}`;
    try {
      const before = await snapshot(c);
      await c.query(`create role ${role} login password 'plain-password'`);
      const { rows } = await c.query<{ s: string }>(`select distinct schemaname as s from pg_tables where schemaname not in ('pg_catalog', 'information_schema')`);
      for (const { s } of rows) {
        await c.query(`grant usage on schema "${s}" to ${role}`);
        await c.query(`grant select, insert, update, delete, truncate on all tables in schema "${s}" to ${role}`);
        await c.query(`grant usage, select, update on all sequences in schema "${s}" to ${role}`);
      }
      await c.query(`delete from identity.assignments`);
      await c.query(`delete from identity.users`);
      const url = new URL(db.url);
      url.username = role;
      url.password = 'plain-password';
      const r = await ops(['backup', 'restore', 'first'], { DATABASE_URL: url.toString() });
      expect(r.err).toBe('');
      expect(r.code).toBe(0);
      const after = await snapshot(c);
      expect(after['identity.users']).toEqual(before['identity.users']);
      expect(after['identity.assignments']).toEqual(before['identity.assignments']);
    } finally {
      await c.query(`drop owned by ${role}`).catch(() => undefined);
      await c.query(`drop role if exists ${role}`).catch(() => undefined);
      await c.end();
    }
  });

  it('refuses to restore while the runtime runs, an unknown backup, and a damaged one', async () => {
    // this test's own node process stands for a running runtime on DATA_DIR
    fs.writeFileSync(path.join(dataDir, 'runtime.json'), JSON.stringify({ pid: process.pid, databaseUrl: db.url }));
    try {
      const r = await ops(['backup', 'restore', 'first']);
      expect(r.code).toBe(1);
      expect(r.err).toMatch(/the runtime is running \(pid \d+\); stop it before restoring/);
    } finally {
      fs.rmSync(path.join(dataDir, 'runtime.json'));
    }
    // a platform connection (a service's pool, named bop-<schema>) open on the database
    const service = new Client({ connectionString: db.url, application_name: 'bop-identity' });
    await service.connect();
    try {
      const r = await ops(['backup', 'restore', 'first']);
      expect(r.code).toBe(1);
      expect(r.err).toMatch(/the platform is connected to this database \(bop-identity ×1\); stop it before restoring/);
    } finally {
      await service.end();
    }
    const unknown = await ops(['backup', 'restore', 'nope']);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain('no backup nope');
    const file = path.join(dataDir, 'backups', 'first', 'identity.users.copy.gz');
    fs.appendFileSync(file, 'x');
    const damaged = await ops(['backup', 'restore', 'first']);
    expect(damaged.code).toBe(1);
    expect(damaged.err).toContain('identity.users.copy.gz does not match its sha256');
    expect((await ops(['backup', 'restore'])).code).toBe(2);
  });
});

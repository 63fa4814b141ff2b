import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import type { Command } from 'commander';
import { Client } from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { busSchemaSql, now } from '@bop/shared';
import { loadRuntimeConfig } from '../config';
import { isNodeProcess } from '../embedded-postgres';
import { exits, migrateServices, withDatabase } from './context';

/**
 * Logical backups without pg_dump (the embedded Postgres ships none): every table of every
 * platform schema (services, bus, gateway) copied out with `COPY … TO STDOUT` in one repeatable-read
 * snapshot, gzipped, with a manifest of schemas, tables, columns, row counts, sequences and the
 * applied migrations. Restore reloads them in one transaction and checks the row counts.
 */
export interface BackupManifest {
  format: 'bop-logical-backup/1';
  name: string;
  createdAt: string;
  postgres: string;
  schemas: {
    name: string;
    migrations: string[];
    tables: { name: string; columns: string[]; rows: number; file: string; bytes: number; sha256: string }[];
  }[];
  sequences: { schema: string; name: string; lastValue: string | null; isCalled: boolean }[];
}

const MANIFEST = 'manifest.json';
const ident = (s: string) => `"${s.replaceAll('"', '""')}"`;

export function backupDir(): string {
  const config = loadRuntimeConfig();
  return path.resolve(config.BACKUP_DIR ?? path.join(config.DATA_DIR, 'backups'));
}

/** The platform's schemas: every schema with tables but Postgres's own. */
async function platformSchemas(c: Client): Promise<string[]> {
  const { rows } = await c.query<{ schema: string }>(
    `select distinct n.nspname as schema from pg_class t join pg_namespace n on n.oid = t.relnamespace
     where t.relkind in ('r', 'p') and n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg\\_%'
     order by 1`,
  );
  return rows.map((r) => r.schema);
}

async function tablesOf(c: Client, schema: string): Promise<{ name: string; columns: string[]; partitioned: boolean }[]> {
  const { rows } = await c.query<{ name: string; columns: string[]; partitioned: boolean }>(
    `select t.relname::text as name, array_agg(a.attname::text order by a.attnum) as columns, t.relkind = 'p' as partitioned
     from pg_class t join pg_namespace n on n.oid = t.relnamespace
     join pg_attribute a on a.attrelid = t.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
     where n.nspname = $1 and t.relkind in ('r', 'p') and not t.relispartition
     group by t.relname, t.relkind order by t.relname`,
    [schema],
  );
  return rows;
}

async function migrationsOf(c: Client, schema: string): Promise<string[]> {
  const { rows: exists } = await c.query(`select 1 from pg_tables where schemaname = $1 and tablename = 'mikro_orm_migrations'`, [schema]);
  if (exists.length === 0) return [];
  const { rows } = await c.query<{ name: string }>(`select name from ${ident(schema)}."mikro_orm_migrations" order by name`);
  return rows.map((r) => r.name.replace(/\.[jt]s$/, ''));
}

function hashing(): { transform: Transform; digest: () => { sha256: string; bytes: number } } {
  const hash = createHash('sha256');
  let bytes = 0;
  const transform = new Transform({
    transform(chunk: Buffer, _enc, done) {
      hash.update(chunk);
      bytes += chunk.length;
      done(null, chunk);
    },
  });
  return { transform, digest: () => ({ sha256: hash.digest('hex'), bytes }) };
}

const defaultName = () => `backup-${now().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15)}`;

async function createBackup(name: string | undefined, opts: { json?: boolean }): Promise<number> {
  const backupName = name ?? defaultName();
  if (!/^[A-Za-z0-9][A-Za-z0-9_.-]*$/.test(backupName)) {
    console.error(`error: backup name ${JSON.stringify(backupName)}: letters, digits, '.', '_', '-' only`);
    return 2;
  }
  const target = path.join(backupDir(), backupName);
  if (fs.existsSync(target)) {
    console.error(`error: backup ${backupName} exists in ${backupDir()}; choose another name`);
    return 1;
  }
  const partial = `${target}.partial`;
  fs.rmSync(partial, { recursive: true, force: true });
  fs.mkdirSync(partial, { recursive: true });
  try {
    const manifest = await withDatabase(async (url) => {
      const c = new Client({ connectionString: url, application_name: 'bop-ops-backup' });
      await c.connect();
      try {
        // one snapshot for every table: the backup is the database as of one instant
        await c.query('begin isolation level repeatable read read only');
        const m: BackupManifest = {
          format: 'bop-logical-backup/1',
          name: backupName,
          createdAt: now().toISOString(),
          postgres: (await c.query<{ v: string }>('show server_version')).rows[0].v,
          schemas: [],
          sequences: [],
        };
        for (const schema of await platformSchemas(c)) {
          const entry: BackupManifest['schemas'][number] = { name: schema, migrations: await migrationsOf(c, schema), tables: [] };
          for (const t of await tablesOf(c, schema)) {
            const file = `${schema}.${t.name}.copy.gz`;
            const h = hashing();
            const cols = t.columns.map(ident).join(', ');
            // a partitioned table (operations' sensor readings) is copied through a query: COPY refuses its parent, and its partitions are not listed on their own
            const source = t.partitioned ? `(select ${cols} from ${ident(schema)}.${ident(t.name)})` : `${ident(schema)}.${ident(t.name)} (${cols})`;
            await pipeline(c.query(copyTo(`copy ${source} to stdout`)), createGzip(), h.transform, fs.createWriteStream(path.join(partial, file)));
            const rows = Number((await c.query<{ n: string }>(`select count(*) as n from ${ident(schema)}.${ident(t.name)}`)).rows[0].n);
            entry.tables.push({ name: t.name, columns: t.columns, rows, file, ...h.digest() });
          }
          m.schemas.push(entry);
        }
        const { rows: seqs } = await c.query<{ schema: string; name: string }>(
          `select n.nspname as schema, s.relname as name from pg_class s join pg_namespace n on n.oid = s.relnamespace
           where s.relkind = 'S' and n.nspname = any($1) order by 1, 2`,
          [m.schemas.map((s) => s.name)],
        );
        for (const s of seqs) {
          const { rows } = await c.query<{ last_value: string; is_called: boolean }>(`select last_value::text, is_called from ${ident(s.schema)}.${ident(s.name)}`);
          m.sequences.push({ schema: s.schema, name: s.name, lastValue: rows[0]?.last_value ?? null, isCalled: rows[0]?.is_called ?? false });
        }
        await c.query('commit');
        return m;
      } finally {
        await c.end();
      }
    });
    fs.writeFileSync(path.join(partial, MANIFEST), JSON.stringify(manifest, null, 2));
    fs.renameSync(partial, target);
    const tables = manifest.schemas.reduce((n, s) => n + s.tables.length, 0);
    const rows = manifest.schemas.reduce((n, s) => n + s.tables.reduce((r, t) => r + t.rows, 0), 0);
    if (opts.json) console.log(JSON.stringify({ name: backupName, path: target, schemas: manifest.schemas.length, tables, rows }));
    else console.log(`backup ${backupName} created in ${target}: ${manifest.schemas.length} schema(s), ${tables} table(s), ${rows} row(s)`);
    return 0;
  } catch (err) {
    fs.rmSync(partial, { recursive: true, force: true });
    throw err;
  }
}

function readManifest(dir: string): BackupManifest | null {
  try {
    const m = JSON.parse(fs.readFileSync(path.join(dir, MANIFEST), 'utf8')) as BackupManifest;
    return m.format === 'bop-logical-backup/1' ? m : null;
  } catch {
    return null;
  }
}

async function listBackups(opts: { json?: boolean }): Promise<number> {
  const dir = backupDir();
  const names = fs.existsSync(dir) ? fs.readdirSync(dir).filter((n) => !n.endsWith('.partial')) : [];
  const list = names
    .map((n) => ({ n, m: readManifest(path.join(dir, n)) }))
    .filter((x): x is { n: string; m: BackupManifest } => x.m !== null)
    .map(({ n, m }) => ({
      name: n,
      createdAt: m.createdAt,
      schemas: m.schemas.length,
      tables: m.schemas.reduce((k, s) => k + s.tables.length, 0),
      rows: m.schemas.reduce((k, s) => k + s.tables.reduce((r, t) => r + t.rows, 0), 0),
      bytes: m.schemas.reduce((k, s) => k + s.tables.reduce((r, t) => r + t.bytes, 0), 0),
    }))
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  if (opts.json) console.log(JSON.stringify(list, null, 2));
  else {
    for (const b of list) console.log(`${b.name}  ${b.createdAt}  ${b.schemas} schema(s)  ${b.tables} table(s)  ${b.rows} row(s)  ${b.bytes} bytes`);
    console.log(`${list.length} backup(s) in ${dir}`);
  }
  return 0;
}

/** The runtime on this DATA_DIR, when one runs (restore refuses then). */
function runningRuntime(): number | null {
  const config = loadRuntimeConfig();
  try {
    const state = JSON.parse(fs.readFileSync(path.join(path.resolve(config.DATA_DIR), 'runtime.json'), 'utf8')) as { pid: number };
    return isNodeProcess(state.pid) ? state.pid : null;
  } catch {
    return null;
  }
}

async function restoreBackup(name: string): Promise<number> {
  const dir = path.join(backupDir(), name);
  const manifest = readManifest(dir);
  if (!manifest) {
    console.error(`error: no backup ${name} in ${backupDir()} (ops backup list shows them)`);
    return 1;
  }
  const pid = runningRuntime();
  if (pid !== null) {
    console.error(`error: the runtime is running (pid ${pid}); stop it before restoring`);
    return 1;
  }
  for (const s of manifest.schemas) {
    for (const t of s.tables) {
      const file = path.join(dir, t.file);
      const sha256 = fs.existsSync(file) ? createHash('sha256').update(fs.readFileSync(file)).digest('hex') : 'missing';
      if (sha256 !== t.sha256) {
        console.error(`error: backup ${name} is damaged: ${t.file} ${sha256 === 'missing' ? 'is missing' : 'does not match its sha256'}`);
        return 1;
      }
    }
  }
  return withDatabase(async (url) => {
    const c = new Client({ connectionString: url, application_name: 'bop-ops-restore' });
    await c.connect();
    try {
      const { rows: others } = await c.query<{ app: string; n: string }>(
        `select application_name as app, count(*) as n from pg_stat_activity
         where datname = current_database() and pid <> pg_backend_pid() and application_name like 'bop-%' group by 1`,
      );
      if (others.length > 0) {
        console.error(`error: the platform is connected to this database (${others.map((o) => `${o.app} ×${o.n}`).join(', ')}); stop it before restoring`);
        return 1;
      }
      // an empty database gets the schemas first (the same code version made the backup)
      const missing = async () => {
        const have = new Set((await c.query<{ t: string }>(`select schemaname || '.' || tablename as t from pg_tables`)).rows.map((r) => r.t));
        return manifest.schemas.flatMap((s) => s.tables.map((t) => `${s.name}.${t.name}`)).filter((t) => !have.has(t));
      };
      if ((await missing()).length > 0) {
        await migrateServices(url, () => undefined);
        if (manifest.schemas.some((s) => s.name === 'bus')) for (const sql of busSchemaSql) await c.query(sql);
      }
      const absent = await missing();
      if (absent.length > 0) {
        console.error(`error: table(s) ${absent.join(', ')} of the backup do not exist here; start the runtime once to create them, stop it, then restore`);
        return 1;
      }
      for (const s of manifest.schemas) {
        const here = await migrationsOf(c, s.name);
        const extra = here.filter((m) => !s.migrations.includes(m));
        const lacking = s.migrations.filter((m) => !here.includes(m));
        if (extra.length > 0 || lacking.length > 0) {
          console.error(
            `error: ${s.name}: the backup's migrations differ from this database's (${[...extra.map((m) => `${m} only here`), ...lacking.map((m) => `${m} only in the backup`)].join(', ')}); restore with the version that made it`,
          );
          return 1;
        }
      }
      await c.query('begin');
      try {
        // the rows go back as they were: no triggers (outbox NOTIFY), no foreign-key order to follow;
        // a role that may not do that (not a superuser) loads referenced tables first instead
        await c.query('savepoint replica');
        let ordered = false;
        try {
          await c.query(`set local session_replication_role = replica`);
        } catch {
          await c.query('rollback to savepoint replica');
          await c.query('set constraints all deferred');
          ordered = true;
        }
        const entries = manifest.schemas.flatMap((s) => s.tables.map((t) => ({ schema: s.name, table: t })));
        if (entries.length > 0) await c.query(`truncate ${entries.map((e) => `${ident(e.schema)}.${ident(e.table.name)}`).join(', ')}`);
        for (const e of ordered ? await referencedFirst(c, entries) : entries) {
          const cols = e.table.columns.map(ident).join(', ');
          await pipeline(fs.createReadStream(path.join(dir, e.table.file)), createGunzip(), c.query(copyFrom(`copy ${ident(e.schema)}.${ident(e.table.name)} (${cols}) from stdin`)));
        }
        for (const q of manifest.sequences) {
          if (q.lastValue !== null) await c.query(`select setval($1::regclass, $2::bigint, $3)`, [`${ident(q.schema)}.${ident(q.name)}`, q.lastValue, q.isCalled]);
        }
        const wrong: string[] = [];
        for (const s of manifest.schemas) {
          for (const t of s.tables) {
            const n = Number((await c.query<{ n: string }>(`select count(*) as n from ${ident(s.name)}.${ident(t.name)}`)).rows[0].n);
            if (n !== t.rows) wrong.push(`${s.name}.${t.name}: ${n} row(s), the backup says ${t.rows}`);
          }
        }
        if (wrong.length > 0) throw new Error(`row counts differ after the reload (nothing restored): ${wrong.join('; ')}`);
        await c.query('commit');
      } catch (err) {
        await c.query('rollback').catch(() => undefined);
        throw err;
      }
      const tables = manifest.schemas.reduce((k, s) => k + s.tables.length, 0);
      const rows = manifest.schemas.reduce((k, s) => k + s.tables.reduce((r, t) => r + t.rows, 0), 0);
      console.log(`restored ${name} (${manifest.createdAt}): ${tables} table(s), ${rows} row(s); row counts match the manifest`);
      return 0;
    } finally {
      await c.end();
    }
  });
}

/** The tables in an order where every table comes after the tables its foreign keys reference. */
async function referencedFirst<E extends { schema: string; table: { name: string } }>(c: Client, entries: E[]): Promise<E[]> {
  const { rows } = await c.query<{ child: string; parent: string }>(
    `select cn.nspname || '.' || ct.relname as child, pn.nspname || '.' || pt.relname as parent
     from pg_constraint k join pg_class ct on ct.oid = k.conrelid join pg_namespace cn on cn.oid = ct.relnamespace
     join pg_class pt on pt.oid = k.confrelid join pg_namespace pn on pn.oid = pt.relnamespace
     where k.contype = 'f' and k.conrelid <> k.confrelid`,
  );
  const key = (e: E) => `${e.schema}.${e.table.name}`;
  const parents = new Map<string, string[]>();
  for (const r of rows) parents.set(r.child, [...(parents.get(r.child) ?? []), r.parent]);
  const byKey = new Map(entries.map((e) => [key(e), e]));
  const done = new Set<string>();
  const out: E[] = [];
  const visit = (k: string, path: Set<string>) => {
    if (done.has(k) || path.has(k) || !byKey.has(k)) return;
    path.add(k);
    for (const p of parents.get(k) ?? []) visit(p, path);
    done.add(k);
    out.push(byKey.get(k)!);
  };
  for (const e of entries) visit(key(e), new Set());
  return out;
}

/** `backup create [name] | list | restore <name>`. */
export function addBackupCommands(program: Command): void {
  const group = program.command('backup').description('create [name] | list | restore <name>: logical backups of every schema (BACKUP_DIR, default DATA_DIR/backups)');
  group.command('create [name]').description('copies every table out (one snapshot) with a manifest').option('--json', 'the result as JSON').action(exits(createBackup));
  group.command('list').description('backups with their time, tables and rows').option('--json', 'as JSON').action(exits(listBackups));
  group
    .command('restore <name>')
    .description('replaces every table with the backup (refused while the runtime runs), then checks the row counts')
    .action(exits(restoreBackup));
}

/**
 * Commit-safe `updatedSince` pages (changes.ts) against a real Postgres: writers whose transactions
 * commit out of order (the one that began first, holding the earliest xid, commits last) while a poller
 * pages; the poller ends with every row's last state, none skipped. Also: the migration SQL, the
 * horizon's cursor, cursors of the other order, findPage through the query builder.
 */
import { defineEntity, p } from '@mikro-orm/core';
import { Client } from 'pg';
import { ApiError, ChangePage, createOrm, decodeChangeCursor, encodeCursor, findPage, trackChangesSql, type Orm } from '@bop/shared';
import { eventually, freshDatabase, type TestDatabase } from '@bop/test-support';

const Thing = defineEntity({
  name: 'Thing',
  schema: 'changes_test',
  tableName: 'things',
  properties: {
    id: p.string().primary(),
    name: p.string(),
    version: p.integer(),
    updatedAt: p.datetime(),
  },
});

let db: TestDatabase;
let orm: Orm;
const writers: Client[] = [];
const T0 = new Date('2026-01-01T00:00:00Z');

beforeAll(async () => {
  db = await freshDatabase();
  orm = await createOrm({ schema: 'changes_test', clientUrl: db.url, entities: [Thing], migrations: [] });
  const conn = orm.em.getConnection();
  await conn.execute(`create schema "changes_test"`);
  await conn.execute(`create table "changes_test"."things" ("id" text primary key, "name" text not null, "version" int not null, "updated_at" timestamptz not null)`);
  await conn.execute(`insert into "changes_test"."things" values ('old_1', 'before', 1, '2025-12-31T00:00:00Z'), ('old_2', 'before', 1, ?)`, [T0]);
  for (const sql of trackChangesSql('changes_test', 'things')) await conn.execute(sql);
  for (let i = 0; i < 4; i++) {
    const c = new Client({ connectionString: db.url });
    await c.connect();
    writers.push(c);
  }
});

afterAll(async () => {
  await Promise.all(writers.map((c) => c.end()));
  await orm?.close(true);
  await db?.drop();
});

const poll = (cursor?: string, limit = 3, updatedSince = T0.toISOString(), filters: object[] = []) => findPage(orm.em.fork(), Thing, filters, { cursor, limit, updatedSince });

/** Pages from `cursor` until hasMore is false; every row seen, and the cursor to poll on from. */
async function drain(cursor: string | undefined, seen: Map<string, number>, limit = 3): Promise<string> {
  for (;;) {
    const page = await poll(cursor, limit);
    for (const row of page.data) seen.set(row.id, Math.max(seen.get(row.id) ?? 0, row.version));
    expect(page.nextCursor).not.toBeNull();
    cursor = page.nextCursor!;
    if (!page.hasMore) return cursor;
  }
}

/**
 * Drains, then polls on until a poll answers nothing: caught up. The horizon is the server's (the oldest
 * transaction running in any database: another test file's too), and while one holds it a poll answers
 * the same rows past it again, at most `limit`, until it ends.
 */
async function drainAll(cursor: string | undefined, seen: Map<string, number>, limit = 3): Promise<string> {
  let at = cursor;
  await eventually(async () => {
    at = await drain(at, seen, limit);
    const next = await poll(at, limit);
    for (const row of next.data) seen.set(row.id, Math.max(seen.get(row.id) ?? 0, row.version));
    return next.data.length === 0;
  }, 60_000);
  return at!;
}

describe('trackChangesSql', () => {
  it('keeps the rows of before (with the migration transaction as their change), runs twice, stamps each update', async () => {
    const conn = orm.em.getConnection();
    const [before] = await conn.execute(`select count(*)::int as n, count(distinct change_xid)::int as x from "changes_test"."things"`);
    expect(before).toEqual({ n: 2, x: 1 });
    for (const sql of trackChangesSql('changes_test', 'things')) await conn.execute(sql);
    const [a] = await conn.execute(`select change_xid::text as x from "changes_test"."things" where id = 'old_2'`);
    await conn.execute(`update "changes_test"."things" set name = 'touched' where id = 'old_2'`);
    const [b] = await conn.execute(`select change_xid::text as x from "changes_test"."things" where id = 'old_2'`);
    expect(BigInt(b.x)).toBeGreaterThan(BigInt(a.x));
    const [idx] = await conn.execute(`select indexdef from pg_indexes where schemaname = 'changes_test' and indexname = 'things_change_xid_idx'`);
    expect(idx.indexdef).toContain('(change_xid, id)');
  });
});

describe('trackChangesSql options', () => {
  it('puts `when` on the trigger and `indexPrefix` before (change_xid, key) in the index', async () => {
    const conn = orm.em.getConnection();
    await conn.execute(`create table "changes_test"."leased" ("id" text primary key, "parent" text not null, "name" text not null, "lease" text, "updated_at" timestamptz not null default now())`);
    await conn.execute(`insert into "changes_test"."leased" ("id", "parent", "name") values ('l_1', 'p_1', 'a')`);
    for (const sql of trackChangesSql('changes_test', 'leased', ['id'], { when: 'old."name" is distinct from new."name"', indexPrefix: ['parent'] })) await conn.execute(sql);
    const xid = async () => (await conn.execute(`select change_xid::text as x from "changes_test"."leased" where id = 'l_1'`))[0].x as string;
    const first = await xid();
    await conn.execute(`update "changes_test"."leased" set "lease" = 'held' where id = 'l_1'`);
    expect(await xid()).toBe(first);
    await conn.execute(`update "changes_test"."leased" set "name" = 'b' where id = 'l_1'`);
    expect(BigInt(await xid())).toBeGreaterThan(BigInt(first));
    const [idx] = await conn.execute(`select indexdef from pg_indexes where schemaname = 'changes_test' and indexname = 'leased_change_xid_idx'`);
    expect(idx.indexdef).toContain('(parent, change_xid, id)');
  });
});

describe('a change-ordered page', () => {
  it('filters by updatedAt, pages, and answers the horizon when caught up', async () => {
    const first = await poll(undefined, 1);
    expect(first.data.map((r) => r.id)).toEqual(['old_2']); // old_1's updatedAt is before T0
    expect(first.hasMore).toBe(false);
    // nothing new once caught up (old_2 again while a transaction elsewhere on the server holds the horizon)
    const again = await eventually(async () => {
      const p = await poll(first.nextCursor!, 1);
      return p.data.length === 0 ? p : undefined;
    }, 60_000);
    expect(again.hasMore).toBe(false);
    expect(decodeChangeCursor(again.nextCursor)![0]).toMatch(/^\d+$/);
  });

  it('refuses a cursor of the id order (and the id order one of this order) as 400 cursor', async () => {
    const err = await poll(encodeCursor('old_2')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).errors?.[0].path).toBe('cursor');
    const changeCursor = (await poll()).nextCursor!;
    const err2 = await findPage(orm.em.fork(), Thing, [], { cursor: changeCursor }).catch((e: unknown) => e);
    expect((err2 as ApiError).errors?.[0].path).toBe('cursor');
    await expect(ChangePage.open(orm.em.fork(), { cursor: 'not-a-cursor', updatedSince: T0 })).rejects.toBeInstanceOf(ApiError);
  });

  it('pages with a filter the query builder writes ($like) in the same order', async () => {
    const viaBuilder = await poll(undefined, 10, T0.toISOString(), [{ name: { $like: '%o%' } }]);
    expect(viaBuilder.data.map((r) => r.id)).toEqual(['old_2']);
    expect(viaBuilder.data[0].updatedAt).toBeInstanceOf(Date);
  });

  it('never skips a row committed late by a transaction that began first', async () => {
    const [early, late] = writers;
    const seen = new Map<string, number>();
    let cursor = await drain(undefined, seen);
    // `early` takes its xid first and holds it; `late` writes after it and commits first (by id, the
    // poller would pass zz_late before aa_early is visible, and never come back for it)
    await early.query('begin');
    await early.query(`insert into "changes_test"."things" values ('aa_early', 'e', 1, $1)`, [T0]);
    await late.query('begin');
    await late.query(`insert into "changes_test"."things" values ('zz_late', 'l', 1, $1)`, [T0]);
    await late.query(`update "changes_test"."things" set version = 2, updated_at = $1 where id = 'old_2'`, [T0]);
    await late.query('commit');
    cursor = await drain(cursor, seen);
    expect(seen.has('zz_late')).toBe(true); // read-your-writes: visible rows come at once
    expect(seen.has('aa_early')).toBe(false);
    await early.query('commit');
    await drainAll(cursor, seen);
    expect(seen.get('aa_early')).toBe(1);
    expect(seen.get('old_2')).toBe(2);
  });

  it('a poller paging while writers commit out of order ends with every row and every last version', async () => {
    const seen = new Map<string, number>();
    let cursor = await drain(undefined, seen, 2);
    let n = 0;
    for (let round = 0; round < 12; round++) {
      // four transactions begin in order, each inserting two rows and updating an earlier one …
      for (const [i, w] of writers.entries()) {
        await w.query('begin');
        for (let k = 0; k < 2; k++) await w.query(`insert into "changes_test"."things" values ($1, 'w', 1, $2)`, [`r${String(n++).padStart(4, '0')}_${i}`, T0]);
        // (each writer updates rows of its own: two open transactions never wait for each other)
        if (round > 0) await w.query(`update "changes_test"."things" set version = version + 1 where id = (select id from "changes_test"."things" where id like $2 order by md5(id || $1::text) limit 1)`, [`${round}`, `r%_${i}`]);
      }
      // … and commit in a shuffled order (the first to begin last, every other round), the poller paging in between
      const order = round % 2 === 0 ? [3, 1, 2, 0] : [2, 0, 3, 1];
      for (const i of order) {
        await writers[i].query('commit');
        cursor = await drain(cursor, seen, 2);
      }
    }
    await drainAll(cursor, seen, 2);
    const rows = await orm.em.fork().getConnection().execute<Array<{ id: string; version: number }>>(`select id, version from "changes_test"."things" where updated_at >= ?`, [T0]);
    expect(rows.length).toBe(n + 3);
    for (const row of rows) expect([row.id, seen.get(row.id)]).toEqual([row.id, row.version]);
  });
});

/** The kit's SQL helpers against a real Postgres: id lists as one bound array, optional filters, advisory locks. */
import { Client } from 'pg';
import { chunks, createOrm, encodeCursor, lockForTransaction, sqlList, SqlWhere, ApiError, type EntityManager, type Orm } from '@bop/shared';
import { advisoryKeySql } from '../src/sql';
import { eventually, freshDatabase, type TestDatabase } from '@bop/test-support';

let db: TestDatabase;
let orm: Orm;

beforeAll(async () => {
  db = await freshDatabase();
  orm = await createOrm({ schema: 'kit_sql', clientUrl: db.url, entities: [], migrations: [] });
});
afterAll(async () => {
  await orm?.close(true);
  await db?.drop();
});

const query = <T = any>(sql: string, params: unknown[] = []): Promise<T[]> => orm.em.fork().getConnection().execute(sql, params);

describe('sqlList', () => {
  it('round-trips odd strings through a ::text[] cast', async () => {
    const values = ['', ' ', ' padded ', 'a,b', '{x}', 'NULL', 'null', '"', '""', '\\', '\\"', "it's", 'a"b\\c', 'line\nbreak', 'tab\t', 'ünï €', '😀', '()[]', 'x y,z"{}\\'];
    const [row] = await query<{ v: string[] }>('select ?::text[] as v', [sqlList(values)]);
    expect(row.v).toEqual(values);
  });

  it('binds numbers and an empty list', async () => {
    const [row] = await query<{ n: number[]; e: string[] }>('select ?::int[] as n, ?::text[] as e', [sqlList([3, -1, 0]), sqlList([])]);
    expect(row.n).toEqual([3, -1, 0]);
    expect(row.e).toEqual([]);
  });

  it('filters with = any(?::text[]) and ::date[]', async () => {
    const ids = await query<{ id: string }>(`select id from (values ('a'), ('b,c'), ('d"e')) t(id) where id = any(?::text[]) order by id`, [sqlList(['b,c', 'd"e', 'zz'])]);
    expect(ids.map((r) => r.id)).toEqual(['b,c', 'd"e']);
    const days = await query<{ n: number }>(`select count(*)::int as n from generate_series('2026-01-01'::date, '2026-01-10'::date, '1 day') d where d::date = any(?::date[])`, [
      sqlList(['2026-01-02', '2026-01-05', '2027-01-01']),
    ]);
    expect(days[0].n).toBe(2);
  });
});

describe('chunks', () => {
  it('cuts a list into pieces of at most the size, in order', () => {
    expect(chunks([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(chunks([1, 2, 3, 4], 2)).toEqual([[1, 2], [3, 4]]);
    expect(chunks([], 3)).toEqual([]);
  });
});

describe('SqlWhere', () => {
  it('is empty without filters', () => {
    const where = new SqlWhere().andIf(undefined, 'a = ?').andIf(null, 'b = ?').andIf('', 'c = ?').andIn('d', null).andIn('e', undefined).after('id', undefined).after('id', null);
    expect(where.empty).toBe(true);
    expect(String(where)).toBe('');
    expect(where.params).toEqual([]);
  });

  it('joins the given filters with their values in order', () => {
    const where = new SqlWhere().and('x > ? and x < ?', 1, 9).andIf('open', 'status = ?').andIn('kind', ['a', 'b"']).andIn('day', ['2026-01-01'], 'date').after('id', encodeCursor('loc_5'));
    expect(String(where)).toBe('where x > ? and x < ? and status = ? and kind = any(?::text[]) and day = any(?::date[]) and id > ?');
    expect(where.params).toEqual([1, 9, 'open', '{"a","b\\""}', '{"2026-01-01"}', 'loc_5']);
    expect(where.empty).toBe(false);
    expect(() => new SqlWhere().after('id', 'forged')).toThrow(ApiError);
  });

  it('runs in Postgres as built', async () => {
    const rows = `(values ('a1', 'open', 'x'), ('a2', 'open', 'y'), ('a3', 'closed', 'x'), ('a4', 'open', 'x')) t(id, status, kind)`;
    const run = async (where: SqlWhere) => (await query<{ id: string }>(`select id from ${rows} ${where} order by id`, where.params)).map((r) => r.id);
    expect(await run(new SqlWhere())).toEqual(['a1', 'a2', 'a3', 'a4']);
    expect(await run(new SqlWhere().andIf('open', 'status = ?').andIn('kind', ['x']))).toEqual(['a1', 'a4']);
    expect(await run(new SqlWhere().andIf('open', 'status = ?').after('id', encodeCursor('a1')))).toEqual(['a2', 'a4']);
    expect(await run(new SqlWhere().andIn('kind', []))).toEqual([]);
  });
});

describe('lockForTransaction', () => {
  /** Transactions waiting for an advisory lock of this test database right now. */
  const advisory = async (granted: boolean) =>
    (await query<{ n: number }>(`select count(*)::int as n from pg_locks l join pg_database d on d.oid = l.database where l.locktype = 'advisory' and l.granted = ? and d.datname = current_database()`, [granted]))[0].n;
  const waiting = () => advisory(false);

  /** Runs `lock` in a transaction and holds the transaction open until the returned release is called. */
  function holdIn(lock: (em: EntityManager) => Promise<void>) {
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let locked = false;
    const done = orm.em.fork().transactional(async (em) => {
      await lock(em);
      locked = true;
      await released;
    });
    return { release, done, isLocked: () => locked };
  }

  it('blocks a second transaction on the same key until the first ends, and not one on another key', async () => {
    const first = holdIn((em) => lockForTransaction(em, 'kit.test item-1'));
    await eventually(async () => first.isLocked());

    const other = holdIn((em) => lockForTransaction(em, 'kit.test item-2'));
    await eventually(async () => other.isLocked());
    other.release();
    await other.done;

    const same = holdIn((em) => lockForTransaction(em, 'kit.test item-1'));
    await eventually(async () => (await waiting()) === 1);
    expect(same.isLocked()).toBe(false);
    first.release();
    await first.done;
    await eventually(async () => same.isLocked());
    same.release();
    await same.done;
    expect(await waiting()).toBe(0);
  });

  it('takes several keys (each once), and shared locks only exclude exclusive ones', async () => {
    const many = holdIn((em) => lockForTransaction(em, ['kit.test b', 'kit.test a', 'kit.test b']));
    await eventually(async () => many.isLocked());
    expect(await advisory(true)).toBe(2);
    const blocked = holdIn((em) => lockForTransaction(em, 'kit.test a'));
    await eventually(async () => (await waiting()) === 1);
    many.release();
    await many.done;
    await eventually(async () => blocked.isLocked());
    blocked.release();
    await blocked.done;

    const reader1 = holdIn((em) => lockForTransaction(em, 'kit.test shared', { shared: true }));
    const reader2 = holdIn((em) => lockForTransaction(em, 'kit.test shared', { shared: true }));
    await eventually(async () => reader1.isLocked() && reader2.isLocked());
    const writer = holdIn((em) => lockForTransaction(em, 'kit.test shared'));
    await eventually(async () => (await waiting()) === 1);
    reader1.release();
    reader2.release();
    await Promise.all([reader1.done, reader2.done]);
    await eventually(async () => writer.isLocked());
    writer.release();
    await writer.done;
  });

  it('advisoryKeySql names the same lock for SQL that takes one itself (a session lock excludes the transaction lock)', async () => {
    const session = new Client({ connectionString: db.url });
    await session.connect();
    try {
      await session.query(`select pg_advisory_lock(${advisoryKeySql('$1')})`, ['kit.test session']);
      const tx = holdIn((em) => lockForTransaction(em, 'kit.test session'));
      await eventually(async () => (await waiting()) === 1);
      await session.query(`select pg_advisory_unlock(${advisoryKeySql('$1')})`, ['kit.test session']);
      await eventually(async () => tx.isLocked());
      tx.release();
      await tx.done;
    } finally {
      await session.end();
    }
  });

  it('releases at the end of the transaction, also on rollback, and refuses to run outside one', async () => {
    await expect(
      orm.em.fork().transactional(async (em) => {
        await lockForTransaction(em, 'kit.test rollback');
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    const again = holdIn((em) => lockForTransaction(em, 'kit.test rollback'));
    await eventually(async () => again.isLocked());
    again.release();
    await again.done;
    await orm.em.fork().transactional((em) => lockForTransaction(em, []));
    await expect(lockForTransaction(orm.em.fork(), 'kit.test outside')).rejects.toThrow(/outside a transaction/);
  });
});

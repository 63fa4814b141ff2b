/** afterCommit: what waits on a transaction runs once its outermost transaction commits, never when it rolls back. */
import { afterCommit, createOrm, sqlQuery, ApiError, type Orm } from '@bop/shared';
import { writeTransaction } from '../src/write-transaction';
import { freshDatabase, type TestDatabase } from '@bop/test-support';

let db: TestDatabase;
let orm: Orm;

beforeAll(async () => {
  db = await freshDatabase();
  orm = await createOrm({ schema: 'commit_test', clientUrl: db.url, entities: [], migrations: [] });
  await orm.em.getConnection().execute(`create schema "commit_test"; create table "commit_test"."rows" ("id" text primary key)`);
});

afterAll(async () => {
  await orm?.close(true);
  await db?.drop();
});

describe('afterCommit', () => {
  it('runs now outside a transaction', () => {
    const ran: string[] = [];
    afterCommit(orm.em.fork(), () => ran.push('now'));
    expect(ran).toEqual(['now']);
  });

  it('waits for the outermost transaction, not the savepoint it was asked in', async () => {
    const ran: string[] = [];
    await orm.em.fork().transactional(async (outer) => {
      await outer.transactional(async (inner) => {
        await sqlQuery(inner, `insert into "commit_test"."rows" values ('a')`);
        afterCommit(inner, () => ran.push('inner'));
      });
      afterCommit(outer, () => ran.push('outer'));
      expect(ran).toEqual([]); // the savepoint is released, nothing is committed yet
    });
    expect(ran).toEqual(['inner', 'outer']);
  });

  it('never runs for a transaction that rolls back, nor for the run a race made again', async () => {
    const ran: string[] = [];
    await expect(
      orm.em.fork().transactional(async (tem) => {
        await sqlQuery(tem, `insert into "commit_test"."rows" values ('b')`);
        afterCommit(tem, () => ran.push('rolled back'));
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(ran).toEqual([]);

    // the first run loses a race (a unique violation), the second stores: counted once
    let runs = 0;
    await writeTransaction(
      orm.em.fork(),
      async (tem) => {
        runs += 1;
        const run = runs;
        afterCommit(tem, () => ran.push(`run ${run}`));
        await sqlQuery(tem, `insert into "commit_test"."rows" values (?)`, [runs === 1 ? 'a' : 'c']);
      },
      () => new ApiError('conflict', 'taken'),
    );
    expect(runs).toBe(2);
    expect(ran).toEqual(['run 2']);
  });
});

/** readSnapshot: the statements of one read see one snapshot, whatever commits between them; and it writes nothing. */
import { createOrm, readSnapshot, sqlQuery, type Orm } from '@bop/shared';
import { freshDatabase, type TestDatabase } from '@bop/test-support';

let db: TestDatabase;
let orm: Orm;

beforeAll(async () => {
  db = await freshDatabase();
  orm = await createOrm({ schema: 'snap_test', clientUrl: db.url, entities: [], migrations: [] });
  const conn = orm.em.getConnection();
  await conn.execute(`create schema "snap_test"`);
  await conn.execute(`create table "snap_test"."sheets" ("id" text primary key, "hours" text not null)`);
  await conn.execute(`create table "snap_test"."marks" ("sheet_id" text primary key)`);
  await conn.execute(`insert into "snap_test"."sheets" values ('s1', '18.00')`);
  await conn.execute(`insert into "snap_test"."marks" values ('s1')`);
});

afterAll(async () => {
  await orm?.close(true);
  await db?.drop();
});

/** The recalculation a worker commits between two statements of a read: new figures, the mark gone. */
async function recalculate(hours: string) {
  await orm.em.fork().transactional(async (tem) => {
    await sqlQuery(tem, `update "snap_test"."sheets" set "hours" = ? where "id" = 's1'`, [hours]);
    await sqlQuery(tem, `delete from "snap_test"."marks" where "sheet_id" = 's1'`);
  });
}

async function read(em: Parameters<typeof sqlQuery>[0], between: () => Promise<void>) {
  const [sheet] = await sqlQuery<{ hours: string }>(em, `select "hours" from "snap_test"."sheets" where "id" = 's1'`);
  await between();
  const marks = await sqlQuery(em, `select 1 from "snap_test"."marks" where "sheet_id" = 's1'`);
  return { hours: sheet.hours, current: marks.length === 0 };
}

describe('readSnapshot', () => {
  it('pairs the rows with the marks of the same moment, where statements on their own pair old figures with "current"', async () => {
    // statement by statement (READ COMMITTED): the old figures, said to be current
    expect(await read(orm.em.fork(), () => recalculate('18.25'))).toEqual({ hours: '18.00', current: true });
    await orm.em.getConnection().execute(`update "snap_test"."sheets" set "hours" = '18.25'; insert into "snap_test"."marks" values ('s1')`);
    // in one snapshot: the old figures, still marked; the next read sees the new ones, current
    expect(await readSnapshot(orm.em.fork(), (em) => read(em, () => recalculate('18.50')))).toEqual({ hours: '18.25', current: false });
    expect(await readSnapshot(orm.em.fork(), (em) => read(em, async () => undefined))).toEqual({ hours: '18.50', current: true });
  });

  it('refuses a write inside it', async () => {
    await expect(readSnapshot(orm.em.fork(), (em) => sqlQuery(em, `delete from "snap_test"."marks"`))).rejects.toMatchObject({ code: '25006' });
  });
});

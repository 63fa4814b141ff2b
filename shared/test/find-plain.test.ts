/** findPlain answers what em.find answers (same property names and converted values), without managed entities. */
import { defineEntity, p } from '@mikro-orm/core';
import { createOrm, findPlain, type Orm } from '@bop/shared';
import { freshDatabase, type TestDatabase } from '@bop/test-support';

const Place = defineEntity({
  name: 'Place',
  schema: 'plain_test',
  tableName: 'places',
  properties: {
    id: p.string().primary(),
    name: p.string(),
    externalId: p.string().nullable(),
    address: p.json<Record<string, string>>().nullable(),
    version: p.integer(),
    createdAt: p.datetime(),
    archivedAt: p.datetime().nullable(),
  },
});

/** A row with a large column a list leaves out, and a many-to-one (read as its id). */
const Visit = defineEntity({
  name: 'Visit',
  schema: 'plain_test',
  tableName: 'visits',
  properties: {
    id: p.string().primary(),
    place: () => p.manyToOne(Place),
    notes: p.text(),
    at: p.datetime(),
  },
});

let db: TestDatabase;
let orm: Orm;

beforeAll(async () => {
  db = await freshDatabase();
  orm = await createOrm({ schema: 'plain_test', clientUrl: db.url, entities: [Place, Visit], migrations: [] });
  const conn = orm.em.getConnection();
  await conn.execute(`create schema "plain_test"`);
  await conn.execute(`create table "plain_test"."places" ("id" text primary key, "name" text not null, "external_id" text null, "address" jsonb null,
    "version" int not null, "created_at" timestamptz not null, "archived_at" timestamptz null)`);
  await conn.execute(`create table "plain_test"."visits" ("id" text primary key, "place_id" text not null references "plain_test"."places", "notes" text not null, "at" timestamptz not null)`);
  await conn.execute(`insert into "plain_test"."places" values ('plc_v', 'Visited', null, null, 0, now(), null)`);
  await conn.execute(`insert into "plain_test"."visits" values ('vis_1', 'plc_v', 'long notes', '2026-03-01T10:00:00Z'), ('vis_2', 'plc_v', 'more notes', '2026-03-02T10:00:00Z')`);
  for (let i = 0; i < 6; i++) {
    await conn.execute(`insert into "plain_test"."places" values (?, ?, ?, ?, ?, ?, ?)`, [
      `plc_${i}`,
      `Place ${i}`,
      i % 2 ? `X${i}` : null,
      i % 3 ? JSON.stringify({ city: 'Town', line1: `Street ${i}` }) : null,
      i,
      new Date(Date.UTC(2026, 0, 1, 0, 0, i, 123)),
      i === 4 ? new Date(Date.UTC(2026, 1, 1)) : null,
    ]);
  }
});

afterAll(async () => {
  await orm?.close(true);
  await db?.drop();
});

describe('findPlain', () => {
  it.each([
    ['everything', {}],
    ['a comparison', { id: { $gt: 'plc_2' } }],
    ['a date', { createdAt: { $gte: new Date(Date.UTC(2026, 0, 1, 0, 0, 3)) } }],
    ['an $or of id lists', { $or: [{ id: { $in: ['plc_1', 'plc_5'] } }, { externalId: { $in: ['X3'] } }] }],
    ['null', { externalId: null }],
    ['not null', { externalId: { $ne: null } }],
    ['not in', { id: { $nin: ['plc_0', 'plc_3'] } }],
    ['a list as in', { version: [1, 2, 3] }],
    ['a range on one property', { id: { $gte: 'plc_1' }, version: { $gt: 0, $lte: 3 } }],
    ['$and of ranges', { $and: [{ version: { $gte: 1 } }, { version: { $lt: 5 } }] }],
    ['$or of several keys each', { $or: [{ name: 'Place 1', version: 1 }, { archivedAt: { $ne: null } }], id: { $ne: 'plc_9' } }],
    ['nested $or in $and', { $and: [{ $or: [{ version: 0 }, { version: 2 }] }, { $or: [{ externalId: null }, { id: 'plc_3' }] }] }],
    ['$eq and a date range', { createdAt: { $gt: new Date(Date.UTC(2026, 0, 1)), $lt: new Date(Date.UTC(2026, 0, 1, 0, 0, 5)) }, name: { $eq: 'Place 2' } }],
    ['a filter it leaves to the query builder ($like)', { name: { $like: 'Place %' } }],
    ['an empty $in (the query builder: nothing)', { id: { $in: [] } }],
  ])('answers as em.find does: %s', async (_label, where) => {
    const found = await orm.em.fork().find(Place, where, { orderBy: { id: 'desc' }, limit: 4 });
    const plain = await findPlain(orm.em.fork(), Place, where, { orderBy: { id: 'desc' }, limit: 4 });
    if (!JSON.stringify(where).includes('"$in":[]')) expect(plain.length).toBeGreaterThan(0);
    expect(plain.map((r) => ({ ...r }))).toEqual(found.map((e) => ({ ...e })));
    expect(plain.every((r) => r.createdAt instanceof Date)).toBe(true);
  });

  it('writes the common shapes itself and leaves the rest to the query builder', async () => {
    const seen: string[] = [];
    const before = orm.config.get('onQuery');
    orm.config.set('onQuery', (sql: string) => {
      seen.push(sql);
      return sql;
    });
    try {
      await findPlain(orm.em.fork(), Place, { $or: [{ id: { $in: ['plc_1'] } }, { externalId: null }] }, { orderBy: { id: 'asc' }, limit: 2 });
      await findPlain(orm.em.fork(), Place, { name: { $like: 'Place %' } });
    } finally {
      orm.config.set('onQuery', before);
    }
    expect(seen[0]).toBe('select "e0".* from "plain_test"."places" as "e0" where (("e0"."id" in (?)) or ("e0"."external_id" is null)) order by "e0"."id" asc limit ?');
    expect(seen[1]).not.toContain('"e0"');
  });

  it('orders by several properties and limits as em.find does', async () => {
    const found = await orm.em.fork().find(Place, { version: { $lte: 5 } }, { orderBy: { externalId: 'desc', id: 'asc' }, limit: 5 });
    const plain = await findPlain(orm.em.fork(), Place, { version: { $lte: 5 } }, { orderBy: { externalId: 'desc', id: 'asc' }, limit: 5 });
    expect(plain.map((r) => r.id)).toEqual(found.map((e) => e.id));
  });

  it('reads inside the transaction of the entity manager it is given', async () => {
    await orm.em.fork().transactional(async (tem) => {
      await tem.getConnection().execute(`update "plain_test"."places" set "name" = 'Inside' where "id" = 'plc_5'`, [], 'run', tem.getTransactionContext());
      expect((await findPlain(tem, Place, { id: 'plc_5' }))[0].name).toBe('Inside');
      expect((await findPlain(orm.em.fork(), Place, { id: 'plc_5' }))[0].name).toBe('Place 5');
      await tem.getConnection().execute(`update "plain_test"."places" set "name" = 'Place 5' where "id" = 'plc_5'`, [], 'run', tem.getTransactionContext());
    });
  });

  it('leaves nothing managed: a change to a row is never flushed', async () => {
    const em = orm.em.fork();
    const [row] = await findPlain(em, Place, { id: 'plc_0' });
    row.name = 'Changed';
    await em.flush();
    expect((await orm.em.fork().findOneOrFail(Place, { id: 'plc_0' })).name).toBe('Place 0');
  });

  it('leaves out the excluded properties and reads the rest (many-to-one ids too), whether it writes the SQL or the query builder does', async () => {
    const seen: string[] = [];
    const before = orm.config.get('onQuery');
    orm.config.set('onQuery', (sql: string) => {
      seen.push(sql);
      return sql;
    });
    let compiled: unknown[];
    let built: unknown[];
    try {
      compiled = await findPlain(orm.em.fork(), Visit, { id: { $in: ['vis_1', 'vis_2'] } }, { orderBy: { id: 'asc' }, exclude: ['notes'] });
      built = await findPlain(orm.em.fork(), Visit, { id: { $like: 'vis_%' } }, { orderBy: { id: 'asc' }, exclude: ['notes'] });
    } finally {
      orm.config.set('onQuery', before);
    }
    expect(seen.every((sql) => !sql.includes('notes') && sql.includes('place_id'))).toBe(true);
    expect(seen[1]).not.toContain('"e0"');
    const expected = [
      { id: 'vis_1', place: 'plc_v', at: new Date('2026-03-01T10:00:00Z') },
      { id: 'vis_2', place: 'plc_v', at: new Date('2026-03-02T10:00:00Z') },
    ];
    expect(compiled.map((r) => ({ ...(r as object) }))).toEqual(expected);
    expect(built.map((r) => ({ ...(r as object) }))).toEqual(expected);
  });
});

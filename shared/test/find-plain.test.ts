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

let db: TestDatabase;
let orm: Orm;

beforeAll(async () => {
  db = await freshDatabase();
  orm = await createOrm({ schema: 'plain_test', clientUrl: db.url, entities: [Place], migrations: [] });
  const conn = orm.em.getConnection();
  await conn.execute(`create schema "plain_test"`);
  await conn.execute(`create table "plain_test"."places" ("id" text primary key, "name" text not null, "external_id" text null, "address" jsonb null,
    "version" int not null, "created_at" timestamptz not null, "archived_at" timestamptz null)`);
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
  ])('answers as em.find does: %s', async (_label, where) => {
    const found = await orm.em.fork().find(Place, where, { orderBy: { id: 'desc' }, limit: 4 });
    const plain = await findPlain(orm.em.fork(), Place, where, { orderBy: { id: 'desc' }, limit: 4 });
    expect(plain.length).toBeGreaterThan(0);
    expect(plain.map((r) => ({ ...r }))).toEqual(found.map((e) => ({ ...e })));
    expect(plain.every((r) => r.createdAt instanceof Date)).toBe(true);
  });

  it('leaves nothing managed: a change to a row is never flushed', async () => {
    const em = orm.em.fork();
    const [row] = await findPlain(em, Place, { id: 'plc_0' });
    row.name = 'Changed';
    await em.flush();
    expect((await orm.em.fork().findOneOrFail(Place, { id: 'plc_0' })).name).toBe('Place 0');
  });
});

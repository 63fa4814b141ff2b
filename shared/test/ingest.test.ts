/**
 * The kit's batch ingestion on a real table: every result status in one batch, nothing stored for a
 * rejected record, re-sends unchanged, concurrent re-sends of one batch store each record once, and
 * events (per record and the batch's) in the outbox of the same transaction.
 */
import { createLogger, createOrm, ingestBatch, migrate, Migration, ServiceClient, systemClock, type Orm, type PreparedRecord } from '@bop/shared';
import { inWork } from '../src/work';
import { freshDatabase, integration, type TestDatabase } from '@bop/test-support';

class Things extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "files"."things" (
      "id" varchar(40) primary key, "source" varchar(100) not null, "external_id" varchar(200) not null,
      "content_hash" char(64) not null, "version" integer not null, "created_at" timestamptz not null, "updated_at" timestamptz not null,
      "name" text not null, "amount" numeric(18,6) not null, "lines" jsonb not null,
      unique ("external_id", "source"))`);
  }
}

type Row = { name: string; amount: string; lines: unknown[] };
const target = { table: 'things', idKind: 'salesTransaction' as const, columns: { name: 'text', amount: 'numeric', lines: 'jsonb' } as const, aggregateType: 'thing' };

let db: TestDatabase;
let orm: Orm;

const rec = (index: number, externalId: string | null, row?: Row, errors?: Array<{ path: string; message: string }>): PreparedRecord<Row> => ({ index, externalId, row, errors });
const run = (records: PreparedRecord<Row>[], source = 'pos-1') =>
  // a unit of work as a service's route has it (the kit's transaction; the batch's events emitted in it)
  inWork(orm, { schema: 'files', clock: systemClock, log: createLogger('ingest', 'silent'), services: new ServiceClient({}, null) }, (w) => ingestBatch(w, {
    target,
    source,
    records,
    actor: integration(['sales:write']),
    area: 'sales',
    endpoint: 'POST /sales/transactions:batch',
    eventsFor: (s) => [{ type: 'sales.thing.recorded', locationId: null, object: { id: s.id, ...s.row }, previous: s.before ? { name: s.before.name } : undefined }],
  }));
const count = async (sql: string, params: unknown[] = []) => Number((await orm.em.getConnection().execute(sql, params))[0].n);

beforeAll(async () => {
  db = await freshDatabase();
  orm = await createOrm({ schema: 'files', clientUrl: db.url, entities: [], migrations: [{ name: 'Migration20261121150000', class: Things }] });
  await migrate(orm, 'files');
  createLogger('x', 'silent');
});
afterAll(async () => {
  await orm?.close(true);
  await db?.drop();
});

describe('ingestBatch', () => {
  it('answers created, updated, unchanged, duplicate and rejected in one batch, per record', async () => {
    await run([rec(0, 'A', { name: 'a', amount: '1.50', lines: [{ q: '1' }] }), rec(1, 'B', { name: 'b', amount: '2', lines: [] })]);
    const r = await run([
      rec(0, 'A', { name: 'a', amount: '1.50', lines: [{ q: '1' }] }), // same content → unchanged
      rec(1, 'B', { name: 'b2', amount: '2', lines: [] }), // changed → updated
      rec(2, 'C', { name: 'c', amount: '3', lines: [] }), // new → created
      rec(3, 'C', { name: 'c again', amount: '3', lines: [] }), // same externalId later in the batch → duplicate
      rec(4, 'D', undefined, [{ path: 'tenders', message: 'do not add up' }]), // invalid → rejected
    ]);
    expect(r).toMatchObject({ received: 5, created: 1, updated: 1, unchanged: 1, duplicate: 1, rejected: 1 });
    expect(r.batchId).toMatch(/^bat_/);
    expect(r.results.map((x) => x.status)).toEqual(['unchanged', 'updated', 'created', 'duplicate', 'rejected']);
    expect(r.results[4]).toEqual({ index: 4, externalId: 'D', status: 'rejected', errors: [{ path: 'tenders', message: 'do not add up' }] });
    expect(r.results[0].id).toMatch(/^stx_/);
    expect(await count(`select count(*) n from files.things where external_id = 'D'`)).toBe(0);
    expect(await count(`select count(*) n from files.things where external_id = 'C' and name = 'c'`)).toBe(1);
    expect(await count(`select version n from files.things where external_id = 'B'`)).toBe(2);
  });

  it('records events for stored records and the batch, in the same transaction', async () => {
    const before = await count(`select count(*) n from files.outbox`);
    const r = await run([rec(0, 'E1', { name: 'e', amount: '1', lines: [] }), rec(1, 'E2', undefined, [{ path: 'x', message: 'bad' }])]);
    const rows = await orm.em.getConnection().execute(`select type, aggregate_id, payload from files.outbox order by seq offset ?`, [before]);
    expect(rows.map((x: any) => x.type)).toEqual(['sales.thing.recorded', 'sales.batch.completed']);
    expect(rows[1].payload.data.object).toMatchObject({ batchId: r.batchId, integrationId: 'int_test', source: 'pos-1', received: 2, created: 1, rejected: 1, rejectedRecords: [{ index: 1, externalId: 'E2', errors: [{ path: 'x', message: 'bad' }] }] });
    expect(rows[0].payload).toMatchObject({ type: 'sales.thing.recorded', apiVersion: 'v1', actor: { type: 'integration', id: 'int_test' }, data: { object: { name: 'e' } } });
  });

  it('treats sources apart: the same externalId from another source is another record', async () => {
    const r = await run([rec(0, 'A', { name: 'other', amount: '1', lines: [] })], 'pos-2');
    expect(r.results[0].status).toBe('created');
  });

  it('stores each record once when two clients send the same batch at the same time', async () => {
    const batch = Array.from({ length: 200 }, (_, i) => rec(i, `CC-${i}`, { name: `n${i}`, amount: `${i}.25`, lines: [{ i }] }));
    const [a, b] = await Promise.all([run(batch), run([...batch].reverse().map((x, i) => ({ ...x, index: i })))]);
    expect(await count(`select count(*) n from files.things where external_id like 'CC-%'`)).toBe(200);
    for (let i = 0; i < 200; i++) {
      const sa = a.results[i].status;
      const sb = b.results[199 - i].status;
      expect([sa, sb].sort()).toEqual(['created', 'unchanged']);
      expect(a.results[i].id).toBe(b.results[199 - i].id);
    }
  });
});

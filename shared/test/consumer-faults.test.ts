/**
 * The consumer runner's fault rules (issue 13), on a real database and bus:
 * - a database outage is not a bad record: no attempt counted, nothing parked, the same message runs
 *   again once the database answers (a connection killed under the handler; a database that refuses
 *   the consumer's connections for a while);
 * - a dead letter that cannot be written whole is kept minimal (payload in the error log line), one
 *   that cannot be written at all is logged with its payload, and in both cases the topic moves on;
 * - a parked payload is text and `retry` gives the handler the same payload back (NUL included);
 * - a dead_letters table of before (jsonb, varchar) is converted in place, once.
 */
import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { ConsumerRunner, createOrm, createService, defineConsumer, Migration, newId, type ConsumerDef, type Logger, type Orm } from '@bop/shared';
import { kitTablesSql } from '../src/kit-tables';
import { eventually, sql, startTestServices, type TestServices } from '@bop/test-support';

class SeenTable extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "files"."seen" ("n" bigserial primary key, "event_id" varchar(40) not null, "consumer" varchar(60) not null, "value" text)`);
  }
}

/** A consumer-only service (the `files` area has no service yet); its runners are made by each test. */
const host = createService({ name: 'files', entities: [], migrations: [{ name: 'Migration20261124120000', class: SeenTable }], routes: () => [] });

let stack: TestServices;
let orm: Orm;
const runners: ConsumerRunner[] = [];
const lines: Array<Record<string, any>> = [];
const log: Logger = pino({ level: 'info' }, { write: (s: string) => void lines.push(JSON.parse(s)) });

beforeAll(async () => {
  stack = await startTestServices([host]);
  orm = stack.services.files.svc.runtime.orm;
});
afterAll(async () => {
  for (const r of runners) await r.stop();
  await stack?.close();
});

const admin = <T = any>(text: string, params: unknown[] = [], url = stack.db.url): Promise<T[]> => sql<T>(url, text, params);

async function run(defs: ConsumerDef[], on: Orm = orm, maxAttempts = 1): Promise<ConsumerRunner> {
  const runner = new ConsumerRunner(defs, { service: 'files', schema: 'files', orm: on, bus: stack.bus, log, maxAttempts, backoffMs: 20 });
  runners.push(runner);
  await runner.start();
  return runner;
}

const event = (type: string, object: Record<string, unknown>) => {
  const id = newId('event');
  return { topic: 'organization', key: id, eventId: id, type, payload: { id, type, createdAt: new Date().toISOString(), data: { object } } };
};
const seen = async (consumer: string) => (await admin<{ event_id: string; value: string | null }>(`select "event_id", "value" from "files"."seen" where "consumer" = $1 order by "n"`, [consumer])).map((r) => r.event_id);
const deadLetters = (consumer: string) => admin(`select * from "files"."dead_letters" where "consumer" = $1 order by "id"`, [`files.${consumer}`]);

/** A consumer writing each event of its type into `files.seen` (in the handler's transaction); `before` runs first. */
const recorder = (name: string, before?: (ctx: { em: any; event: any }) => Promise<void>) =>
  defineConsumer({
    name,
    topics: ['organization'],
    types: [`${name}.thing`],
    async handle({ em, event }) {
      await before?.({ em, event });
      await em.execute(`insert into "files"."seen" ("event_id", "consumer", "value") values (?, ?, ?)`, [event.id, name, JSON.stringify(event.data.object)]);
    },
  });

describe('consumer runner: outages are not poison', () => {
  it('runs a message again, uncounted, when its connection is killed under the handler', async () => {
    const killed = new Set<string>();
    await run([
      recorder('blip', async ({ em, event }) => {
        if (killed.has(event.id)) return;
        killed.add(event.id);
        // a real failure: the server ends this transaction's connection (57P01), the database stays up
        await em.execute('select pg_terminate_backend(pg_backend_pid())');
      }),
    ]);
    const a = event('blip.thing', { n: 1 });
    const b = event('blip.thing', { n: 2 });
    await stack.bus.publish([a, b]);
    await eventually(async () => (await seen('blip')).length === 2);
    expect(await seen('blip')).toEqual([a.eventId, b.eventId]);
    expect(killed.size).toBe(2);
    // one attempt allowed, yet nothing parked: the kills were not counted against the events
    expect(await deadLetters('blip')).toEqual([]);
  });

  it('waits while the database refuses its connections, parks nothing, and resumes when it is back', async () => {
    const role = `consumer_${randomBytes(4).toString('hex')}`;
    await admin(`create role "${role}" login password 'pw'`);
    await admin(`grant usage on schema "files" to "${role}"; grant all on all tables in schema "files" to "${role}"; grant all on all sequences in schema "files" to "${role}"`);
    const url = new URL(stack.db.url);
    url.username = role;
    url.password = 'pw';
    const limited = await createOrm({ schema: 'files', clientUrl: url.toString(), entities: [], migrations: [] });
    try {
      const runner = await run([recorder('steady')], limited);
      const first = event('steady.thing', { n: 1 });
      await stack.bus.publish([first]);
      await eventually(async () => (await seen('steady')).length === 1);

      // the outage: the consumer's connections are ended and new ones refused (53300) until it is lifted
      await admin(`alter role "${role}" connection limit 0`);
      await admin(`select pg_terminate_backend(pid) from pg_stat_activity where usename = $1`, [role]);
      const during = [event('steady.thing', { n: 2 }), event('steady.thing', { n: 3 })];
      await stack.bus.publish(during);
      await eventually(async () => lines.some((l) => l.consumer === 'steady' && /database unreachable/.test(l.msg)), 20_000);
      expect(await seen('steady')).toEqual([first.eventId]);

      await admin(`alter role "${role}" connection limit -1`);
      await eventually(async () => (await seen('steady')).length === 3, 30_000);
      expect(await seen('steady')).toEqual([first.eventId, ...during.map((e) => e.eventId)]);
      expect(await deadLetters('steady')).toEqual([]);
      expect(lines.some((l) => l.consumer === 'steady' && /^consumer: parked|could not park|SKIPPED/.test(l.msg))).toBe(false);
      await runner.stop();
    } finally {
      await limited.close(true);
      await admin(`drop owned by "${role}"`);
      await admin(`drop role "${role}"`);
    }
  });
});

describe('consumer runner: a dead letter that cannot be written', () => {
  it('keeps a minimal row when the whole one is refused, logs the payload, and moves on', async () => {
    // a real refusal by the database: dead letters of this consumer may hold no payload over 100 characters
    await admin(`alter table "files"."dead_letters" add constraint "small_payloads" check ("consumer" <> 'files.picky' or length("payload") < 100)`);
    await run([recorder('picky', async ({ event }) => {
      if (event.data.object.poison) throw new Error('cannot digest this');
    })]);
    const poison = event('picky.thing', { poison: true, filler: 'x'.repeat(200) });
    const good = event('picky.thing', { n: 1 });
    await stack.bus.publish([poison, good]);
    await eventually(async () => (await seen('picky')).includes(good.eventId));
    const [row] = await deadLetters('picky');
    expect(row).toMatchObject({ event_id: poison.eventId, type: 'picky.thing', topic: 'organization', payload: '', attempts: 1 });
    expect(row.error).toMatch(/^not parked whole \(\w+: new row for relation "dead_letters" violates check constraint "small_payloads"\); .*Error: cannot digest this$/);
    const logged = lines.find((l) => l.eventId === poison.eventId && /could not park/.test(l.msg));
    expect(JSON.parse(logged!.payload)).toEqual(poison.payload);
    // retry says where to find it rather than running the handler on nothing
    const runner = runners[runners.length - 1];
    expect(await runner.retryDeadLetters(String(row.id))).toEqual({ retried: 0, stillFailing: 1 });
    expect((await deadLetters('picky'))[0].error).toMatch(/payload was not kept.*replay it from topic organization position/);
  });

  it('logs an event no row can be written for, with its payload, and moves on', async () => {
    await admin(`create function "files"."refuse_dead_letter"() returns trigger language plpgsql as $$ begin raise exception 'dead letters of % refused', new."consumer"; end $$`);
    await admin(`create trigger "refuse_dead_letter" before insert on "files"."dead_letters" for each row when (new."consumer" = 'files.doomed') execute function "files"."refuse_dead_letter"()`);
    await run([recorder('doomed', async ({ event }) => {
      if (event.data.object.poison) throw new Error('cannot digest this either');
    })]);
    const poison = event('doomed.thing', { poison: true, text: 'NUL \u0000 inside' });
    const good = event('doomed.thing', { n: 1 });
    await stack.bus.publish([poison, good]);
    await eventually(async () => (await seen('doomed')).includes(good.eventId));
    expect(await deadLetters('doomed')).toEqual([]);
    const skipped = lines.find((l) => l.eventId === poison.eventId && /SKIPPED without a dead letter/.test(l.msg));
    expect(skipped).toMatchObject({ level: 50, topic: 'organization', position: expect.any(String), err: 'Error: cannot digest this either' });
    expect(JSON.parse(skipped!.payload)).toEqual(poison.payload);
  });
});

describe('dead letters as text', () => {
  it('parks a NUL-bearing payload as JSON text and retries it with the same payload', async () => {
    let cured = false;
    const runner = await run([recorder('nul', async ({ event }) => {
      if (!cured && event.data.object.text) throw new Error('not yet');
    })]);
    const poison = event('nul.thing', { text: 'a\u0000b' });
    const good = event('nul.thing', { n: 1 });
    await stack.bus.publish([poison, good]);
    await eventually(async () => (await seen('nul')).includes(good.eventId) && (await deadLetters('nul')).length === 1);
    const [row] = await deadLetters('nul');
    expect(row.payload).toContain('"text":"a\\u0000b"');
    cured = true;
    expect(await runner.retryDeadLetters()).toEqual({ retried: 1, stillFailing: 0 });
    const [stored] = await admin<{ value: string }>(`select "value" from "files"."seen" where "event_id" = $1`, [poison.eventId]);
    // the handler got the payload back as it was published: the NUL included
    expect(JSON.parse(stored.value)).toEqual({ text: 'a\u0000b' });
  });

  it('converts a dead_letters table of before (payload jsonb) to text in place, once', async () => {
    const schema = `legacy_${randomBytes(3).toString('hex')}`;
    await admin(`create schema "${schema}"`);
    await admin(`create table "${schema}"."dead_letters" (
      "id" bigserial primary key, "consumer" varchar(120) not null, "event_id" varchar(40) not null, "topic" varchar(60) not null,
      "key" varchar(100) not null, "type" varchar(100) not null, "position" varchar(60) not null, "payload" jsonb not null,
      "error" text not null, "attempts" integer not null, "created_at" timestamptz not null default now(), unique ("consumer", "event_id"))`);
    await admin(`insert into "${schema}"."dead_letters" ("consumer", "event_id", "topic", "key", "type", "position", "payload", "error", "attempts")
      values ('x.y', 'evt_1', 'organization', 'k', 'location.created', '7', '{"id":"evt_1","data":{"object":{"name":"Old"}}}', 'Error: old', 5)`);
    for (let i = 0; i < 2; i++) for (const sql of kitTablesSql(schema)) await admin(sql);
    const types = await admin<{ column_name: string; data_type: string }>(
      `select column_name, data_type from information_schema.columns where table_schema = $1 and table_name = 'dead_letters' and column_name in ('consumer', 'event_id', 'topic', 'key', 'type', 'position', 'payload')`,
      [schema],
    );
    expect(new Set(types.map((t) => t.data_type))).toEqual(new Set(['text']));
    const [row] = await admin(`select "payload" from "${schema}"."dead_letters"`);
    expect(JSON.parse(row.payload)).toEqual({ id: 'evt_1', data: { object: { name: 'Old' } } });
    await admin(`drop schema "${schema}" cascade`);
  });
});

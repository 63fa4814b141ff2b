/**
 * The unit of work (work.ts) as a service gets it from the kit: a write's transaction opened and
 * committed by the kit with what the handler emitted (dropped when it throws or loses a race), the
 * row's permission checked before the handler, the employee as the actor on `/me` rows, the unit's
 * instant from the service's clock, consumers and declared workers on units of their own, and the
 * envelope's bytes as consumers have always read them.
 */
import { createService, defineConsumer, defineWorker, fixedClock, Migration, newId, route, ServiceClient, type Principal } from '@bop/shared';
import type { EndpointRow } from '@bop/contracts';
import { eventEnvelope, openWork } from '../src/work';
import { processClock } from '../src/clock';
import { compileRoutes } from '../src/service-routes';
import { eventually, outboxEvents, person, sql, startTestService, type TestService } from '@bop/test-support';

class ThingsTable extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "communication"."things" ("id" varchar(40) primary key, "note" text not null)`);
  }
}

const clock = fixedClock('2026-11-20T10:00:00.000Z');
let attempts = 0;

/**
 * Rows of the probe's own (not in the catalogue, so no area builds them and they have no contract):
 * a write needing a permission, and a `/me` row.
 */
const probeRow = (method: 'POST', path: string, people: EndpointRow['people']): EndpointRow => ({ method, path, service: 'communication', key: 'not_allowed', people, feature: null, summary: 'kit test', source: 'project' });
const thingsRow = probeRow('POST', '/kit-probe/things', { permission: 'displays.manage' });
const meRow = probeRow('POST', '/me/kit-probe:touch', 'self');

/** A service of the kit's test, on rows of its own, to try the kit's units. */
const probe = createService({
  name: 'communication',
  entities: [],
  migrations: [{ name: 'Migration20261128100000', class: ThingsTable }],
  routes: () => [
    route('POST /kit-probe/things', async (ctx) => {
      // the row has no body contract: the kit leaves the parsed JSON on the request
      const body = (ctx.request as unknown as { body: { note: string; fail?: 'after-emit' | 'race-once' } }).body;
      const id = newId('event');
      await ctx.em.execute(`insert into "${ctx.schema}"."things" ("id", "note") values (?, ?)`, [id, `${body.note}#${++attempts}`]);
      ctx.emit({ type: 'recognition.given', aggregateType: 'recognition', aggregateId: id, locationId: null, object: { id, note: body.note, at: ctx.now.toISOString() } });
      if (body.fail === 'after-emit') throw new Error('the handler failed after emitting');
      // a serialization failure on the first run: the kit runs the write once more, in a fresh unit
      if (body.fail === 'race-once' && attempts === 1) throw Object.assign(new Error('could not serialize access'), { code: '40001' });
      return { status: 201, body: { id } };
    }, { row: thingsRow }),
    route('POST /me/kit-probe:touch', async (ctx) => {
      const id = 'ann_1';
      ctx.emit({ type: 'announcement.acknowledged', aggregateType: 'announcement', aggregateId: id, locationId: null, object: { id } });
      return { status: 200, body: { id } };
    }, { row: meRow }),
  ],
  consumers: () => [
    defineConsumer({
      name: 'noted',
      topics: ['communication'],
      types: ['recognition.given'],
      async handle(ctx) {
        ctx.emit({ type: 'recognition.noted', aggregateType: 'recognition', aggregateId: ctx.event.data.object.id as string, locationId: null, object: { at: ctx.now.toISOString() } });
      },
    }),
  ],
  workers: () => [
    defineWorker({
      name: 'sweeper',
      every: 60_000,
      round: async (r) => {
        const swept = await r.write(async (w) => {
          const rows = await w.em.execute(`delete from "${w.schema}"."things" where "note" like 'sweep%' returning "id"`);
          for (const row of rows) w.emit({ type: 'recognition.swept', aggregateType: 'recognition', aggregateId: row.id, locationId: null, object: { id: row.id, at: w.now.toISOString() } });
          return rows.length;
        });
        return swept > 0;
      },
    }),
  ],
});

const giver: Principal = person({ 'displays.manage': [{ type: 'everyone' }] });

let t: TestService;
beforeAll(async () => {
  t = await startTestService(probe, {}, { workers: false, clock });
}, 120_000);
afterAll(async () => {
  await t?.close();
});
beforeEach(() => {
  attempts = 0;
});

const things = async (note: string) => (await sql(t, `select "note" from "communication"."things" where "note" like $1 order by "note"`, [`${note}#%`])).map((r) => r.note);

describe('a route on the unit of work', () => {
  it('commits the write with its event, at the instant of the service clock', async () => {
    const r = await t.call('POST', '/kit-probe/things', { as: giver, body: { note: 'kept' } });
    expect(r.status).toBe(201);
    expect(await things('kept')).toEqual(['kept#1']);
    const [event] = await outboxEvents(t, 'communication', { aggregateId: r.body.id });
    expect(event.payload).toMatchObject({ type: 'recognition.given', createdAt: '2026-11-20T10:00:00.000Z', actor: { type: 'user', id: giver.userId ?? giver.id }, data: { object: { at: '2026-11-20T10:00:00.000Z' } } });
  });

  it('keeps nothing, neither the row nor the event, when the handler throws after emitting', async () => {
    const before = (await outboxEvents(t, 'communication', { type: 'recognition.given' })).length;
    const r = await t.call('POST', '/kit-probe/things', { as: giver, body: { note: 'dropped', fail: 'after-emit' } });
    expect(r.status).toBe(500);
    expect(await things('dropped')).toEqual([]);
    expect(await outboxEvents(t, 'communication', { type: 'recognition.given' })).toHaveLength(before);
  });

  it('runs a write that lost a race once more: only the second run is kept, with its own event', async () => {
    const r = await t.call('POST', '/kit-probe/things', { as: giver, body: { note: 'raced', fail: 'race-once' } });
    expect(r.status).toBe(201);
    expect(await things('raced')).toEqual(['raced#2']);
    const given = (await outboxEvents(t, 'communication', { type: 'recognition.given' })).filter((e) => e.payload.data.object.note === 'raced');
    expect(given.map((e) => e.aggregate_id)).toEqual([r.body.id]);
  });

  it('refuses a person without the row permission before the handler runs', async () => {
    const r = await t.call('POST', '/kit-probe/things', { as: person({}), body: { note: 'refused' } });
    expect(r.status).toBe(403);
    expect(attempts).toBe(0);
  });

  it('names the employee as the actor on /me rows', async () => {
    const employee = person({}, { employeeId: 'emp_01JABCDEFGHJKMNPQRSTVWXYZ0' });
    const r = await t.call('POST', '/me/kit-probe:touch', { as: employee, body: {} });
    expect(r.status).toBe(200);
    const [event] = await outboxEvents(t, 'communication', { type: 'announcement.acknowledged' });
    expect(event.payload.actor).toEqual({ type: 'employee', id: 'emp_01JABCDEFGHJKMNPQRSTVWXYZ0' });
  });
});

describe('consumers and workers on units of their own', () => {
  it('a consumer emits in the transaction that records the event as processed, as system', async () => {
    const r = await t.call('POST', '/kit-probe/things', { as: giver, body: { note: 'consumed' } });
    const noted = await eventually(async () => (await outboxEvents(t, 'communication', { type: 'recognition.noted', aggregateId: r.body.id }))[0]);
    expect(noted.payload.actor).toEqual({ type: 'system', id: null });
  });

  it('a declared worker runs a round when the test asks, and nothing happens without one', async () => {
    await t.call('POST', '/kit-probe/things', { as: giver, body: { note: 'sweep-me' } });
    expect(await things('sweep-me')).toEqual(['sweep-me#1']);
    clock.advance(60_000);
    expect(await things('sweep-me')).toEqual(['sweep-me#1']); // no loop runs: time alone changes nothing
    expect(await t.svc.worker('sweeper').runOnce()).toBe(true);
    expect(await things('sweep-me')).toEqual([]);
    const swept = await outboxEvents(t, 'communication', { type: 'recognition.swept' });
    expect(swept).toHaveLength(1);
    expect(swept[0].payload.createdAt).toBe('2026-11-20T10:01:00.000Z');
    expect(await t.svc.worker('sweeper').runOnce()).toBe(false);
  });
});

describe('beforeCommit', () => {
  const insert = (w: { em: { execute(sql: string, params: unknown[]): Promise<unknown> }; schema: string }, note: string) =>
    w.em.execute(`insert into "${w.schema}"."things" ("id", "note") values (?, ?)`, [newId('event'), note]);

  it('runs what a unit gathered when it ends, in order, in its transaction, before its events are written', async () => {
    const order: string[] = [];
    await t.svc.runtime.write(async (w) => {
      const gathered = ['gathered-a#1', 'gathered-b#1'];
      w.beforeCommit(async () => {
        order.push('first');
        for (const note of gathered) await insert(w, note);
        // an event a hook emits is written with the unit's
        w.emit({ type: 'recognition.swept', aggregateType: 'recognition', aggregateId: 'rcg_gathered', locationId: null, object: { id: 'rcg_gathered' } });
      });
      w.beforeCommit(async () => {
        order.push('second');
      });
      gathered.push('gathered-c#1'); // gathered after the hook was registered: it still sees it
      expect(await things('gathered-a')).toEqual([]);
    });
    expect(order).toEqual(['first', 'second']);
    expect([...(await things('gathered-a')), ...(await things('gathered-b')), ...(await things('gathered-c'))]).toEqual(['gathered-a#1', 'gathered-b#1', 'gathered-c#1']);
    expect(await outboxEvents(t, 'communication', { aggregateId: 'rcg_gathered' })).toHaveLength(1);
  });

  it('keeps nothing of the unit when a hook fails', async () => {
    await expect(
      t.svc.runtime.write(async (w) => {
        await insert(w, 'hooked-before#1');
        w.emit({ type: 'recognition.swept', aggregateType: 'recognition', aggregateId: 'rcg_hook_failed', locationId: null, object: { id: 'rcg_hook_failed' } });
        w.beforeCommit(async () => {
          throw new Error('the hook failed');
        });
      }),
    ).rejects.toThrow('the hook failed');
    expect(await things('hooked-before')).toEqual([]);
    expect(await outboxEvents(t, 'communication', { aggregateId: 'rcg_hook_failed' })).toEqual([]);
  });

  it('a read has no commit', () => {
    const unit = openWork({ schema: 'communication', clock: processClock, log: t.svc.runtime.log, services: new ServiceClient({}, null) }, t.svc.runtime.orm.em.fork(), false);
    expect(() => unit.work.beforeCommit(async () => undefined)).toThrow(/a read has no commit/);
  });
});

describe('the envelope', () => {
  it('keeps the bytes consumers have always read (key order included)', () => {
    const at = new Date('2026-11-20T10:00:00.000Z');
    const built = eventEnvelope({ type: 'location.updated', aggregateType: 'location', aggregateId: 'loc_1', locationId: 'loc_1', object: { id: 'loc_1', name: 'B' }, previous: { name: 'A' } }, { kind: 'user', via: 'session', id: 'usr_1', userId: 'usr_1' }, at, 'evt_1');
    expect(JSON.stringify(built)).toBe(
      '{"id":"evt_1","type":"location.updated","createdAt":"2026-11-20T10:00:00.000Z","apiVersion":"v1","actor":{"type":"user","id":"usr_1"},"locationId":"loc_1","data":{"object":{"id":"loc_1","name":"B"},"previous":{"name":"A"}}}',
    );
  });

  it('a read records no events', () => {
    const unit = openWork({ schema: 'communication', clock: processClock, log: t.svc.runtime.log, services: new ServiceClient({}, null) }, t.svc.runtime.orm.em.fork(), false);
    expect(() => unit.work.emit({ type: 'x.y', aggregateType: 'x', aggregateId: 'x_1', locationId: null, object: {} })).toThrow(/a read records no events/);
  });
});

describe('a route\'s own row', () => {
  const noop = async () => ({ status: 204 });
  it('serves a key the catalogue does not hold, with the row it declares; refuses a row of another key or one shadowing the catalogue', () => {
    expect(compileRoutes('communication', [route('POST /kit-probe/things', noop, { row: thingsRow })], []).served).toEqual(['POST /kit-probe/things']);
    expect(() => compileRoutes('communication', [route('POST /kit-probe/other', noop, { row: thingsRow })], [])).toThrow(/declares the row of POST \/kit-probe\/things/);
    expect(() => compileRoutes('communication', [route('POST /recognitions', noop, { row: { ...thingsRow, path: '/recognitions' } })], [])).toThrow(/is in the endpoint catalogue/);
    expect(() => compileRoutes('communication', [route('POST /kit-probe/other', noop)], [])).toThrow(/not in the endpoint catalogue/);
  });
});

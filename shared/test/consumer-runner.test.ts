/**
 * The consumer runner with a real producer (organization) and a real consumer service on one bus:
 * applied once even when delivered twice, in order per record, and a poison message parked in
 * dead_letters (the topic moves on), then retried.
 */
import { createService, defineConsumer, Migration, newId, type BusMessage } from '@bop/shared';
import { organizationService } from '@svc/organization';
import { eventually, startTestServices, type TestServices } from '@bop/test-support';

let poisonActive = true;

class SeenTable extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "files"."seen" ("n" bigserial primary key, "event_id" varchar(40) not null, "type" varchar(100) not null, "key" varchar(100) not null, "name" text)`);
  }
}

/** A consumer-only service (it borrows the `files` area, which has no service yet). */
const watcher = createService({
  name: 'files',
  entities: [],
  migrations: [{ name: 'Migration20261121120000', class: SeenTable }],
  routes: () => [],
  consumers: () => [
    defineConsumer({
      name: 'locations',
      topics: ['organization'],
      types: (t) => t.startsWith('location.'),
      async handle({ em, event, message }) {
        const name = (event.data.object as { name?: string }).name ?? null;
        if (name === 'POISON' && poisonActive) throw new Error('cannot digest POISON');
        await em.execute(`insert into "files"."seen" ("event_id", "type", "key", "name") values (?, ?, ?, ?)`, [event.id, event.type, message.key, name]);
      },
    }),
    // set-based: every new event of a bus batch at once (each row names the size of the call that wrote it)
    defineConsumer({
      name: 'batched',
      topics: ['organization'],
      types: ['batched.thing'],
      async handle({ em, event, message }) {
        await em.execute(`insert into "files"."seen" ("event_id", "type", "key", "name") values (?, ?, ?, 'alone')`, [event.id, event.type, message.key]);
      },
      async handleBatch({ em, events }) {
        for (const { event, message } of events) {
          await em.execute(`insert into "files"."seen" ("event_id", "type", "key", "name") values (?, ?, ?, ?)`, [event.id, event.type, message.key, `batch of ${events.length}`]);
        }
      },
    }),
  ],
});

let stack: TestServices;
const seen = async () => (await stack.services.files.svc.runtime.orm.em.getConnection().execute(`select event_id, type, key, name from files.seen order by n`)) as Array<{ event_id: string; type: string; key: string; name: string }>;

beforeAll(async () => {
  stack = await startTestServices([organizationService, watcher], { CONSUMER_MAX_ATTEMPTS: '2' });
});
afterAll(async () => {
  await stack?.close();
});

describe('consumer runner', () => {
  it('applies events in order per record', async () => {
    const org = stack.services.organization;
    const loc = await org.call('POST', '/locations', { body: { name: 'C1', timezone: 'UTC' } });
    for (const name of ['C2', 'C3', 'C4']) await org.call('PATCH', `/locations/${loc.body.id}`, { body: { name } });
    const rows = await eventually(async () => {
      const mine = (await seen()).filter((r) => r.key === loc.body.id);
      return mine.length >= 4 ? mine : undefined;
    });
    expect(rows.map((r) => r.name)).toEqual(['C1', 'C2', 'C3', 'C4']);
  });

  it('hands a set-based consumer all new events of a bus batch at once, each once, in order', async () => {
    const msg = (n: number): BusMessage => ({ topic: 'organization', key: `thing-${n}`, eventId: `evt_BATCHED_${n}`, type: 'batched.thing', payload: { id: `evt_BATCHED_${n}`, type: 'batched.thing', data: { object: {} } } });
    await stack.bus.publish([msg(1), msg(2), msg(2), msg(3)]);
    const rows = await eventually(async () => {
      const mine = (await seen()).filter((r) => r.type === 'batched.thing');
      return mine.length >= 3 ? mine : undefined;
    });
    expect(rows.map((r) => r.key)).toEqual(['thing-1', 'thing-2', 'thing-3']);
    expect(new Set(rows.map((r) => r.name))).toEqual(new Set(['batch of 3']));
    // delivered again later: nothing new; a lone new one goes through `handle`
    await stack.bus.publish([msg(1), msg(4)]);
    await eventually(async () => (await seen()).some((r) => r.key === 'thing-4'));
    const after = (await seen()).filter((r) => r.type === 'batched.thing');
    expect(after.map((r) => [r.key, r.name])).toEqual([['thing-1', 'batch of 3'], ['thing-2', 'batch of 3'], ['thing-3', 'batch of 3'], ['thing-4', 'alone']]);
  });

  it('applies an event once even when the bus delivers it again', async () => {
    const org = stack.services.organization;
    const loc = await org.call('POST', '/locations', { body: { name: 'Twice', timezone: 'UTC' } });
    await eventually(async () => (await seen()).some((r) => r.key === loc.body.id));
    const original = (await seen()).find((r) => r.key === loc.body.id)!;
    // the same event published again (a relay that died after publishing, before marking)
    const again: BusMessage = { topic: 'organization', key: loc.body.id, eventId: original.event_id, type: 'location.created', payload: { id: original.event_id, type: 'location.created', data: { object: { name: 'Twice' } } } };
    await stack.bus.publish([again, again]);
    const marker = await org.call('POST', '/locations', { body: { name: 'After twice', timezone: 'UTC' } });
    await eventually(async () => (await seen()).some((r) => r.key === marker.body.id));
    expect((await seen()).filter((r) => r.event_id === original.event_id)).toHaveLength(1);
  });

  it('parks a poison message in dead_letters after its attempts, moves on, and retries it later', async () => {
    const org = stack.services.organization;
    const bad = await org.call('POST', '/locations', { body: { name: 'POISON', timezone: 'UTC' } });
    const good = await org.call('POST', '/locations', { body: { name: 'Healthy', timezone: 'UTC' } });
    await eventually(async () => (await seen()).some((r) => r.key === good.body.id), 20_000);
    expect((await seen()).some((r) => r.key === bad.body.id)).toBe(false);
    const { listDeadLetters } = await import('@bop/shared');
    const files = stack.services.files.svc;
    const parked = await listDeadLetters(files.runtime.orm, 'files');
    expect(parked).toEqual([expect.objectContaining({ consumer: 'files.locations', type: 'location.created', attempts: 2, error: 'Error: cannot digest POISON' })]);

    expect(await files.consumers.retryDeadLetters()).toEqual({ retried: 0, stillFailing: 1 });
    poisonActive = false;
    expect(await files.consumers.retryDeadLetters()).toEqual({ retried: 1, stillFailing: 0 });
    expect((await seen()).filter((r) => r.key === bad.body.id)).toHaveLength(1);
    expect(await listDeadLetters(files.runtime.orm, 'files')).toEqual([]);
  });

  it('skips types it does not want without recording them', async () => {
    await stack.bus.publish([{ topic: 'organization', key: 'x', eventId: newId('event'), type: 'department.created', payload: {} }]);
    const marker = await stack.services.organization.call('POST', '/locations', { body: { name: 'Marker', timezone: 'UTC' } });
    await eventually(async () => (await seen()).some((r) => r.key === marker.body.id));
    expect((await seen()).some((r) => r.type === 'department.created')).toBe(false);
  });
});

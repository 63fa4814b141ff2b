/**
 * Outbox → bus through the relay, with the organization service as the producer:
 * the envelope arrives exactly; a rolled-back change publishes nothing; a process that dies between
 * commit and publish loses nothing (the next start publishes); a bus outage delays, never loses or reorders.
 */
import { Client } from 'pg';
import { createLogger, createPostgresBus, startService, type Bus, type BusMessage, type ConsumedMessage, type RunningService } from '@bop/shared';
import { pruneOutbox } from '../src/relay';
import { organizationService } from '@svc/organization';
import { eventually, freshDatabase, http, person, testKeys, topicSoFar, type TestDatabase } from '@bop/test-support';

let db: TestDatabase;
let bus: Bus;

async function startOrg(opts: { relay?: boolean; bus?: Bus } = {}): Promise<RunningService<any>> {
  const { keys } = await testKeys();
  return startService(organizationService, {
    databaseUrl: db.url,
    internalPublicKeyPem: keys.publicKeyPem,
    bus: opts.bus ?? bus,
    relay: opts.relay,
    port: 0,
    host: '127.0.0.1',
    env: { LOG_LEVEL: 'silent', RELAY_POLL_MS: '100' },
    logger: createLogger('organization', 'silent'),
  });
}

async function call(svc: RunningService<any>, method: string, path: string, body?: unknown) {
  const { signer } = await testKeys();
  return http(svc.url, method, path, { body, headers: { 'x-internal-token': await signer.sign(person()) } });
}

/** Everything on the bus so far, read by a throwaway group. */
const busContents = (): Promise<ConsumedMessage[]> => topicSoFar(bus, db.url, 'organization');

beforeAll(async () => {
  db = await freshDatabase();
  bus = await createPostgresBus({ connectionString: db.url, log: createLogger('bus', 'silent'), pollMs: 100 });
});
afterAll(async () => {
  await bus?.close();
  await db?.drop();
});

describe('relay', () => {
  it('publishes the spec envelope to the area topic, keyed by the record id, and marks the row published', async () => {
    const svc = await startOrg();
    try {
      const created = await call(svc, 'POST', '/locations', { name: 'Relay store', timezone: 'Europe/Rome', externalId: 'REL-1' });
      expect(created.status).toBe(201);
      const message = await eventually(async () => (await busContents()).find((m) => m.key === created.body.id));
      expect(message).toMatchObject({ topic: 'organization', type: 'location.created', key: created.body.id });
      expect(message.payload).toEqual({
        id: message.eventId,
        type: 'location.created',
        createdAt: expect.any(String),
        apiVersion: 'v1',
        actor: { type: 'user', id: 'usr_test' },
        locationId: created.body.id,
        data: { object: created.body },
      });
      const rows = await svc.runtime.orm.em.getConnection().execute(`select published_at from organization.outbox where aggregate_id = ?`, [created.body.id]);
      expect(rows[0].published_at).not.toBeNull();
    } finally {
      await svc.close();
    }
  });

  it('publishes nothing for a change that was refused (its transaction rolled back)', async () => {
    const svc = await startOrg();
    try {
      await call(svc, 'POST', '/locations', { name: 'First', timezone: 'UTC', externalId: 'ROLL-1' });
      const refused = await call(svc, 'POST', '/locations', { name: 'Second', timezone: 'UTC', externalId: 'ROLL-1' });
      expect(refused.status).toBe(409);
      // a later change as the barrier: once it is on the bus, anything committed before it is too
      const later = await call(svc, 'POST', '/locations', { name: 'Third', timezone: 'UTC', externalId: 'ROLL-3' });
      const names = await eventually(async () => {
        const all = (await busContents()).map((m) => (m.payload as any).data.object.name);
        return all.includes('Third') ? all : undefined;
      });
      expect(later.status).toBe(201);
      expect(names).toContain('First');
      expect(names).not.toContain('Second');
    } finally {
      await svc.close();
    }
  });

  it('loses nothing when the process stops between commit and publish: the next start publishes', async () => {
    const first = await startOrg({ relay: false });
    const created = await call(first, 'POST', '/locations', { name: 'Crashy', timezone: 'UTC' });
    expect(created.status).toBe(201);
    await first.close(); // committed, never published
    expect((await busContents()).some((m) => m.key === created.body.id)).toBe(false);
    const second = await startOrg();
    try {
      const message = await eventually(async () => (await busContents()).find((m) => m.key === created.body.id));
      expect(message.type).toBe('location.created');
    } finally {
      await second.close();
    }
  });

  it('rides out a bus outage: retries, and publishes every event once the bus is back, in order', async () => {
    let down = 3;
    const flaky: Bus = {
      kind: 'postgres',
      publish: async (messages: BusMessage[]) => {
        if (down > 0) {
          down -= 1;
          throw new Error('bus unreachable');
        }
        await bus.publish(messages);
      },
      subscribe: (o) => bus.subscribe(o),
      close: async () => undefined,
    };
    const svc = await startOrg({ bus: flaky });
    try {
      const loc = await call(svc, 'POST', '/locations', { name: 'Outage', timezone: 'UTC' });
      for (const name of ['Outage 2', 'Outage 3', 'Outage 4']) await call(svc, 'PATCH', `/locations/${loc.body.id}`, { name });
      const events = await eventually(async () => {
        const mine = (await busContents()).filter((m) => m.key === loc.body.id);
        return mine.length >= 4 ? mine : undefined;
      }, 30_000);
      expect(down).toBe(0);
      expect(events.map((m) => (m.payload as any).data.object.name)).toEqual(['Outage', 'Outage 2', 'Outage 3', 'Outage 4']);
      expect(events.map((m) => m.type)).toEqual(['location.created', 'location.updated', 'location.updated', 'location.updated']);
      expect((events[1].payload as any).data.previous).toEqual({ name: 'Outage' });
    } finally {
      await svc.close();
    }
  });

  it('deletes published outbox rows and read bus messages past their retention, never unpublished or unread ones', async () => {
    const svc = await startOrg({ relay: false });
    const c = new Client({ connectionString: db.url });
    await c.connect();
    try {
      const ids: string[] = [];
      for (const n of [1, 2, 3]) ids.push((await call(svc, 'POST', '/locations', { name: `Retention ${n}`, timezone: 'Europe/Rome' })).body.id);
      await c.query(`update organization.outbox set published_at = now() - interval '4 days' where aggregate_id = $1`, [ids[0]]);
      await c.query(`update organization.outbox set published_at = now() where aggregate_id = $1`, [ids[1]]);
      expect(await pruneOutbox(c, 'organization', 72 * 3_600_000)).toBe(1);
      const left = (await c.query(`select aggregate_id, published_at is null as unpublished from organization.outbox where aggregate_id = any($1)`, [ids])).rows;
      expect(left.map((r) => r.aggregate_id).sort()).toEqual([ids[1], ids[2]].sort());
      expect(left.find((r) => r.aggregate_id === ids[2])!.unpublished).toBe(true);

      const topic = `retention${Date.now()}`;
      await bus.publish([1, 2, 3, 4].map((n) => ({ topic, key: 'k', eventId: `evt_RET_${n}_${topic}`, type: 'test.retained', payload: { n } })));
      const positions = (await c.query(`select position::text as p from bus.messages where topic = $1 order by position`, [topic])).rows.map((r) => r.p);
      await c.query(`update bus.messages set published_at = now() - interval '8 days' where topic = $1`, [topic]);
      // the groups so far are gone (not moved for longer than the retention); one active group has read two of the four
      await c.query(`update bus.positions set updated_at = now() - interval '10 days'`);
      await c.query(`insert into bus.positions (group_id, position, updated_at) values ('g-retention', $1, now())`, [positions[1]]);
      expect(await bus.prune!(168 * 3_600_000)).toBe(2);
      expect((await c.query(`select position::text as p from bus.messages where topic = $1 order by position`, [topic])).rows.map((r) => r.p)).toEqual(positions.slice(2));
    } finally {
      await c.end();
      await svc.close();
    }
  });

  it('has one leader per service: a second replica stands by', async () => {
    const a = await startOrg();
    const b = await startOrg();
    try {
      await eventually(async () => (a.relay!.isLeader || b.relay!.isLeader ? true : undefined));
      // the standby tries to lead again (woken instead of waiting out its standby pause), and stays by
      const standby = a.relay!.isLeader ? b.relay! : a.relay!;
      const tried = standby.leadAttempts;
      standby.wake();
      await eventually(async () => (standby.leadAttempts > tried ? true : undefined));
      expect([a.relay!.isLeader, b.relay!.isLeader].filter(Boolean)).toHaveLength(1);
    } finally {
      await a.close();
      await b.close();
    }
  });
});

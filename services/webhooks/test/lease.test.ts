import http from 'node:http';
import net from 'node:net';
import { createLogger, createOrm, lockForTransaction, migrate, newId, serviceRuntime, systemClock, type Orm, type ServiceRuntime } from '@bop/shared';
import { Endpoint } from '../src/endpoints/entities';
import { Delivery } from '../src/deliveries/entities';
import { IntegrationState } from '../src/integrations/entities';
import { FeatureState } from '../src/features/entities';
import { migrations } from '../src/migrations';
import { insertDeliveries, QUEUE_LOCK } from '../src/deliveries/store';
import { DEFAULT_LEASE_MS, DeliveryWorker } from '../src/deliveries/delivery-worker';
import { eventually, freshDatabase, type TestDatabase } from '@bop/test-support';

/**
 * Delivery leases (issue 13 item 6; architecture: Leases, not long locks), with workers as separate
 * processes would be: each its own connection pool on the real Postgres, sending to a real receiver.
 * A crash is what the rest of the world sees of a dead process: its database connections and its
 * requests in flight are cut, and nothing of it answers again.
 */

interface Hit {
  eventId: string;
  record: string;
  n: number;
  /** answered 200 (false: cut while held) */
  answered: boolean;
}

/** A real receiver on 127.0.0.1 that answers at once, after a delay, or holds requests until they are cut. */
class Receiver {
  readonly hits: Hit[] = [];
  mode: { kind: 'answer' } | { kind: 'delay'; ms: number } | { kind: 'hold' } = { kind: 'answer' };
  private readonly held: Array<{ hit: Hit; res: http.ServerResponse }> = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private server!: http.Server;
  url = '';

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        const hit: Hit = { eventId: body.id, record: body.data.object.id, n: body.data.object.n, answered: false };
        this.hits.push(hit);
        const answer = () => {
          hit.answered = true;
          res.writeHead(200).end('ok');
        };
        const mode = this.mode;
        if (mode.kind === 'hold') this.held.push({ hit, res });
        else if (mode.kind === 'delay') {
          const timer = setTimeout(() => {
            this.timers.delete(timer);
            answer();
          }, mode.ms);
          this.timers.add(timer);
        } else answer();
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as { port: number }).port}/hooks`;
    return this;
  }

  /** the connections of held requests reset, as when the sending process dies */
  cutHeld(): void {
    for (const { res } of this.held.splice(0)) res.socket?.destroy();
  }

  answered(record: string): number[] {
    return this.hits.filter((h) => h.record === record && h.answered).map((h) => h.n);
  }

  close(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    this.cutHeld();
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** A TCP hop between one worker and Postgres; `cut` resets every connection and refuses new ones. */
class DbLink {
  private readonly sockets = new Set<net.Socket>();
  private server!: net.Server;
  url = '';

  async start(target: string): Promise<this> {
    const t = new URL(target);
    this.server = net.createServer((client) => {
      const upstream = net.connect(Number(t.port || 5432), t.hostname);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('error', () => undefined);
        s.on('close', () => {
          this.sockets.delete(s);
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream);
      upstream.pipe(client);
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const u = new URL(target);
    u.hostname = '127.0.0.1';
    u.port = String((this.server.address() as { port: number }).port);
    this.url = u.toString();
    return this;
  }

  cut(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const s of this.sockets) s.destroy();
    return closed;
  }
}

const SECRET = 'whsec_' + Buffer.alloc(32, 9).toString('base64');

let db: TestDatabase;
let admin: Orm;
/** units of work on the admin pool (as the service's runtime would make them) */
let adminUnits: ServiceRuntime;
let receiver: Receiver;
const started: Array<{ worker: DeliveryWorker; orm: Orm; crashed: boolean }> = [];

beforeAll(async () => {
  db = await freshDatabase();
  admin = await orm(db.url);
  adminUnits = runtimeOn(admin);
  await migrate(admin, 'webhooks');
  receiver = await new Receiver().start();
});
afterAll(async () => {
  await admin?.close(true);
  await receiver?.close();
  await db?.drop();
});
afterEach(async () => {
  for (const w of started.splice(0).reverse()) {
    await w.worker.stop();
    // a crashed worker's pool still counts the LISTEN connection that died with the link as in use,
    // and closing would wait for it: its timers stop here, its sockets are gone already
    if (w.crashed) void w.orm.close(true);
    else await w.orm.close(true);
  }
  receiver.mode = { kind: 'answer' };
  receiver.hits.length = 0;
});

function orm(url: string): Promise<Orm> {
  return createOrm({ schema: 'webhooks', clientUrl: url, entities: [Endpoint, Delivery, IntegrationState, FeatureState], migrations, poolMax: 4 });
}

const log = createLogger('delivery-test', (process.env.TEST_LOG_LEVEL ?? 'silent') as 'silent');

/** The service's runtime on a pool of its own (only its units, pool and log are used here). */
function runtimeOn(o: Orm): ServiceRuntime {
  return serviceRuntime({ name: 'webhooks', schema: 'webhooks', config: {} as ServiceRuntime['config'], orm: o, log, bus: undefined as never, clock: systemClock, services: undefined as never });
}

/** A delivery worker of its own "process": its own pool (through `link` when given), the service's defaults otherwise. */
async function startWorker(link?: DbLink): Promise<DeliveryWorker> {
  const o = await orm(link ? link.url : db.url);
  const worker = new DeliveryWorker({
    svc: runtimeOn(o),
    concurrency: 8,
    timeoutMs: 10_000,
    maxAttempts: 15,
    disableAfterFailures: 25,
    pollMs: 50,
    allowPrivate: true,
  });
  await worker.start();
  started.push({ worker, orm: o, crashed: false });
  return worker;
}

async function newEndpoint(): Promise<string> {
  const id = newId('webhookEndpoint');
  const now = new Date();
  await admin.em.fork().execute(
    `insert into "webhooks"."endpoints" ("id", "url", "events", "status", "secret", "created_at", "updated_at") values (?, ?, '["*"]', 'active', ?, ?, ?)`,
    [id, receiver.url, SECRET, now, now],
  );
  return id;
}

/** Queues events for records as the fan-out does: `[record, n]` in order. */
async function queue(endpointId: string, events: Array<[string, number]>): Promise<void> {
  const rows = events.map(([record, n]) => {
    const eventId = newId('event');
    const body = JSON.stringify({ id: eventId, type: 'location.updated', createdAt: new Date().toISOString(), apiVersion: 'v1', actor: { type: 'system', id: null }, locationId: record, data: { object: { id: record, n } } });
    return { id: newId('webhookDelivery'), endpointId, eventId, eventType: 'location.updated', recordKey: record, body };
  });
  await adminUnits.write((w) => insertDeliveries(w, rows));
}

async function deliveries(endpointId: string): Promise<Array<{ record_key: string; status: string; attempts: number; lease: string | null; locked_until: Date | null; in_future: boolean }>> {
  return admin.em.fork().execute(
    `select "record_key", "status", "attempts", "lease", "locked_until", coalesce("locked_until" > now(), false) as "in_future" from "webhooks"."deliveries" where "endpoint_id" = ? order by "seq"`,
    [endpointId],
  );
}

describe('delivery leases', () => {
  it('frees the deliveries of a worker that dies mid-send within one short lease: another worker sends them, each record in order', async () => {
    const endpointId = await newEndpoint();
    receiver.mode = { kind: 'hold' };
    const link = await new DbLink().start(db.url);
    await startWorker(link);
    await queue(endpointId, [
      ['loc_a', 1],
      ['loc_b', 1],
      ['loc_a', 2],
      ['loc_b', 2],
      ['loc_a', 3],
    ]);
    // the head of each record's queue is in flight at the receiver, claimed by the first worker
    await eventually(async () => receiver.hits.length === 2);
    expect(receiver.hits.map((h) => `${h.record} ${h.n}`).sort()).toEqual(['loc_a 1', 'loc_b 1']);
    const claimed = (await deliveries(endpointId)).filter((d) => d.lease !== null);
    expect(claimed).toHaveLength(2);
    expect(claimed.every((d) => d.in_future)).toBe(true);
    // the short lease, not the old 70 s lock (the receiver's 10 s time limit + 60 s)
    const lockedFor = (await admin.em.fork().execute<Array<{ s: number }>>(`select max(extract(epoch from "locked_until" - now()))::float8 as s from "webhooks"."deliveries" where "endpoint_id" = ?`, [endpointId]))[0].s;
    expect(lockedFor).toBeLessThanOrEqual(DEFAULT_LEASE_MS / 1000);

    // the crash: its database connections and its requests in flight are cut; nothing of it answers again
    await link.cut();
    started[0].crashed = true;
    receiver.cutHeld();
    receiver.mode = { kind: 'answer' };

    await startWorker();
    // every delivery sent once the dead worker's lease (6 s at most, checked above) lapsed, each record's events in order
    await eventually(async () => (await deliveries(endpointId)).every((d) => d.status === 'succeeded'), 20_000);
    expect(receiver.answered('loc_a')).toEqual([1, 2, 3]);
    expect(receiver.answered('loc_b')).toEqual([1, 2]);
    // the dead worker's attempts were never recorded: one attempt each, by the second worker
    expect((await deliveries(endpointId)).map((d) => d.attempts)).toEqual([1, 1, 1, 1, 1]);
    expect(receiver.hits.filter((h) => !h.answered).map((h) => `${h.record} ${h.n}`).sort()).toEqual(['loc_a 1', 'loc_b 1']);
  }, 30_000);

  it('a live worker keeps its claims while a slow receiver answers (8 s, within the 10 s limit): no second worker sends them meanwhile', async () => {
    const endpointId = await newEndpoint();
    receiver.mode = { kind: 'delay', ms: 8_000 };
    await startWorker();
    await startWorker();
    await queue(endpointId, [
      ['loc_slow', 1],
      ['loc_other', 1],
    ]);
    await eventually(async () => receiver.hits.length === 2);
    // those two are answered in 8 s; anything sent from now on at once (a second send of them too)
    receiver.mode = { kind: 'answer' };
    // a later event of the same record queues behind the one in flight
    await queue(endpointId, [['loc_slow', 2]]);
    await eventually(async () => (await deliveries(endpointId)).every((d) => d.status === 'succeeded'), 30_000);
    // longer than a lease in flight, yet each event went out once
    expect(receiver.hits.map((h) => `${h.record} ${h.n}`).sort()).toEqual(['loc_other 1', 'loc_slow 1', 'loc_slow 2']);
    expect(receiver.answered('loc_slow')).toEqual([1, 2]);
    expect((await deliveries(endpointId)).map((d) => d.attempts)).toEqual([1, 1, 1]);
  }, 40_000);
});

describe('the queue lock', () => {
  it('is one key for the code and the enqueue trigger: while the worker holds it, a delivery cannot enter a queue', async () => {
    const endpointId = await newEndpoint();
    const row = { id: newId('webhookDelivery'), endpointId, eventId: newId('event'), eventType: 'location.updated', recordKey: 'loc_lock', body: '{}' };
    await admin.em.fork().transactional(async (held) => {
      // as recordResults takes it
      await lockForTransaction(held, QUEUE_LOCK);
      await expect(
        adminUnits.write(async (w) => {
          await w.em.execute(`set local lock_timeout = '200ms'`);
          await insertDeliveries(w, [row], false);
        }),
      ).rejects.toThrow(/lock timeout/);
    });
    await adminUnits.write((w) => insertDeliveries(w, [row], false));
    expect(await deliveries(endpointId)).toEqual([expect.objectContaining({ record_key: 'loc_lock', status: 'pending' })]);
  });
});

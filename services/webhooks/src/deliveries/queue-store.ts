import { randomUUID } from 'node:crypto';
import { lockForTransaction, type Orm, type Work } from '@bop/shared';
import { QUEUE_LOCK, WAKE_CHANNEL } from './store';

/**
 * The delivery worker's database side: claiming due deliveries under a lease, renewing leases,
 * recording attempts, and the LISTEN connection that wakes it.
 */

export interface Claimed {
  id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  body: string;
  schedule_step: number;
  lease: string;
  trace_parent: string | null;
  url: string;
  secret: string | null;
  previous_secret: string | null;
  previous_secret_until: Date | string | null;
}

export interface Outcome {
  id: string;
  lease: string;
  endpointId: string;
  status: 'pending' | 'succeeded' | 'failed';
  step: number;
  next: string | null;
  code: number | null;
  err: string | null;
  at: string;
  ok: boolean;
  gone: boolean;
}

/** The queue for metrics at the unit's instant: deliveries pending and the age in seconds of the oldest (0 when none). */
export async function queueSnapshot(w: Work): Promise<{ depth: number; oldestSeconds: number }> {
  // raw SQL (bench:sql webhooks.queue-snapshot): 1,938 µs against 10,875 through the ORM (5.6×: a count and the oldest
  // row in two queries, where one statement aggregates both)
  const rows = await w.em.execute<Array<{ depth: string; oldest: string | null }>>(
    `select count(*) as "depth", extract(epoch from ?::timestamptz - min("created_at")) as "oldest" from "${w.schema}"."deliveries" where "status" = 'pending'`,
    [w.now],
  );
  return { depth: Number(rows[0]?.depth ?? 0), oldestSeconds: Math.max(0, Number(rows[0]?.oldest ?? 0)) };
}

/** Claims up to `limit` queue heads due at the unit's instant under a new lease (FOR UPDATE SKIP LOCKED: workers share the queue). */
export async function claimDue(w: Work, limit: number, leaseMs: number): Promise<Claimed[]> {
  const lease = randomUUID();
  // raw SQL (bench:sql webhooks.claim-due): 16,406 µs against 71,198 through the ORM (4.3×: the endpoints and integrations
  // read and filtered in code, the due heads hydrated whole and flushed back; the ORM cannot order by the unmapped seq)
  // only queue heads have a next_attempt_at, so the due index walked in order yields sendable rows
  return w.em.execute<Claimed[]>(
    `with due as (
       select d."id" from "${w.schema}"."deliveries" d
       where d."status" = 'pending' and d."next_attempt_at" <= ?
         and (d."locked_until" is null or d."locked_until" < now())
         and d."endpoint_id" in (
           select e."id" from "${w.schema}"."endpoints" e left join "${w.schema}"."integrations" i on i."integration_id" = e."integration_id"
           where e."status" = 'active' and coalesce(i."paused", false) = false)
       order by d."next_attempt_at", d."seq"
       limit ?
       for update of d skip locked
     )
     update "${w.schema}"."deliveries" d set "locked_until" = now() + make_interval(secs => ?), "lease" = ?
     from due, "${w.schema}"."endpoints" e left join "${w.schema}"."integrations" i on i."integration_id" = e."integration_id"
     where d."id" = due."id" and e."id" = d."endpoint_id"
     returning d."id", d."endpoint_id", d."event_id", d."event_type", d."body", d."schedule_step", d."lease", d."trace_parent", e."url",
       coalesce(e."secret", i."secret") as "secret",
       case when e."integration_id" is null then e."previous_secret" else i."previous_secret" end as "previous_secret",
       case when e."integration_id" is null then e."previous_secret_until" else i."previous_secret_until" end as "previous_secret_until"`,
    [w.now, limit, leaseMs / 1000, lease],
  );
}

/**
 * Extends `locked_until` of the deliveries a worker holds (delivery id → lease id); see the worker's
 * renew for which rows match.
 */
export async function renewLeases(w: Work, held: ReadonlyMap<string, string>, leaseMs: number): Promise<void> {
  const rows = JSON.stringify([...held].map(([id, lease]) => ({ id, lease })));
  // raw SQL (bench:sql webhooks.renew-leases): 16,851 µs against 60,307 through the ORM (3.6×: an $or of every
  // (id, lease) pair locked, then an update by ids, where one statement joins the pairs as a record set)
  await w.em.execute(
    `update "${w.schema}"."deliveries" d set "locked_until" = now() + make_interval(secs => ?)
     where d."id" in (
       select x."id" from "${w.schema}"."deliveries" x
       join jsonb_to_recordset(?::jsonb) as h(id text, lease text) on x."id" = h.id and x."lease" = h.lease
       order by x."id"
       for update of x skip locked
     )`,
    [leaseMs / 1000, rows],
    'run',
  );
}

export interface EndpointTally {
  id: string;
  reset: boolean;
  failures: number;
  gone: boolean;
}

export interface RecordedEndpoint {
  id: string;
  disabled_reason: string;
  consecutive_failures: number;
  disabled_now: boolean;
}

/**
 * Writes finished attempts (their lease still held) and the endpoints' failures in a row, in the
 * unit's transaction at its instant; returns the endpoints written.
 */
export async function recordResults(w: Work, batch: Outcome[], endpoints: EndpointTally[], limit: number): Promise<RecordedEndpoint[]> {
  const { em, now } = w;
  // exclusive: a head handing over (trigger deliveries_hand_over) must see every row added behind it
  await lockForTransaction(em, QUEUE_LOCK);
  // raw SQL (bench:sql webhooks.record-results): 67,681 µs against 125,831 through the ORM (1.9×: deliveries and endpoints
  // loaded, changed in code and flushed, where one statement updates both from the batch as record sets)
  // one statement: the deliveries, then each endpoint's failures in a row (spec: Delivery rules 5),
  // disabling it at the limit or at once on 410 (old values come from the snapshot `was`)
  const rows: RecordedEndpoint[] = await em.execute(
    `with done as (
       update "${w.schema}"."deliveries" d set "status" = r.status, "attempts" = d."attempts" + 1, "schedule_step" = r.step,
         "next_attempt_at" = coalesce(r.next, d."next_attempt_at"), "last_status" = r.code, "last_error" = r.err,
         "last_attempt_at" = r.at, "updated_at" = r.at, "locked_until" = null, "lease" = null
       from jsonb_to_recordset(?::jsonb) as r(id text, lease text, status text, step int, next timestamptz, code int, err text, at timestamptz)
       where d."id" = r.id and d."lease" = r.lease
     ), counts as (
       select r.*, case when r.reset then r.failures else was."consecutive_failures" + r.failures end as n, was."status" as was_status
       from jsonb_to_recordset(?::jsonb) as r(id text, reset boolean, failures int, gone boolean)
       join "${w.schema}"."endpoints" was on was."id" = r.id
       where not (r.reset and r.failures = 0 and was."consecutive_failures" = 0)
     )
     update "${w.schema}"."endpoints" e set "consecutive_failures" = c.n,
       "status" = case when c.was_status = 'active' and (c.gone or c.n >= ?) then 'disabled' else e."status" end,
       "disabled_reason" = case when c.was_status = 'active' and c.gone then 'gone' when c.was_status = 'active' and c.n >= ? then 'failures' else e."disabled_reason" end,
       "version" = e."version" + case when c.was_status = 'active' and (c.gone or c.n >= ?) then 1 else 0 end,
       "updated_at" = case when c.was_status = 'active' and (c.gone or c.n >= ?) then ?::timestamptz else e."updated_at" end
     from counts c
     where e."id" = c.id
     returning e."id", e."disabled_reason", e."consecutive_failures", (c.was_status = 'active' and e."status" = 'disabled') as "disabled_now"`,
    [JSON.stringify(batch), JSON.stringify(endpoints), limit, limit, limit, limit, now],
  );
  return rows;
}

export interface WakeListener {
  release(): Promise<void>;
}

/**
 * LISTENs for the wake channel on a connection of the service's pool: `onWake` per notification,
 * `onLost` once when the connection drops (it is handed back to the pool, which discards it).
 */
export async function listenForWakes(orm: Orm, onWake: () => void, onLost: () => void): Promise<WakeListener> {
  // raw SQL (bench:sql webhooks.listen-for-wakes): 7,903 µs against 20,658 through the ORM (2.6×: the ORM has no LISTEN;
  // the worker would poll the due index instead, once a round where this runs once a worker, and wait up to WEBHOOK_POLL_MS)
  const client = orm.em.getConnection().getKnex().client;
  const conn = await client.acquireConnection();
  const onNotify = (msg: { channel: string }) => {
    if (msg.channel === WAKE_CHANNEL) onWake();
  };
  let lost = false;
  const onError = () => {
    // emitted more than once for one drop (the server's message, then the socket's end)
    if (lost) return;
    lost = true;
    conn.off('notification', onNotify);
    // back to the pool, which discards a broken connection (knex marks it disposed)
    void Promise.resolve(client.releaseConnection(conn)).catch(() => undefined);
    onLost();
  };
  conn.on('notification', onNotify);
  conn.on('error', onError);
  try {
    await conn.query(`listen "${WAKE_CHANNEL}"`);
  } catch (err) {
    onError();
    throw err;
  }
  return {
    release: async () => {
      conn.off('notification', onNotify);
      conn.off('error', onError);
      await conn.query(`unlisten "${WAKE_CHANNEL}"`).catch(() => undefined);
      await client.releaseConnection(conn);
    },
  };
}

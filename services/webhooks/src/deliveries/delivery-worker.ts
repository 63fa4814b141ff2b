import { randomUUID } from 'node:crypto';
import { Waker, type Clock, type Logger, type Orm, type WorkerDef } from '@bop/shared';
import { deliveryHeaders, signingSecrets } from './signature';
import { nextAttemptAt, parseRetryAfter } from './schedule';
import { WAKE_CHANNEL } from './store';
import { Sender, type SendResult } from './sender';

export interface DeliveryWorkerOptions {
  orm: Orm;
  clock: Clock;
  log: Logger;
  concurrency: number;
  timeoutMs: number;
  maxAttempts: number;
  disableAfterFailures: number;
  pollMs: number;
  allowPrivate: boolean;
  /**
   * How long a claim holds a delivery without renewal. While its request is in flight (and until its
   * result is written) the worker renews the lease every third of this, so a live worker keeps its
   * claims and a crashed one frees them within this time.
   */
  leaseMs?: number;
  /** jitter source (tests) */
  random?: () => number;
}

interface Claimed {
  id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  body: string;
  schedule_step: number;
  lease: string;
  url: string;
  secret: string | null;
  previous_secret: string | null;
  previous_secret_until: Date | string | null;
}

interface Outcome {
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

const CLAIM_MAX = 200;
const FLUSH_MAX = 500;
/** default lease of a claimed delivery (renewed every third of it while the worker holds it) */
export const DEFAULT_LEASE_MS = 6_000;

/**
 * Sends due deliveries (spec: Events, Delivery rules). Claims with FOR UPDATE SKIP LOCKED and a lease,
 * so any number of workers and replicas share the queue; only the head of each (endpoint, record)
 * queue is due, so events of one record go out in order; disabled endpoints and paused integrations
 * are skipped (their deliveries wait). Results are written in batches; a NOTIFY, a finished batch or
 * the poll wakes the loop.
 *
 * Leases are short and renewed (architecture: Leases, not long locks): a heartbeat extends
 * `locked_until` of every delivery this worker holds (request in flight or result not yet written),
 * matching its own lease ids only, so it never takes over another worker's claim. A worker that dies
 * stops renewing, and within one lease its deliveries are due again for any worker (at least once);
 * the record's later events wait behind the head meanwhile, so the order holds. Lease times are the
 * database's `now()` throughout (claim, renewal); due times are the service clock's.
 */
export class DeliveryWorker implements WorkerDef {
  readonly name = 'delivery';
  private readonly sender: Sender;
  private stopped = true;
  private loop: Promise<void> | null = null;
  private inflight = new Set<Promise<void>>();
  private results: Outcome[] = [];
  private flushing: Promise<void> | null = null;
  private readonly waker = new Waker();
  private listener: { conn: any; release: () => Promise<void> } | null = null;
  private listenRetry: NodeJS.Timeout | null = null;
  /** delivery id → lease id, for every claim this worker holds (in flight, or its result not yet written) */
  private readonly held = new Map<string, string>();
  private readonly leaseMs: number;
  private heartbeat: NodeJS.Timeout | null = null;
  private renewing: Promise<void> | null = null;

  constructor(private readonly o: DeliveryWorkerOptions) {
    this.sender = new Sender({ timeoutMs: o.timeoutMs, allowPrivate: o.allowPrivate, connections: o.concurrency });
    this.leaseMs = o.leaseMs ?? DEFAULT_LEASE_MS;
  }

  async start(): Promise<void> {
    this.stopped = false;
    await this.listen().catch((err) => {
      this.o.log.warn({ err: (err as Error).message }, 'webhooks: LISTEN failed; polling until it is back');
      this.retryListen();
    });
    this.heartbeat = setInterval(() => {
      this.renewing ??= this.renew().finally(() => (this.renewing = null));
    }, Math.max(100, Math.floor(this.leaseMs / 3)));
    this.heartbeat.unref?.();
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake();
    await this.loop;
    // the heartbeat keeps the claims until the attempts in flight are recorded
    await Promise.all(this.inflight);
    await this.flushing;
    await this.flush();
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
    await this.renewing;
    if (this.listenRetry) clearTimeout(this.listenRetry);
    await this.unlisten();
    await this.sender.close();
  }

  /** Makes the loop look for due deliveries now. */
  wake(): void {
    this.waker.wake();
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (!this.stopped) {
      const free = this.o.concurrency - this.inflight.size;
      // claim in batches: wait for a quarter of the slots unless idle
      if (free > 0 && (free >= Math.ceil(this.o.concurrency / 4) || this.inflight.size === 0)) {
        let claimed: Claimed[];
        try {
          claimed = await this.claim(Math.min(free, CLAIM_MAX));
          failures = 0;
        } catch (err) {
          failures += 1;
          this.o.log.warn({ err: (err as Error).message, failures }, 'webhooks: claiming deliveries failed');
          await this.sleep(Math.min(10_000, 100 * 2 ** Math.min(failures, 7)));
          continue;
        }
        for (const row of claimed) {
          this.held.set(row.id, row.lease);
          this.track(this.attempt(row));
        }
        if (claimed.length === Math.min(free, CLAIM_MAX)) continue;
      }
      await this.sleep(this.o.pollMs);
    }
  }

  private track(p: Promise<void>): void {
    this.inflight.add(p);
    void p.finally(() => {
      this.inflight.delete(p);
      this.wake();
    });
  }

  /**
   * Extends the lease of every delivery this worker holds. Only rows still carrying this worker's
   * lease ids match (a replay or another worker's claim after a lapse is left alone); rows locked at
   * this moment (their result being written) are skipped rather than waited for, and the next beat
   * gets them.
   */
  private async renew(): Promise<void> {
    if (this.held.size === 0) return;
    const held = JSON.stringify([...this.held].map(([id, lease]) => ({ id, lease })));
    try {
      await this.o.orm.em.fork().execute(
        `update "webhooks"."deliveries" d set "locked_until" = now() + make_interval(secs => ?)
         where d."id" in (
           select x."id" from "webhooks"."deliveries" x
           join jsonb_to_recordset(?::jsonb) as h(id text, lease text) on x."id" = h.id and x."lease" = h.lease
           order by x."id"
           for update of x skip locked
         )`,
        [this.leaseMs / 1000, held],
        'run',
      );
    } catch (err) {
      this.o.log.warn({ err: (err as Error).message, held: this.held.size }, 'webhooks: renewing delivery leases failed');
    }
  }

  private async claim(limit: number): Promise<Claimed[]> {
    const lease = randomUUID();
    // only queue heads have a next_attempt_at, so the due index walked in order yields sendable rows
    return this.o.orm.em.fork().execute<Claimed[]>(
      `with due as (
         select d."id" from "webhooks"."deliveries" d
         where d."status" = 'pending' and d."next_attempt_at" <= ?
           and (d."locked_until" is null or d."locked_until" < now())
           and d."endpoint_id" in (
             select e."id" from "webhooks"."endpoints" e left join "webhooks"."integrations" i on i."integration_id" = e."integration_id"
             where e."status" = 'active' and coalesce(i."paused", false) = false)
         order by d."next_attempt_at", d."seq"
         limit ?
         for update of d skip locked
       )
       update "webhooks"."deliveries" d set "locked_until" = now() + make_interval(secs => ?), "lease" = ?
       from due, "webhooks"."endpoints" e left join "webhooks"."integrations" i on i."integration_id" = e."integration_id"
       where d."id" = due."id" and e."id" = d."endpoint_id"
       returning d."id", d."endpoint_id", d."event_id", d."event_type", d."body", d."schedule_step", d."lease", e."url",
         coalesce(e."secret", i."secret") as "secret",
         case when e."integration_id" is null then e."previous_secret" else i."previous_secret" end as "previous_secret",
         case when e."integration_id" is null then e."previous_secret_until" else i."previous_secret_until" end as "previous_secret_until"`,
      [this.o.clock.now(), limit, this.leaseMs / 1000, lease],
    );
  }

  private async attempt(row: Claimed): Promise<void> {
    const started = this.o.clock.now();
    let result: SendResult;
    try {
      if (!row.secret) throw new Error('the endpoint has no signing secret');
      const until = row.previous_secret_until ? new Date(row.previous_secret_until) : null;
      const headers = deliveryHeaders({
        eventId: row.event_id,
        eventType: row.event_type,
        body: row.body,
        t: Math.floor(started.getTime() / 1000),
        secrets: signingSecrets(row.secret, row.previous_secret, until, started),
      });
      result = await this.sender.send(row.url, headers, row.body);
    } catch (err) {
      // never reject: the slot must free and the attempt be recorded as failed
      result = { ok: false, status: null, error: `not sent: ${(err as Error).message}`, retryAfter: null };
    }
    const now = this.o.clock.now();
    const step = row.schedule_step + 1;
    let status: Outcome['status'] = 'succeeded';
    let next: Date | null = null;
    if (!result.ok) {
      next = nextAttemptAt({ step, maxAttempts: this.o.maxAttempts, now, retryAfterMs: parseRetryAfter(result.retryAfter ?? undefined, now), random: this.o.random });
      status = next ? 'pending' : 'failed';
    }
    this.results.push({
      id: row.id,
      lease: row.lease,
      endpointId: row.endpoint_id,
      status,
      step,
      next: next ? next.toISOString() : null,
      code: result.status,
      err: result.error ? result.error.slice(0, 1000) : null,
      at: now.toISOString(),
      ok: result.ok,
      gone: result.status === 410,
    });
    this.scheduleFlush();
  }

  private scheduleFlush(): void {
    this.flushing ??= (async () => {
      // let completions that land together share one write
      await new Promise((r) => setImmediate(r));
      try {
        await this.flush();
      } finally {
        this.flushing = null;
        if (this.results.length > 0 && !this.stopped) this.scheduleFlush();
      }
    })();
  }

  /** Writes finished attempts: the deliveries, then the endpoints' failure counts (and disables). */
  private async flush(): Promise<void> {
    let failures = 0;
    while (this.results.length > 0) {
      const batch = this.results.slice(0, FLUSH_MAX);
      try {
        await this.writeResults(batch);
        this.results.splice(0, batch.length);
        // recorded (or, when the lease was lost meanwhile, left to whoever holds it now)
        for (const r of batch) if (this.held.get(r.id) === r.lease) this.held.delete(r.id);
        failures = 0;
        this.wake();
      } catch (err) {
        failures += 1;
        this.o.log.warn({ err: (err as Error).message, failures }, 'webhooks: recording delivery results failed');
        // after a while the leases lapse and the deliveries go out again (at least once)
        if (failures >= 5 && this.stopped) return;
        await new Promise((r) => setTimeout(r, Math.min(5_000, 100 * 2 ** failures)));
      }
    }
  }

  private async writeResults(batch: Outcome[]): Promise<void> {
    const perEndpoint = new Map<string, { reset: boolean; failures: number; gone: boolean }>();
    for (const r of batch) {
      const e = perEndpoint.get(r.endpointId) ?? { reset: false, failures: 0, gone: false };
      // spec: Delivery rules 5, failures in a row: a success resets the count
      if (r.ok) {
        e.reset = true;
        e.failures = 0;
      } else e.failures += 1;
      e.gone ||= r.gone;
      perEndpoint.set(r.endpointId, e);
    }
    const endpoints = [...perEndpoint].map(([id, e]) => ({ id, ...e }));
    const now = this.o.clock.now();
    const limit = this.o.disableAfterFailures;
    await this.o.orm.em.fork().transactional(async (em) => {
      // exclusive: a head handing over (trigger deliveries_hand_over) must see every row added behind it
      await em.execute(`select pg_advisory_xact_lock(hashtext('webhooks:queue'))`);
      // one statement: the deliveries, then each endpoint's failures in a row (spec: Delivery rules 5),
      // disabling it at the limit or at once on 410 (old values come from the snapshot `was`)
      const rows: Array<{ id: string; disabled_reason: string; consecutive_failures: number; disabled_now: boolean }> = await em.execute(
        `with done as (
           update "webhooks"."deliveries" d set "status" = r.status, "attempts" = d."attempts" + 1, "schedule_step" = r.step,
             "next_attempt_at" = coalesce(r.next, d."next_attempt_at"), "last_status" = r.code, "last_error" = r.err,
             "last_attempt_at" = r.at, "updated_at" = r.at, "locked_until" = null, "lease" = null
           from jsonb_to_recordset(?::jsonb) as r(id text, lease text, status text, step int, next timestamptz, code int, err text, at timestamptz)
           where d."id" = r.id and d."lease" = r.lease
         ), counts as (
           select r.*, case when r.reset then r.failures else was."consecutive_failures" + r.failures end as n, was."status" as was_status
           from jsonb_to_recordset(?::jsonb) as r(id text, reset boolean, failures int, gone boolean)
           join "webhooks"."endpoints" was on was."id" = r.id
           where not (r.reset and r.failures = 0 and was."consecutive_failures" = 0)
         )
         update "webhooks"."endpoints" e set "consecutive_failures" = c.n,
           "status" = case when c.was_status = 'active' and (c.gone or c.n >= ?) then 'disabled' else e."status" end,
           "disabled_reason" = case when c.was_status = 'active' and c.gone then 'gone' when c.was_status = 'active' and c.n >= ? then 'failures' else e."disabled_reason" end,
           "version" = e."version" + case when c.was_status = 'active' and (c.gone or c.n >= ?) then 1 else 0 end,
           "updated_at" = case when c.was_status = 'active' and (c.gone or c.n >= ?) then ?::timestamptz else e."updated_at" end
         from counts c
         where e."id" = c.id
         returning e."id", e."disabled_reason", e."consecutive_failures", (c.was_status = 'active' and e."status" = 'disabled') as "disabled_now"`,
        [JSON.stringify(batch), JSON.stringify(endpoints), limit, limit, limit, limit, now],
      );
      for (const d of rows.filter((r) => r.disabled_now)) {
        this.o.log.warn({ endpointId: d.id, reason: d.disabled_reason, consecutiveFailures: d.consecutive_failures }, 'webhooks: endpoint disabled; its events queue until it is re-enabled');
      }
    });
  }

  private sleep(ms: number): Promise<void> {
    return this.stopped ? Promise.resolve() : this.waker.sleep(ms);
  }


  /**
   * LISTEN on a connection of the service's pool, so a delivery queued by any replica wakes this one.
   * When that connection drops (the database restarted) the loop polls, LISTEN is retried every second
   * until the database answers, and the loop is woken then (notifications sent meanwhile were lost).
   */
  private async listen(): Promise<void> {
    const client = this.o.orm.em.getConnection().getKnex().client;
    const conn = await client.acquireConnection();
    const onNotify = (msg: { channel: string }) => {
      if (msg.channel === WAKE_CHANNEL) this.wake();
    };
    let lost = false;
    const onError = () => {
      // emitted more than once for one drop (the server's message, then the socket's end)
      if (lost) return;
      lost = true;
      if (this.listener?.conn === conn) this.listener = null;
      conn.off('notification', onNotify);
      // back to the pool, which discards a broken connection (knex marks it disposed)
      void Promise.resolve(client.releaseConnection(conn)).catch(() => undefined);
      this.retryListen();
    };
    conn.on('notification', onNotify);
    conn.on('error', onError);
    try {
      await conn.query(`listen "${WAKE_CHANNEL}"`);
    } catch (err) {
      onError();
      throw err;
    }
    this.listener = {
      conn,
      release: async () => {
        conn.off('notification', onNotify);
        conn.off('error', onError);
        await conn.query(`unlisten "${WAKE_CHANNEL}"`).catch(() => undefined);
        await client.releaseConnection(conn);
      },
    };
  }

  private retryListen(): void {
    if (this.stopped || this.listenRetry) return;
    this.listenRetry = setTimeout(() => {
      this.listenRetry = null;
      if (this.stopped || this.listener) return;
      this.listen().then(
        () => {
          this.o.log.info('webhooks: LISTEN back');
          this.wake();
        },
        () => this.retryListen(),
      );
    }, 1000);
    this.listenRetry.unref();
  }

  private async unlisten(): Promise<void> {
    const l = this.listener;
    this.listener = null;
    await l?.release();
  }
}

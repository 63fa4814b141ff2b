import { randomUUID } from 'node:crypto';
import type { Clock, Logger, Orm, WorkerDef } from '@bop/shared';
import { deliveryHeaders, signingKeys } from '../domain/signature';
import { nextAttemptAt, parseRetryAfter } from '../domain/schedule';
import { WAKE_CHANNEL } from '../store';
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

/**
 * Sends due deliveries (spec: Events, Delivery rules). Claims with FOR UPDATE SKIP LOCKED and a lease,
 * so any number of workers and replicas share the queue; only the head of each (endpoint, record)
 * queue is due, so events of one record go out in order; disabled endpoints and paused integrations
 * are skipped (their deliveries wait). Results are written in batches; a NOTIFY, a finished batch or
 * the poll wakes the loop.
 */
export class DeliveryWorker implements WorkerDef {
  readonly name = 'delivery';
  private readonly sender: Sender;
  private stopped = true;
  private loop: Promise<void> | null = null;
  private inflight = new Set<Promise<void>>();
  private results: Outcome[] = [];
  private flushing: Promise<void> | null = null;
  private signalled = false;
  private wakeUp: (() => void) | null = null;
  private listener: { conn: any; release: () => Promise<void> } | null = null;
  private listenRetry: NodeJS.Timeout | null = null;

  constructor(private readonly o: DeliveryWorkerOptions) {
    this.sender = new Sender({ timeoutMs: o.timeoutMs, allowPrivate: o.allowPrivate, connections: o.concurrency });
  }

  async start(): Promise<void> {
    this.stopped = false;
    await this.listen().catch((err) => this.o.log.warn({ err: (err as Error).message }, 'webhooks: LISTEN failed; polling'));
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake();
    await this.loop;
    await Promise.all(this.inflight);
    await this.flush();
    if (this.listenRetry) clearTimeout(this.listenRetry);
    await this.unlisten();
    await this.sender.close();
  }

  /** Makes the loop look for due deliveries now. */
  wake(): void {
    this.signalled = true;
    this.wakeUp?.();
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (!this.stopped) {
      const free = this.o.concurrency - this.inflight.size;
      // claim in batches: wait for a quarter of the slots unless idle
      if (free > 0 && (free >= Math.ceil(this.o.concurrency / 4) || this.inflight.size === 0)) {
        let claimed: Claimed[];
        try {
          const t0 = performance.now();
          claimed = await this.claim(Math.min(free, CLAIM_MAX));
          (globalThis as any).__st ??= { claims: 0, claimMs: 0, claimed: 0, flushes: 0, flushMs: 0, flushed: 0 };
          const st = (globalThis as any).__st; st.claims++; st.claimMs += performance.now() - t0; st.claimed += claimed.length;
          failures = 0;
        } catch (err) {
          failures += 1;
          this.o.log.warn({ err: (err as Error).message, failures }, 'webhooks: claiming deliveries failed');
          await this.sleep(Math.min(10_000, 100 * 2 ** Math.min(failures, 7)));
          continue;
        }
        for (const row of claimed) this.track(this.attempt(row));
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

  private async claim(limit: number): Promise<Claimed[]> {
    const lease = randomUUID();
    const leaseSeconds = Math.ceil(this.o.timeoutMs / 1000) + 60;
    const st = (globalThis as any).__st;
    if (st && (st.claims === 300 || st.claims === 700)) {
      const t0 = performance.now();
      const plan = await this.o.orm.em.fork().execute(`explain (analyze, buffers) select d."id" from "webhooks"."deliveries" d
         where d."status" = 'pending' and d."next_attempt_at" <= ?
           and (d."locked_until" is null or d."locked_until" < now())
           and d."endpoint_id" in (
             select e."id" from "webhooks"."endpoints" e left join "webhooks"."integrations" i on i."integration_id" = e."integration_id"
             where e."status" = 'active' and coalesce(i."paused", false) = false)
         order by d."next_attempt_at", d."seq"
         limit ?
         for update of d skip locked`, [this.o.clock.now(), limit]);
      console.error(plan.map((r: any) => r['QUERY PLAN']).join('\n'), performance.now() - t0);
    }
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
      [this.o.clock.now(), limit, leaseSeconds, lease],
    );
  }

  private async attempt(row: Claimed): Promise<void> {
    const started = this.o.clock.now();
    let result: SendResult;
    if (!row.secret) {
      result = { ok: false, status: null, error: 'the endpoint has no signing secret', retryAfter: null };
    } else {
      const until = row.previous_secret_until ? new Date(row.previous_secret_until) : null;
      const headers = deliveryHeaders({
        eventId: row.event_id,
        eventType: row.event_type,
        body: row.body,
        t: Math.floor(started.getTime() / 1000),
        keys: signingKeys(row.secret, row.previous_secret, until, started),
      });
      result = await this.sender.send(row.url, headers, row.body);
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
        const t0 = performance.now();
        await this.writeResults(batch);
        const st = (globalThis as any).__st; if (st) { st.flushes++; st.flushMs += performance.now() - t0; st.flushed += batch.length; }
        this.results.splice(0, batch.length);
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
    await this.o.orm.em.fork().transactional(async (em) => {
      // exclusive: a head handing over (trigger deliveries_hand_over) must see every row added behind it
      await em.execute(`select pg_advisory_xact_lock(hashtext('webhooks:queue'))`);
      await em.execute(
        `update "webhooks"."deliveries" d set "status" = r.status, "attempts" = d."attempts" + 1, "schedule_step" = r.step,
           "next_attempt_at" = coalesce(r.next, d."next_attempt_at"), "last_status" = r.code, "last_error" = r.err,
           "last_attempt_at" = r.at, "updated_at" = r.at, "locked_until" = null, "lease" = null
         from jsonb_to_recordset(?::jsonb) as r(id text, lease text, status text, step int, next timestamptz, code int, err text, at timestamptz)
         where d."id" = r.id and d."lease" = r.lease`,
        [JSON.stringify(batch)],
      );
      await em.execute(
        `update "webhooks"."endpoints" e set
           "consecutive_failures" = case when r.reset then r.failures else e."consecutive_failures" + r.failures end
         from jsonb_to_recordset(?::jsonb) as r(id text, reset boolean, failures int, gone boolean)
         where e."id" = r.id and not (r.reset and r.failures = 0 and e."consecutive_failures" = 0)`,
        [JSON.stringify(endpoints)],
      );
      const disabled: Array<{ id: string; disabled_reason: string; consecutive_failures: number }> = await em.execute(
        `update "webhooks"."endpoints" e set "status" = 'disabled',
           "disabled_reason" = case when r.gone then 'gone' else 'failures' end,
           "version" = e."version" + 1, "updated_at" = ?
         from jsonb_to_recordset(?::jsonb) as r(id text, reset boolean, failures int, gone boolean)
         where e."id" = r.id and e."status" = 'active' and (r.gone or e."consecutive_failures" >= ?)
         returning e."id", e."disabled_reason", e."consecutive_failures"`,
        [now, JSON.stringify(endpoints), this.o.disableAfterFailures],
      );
      for (const d of disabled) {
        this.o.log.warn({ endpointId: d.id, reason: d.disabled_reason, consecutiveFailures: d.consecutive_failures }, 'webhooks: endpoint disabled; its events queue until it is re-enabled');
      }
    });
  }

  private sleep(ms: number): Promise<void> {
    if (this.signalled || this.stopped) {
      this.signalled = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakeUp = null;
        this.signalled = false;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakeUp = done;
    });
  }

  /** LISTEN on a connection of the service's pool, so a delivery queued by any replica wakes this one. */
  private async listen(): Promise<void> {
    const client = this.o.orm.em.getConnection().getKnex().client;
    const conn = await client.acquireConnection();
    const onNotify = (msg: { channel: string }) => {
      if (msg.channel === WAKE_CHANNEL) this.wake();
    };
    const onError = () => {
      this.listener = null;
      if (!this.stopped) this.listenRetry = setTimeout(() => void this.listen().catch(() => undefined), 1000);
    };
    conn.on('notification', onNotify);
    conn.once('error', onError);
    await conn.query(`listen "${WAKE_CHANNEL}"`);
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

  private async unlisten(): Promise<void> {
    const l = this.listener;
    this.listener = null;
    await l?.release();
  }
}

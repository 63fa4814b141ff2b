import { addScrapeCollector, backoffDelay, countIf, currentTraceParent, inSpan, metrics, metricsEnabled, SpanKind, SpanStatusCode, Waker, type BackoffPolicy, type ServiceRuntime, type WorkerDef } from '@bop/shared';
import type { WebhooksConfig } from '../config';
import { deliveryHeaders, signingSecrets } from './signature';
import { nextAttemptAt, parseRetryAfter } from './schedule';
import { claimDue, listenForWakes, queueSnapshot, recordResults, renewLeases, type Claimed, type Outcome, type WakeListener } from './queue-store';
import { Sender, type SendResult } from './sender';

export interface DeliveryWorkerOptions {
  /**
   * the service's runtime: units of work on its database (claims, renewals and results are each a
   * write of their own, at the unit's instant), its pool (LISTEN) and its log
   */
  svc: Pick<ServiceRuntime, 'orm' | 'log' | 'write' | 'read'>;
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

const CLAIM_MAX = 200;
const FLUSH_MAX = 500;
/** default lease of a claimed delivery (renewed every third of it while the worker holds it) */
export const DEFAULT_LEASE_MS = 6_000;
/** waits after failed claims: 200 ms, doubling, up to 10 s */
const CLAIM_BACKOFF: BackoffPolicy = { baseMs: 200, capMs: 10_000 };
/** waits after failed result writes: 200 ms, doubling, up to 5 s */
const RECORD_BACKOFF: BackoffPolicy = { baseMs: 200, capMs: 5_000 };

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
 * database's `now()` throughout (claim, renewal); due times are the service clock's (each unit's instant).
 *
 * Not a round worker (defineWorker): attempts outlive the claim that started them (up to
 * `concurrency` in flight, results written as they land, a lease heartbeat meanwhile). Tests call
 * `runOnce()` (one claim, its attempts sent and recorded) instead of waiting for the loop.
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
  private listener: WakeListener | null = null;
  private listenRetry: NodeJS.Timeout | null = null;
  /** delivery id → lease id, for every claim this worker holds (in flight, or its result not yet written) */
  private readonly held = new Map<string, string>();
  private readonly leaseMs: number;
  private heartbeat: NodeJS.Timeout | null = null;
  private renewing: Promise<void> | null = null;
  private unwatch: () => void = () => undefined;

  constructor(private readonly o: DeliveryWorkerOptions) {
    this.sender = new Sender({ timeoutMs: o.timeoutMs, allowPrivate: o.allowPrivate, connections: o.concurrency });
    this.leaseMs = o.leaseMs ?? DEFAULT_LEASE_MS;
  }

  async start(): Promise<void> {
    this.stopped = false;
    if (metricsEnabled()) this.unwatch = addScrapeCollector(() => this.observeQueue());
    await this.listen().catch((err) => {
      this.o.svc.log.warn({ err: (err as Error).message }, 'webhooks: LISTEN failed; polling until it is back');
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
    this.unwatch();
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

  /** Queue depth and oldest pending age, read when metrics are scraped. */
  private async observeQueue(): Promise<void> {
    const q = await this.o.svc.read((w) => queueSnapshot(w));
    metrics.webhookQueueDepth.set(q.depth);
    metrics.webhookOldestPending.set(q.oldestSeconds);
  }

  /** Makes the loop look for due deliveries now. */
  wake(): void {
    this.waker.wake();
  }

  /**
   * One claim of the due deliveries, each sent and its result recorded before it answers (tests run
   * this instead of waiting for the loop); true when it sent any: the next of each record's queue is
   * due now, so more may be waiting.
   */
  async runOnce(): Promise<boolean> {
    const limit = Math.min(this.o.concurrency, CLAIM_MAX);
    const claimed = await this.claim(limit);
    const attempts = claimed.map((row) => {
      this.held.set(row.id, row.lease);
      const p = this.attempt(row);
      this.track(p);
      return p;
    });
    await Promise.all(attempts);
    this.scheduleFlush();
    while (this.flushing) await this.flushing;
    if (this.results.length > 0) throw new Error('webhooks: recording delivery results failed');
    return claimed.length > 0;
  }

  /** The service clock's instant now (a unit's: the clock of a test moves between attempts). */
  private instant(): Promise<Date> {
    return this.o.svc.read(async (w) => w.now);
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
          this.o.svc.log.warn({ err: (err as Error).message, failures }, 'webhooks: claiming deliveries failed');
          await this.sleep(backoffDelay(failures, CLAIM_BACKOFF));
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
    try {
      await this.o.svc.write((w) => renewLeases(w, this.held, this.leaseMs));
    } catch (err) {
      this.o.svc.log.warn({ err: (err as Error).message, held: this.held.size }, 'webhooks: renewing delivery leases failed');
    }
  }

  private async claim(limit: number): Promise<Claimed[]> {
    return this.o.svc.write((w) => claimDue(w, limit, this.leaseMs));
  }

  /**
   * One attempt; when the delivery was queued under a traced event, in a span of its own under the
   * consumer's (endpoint, attempt number, the receiver's status).
   */
  private async attempt(row: Claimed): Promise<void> {
    if (!row.trace_parent) {
      await this.attemptOnce(row);
      return;
    }
    const attributes = {
      'bop.service': 'webhooks',
      'webhook.endpoint.id': row.endpoint_id,
      'webhook.delivery.id': row.id,
      'webhook.event.id': row.event_id,
      'webhook.event.type': row.event_type,
      'webhook.attempt': row.schedule_step + 1,
      'url.full': row.url,
    };
    return inSpan(`webhook deliver ${row.event_type}`, { parent: row.trace_parent, kind: SpanKind.CLIENT, attributes }, async (span) => {
      const result = await this.attemptOnce(row);
      if (result.status !== null) span.setAttribute('http.response.status_code', result.status);
      if (!result.ok) span.setStatus({ code: SpanStatusCode.ERROR, message: result.error ?? `status ${result.status}` });
    });
  }

  private async attemptOnce(row: Claimed): Promise<SendResult> {
    const started = await this.instant();
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
      // a traced attempt: the receiver may continue the trace (W3C trace context; outside the signed content)
      const traceParent = currentTraceParent();
      if (traceParent !== null) headers.traceparent = traceParent;
      result = await this.sender.send(row.url, headers, row.body);
    } catch (err) {
      // never reject: the slot must free and the attempt be recorded as failed
      result = { ok: false, status: null, error: `not sent: ${(err as Error).message}`, retryAfter: null };
    }
    const now = await this.instant();
    const step = row.schedule_step + 1;
    let status: Outcome['status'] = 'succeeded';
    let next: Date | null = null;
    if (!result.ok) {
      next = nextAttemptAt({ step, maxAttempts: this.o.maxAttempts, now, retryAfterMs: parseRetryAfter(result.retryAfter ?? undefined, now), random: this.o.random });
      status = next ? 'pending' : 'failed';
    }
    countIf(metrics.webhookDeliveries, { outcome: result.ok ? 'succeeded' : next ? 'retrying' : 'failed' });
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
    return result;
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
        this.o.svc.log.warn({ err: (err as Error).message, failures }, 'webhooks: recording delivery results failed');
        // after a while the leases lapse and the deliveries go out again (at least once)
        if (failures >= 5 && this.stopped) return;
        await new Promise((r) => setTimeout(r, backoffDelay(failures, RECORD_BACKOFF)));
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
    const limit = this.o.disableAfterFailures;
    const rows = await this.o.svc.write((w) => recordResults(w, batch, endpoints, limit));
    for (const d of rows.filter((r) => r.disabled_now)) {
      this.o.svc.log.warn({ endpointId: d.id, reason: d.disabled_reason, consecutiveFailures: d.consecutive_failures }, 'webhooks: endpoint disabled; its events queue until it is re-enabled');
    }
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
    // null until LISTEN answers: a connection lost before then was never this.listener
    let listener: WakeListener | null = null;
    listener = await listenForWakes(
      this.o.svc.orm,
      () => this.wake(),
      () => {
        if (listener && this.listener === listener) this.listener = null;
        this.retryListen();
      },
    );
    this.listener = listener;
  }

  private retryListen(): void {
    if (this.stopped || this.listenRetry) return;
    this.listenRetry = setTimeout(() => {
      this.listenRetry = null;
      if (this.stopped || this.listener) return;
      this.listen().then(
        () => {
          this.o.svc.log.info('webhooks: LISTEN back');
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

/** The service's delivery worker, from its settings. */
export const deliveryWorker = (svc: ServiceRuntime<WebhooksConfig>): DeliveryWorker =>
  new DeliveryWorker({
    svc,
    concurrency: svc.config.WEBHOOK_CONCURRENCY,
    timeoutMs: svc.config.WEBHOOK_TIMEOUT_MS,
    maxAttempts: svc.config.WEBHOOK_MAX_ATTEMPTS,
    disableAfterFailures: svc.config.WEBHOOK_DISABLE_AFTER_FAILURES,
    pollMs: svc.config.WEBHOOK_POLL_MS,
    allowPrivate: svc.config.WEBHOOK_ALLOW_PRIVATE_NETWORKS,
  });

import { chunks, currentTraceParent, findPage, lockForTransaction, mapPage, NotFound, SqlWhere, sqlList, type Work } from '@bop/shared';
import { Delivery } from './entities';
import { Endpoint } from '../endpoints/entities';
import { deliveryDetailDto, deliveryDto } from './dto';

/** The channel that wakes delivery workers (every replica LISTENs). */
export const WAKE_CHANNEL = 'webhooks_deliveries';

export interface NewDelivery {
  id: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  recordKey: string;
  body: string;
  /** the replay that queues it (`:replay`) */
  replayId?: string;
  /** the trace it continues (a consumer's span per event, read when the event was handled); else the current one */
  traceParent?: string | null;
}

/** Rows a statement inserts at most (the ORM writes the values into the SQL: a batch's statements stay a few MB at most). */
const INSERT_CHUNK = 1_000;

/**
 * Queues deliveries in the unit's transaction (in the order given, so `seq` keeps the order of each
 * record's events; at the unit's instant) and wakes the workers at commit.
 */
export async function insertDeliveries(w: Work, rows: NewDelivery[], notify = true): Promise<void> {
  if (rows.length === 0) return;
  const traceParent = currentTraceParent();
  for (const chunk of chunks(rows, INSERT_CHUNK)) {
    await w.em.insertMany(Delivery, chunk.map((r) => pendingDelivery(r, w.now, r.traceParent === undefined ? traceParent : r.traceParent)));
  }
  if (notify) await wakeWorkers(w);
}

/** A delivery as queued: pending, due now, no attempt yet. */
function pendingDelivery(r: NewDelivery, now: Date, traceParent: string | null) {
  return {
    id: r.id,
    endpointId: r.endpointId,
    eventId: r.eventId,
    eventType: r.eventType,
    recordKey: r.recordKey,
    body: r.body,
    status: 'pending',
    attempts: 0,
    scheduleStep: 0,
    nextAttemptAt: now,
    lastStatus: null,
    lastError: null,
    lastAttemptAt: null,
    lockedUntil: null,
    lease: null,
    createdAt: now,
    updatedAt: now,
    traceParent,
    replayId: r.replayId ?? null,
  };
}

/** NOTIFY at commit of the unit's transaction (or now, outside one). */
export async function wakeWorkers(w: Work): Promise<void> {
  // raw SQL (bench:sql webhooks.wake-workers): 400 µs against 4,232 through the ORM (10.6×: the ORM has no NOTIFY; every
  // worker would poll the due index instead, and a delivery would wait up to WEBHOOK_POLL_MS)
  await w.em.execute(`select pg_notify('${WAKE_CHANNEL}', '')`);
}

export interface SubscriberRow {
  id: string;
  events: string[];
  /** null: standalone */
  scopes: string[] | null;
}

/**
 * Every endpoint (disabled ones and paused integrations' too: their events queue).
 */
export async function loadSubscribers(w: Pick<Work, 'em' | 'schema'>): Promise<SubscriberRow[]> {
  // raw SQL (bench:sql webhooks.load-subscribers): 1,431 µs against 16,304 through the ORM (11.4×: endpoints and
  // integrations in two queries hydrated and joined in code, where one statement joins them)
  const rows: Array<{ id: string; events: string[]; integration_id: string | null; scopes: string[] | null }> = await w.em.execute(
    `select e."id", e."events", e."integration_id", i."scopes"
     from "${w.schema}"."endpoints" e left join "${w.schema}"."integrations" i on i."integration_id" = e."integration_id"
     order by e."id"`,
  );
  return rows.map((r) => ({ id: r.id, events: r.events, scopes: r.integration_id ? (r.scopes ?? []) : null }));
}

/** Pending and failed counts per endpoint. */
export async function deliveryCounts(w: Work, endpointIds: string[]): Promise<Map<string, { pending: number; failed: number }>> {
  const counts = new Map(endpointIds.map((id) => [id, { pending: 0, failed: 0 }]));
  if (endpointIds.length === 0) return counts;
  // raw SQL (bench:sql webhooks.delivery-counts): 46,071 µs against 346,172 through the ORM (7.5×: a count per endpoint
  // and status, where one statement groups them)
  const rows: Array<{ endpoint_id: string; status: string; n: string }> = await w.em.execute(
    `select "endpoint_id", "status", count(*) as n from "${w.schema}"."deliveries"
     where "endpoint_id" = any(?::text[]) and "status" in ('pending', 'failed')
     group by "endpoint_id", "status"`,
    [sqlList(endpointIds)],
  );
  for (const r of rows) {
    const c = counts.get(r.endpoint_id)!;
    if (r.status === 'pending') c.pending = Number(r.n);
    else c.failed = Number(r.n);
  }
  return counts;
}

/**
 * Makes the head of every queue of the endpoints due now (re-enable, resume): each record's queue then
 * goes out in order. Rows waiting behind a head (null next_attempt_at) are left alone.
 */
export async function releaseQueue(w: Work, endpointIds: string[]): Promise<number> {
  if (endpointIds.length === 0) return 0;
  const now = w.now;
  // raw SQL (bench:sql webhooks.release-queue): 1,884 µs against 4,717 through the ORM (2.5×: the same update through
  // nativeUpdate; 1.0–2.5× over six runs on a loaded machine, median 1.56×)
  const res = await w.em.execute(
    `update "${w.schema}"."deliveries" set "next_attempt_at" = ?, "updated_at" = ?
     where "endpoint_id" = any(?::text[]) and "status" = 'pending' and "next_attempt_at" > ?`,
    [now, now, sqlList(endpointIds), now],
    'run',
  );
  await wakeWorkers(w);
  return (res as { affectedRows?: number }).affectedRows ?? 0;
}

/** The queue lock's key; the trigger deliveries_enqueue takes it too (Migration20261125050000). */
export const QUEUE_LOCK = 'webhooks.queue';

/** Writers that put deliveries (back) into queues hold this shared; the worker's results take it exclusively. */
export async function lockQueuesShared(w: Work): Promise<void> {
  await lockForTransaction(w.em, QUEUE_LOCK, { shared: true });
}

/**
 * spec: Delivery rules 6 — a replay restarts the schedule and keeps the event id. A delivery that was
 * no longer pending re-enters its record's queue at the back (in the original order when several
 * are replayed). Any current claim is dropped, so an attempt in flight does not overwrite the replay.
 */
export async function replayDeliveries(w: Work, where: { ids?: string[]; endpointId?: string; status?: 'failed' }): Promise<number> {
  await lockQueuesShared(w);
  const { em, now } = w;
  // raw SQL (bench:sql webhooks.replay-deliveries): 480,567 µs against 860,552 through the ORM (1.8×: the rows locked
  // through the ORM, then an update each; the ORM cannot order them by the unmapped seq, the queue order the trigger keeps)
  const filter = new SqlWhere().andIn('"id"', where.ids).andIf(where.endpointId, '"endpoint_id" = ?').andIf(where.status, '"status" = ?');
  if (filter.empty) throw new Error('replayDeliveries needs ids, an endpoint or a status');
  const rows: Array<{ id: string }> = await em.execute(`select "id" from "${w.schema}"."deliveries" ${filter} order by "seq" for update`, filter.params);
  // one by one in seq order: each takes its place at the back of its record's queue
  for (const { id } of rows) {
    await em.execute(
      `update "${w.schema}"."deliveries" set "status" = 'pending', "schedule_step" = 0, "next_attempt_at" = ?, "updated_at" = ?,
         "locked_until" = null, "lease" = null
       where "id" = ?`,
      [now, now, id],
    );
  }
  if (rows.length > 0) await wakeWorkers(w);
  return rows.length;
}

/** `:retry` — resend now, failed or not; a succeeded one makes a new attempt with the same event id. */
export async function retryDelivery(w: Work, id: string) {
  if ((await replayDeliveries(w, { ids: [id] })) === 0) throw new NotFound('webhook delivery', id);
  return deliveryDto(await w.em.findOneOrFail(Delivery, { id }));
}

/** `GET /webhook-endpoints/{id}/deliveries`: a page in id order, bodies left out. */
/** `GET /webhook-endpoints/{id}/deliveries`: a page in id order (change order with `updatedSince`), without the bodies. */
export async function listDeliveries(w: Work, endpointId: string, query: { limit?: number; cursor?: string; status?: string; from?: string; updatedSince?: string }) {
  const { em } = w;
  const endpoint = await em.findOne(Endpoint, { id: endpointId });
  if (!endpoint) throw new NotFound('webhook endpoint', endpointId);
  const { limit, cursor, status, from, updatedSince } = query;
  const page = await findPage(em, Delivery, [{ endpointId: endpoint.id }, status && { status }, from && { createdAt: { $gte: new Date(from) } }], { limit, cursor, updatedSince, exclude: ['body'] });
  return mapPage(page, deliveryDto);
}

export async function getDelivery(w: Work, id: string) {
  const delivery = await w.em.findOne(Delivery, { id });
  if (!delivery) throw new NotFound('webhook delivery', id);
  return deliveryDetailDto(delivery);
}

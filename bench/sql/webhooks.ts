import { randomUUID } from 'node:crypto';
import { LockMode } from '@mikro-orm/core';
import { lockForTransaction, type Orm, type Work } from '@bop/shared';
import { webhooksService } from '@svc/webhooks';
import { Delivery } from '@svc/webhooks/dist/deliveries/entities';
import { Endpoint } from '@svc/webhooks/dist/endpoints/entities';
import { IntegrationState } from '@svc/webhooks/dist/integrations/entities';
import { claimDue, listenForWakes, queueSnapshot, recordResults, renewLeases, type Claimed, type EndpointTally, type Outcome, type RecordedEndpoint } from '@svc/webhooks/dist/deliveries/queue-store';
import { deliveryCounts, loadSubscribers, QUEUE_LOCK, releaseQueue, replayDeliveries, wakeWorkers, type SubscriberRow } from '@svc/webhooks/dist/deliveries/store';
import type { SqlCase } from './case';

/**
 * The data of a busy webhooks service: 10 integrations (one paused) with 2 endpoints each and 20
 * standalone endpoints (one disabled); 50,000 delivered events of history, 1,000 records with 2 events
 * pending each (the head due, the second waiting behind it; the disabled endpoint's heads wait for
 * their next retry in an hour), 200 heads claimed by a worker (leases held, requests in flight), and
 * 500 failed deliveries, 300 of them from one endpoint's outage.
 */
const INTEGRATIONS = 10;
const ENDPOINTS = 40;
const HISTORY = 50_000;
const RECORDS = 1_000;
const IN_FLIGHT = 200;
const FAILED = 500;
const OUTAGE = 300;
/** what a worker claims and holds at once: WEBHOOK_CONCURRENCY's default */
const CONCURRENCY = 64;
const LEASE_MS = 6_000;
const DISABLED = 5;
const OUTAGE_ENDPOINT = 7;
const AT_LIMIT = 3;
const LIMIT = 25;

const int = (i: number) => `int_bench${String(i).padStart(2, '0')}`;
const end = (i: number) => `end_bench${String(i).padStart(2, '0')}`;
const dlv = (kind: string, i: number) => `dlv_bench_${kind}${String(i).padStart(6, '0')}`;
const lease = (i: number) => `lease-bench-${i}`;
const body = (i: number) => JSON.stringify({ id: `evt_${i}`, type: 'sales.transaction.recorded', data: { transactionId: `txn_${i}`, locationId: 'loc_bench0001', total: '42.50', lines: 3 } });

let seededAt = new Date(0);

async function seedAll(write: <T>(fn: (w: Work) => Promise<T>) => Promise<T>): Promise<void> {
  await write(async (w) => {
    const now = w.now;
    seededAt = now;
    await w.em.insertMany(
      IntegrationState,
      Array.from({ length: INTEGRATIONS }, (_, i) => ({ integrationId: int(i), paused: i === INTEGRATIONS - 1, scopes: ['sales.read', 'inventory.read'], secret: `whsec_int${i}`, previousSecret: null, previousSecretUntil: null, createdAt: now, updatedAt: now })),
    );
    await w.em.insertMany(
      Endpoint,
      Array.from({ length: ENDPOINTS }, (_, i) => {
        const integrationId = i >= 20 ? int((i - 20) >> 1) : null;
        return {
          id: end(i),
          url: `https://hooks.example.com/bench/${i}`,
          events: ['sales.transaction.recorded', 'inventory.stock.low'],
          description: null,
          status: i === DISABLED ? 'disabled' : 'active',
          disabledReason: i === DISABLED ? 'manual' : null,
          integrationId,
          secret: integrationId ? null : `whsec_end${i}`,
          previousSecret: integrationId || i % 4 ? null : `whsec_old${i}`,
          previousSecretUntil: integrationId || i % 4 ? null : new Date(now.getTime() + 86_400_000),
          consecutiveFailures: i === AT_LIMIT ? LIMIT - 1 : 0,
          version: 1,
          createdAt: now,
          updatedAt: now,
        };
      }),
    );
  });
  const delivery = (id: string, i: number, endpoint: number, status: string, extra: Partial<Delivery> = {}) => ({
    id,
    endpointId: end(endpoint),
    eventId: `evt_${id}`,
    eventType: 'sales.transaction.recorded',
    recordKey: `rec-${i % RECORDS}`,
    body: body(i),
    status,
    attempts: status === 'pending' ? 0 : 1,
    scheduleStep: status === 'pending' ? 0 : 1,
    nextAttemptAt: new Date(seededAt.getTime() - 3_600_000),
    lastStatus: status === 'pending' ? null : status === 'failed' ? 503 : 200,
    lastError: status === 'failed' ? 'status 503' : null,
    lastAttemptAt: status === 'pending' ? null : seededAt,
    lockedUntil: null,
    lease: null,
    createdAt: new Date(seededAt.getTime() - 3_600_000),
    updatedAt: new Date(seededAt.getTime() - 3_600_000),
    traceParent: null,
    ...extra,
  });
  for (let from = 0; from < HISTORY; from += 2_000) {
    await write((w) => w.em.insertMany(Delivery, Array.from({ length: 2_000 }, (_, k) => delivery(dlv('h', from + k), from + k, (from + k) % ENDPOINTS, 'succeeded'))));
  }
  await write((w) =>
    w.em.insertMany(
      Delivery,
      Array.from({ length: FAILED }, (_, i) => delivery(dlv('f', i), i, i < OUTAGE ? OUTAGE_ENDPOINT : i % ENDPOINTS, 'failed', { createdAt: new Date(seededAt.getTime() - 7_200_000 + i * 1000) })),
    ),
  );
  // each record's head (due at a distinct instant; the disabled endpoint's retry in an hour), then its second event behind it
  for (const second of [false, true]) {
    await write((w) =>
      w.em.insertMany(
        Delivery,
        Array.from({ length: RECORDS }, (_, i) => {
          const ep = i % ENDPOINTS;
          const due = ep === DISABLED ? seededAt.getTime() + 3_600_000 : seededAt.getTime() - 600_000 + i * 100;
          const held = !second && i < IN_FLIGHT;
          return delivery(dlv(second ? 'q' : 'p', i), i, ep, 'pending', {
            nextAttemptAt: second ? null : new Date(due),
            createdAt: new Date(seededAt.getTime() - 600_000 + i * 100 + (second ? 50 : 0)),
            lockedUntil: held ? new Date(seededAt.getTime() + 3_600_000) : null,
            lease: held ? lease(i) : null,
          });
        }),
      ),
    );
  }
}

let seeding: Promise<void> | null = null;
/** every case's data, written once (the cases share the service's database; any one of them may run alone) */
const seed: SqlCase['seed'] = (write) => (seeding ??= seedAll(write));

/** the worker's leases: delivery id → lease id of the first CONCURRENCY claims */
const held = new Map(Array.from({ length: CONCURRENCY }, (_, i) => [dlv('p', i), lease(i)] as const));

/** a flush of CONCURRENCY finished attempts: mostly delivered, every 8th to retry, one given up, one endpoint at its limit failing */
function results(now: Date): { batch: Outcome[]; endpoints: EndpointTally[] } {
  const at = now.toISOString();
  const batch: Outcome[] = [...held].map(([id, l], i) => {
    const ep = i % ENDPOINTS;
    const ok = i % 8 !== 0 && ep !== AT_LIMIT && i !== 1;
    const status = ok ? 'succeeded' : i === 1 ? 'failed' : 'pending';
    return { id, lease: l, endpointId: end(ep), status, step: 1, next: status === 'pending' ? new Date(now.getTime() + 60_000).toISOString() : null, code: ok ? 200 : 503, err: ok ? null : 'status 503', at, ok, gone: false };
  });
  const per = new Map<string, EndpointTally>();
  for (const r of batch) {
    const e = per.get(r.endpointId) ?? { id: r.endpointId, reset: false, failures: 0, gone: false };
    if (r.ok) {
      e.reset = true;
      e.failures = 0;
    } else e.failures += 1;
    e.gone ||= r.gone;
    per.set(r.endpointId, e);
  }
  return { batch, endpoints: [...per.values()] };
}

const byId = <T extends { id: string }>(xs: T[]) => [...xs].sort((a, b) => a.id.localeCompare(b.id));
const json = (x: unknown) => JSON.stringify(x);

/** the worker's poll for due heads: what it does instead of waiting for a wake */
async function pollDue(w: Work): Promise<void> {
  await w.em.findOne(Delivery, { status: 'pending', nextAttemptAt: { $lte: w.now } }, { orderBy: { nextAttemptAt: 'asc' }, fields: ['id'] });
}

export const webhooksCases: SqlCase[] = [
  {
    name: 'webhooks.queue-snapshot',
    what: 'pending deliveries and the age of the oldest (metrics scrape), 2,000 pending among 52,500',
    service: webhooksService,
    seed,
    // each unit has its instant: both answer the oldest's creation (the unit's instant less its age)
    async raw(w) {
      const q = await queueSnapshot(w);
      return { depth: q.depth, oldestAt: Math.round(w.now.getTime() - q.oldestSeconds * 1000) };
    },
    async orm(w) {
      const depth = await w.em.count(Delivery, { status: 'pending' });
      const oldest = await w.em.findOne(Delivery, { status: 'pending' }, { orderBy: { createdAt: 'asc' }, fields: ['createdAt'] });
      const oldestSeconds = oldest ? Math.max(0, (w.now.getTime() - oldest.createdAt.getTime()) / 1000) : 0;
      return { depth, oldestAt: Math.round(w.now.getTime() - oldestSeconds * 1000) };
    },
  },
  {
    name: 'webhooks.claim-due',
    what: 'a worker claims 64 due queue heads under a lease (skip locked), with their endpoints',
    service: webhooksService,
    seed,
    raw: (w) => claimDue(w, CONCURRENCY, LEASE_MS),
    async orm(w) {
      const { em } = w;
      const endpoints = await em.find(Endpoint, { status: 'active' });
      const integrationIds = [...new Set(endpoints.flatMap((e) => (e.integrationId ? [e.integrationId] : [])))];
      const integrations = new Map((await em.find(IntegrationState, { integrationId: { $in: integrationIds } })).map((i) => [i.integrationId, i]));
      const sendable = new Map(endpoints.filter((e) => !e.integrationId || integrations.get(e.integrationId)?.paused === false).map((e) => [e.id, e]));
      const rows = await em.find(
        Delivery,
        { status: 'pending', nextAttemptAt: { $lte: w.now }, $or: [{ lockedUntil: null }, { lockedUntil: { $lt: w.now } }], endpointId: { $in: [...sendable.keys()] } },
        { orderBy: { nextAttemptAt: 'asc', id: 'asc' }, limit: CONCURRENCY, lockMode: LockMode.PESSIMISTIC_PARTIAL_WRITE },
      );
      const l = randomUUID();
      const until = new Date(w.now.getTime() + LEASE_MS);
      for (const d of rows) {
        d.lockedUntil = until;
        d.lease = l;
      }
      await em.flush();
      return rows.map((d): Claimed => {
        const e = sendable.get(d.endpointId)!;
        const i = e.integrationId ? integrations.get(e.integrationId)! : null;
        return {
          id: d.id,
          endpoint_id: d.endpointId,
          event_id: d.eventId,
          event_type: d.eventType,
          body: d.body,
          schedule_step: d.scheduleStep,
          lease: l,
          trace_parent: d.traceParent ?? null,
          url: e.url,
          secret: e.secret ?? i?.secret ?? null,
          previous_secret: (i ? i.previousSecret : e.previousSecret) ?? null,
          previous_secret_until: (i ? i.previousSecretUntil : e.previousSecretUntil) ?? null,
        };
      });
    },
    same: (raw, orm) => {
      const strip = (xs: unknown) => byId(xs as Claimed[]).map((c) => [c.id, c.endpoint_id, c.event_id, c.body, c.schedule_step, c.url, c.secret, c.previous_secret, c.previous_secret_until ? new Date(c.previous_secret_until).getTime() : null]);
      return (raw as Claimed[]).length === CONCURRENCY && json(strip(raw)) === json(strip(orm));
    },
  },
  {
    name: 'webhooks.renew-leases',
    what: 'a worker extends the leases of the 64 deliveries it holds (its lease ids only, skip locked)',
    service: webhooksService,
    seed,
    raw: (w) => renewLeases(w, held, LEASE_MS),
    async orm(w) {
      const rows = await w.em.find(Delivery, { $or: [...held].map(([id, l]) => ({ id, lease: l })) }, { fields: ['id'], orderBy: { id: 'asc' }, lockMode: LockMode.PESSIMISTIC_PARTIAL_WRITE });
      if (rows.length > 0) await w.em.nativeUpdate(Delivery, { id: { $in: rows.map((r) => r.id) } }, { lockedUntil: new Date(w.now.getTime() + LEASE_MS) });
    },
  },
  {
    name: 'webhooks.record-results',
    what: 'a flush of 64 attempts: the deliveries (queues handed over) and the endpoints\' failures in a row',
    service: webhooksService,
    seed,
    async raw(w) {
      const { batch, endpoints } = results(w.now);
      return byId(await recordResults(w, batch, endpoints, LIMIT));
    },
    async orm(w) {
      const { em } = w;
      const { batch, endpoints } = results(w.now);
      await lockForTransaction(em, QUEUE_LOCK);
      const outcome = new Map(batch.map((r) => [r.id, r]));
      for (const d of await em.find(Delivery, { id: { $in: batch.map((r) => r.id) } })) {
        const r = outcome.get(d.id)!;
        if (d.lease !== r.lease) continue;
        const at = new Date(r.at);
        Object.assign(d, { status: r.status, attempts: d.attempts + 1, scheduleStep: r.step, nextAttemptAt: r.next ? new Date(r.next) : d.nextAttemptAt, lastStatus: r.code, lastError: r.err, lastAttemptAt: at, updatedAt: at, lockedUntil: null, lease: null });
      }
      await em.flush();
      const tally = new Map(endpoints.map((t) => [t.id, t]));
      const out: RecordedEndpoint[] = [];
      for (const e of await em.find(Endpoint, { id: { $in: endpoints.map((t) => t.id) } })) {
        const t = tally.get(e.id)!;
        if (t.reset && t.failures === 0 && e.consecutiveFailures === 0) continue;
        const n = t.reset ? t.failures : e.consecutiveFailures + t.failures;
        const disable = e.status === 'active' && (t.gone || n >= LIMIT);
        e.consecutiveFailures = n;
        if (disable) Object.assign(e, { status: 'disabled', disabledReason: t.gone ? 'gone' : 'failures', version: e.version + 1, updatedAt: w.now });
        out.push({ id: e.id, disabled_reason: e.disabledReason as string, consecutive_failures: n, disabled_now: disable });
      }
      await em.flush();
      return byId(out);
    },
  },
  {
    name: 'webhooks.wake-workers',
    what: 'a NOTIFY waking the delivery workers at commit (the ORM has none: each worker polls instead)',
    service: webhooksService,
    seed,
    raw: (w) => wakeWorkers(w),
    orm: (w) => pollDue(w),
  },
  {
    name: 'webhooks.listen-for-wakes',
    what: 'a worker LISTENs on a pool connection (and lets it go); the ORM has none: it polls instead',
    service: webhooksService,
    seed,
    async raw(w) {
      const listener = await listenForWakes({ em: w.em } as unknown as Orm, () => undefined, () => undefined);
      await listener.release();
    },
    orm: (w) => pollDue(w),
  },
  {
    name: 'webhooks.load-subscribers',
    what: 'every endpoint with its events and its integration\'s scopes (the fan-out\'s subscribers), 40 endpoints',
    service: webhooksService,
    seed,
    raw: (w) => loadSubscribers(w),
    async orm(w): Promise<SubscriberRow[]> {
      const endpoints = await w.em.find(Endpoint, {}, { orderBy: { id: 'asc' }, fields: ['id', 'events', 'integrationId'] });
      const ids = [...new Set(endpoints.flatMap((e) => (e.integrationId ? [e.integrationId] : [])))];
      const scopes = new Map(ids.length === 0 ? [] : (await w.em.find(IntegrationState, { integrationId: { $in: ids } }, { fields: ['integrationId', 'scopes'] })).map((i) => [i.integrationId, i.scopes]));
      return endpoints.map((e) => ({ id: e.id, events: e.events, scopes: e.integrationId ? (scopes.get(e.integrationId) ?? []) : null }));
    },
  },
  {
    name: 'webhooks.delivery-counts',
    what: 'pending and failed deliveries of each of the 40 endpoints (the endpoints\' list)',
    service: webhooksService,
    seed,
    raw: async (w) => [...(await deliveryCounts(w, Array.from({ length: ENDPOINTS }, (_, i) => end(i))))],
    async orm(w) {
      const out: Array<[string, { pending: number; failed: number }]> = [];
      for (let i = 0; i < ENDPOINTS; i++) {
        const endpointId = end(i);
        out.push([endpointId, { pending: await w.em.count(Delivery, { endpointId, status: 'pending' }), failed: await w.em.count(Delivery, { endpointId, status: 'failed' }) }]);
      }
      return out;
    },
  },
  {
    name: 'webhooks.release-queue',
    what: 'an endpoint re-enabled: its 25 queue heads waiting for a retry made due now, the workers woken',
    service: webhooksService,
    seed,
    raw: (w) => releaseQueue(w, [end(DISABLED)]),
    async orm(w) {
      const now = w.now;
      const n = await w.em.nativeUpdate(Delivery, { endpointId: { $in: [end(DISABLED)] }, status: 'pending', nextAttemptAt: { $gt: now } }, { nextAttemptAt: now, updatedAt: now });
      await wakeWorkers(w);
      return n;
    },
  },
  {
    name: 'webhooks.replay-deliveries',
    what: 'an endpoint\'s 300 failed deliveries replayed after an outage, each to the back of its record\'s queue',
    service: webhooksService,
    seed,
    raw: (w) => replayDeliveries(w, { endpointId: end(OUTAGE_ENDPOINT), status: 'failed' }),
    async orm(w) {
      const { em, now } = w;
      await lockForTransaction(em, QUEUE_LOCK, { shared: true });
      // the ORM cannot order by the unmapped seq: creation order is the nearest it has
      const rows = await em.find(Delivery, { endpointId: end(OUTAGE_ENDPOINT), status: 'failed' }, { orderBy: { createdAt: 'asc', id: 'asc' }, lockMode: LockMode.PESSIMISTIC_WRITE, fields: ['id'] });
      // one by one: each takes its place at the back of its record's queue (the trigger); an update
      // each beats changing the loaded entities and flushing after each (every flush walks them all)
      for (const { id } of rows) {
        await em.nativeUpdate(Delivery, { id }, { status: 'pending', scheduleStep: 0, nextAttemptAt: now, updatedAt: now, lockedUntil: null, lease: null });
      }
      if (rows.length > 0) await wakeWorkers(w);
      return rows.length;
    },
  },
];

/**
 * The event bus end to end: events/s from outbox commit to consumer commit, and p50/p99/max of that
 * lag, for the Postgres bus and for Kafka (with the schema registry) on the same machine in one run.
 * Targets (issue): Kafka at least the Postgres bus's rate; p99 lag under 2 s at the rate the
 * ingestion bench produces.
 *
 *   npm run bench:bus
 *   BENCH_EVENTS=10000,100000 BENCH_BATCH=100 BENCH_PACED_SECONDS=20 BENCH_PACED_RECORDS=10000 BENCH_BACKLOG=10
 *   BENCH_WRITERS=4 BENCH_BUSES=postgres,kafka BENCH_RELAY_BATCH=500 BENCH_WARMUP=20000 change the load (LOG_LEVEL=info adds kafkajs's lines); DATABASE_URL=postgres://… uses that database instead of
 *   an embedded Postgres; KAFKA_BROKERS (and SCHEMA_REGISTRY_URL) use that cluster instead of a local
 *   Apache Kafka + Apicurio Registry (deploy/kafka-local, started and stopped here).
 *
 * Per bus, as a service pair runs it: this thread is the producing service — its events committed into
 * its outbox (`bench_<run>_<bus>.outbox`, the kit's tables) by the kit's unit of work (`emit`,
 * in transactions of BENCH_BATCH), and the kit's `Relay` moving them to the bus; a worker thread is
 * the consuming service — the kit's `ConsumerRunner` (its own ORM and bus client), whose handler's
 * transaction records the event ids in its `processed_events`. Lag = that transaction's commit −
 * the outbox transaction's commit (wall clock, both threads). Runs, after a warm-up (1,000 events paced, then a
 * burst of BENCH_WARMUP, 20,000 by default, unmeasured: a broker's JVM spends its first minutes compiling, ~20 µs
 * of its CPU an event over the first 100,000, which a broker in service has long done):
 *   burst — BENCH_EVENTS events written as fast as BENCH_WRITERS concurrent writers commit them (location.updated
 *           envelopes over 1,000 records): events/s from the first outbox commit to the last consumer
 *           commit, and the lag (which includes the backlog when the bus is slower than the writer);
 *   paced — the ingestion bench's load (BENCH_PACED_RECORDS sales records/s in 1,000-record batches:
 *           sales writes per batch one sales.transactions.recorded per 200 transactions of a location
 *           plus one sales.batch.completed, so 6 events — 5 of about 150 KB — per commit, 60 events/s)
 *           for BENCH_PACED_SECONDS: the lag at that rate;
 *   backlog — the relay stopped, BENCH_BACKLOG (10) such sales batches committed, a new relay started
 *           (a service restart or a bus outage catching up): how long the backlog takes to drain (its
 *           lag counts from each commit, so it includes the time the relay was held).
 * Each burst also prints the CPU µs an event by part (bench/proc-cpu.ts, from /proc: this process's main thread = the
 * producing service, its other threads = the consuming one and Node's helpers, Postgres, the broker, the registry) and
 * the events a consumer transaction; BENCH_CPU_THREADS=broker (or postgres) adds that part's threads by name.
 * Never a timed assertion: it prints figures.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import type { EventLoopUtilization } from 'node:perf_hooks';
import {
  afterCommit,
  ConsumerRunner,
  createBus,
  createLogger,
  createOrm,
  freePort,
  openWork,
  ServiceClient,
  systemClock,
  migrate,
  Relay,
  type Bus,
  type ConsumerDef,
  type EventInput,
  type Orm,
} from '@bop/shared';
import { startEmbeddedPostgres } from '@bop/runtime';
import { runBench } from './entry';
import { cpuNow, cpuSince, threadCpuNow, type CpuParts } from './proc-cpu';

const sizes = (process.env.BENCH_EVENTS ?? '10000,100000').split(',').map((s) => Number(s.trim())).filter((n) => n > 0);
const perCommit = Number(process.env.BENCH_BATCH ?? 100);
const writers = Number(process.env.BENCH_WRITERS ?? 4);
const pacedSeconds = Number(process.env.BENCH_PACED_SECONDS ?? 20);
const pacedRecords = Number(process.env.BENCH_PACED_RECORDS ?? 10_000);
const backlogBatches = Number(process.env.BENCH_BACKLOG ?? 10);
const buses = (process.env.BENCH_BUSES ?? 'postgres,kafka').split(',').map((s) => s.trim()) as Array<'postgres' | 'kafka'>;
const logLevel = process.env.LOG_LEVEL ?? 'warn';
/** the relay's batch (rows per move; the kit's default, 500, when unset) */
const relayBatch = process.env.BENCH_RELAY_BATCH ? Number(process.env.BENCH_RELAY_BATCH) : undefined;
/** kafkajs logs retried errors at error level (a new broker's coordinator still loading): its own lines only with LOG_LEVEL set */
const busLogLevel = (kind: 'postgres' | 'kafka') => process.env.LOG_LEVEL ?? (kind === 'kafka' ? 'fatal' : 'warn');
/** records per ingestion batch, transactions per sales.transactions.recorded event (services/sales/src/transactions/recorded-events.ts) */
const INGEST_BATCH = 1000;
const RECORDED_CHUNK = 200;
const WARMUP = 1000;
/** the unmeasured burst after the paced warm-up (both buses) */
const warmupBurst = Number(process.env.BENCH_WARMUP ?? 20_000);

type BusConfig = Parameters<typeof createBus>[0];

/** Wall-clock ms with sub-ms precision, comparable across threads. */
const wallNow = () => performance.timeOrigin + performance.now();
const quantile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];

/** What the consuming service needs to start (posted to its thread). */
interface ConsumerSetup {
  config: BusConfig;
  databaseUrl: string;
  service: string;
  topic: string;
}

// ---------------------------------------------------------------------------------------------
// the consuming service (a worker thread)

async function consumerThread(setup: ConsumerSetup): Promise<void> {
  const log = createLogger(setup.service, logLevel);
  const schema = setup.service;
  const busLog = createLogger(setup.service, busLogLevel(setup.config.BUS));
  const orm = await createOrm({ schema, clientUrl: setup.databaseUrl, entities: [], migrations: [] });
  await migrate(orm, schema);
  const bus = await createBus(setup.config, busLog);
  // the consumer commit of a batch: its ids and the moment the handler's transaction committed
  const committed = (ids: string[]) => parentPort!.postMessage({ ids, at: wallNow() });
  const def: ConsumerDef = {
    name: 'lag',
    topics: [setup.topic],
    async handle({ em, message }) {
      afterCommit(em, () => committed([message.eventId]));
    },
    async handleBatch({ em, events }) {
      const ids = events.map((e) => e.message.eventId);
      afterCommit(em, () => committed(ids));
    },
  };
  const runner = new ConsumerRunner([def], { service: setup.service, schema, orm, bus, log });
  await runner.start();
  parentPort!.postMessage({ ready: true });
  parentPort!.once('message', () => {
    void (async () => {
      await runner.stop();
      await bus.close();
      await orm.close();
      parentPort!.postMessage({ stopped: true });
    })();
  });
}

interface Consumer {
  /** consumer commit time per event id */
  at: Map<string, number>;
  /** consumer transactions (handler commits) so far */
  commits(): number;
  /** the consumer thread's event loop utilization since `since` (as performance.eventLoopUtilization) */
  elu(since?: EventLoopUtilization): EventLoopUtilization;
  waitFor(ids: string[], timeoutMs: number): Promise<void>;
  stop(): Promise<void>;
}

async function startConsumer(setup: ConsumerSetup): Promise<Consumer> {
  const worker = new Worker(__filename, { workerData: setup });
  const at = new Map<string, number>();
  let commits = 0;
  let notify: (() => void) | null = null;
  let failed: Error | null = null;
  let onStopped: (() => void) | null = null;
  let exited = false;
  let stopping = false;
  await new Promise<void>((resolve, reject) => {
    worker.on('message', (m: { ids?: string[]; at?: number; ready?: boolean; stopped?: boolean }) => {
      if (m.ids) {
        commits += 1;
        for (const id of m.ids) if (!at.has(id)) at.set(id, m.at!);
        notify?.();
      } else if (m.ready) resolve();
      else if (m.stopped) onStopped?.();
    });
    worker.on('error', (err) => {
      failed = err;
      reject(err);
      notify?.();
    });
    worker.on('exit', (code) => {
      exited = true;
      if (!stopping) {
        failed ??= new Error(`the consumer thread exited (code ${code})`);
        reject(failed);
        notify?.();
      }
      onStopped?.();
    });
  });
  return {
    at,
    commits: () => commits,
    elu: (since) => worker.performance.eventLoopUtilization(since),
    async waitFor(ids, timeoutMs) {
      const until = Date.now() + timeoutMs;
      let missing = ids;
      while ((missing = missing.filter((id) => !at.has(id))).length > 0) {
        if (failed) throw failed;
        if (Date.now() > until) throw new Error(`only ${ids.length - missing.length} of ${ids.length} events were consumed within ${timeoutMs} ms`);
        await new Promise<void>((r) => {
          notify = r;
          setTimeout(r, 100);
        });
      }
    },
    async stop() {
      stopping = true;
      if (exited) return;
      const stopped = new Promise<void>((r) => (onStopped = r));
      worker.postMessage('stop');
      const timer = setTimeout(() => void worker.terminate(), 15_000);
      await stopped;
      clearTimeout(timer);
      await worker.terminate();
    },
  };
}

// ---------------------------------------------------------------------------------------------
// the producing service (this thread)

type Events = EventInput[];

interface Run {
  ids: string[];
  /** outbox commit time per event id */
  committedAt: Map<string, number>;
  startedAt: number;
  writtenAt: number;
  /** when the relay had moved every event of the run to the bus */
  relayedAt: number;
}

/** the producing units' log (their scope as a service's) */
const unitLog = createLogger('bench-producer', logLevel);

/** The location.updated event of record `k % 1000`, as organization writes it (the envelope of shared/test/kafka-adapter.test.ts). */
function locationUpdated(k: number, round: number): Events[number] {
  const id = `loc_bench${String(k % 1000).padStart(6, '0')}`;
  const object = {
    id,
    name: `Bench ${k}`,
    externalId: null,
    timezone: 'UTC',
    businessDayCutoff: '04:00',
    orgUnitId: null,
    address: null,
    status: 'active',
    version: round * 1_000_000 + Math.floor(k / 1000) + 2,
    createdAt: '2026-11-21T09:30:00.000Z',
    updatedAt: new Date().toISOString(),
    archivedAt: null,
  };
  return { type: 'location.updated', aggregateType: 'location', aggregateId: id, locationId: id, object, previous: { name: `Bench ${k - 1}` } };
}

/**
 * The events sales commits with one 1,000-record batch of the ingestion bench (one location, three
 * lines and one or two tenders a transaction): one sales.transactions.recorded per 200 transactions,
 * each transaction as `recordedObject` writes it, and one sales.batch.completed.
 */
function salesBatch(batchNo: number): Events {
  const locationId = 'loc_bench000001';
  const events: Events = [];
  for (let from = 0; from < INGEST_BATCH; from += RECORDED_CHUNK) {
    const transactions = [];
    for (let j = from; j < from + RECORDED_CHUNK; j++) {
      const i = batchNo * INGEST_BATCH + j;
      const at = new Date(Date.UTC(2026, 9, 1) + i * 7_000);
      transactions.push({
        id: `str_bench${String(i).padStart(20, '0')}`,
        externalId: `T-${i}`,
        version: 1,
        occurredAt: at.toISOString(),
        businessDay: at.toISOString().slice(0, 10),
        type: 'sale',
        status: 'completed',
        lines: [
          { itemSku: `SKU-${i % 50}`, name: 'Burger', quantity: '1', unitPrice: '8.50', discount: '0.00', tax: '0.68', lineTotal: '9.18' },
          { itemSku: `SKU-${(i + 7) % 50}`, name: 'Fries', quantity: '2', unitPrice: '3.00', discount: '0.50', tax: '0.44', lineTotal: '5.94' },
          { itemSku: `SKU-${(i + 13) % 50}`, name: 'Soda', quantity: '1', unitPrice: '2.25', discount: '0.00', tax: '0.18', lineTotal: '2.43' },
        ],
        tenders: i % 2 === 0 ? [{ type: 'card', amount: '17.55' }] : [{ type: 'cash', amount: '10.00' }, { type: 'cash', amount: '10.00', change: '2.45' }],
        subtotal: '16.25',
        tax: '1.30',
        total: '17.55',
        currency: 'USD',
        channel: 'in_store',
        registerId: `R${i % 4}`,
      });
    }
    events.push({ type: 'sales.transactions.recorded', aggregateType: 'location', aggregateId: locationId, locationId, object: { source: 'bench', locationId, reason: 'ingested', transactions } });
  }
  const batchId = `bat_bench${String(batchNo).padStart(20, '0')}`;
  events.push({
    type: 'sales.batch.completed',
    aggregateType: 'batch',
    aggregateId: batchId,
    locationId: null,
    object: { batchId, integrationId: 'int_bench', source: 'bench', endpoint: 'POST /sales/transactions:batch', received: INGEST_BATCH, created: INGEST_BATCH, updated: 0, unchanged: 0, duplicate: 0, rejected: 0, rejectedRecords: [], createdAt: new Date().toISOString() },
  });
  return events;
}

/**
 * Commits `commits` transactions into the outbox from `writers` concurrent connections (each event's
 * commit time is its transaction's), paced at `perSecond` transactions when given; then waits until
 * the relay moved them.
 */
async function produce(
  orm: Orm,
  /** rows the relay has moved so far */
  published: () => number,
  schema: string,
  commits: number,
  eventsOf: (c: number) => Events,
  perSecond: number | null,
  writers: number,
  onWritten: (run: Run) => void = () => undefined,
): Promise<Run> {
  const committedAt = new Map<string, number>();
  const ids: string[] = [];
  const relayedBefore = published();
  let next = 0;
  const startedAt = wallNow();
  await Promise.all(
    Array.from({ length: writers }, async () => {
      while (next < commits) {
        const c = next++;
        const batch = eventsOf(c);
        let mine: string[] = [];
        await orm.em.fork().transactional(async (em) => {
          // a unit of work as a service's: its events written before the transaction commits
          const unit = openWork({ schema, clock: systemClock, log: unitLog, services: new ServiceClient({}, null) }, em, true);
          mine = batch.map((e) => unit.work.emit(e).id);
          await unit.flush();
        });
        if (mine.length !== batch.length) throw new Error(`bench: found ${mine.length} of the ${batch.length} events a transaction wrote`);
        const t = wallNow();
        for (const id of mine) {
          committedAt.set(id, t);
          ids.push(id);
        }
        if (perSecond) {
          const wait = startedAt + ((c + 1) / perSecond) * 1000 - wallNow();
          if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        }
      }
    }),
  );
  let writtenAt = startedAt;
  for (const t of committedAt.values()) writtenAt = Math.max(writtenAt, t);
  const run: Run = { ids, committedAt, startedAt, writtenAt, relayedAt: NaN };
  onWritten(run);
  const until = wallNow() + 30_000 + ids.length * 5;
  while (published() - relayedBefore < ids.length) {
    if (wallNow() > until) throw new Error(`the relay moved ${published() - relayedBefore} of ${ids.length} events to the bus within ${Math.round((until - writtenAt) / 1000)} s of the last commit (its log lines say why)`);
    await new Promise((r) => setTimeout(r, 5));
  }
  run.relayedAt = wallNow();
  return run;
}

interface Figures {
  bus: string;
  label: string;
  events: number;
  writtenS: number;
  relayedS: number;
  consumedS: number;
  rate: number;
  p50: number;
  p99: number;
  max: number;
  /** event loop utilization of the producing thread (writers + relay) and of the consuming one, over the run */
  producerElu: number;
  consumerElu: number;
  /** CPU ms by part over the run (proc-cpu.ts) */
  cpu: CpuParts;
  /** the consumer's transactions over the run */
  consumerCommits: number;
}

function figures(bus: string, label: string, run: Run, consumer: Consumer, elu: { producer: number; consumer: number }, cpu: CpuParts, consumerCommits: number): Figures {
  const lags = run.ids.map((id) => consumer.at.get(id)! - run.committedAt.get(id)!).sort((a, b) => a - b);
  let first = Infinity;
  for (const t of run.committedAt.values()) first = Math.min(first, t);
  let last = 0;
  for (const id of run.ids) last = Math.max(last, consumer.at.get(id)!);
  return {
    bus,
    label,
    events: run.ids.length,
    writtenS: (run.writtenAt - run.startedAt) / 1000,
    relayedS: (run.relayedAt - run.startedAt) / 1000,
    consumedS: (last - run.startedAt) / 1000,
    rate: run.ids.length / ((last - first) / 1000),
    p50: quantile(lags, 0.5),
    p99: quantile(lags, 0.99),
    max: lags[lags.length - 1],
    producerElu: elu.producer,
    consumerElu: elu.consumer,
    cpu,
    consumerCommits,
  };
}

const int = (n: number) => Math.round(n).toLocaleString('en-US');
const ms = (n: number) => `${int(n)} ms`;

function row(f: Figures): string {
  return [
    f.bus.padEnd(22),
    f.label.padEnd(8),
    int(f.events).padStart(8),
    `${f.writtenS.toFixed(2)} s`.padStart(9),
    `${f.relayedS.toFixed(2)} s`.padStart(9),
    `${f.consumedS.toFixed(2)} s`.padStart(9),
    int(f.rate).padStart(9),
    ms(f.p50).padStart(9),
    ms(f.p99).padStart(9),
    ms(f.max).padStart(9),
    `${Math.round(f.producerElu * 100)} / ${Math.round(f.consumerElu * 100)} %`.padStart(12),
  ].join('  ');
}

/** CPU µs per event by part, and their sum. */
function cpuRow(f: Figures): string {
  const parts = Object.entries(f.cpu).filter(([, v]) => v > 0);
  const per = (v: number) => ((v * 1000) / f.events).toFixed(1);
  const total = parts.reduce((a, [, v]) => a + v, 0);
  return `${''.padEnd(22)}  cpu µs/event: ${parts.map(([k, v]) => `${k} ${per(v)}`).join(', ')}; sum ${per(total)}; ${(f.events / Math.max(1, f.consumerCommits)).toFixed(0)} events a consumer transaction`;
}

const HEADER = ['bus'.padEnd(22), 'run'.padEnd(8), 'events'.padStart(8), 'written'.padStart(9), 'relayed'.padStart(9), 'consumed'.padStart(9), 'events/s'.padStart(9), 'lag p50'.padStart(9), 'p99'.padStart(9), 'max'.padStart(9), 'busy p / c'.padStart(12)].join('  ');

/** Everything started, stopped in reverse order whatever happens (also on SIGINT/SIGTERM). */
const stops: Array<() => Promise<unknown>> = [];
async function stopAll(): Promise<void> {
  while (stops.length > 0) {
    const stop = stops.pop()!;
    await stop().catch((err: unknown) => console.error('bench: stopping failed:', err));
  }
}

/** One bus: warm-up, the burst runs, the paced run, the backlog; stops what it started before answering. */
async function benchBus(kind: 'postgres' | 'kafka', databaseUrl: string, kafka: { brokers: string; registryUrl?: string } | null, runId: string, label: string): Promise<Figures[]> {
  const log = createLogger('bench', logLevel);
  const schema = `bench_${runId}_${kind === 'postgres' ? 'pg' : 'kafka'}`;
  const sink = `${schema}_sink`;
  const topic = schema;
  const config: BusConfig = {
    BUS: kind,
    DATABASE_URL: databaseUrl,
    BUS_POLL_MS: 1000,
    KAFKA_BROKERS: kafka?.brokers,
    KAFKA_CLIENT_ID: 'bench',
    KAFKA_TOPIC_PREFIX: `bench-${runId}-`,
    SCHEMA_REGISTRY_URL: kafka?.registryUrl,
  };
  // this bus's own stops, run in reverse at the end (and by stopAll on a signal)
  const mine: Array<() => Promise<unknown>> = [];
  const stopMine = async () => {
    while (mine.length > 0) await mine.pop()!().catch((err: unknown) => console.error('bench: stopping failed:', err));
  };
  stops.push(stopMine);
  try {
    const orm = await createOrm({ schema, clientUrl: databaseUrl, entities: [], migrations: [] });
    mine.push(() => orm.close());
    if (process.env.DATABASE_URL) {
      // a database of the user's: the bench's schemas and bus rows go again (an embedded one is removed whole)
      mine.push(async () => {
        const conn = orm.em.getConnection();
        await conn.execute(`drop schema if exists "${schema}" cascade`);
        await conn.execute(`drop schema if exists "${sink}" cascade`);
        if (kind === 'postgres') {
          await conn.execute(`delete from "bus"."messages" where "topic" = ?`, [topic]);
          await conn.execute(`delete from "bus"."positions" where "group_id" like ?`, [`${sink}.%`]);
        }
      });
    }
    await migrate(orm, schema);
    const bus: Bus = await createBus(config, createLogger('bench', busLogLevel(kind)));
    mine.push(() => bus.close());
    // as a service runs it (shared/src/service.ts): RELAY_POLL_MS 1000, the default batch
    const startRelay = () => {
      const r = new Relay({ schema, topic, connectionString: databaseUrl, bus, log, pollMs: 1000, batchSize: relayBatch });
      r.start();
      return r;
    };
    let relay = startRelay();
    mine.push(() => relay.stop());
    const published = () => relay.published;
    const consumer = await startConsumer({ config, databaseUrl, service: sink, topic });
    mine.push(() => consumer.stop());

    const warm = await produce(orm, published, schema, WARMUP / perCommit, (c) => Array.from({ length: perCommit }, (_, i) => locationUpdated(c * perCommit + i, 0)), 20, 1);
    await consumer.waitFor(warm.ids, 120_000);
    if (warmupBurst > 0) {
      const commits = Math.ceil(warmupBurst / perCommit);
      const burst = await produce(orm, published, schema, commits, (c) => Array.from({ length: Math.min(perCommit, warmupBurst - c * perCommit) }, (_, i) => locationUpdated(c * perCommit + i, 0)), null, writers);
      await consumer.waitFor(burst.ids, 60_000 + warmupBurst * 5);
    }

    // the run being measured, once written (a failed run's figures so far are printed from it)
    let written: Run | null = null;
    const measured = async (work: (onWritten: (run: Run) => void) => Promise<Run>, timeoutMs: number) => {
      const p0 = performance.eventLoopUtilization();
      const c0 = consumer.elu();
      const cpu0 = cpuNow();
      const threads0 = process.env.BENCH_CPU_THREADS ? threadCpuNow(process.env.BENCH_CPU_THREADS) : {};
      const commits0 = consumer.commits();
      written = null;
      const run = await work((r) => (written = r));
      await consumer.waitFor(run.ids, timeoutMs);
      if (process.env.BENCH_CPU_THREADS) {
        const t1 = threadCpuNow(process.env.BENCH_CPU_THREADS);
        const by = Object.entries(t1).map(([k, v]) => [k, ((v - (threads0[k] ?? 0)) * 1000) / run.ids.length] as const).filter(([, v]) => v > 0.05).sort((a, b) => b[1] - a[1]);
        console.log(`${''.padEnd(22)}  ${process.env.BENCH_CPU_THREADS} threads, cpu µs/event: ${by.map(([k, v]) => `${k} ${v.toFixed(1)}`).join(', ')}`);
      }
      return { run, elu: { producer: performance.eventLoopUtilization(p0).utilization, consumer: consumer.elu(c0).utilization }, cpu: cpuSince(cpu0), consumerCommits: consumer.commits() - commits0 };
    };
    const out: Figures[] = [];
    let current = '';
    try {
      for (const [round, n] of sizes.entries()) {
        current = `burst of ${n}`;
        const commits = Math.ceil(n / perCommit);
        const { run, elu, cpu, consumerCommits } = await measured(
          (onWritten) => produce(orm, published, schema, commits, (c) => Array.from({ length: Math.min(perCommit, n - c * perCommit) }, (_, i) => locationUpdated(c * perCommit + i, round + 1)), null, writers, onWritten),
          60_000 + n * 5,
        );
        const f = figures(label, 'burst', run, consumer, elu, cpu, consumerCommits);
        console.log(row(f));
        console.log(cpuRow(f));
        out.push(f);
      }
      current = 'paced';
      const commitsPerSecond = pacedRecords / INGEST_BATCH;
      const paced = await measured((onWritten) => produce(orm, published, schema, Math.round(pacedSeconds * commitsPerSecond), salesBatch, commitsPerSecond, 1, onWritten), 120_000);
      const f = figures(label, 'paced', paced.run, consumer, paced.elu, paced.cpu, paced.consumerCommits);
      console.log(row(f));
      out.push(f);

      // the outbox after the relay was held (a restart, a bus outage): BENCH_BACKLOG sales batches, then a new relay
      current = 'backlog';
      await relay.stop();
      let fresh: Relay | null = null;
      const backlog = await measured(
        (onWritten) =>
          produce(orm, () => fresh?.published ?? 0, schema, backlogBatches, (c) => salesBatch(100_000 + c), null, 1, (r) => {
            onWritten(r);
            relay = fresh = startRelay();
          }),
        120_000,
      );
      const b = figures(label, 'backlog', backlog.run, consumer, backlog.elu, backlog.cpu, backlog.consumerCommits);
      console.log(row(b));
      out.push(b);
    } catch (err) {
      // the figures so far stand; the other bus still runs
      console.log(`${label.padEnd(22)}  ${current}: FAILED — ${(err as Error).message}`);
      const partial = written as Run | null;
      const done = partial?.ids.filter((id) => consumer.at.has(id)) ?? [];
      if (partial && done.length > 0) {
        const lags = done.map((id) => consumer.at.get(id)! - partial.committedAt.get(id)!).sort((a, b) => a - b);
        console.log(`${''.padEnd(22)}  of its ${int(partial.ids.length)} events ${int(done.length)} were consumed (lag p50 ${ms(quantile(lags, 0.5))}, p99 ${ms(quantile(lags, 0.99))}, max ${ms(lags[lags.length - 1])}); the rest never`);
      }
      process.exitCode = 1;
    }
    return out;
  } finally {
    // stopped here, not only at the end: the next bus runs on a quiet machine
    stops.splice(stops.indexOf(stopMine), 1);
    await stopMine();
  }
}

async function main(): Promise<void> {
  const log = createLogger('bench', logLevel);
  const onSignal = (signal: NodeJS.Signals) => {
    console.error(`bench: ${signal}, stopping what it started`);
    void stopAll().finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const runId = randomBytes(3).toString('hex');
  try {
    let databaseUrl = process.env.DATABASE_URL;
    if (!databaseUrl) {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bop-bench-bus-'));
      fs.chmodSync(dataDir, 0o755);
      stops.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
      const embedded = await startEmbeddedPostgres({ dataDir, port: await freePort(), log });
      stops.push(() => embedded.stop());
      databaseUrl = embedded.url;
    }
    let kafka: { brokers: string; registryUrl?: string } | null = null;
    let kafkaWhere = '';
    if (buses.includes('kafka')) {
      if (process.env.KAFKA_BROKERS) {
        kafka = { brokers: process.env.KAFKA_BROKERS, registryUrl: process.env.SCHEMA_REGISTRY_URL };
        kafkaWhere = 'KAFKA_BROKERS';
      } else {
        const root = fs.existsSync(path.resolve(__dirname, '..', 'deploy')) ? path.resolve(__dirname, '..') : path.resolve(__dirname, '..', '..');
        const { startKafkaLocal } = require(path.join(root, 'deploy/kafka-local/kafka-local.cjs')) as {
          startKafkaLocal(opts: { log?: (line: string) => void }): Promise<{ brokers: string; registryUrl?: string; stop(): Promise<void> }>;
        };
        const local = await startKafkaLocal({});
        stops.push(() => local.stop());
        kafka = { brokers: local.brokers, registryUrl: local.registryUrl };
        kafkaWhere = 'local Apache Kafka 4.4 (KRaft, 1 broker) + Apicurio Registry, kafkajs client';
      }
    }
    const registry = kafka?.registryUrl ? 'registry on' : 'registry off';
    const kafkaLabel = `kafka (${registry})`;
    console.log(
      `bus: outbox → relay → bus → consumer runner; node ${process.versions.node}, ${os.cpus().length} cores, ${process.env.DATABASE_URL ? 'DATABASE_URL' : 'embedded Postgres'}` +
        `${kafka ? `; kafka: ${kafkaWhere}, ${registry} (payloads in the registry's JSON Schema wire format, validated on encode and decode), 6 partitions` : ''}`,
    );
    if (relayBatch) console.log(`BENCH_RELAY_BATCH=${relayBatch}: the relay moves at most ${relayBatch} outbox rows at a time (${relayBatch * 8} while behind)`);
    console.log(`burst: BENCH_EVENTS=${sizes.join(',')} location.updated events over 1,000 records, ${perCommit} per outbox transaction, ${writers} writers; paced: ${int(pacedRecords)} sales records/s = ${int((pacedRecords / INGEST_BATCH) * (INGEST_BATCH / RECORDED_CHUNK + 1))} events/s for ${pacedSeconds} s`);
    console.log('written / relayed / consumed: seconds from the start until the last outbox commit / the relay moved the last event / the last consumer commit;');
    console.log('events/s: events over first outbox commit → last consumer commit; lag: consumer commit − outbox commit per event;');
    console.log('busy p / c: event loop utilization of the producing thread (writers + relay) / the consuming thread (consumer runner) over the run');
    console.log('cpu µs/event: CPU time over the run by part / events (node main = writers + relay, node other = the consumer thread and Node\'s helpers)');
    console.log(HEADER);
    const all: Figures[] = [];
    for (const kind of buses) {
      all.push(...(await benchBus(kind, databaseUrl, kind === 'kafka' ? kafka : null, runId, kind === 'kafka' ? kafkaLabel : 'postgres')));
    }

    const pg = all.filter((f) => f.bus === 'postgres');
    const kf = all.filter((f) => f.bus === kafkaLabel);
    console.log('');
    if (pg.length > 0 && kf.length > 0) {
      for (const n of sizes) {
        const a = pg.find((f) => f.label === 'burst' && f.events === n);
        const b = kf.find((f) => f.label === 'burst' && f.events === n);
        if (a && b) {
          const ratio = b.rate / a.rate;
          console.log(`kafka / postgres events/s, ${int(n)} events: ${ratio.toFixed(2)} (${int(b.rate)} / ${int(a.rate)}) — target >= 1.00: ${ratio >= 1 ? 'met' : 'NOT met'}`);
        }
      }
    }
    for (const f of all.filter((x) => x.label === 'paced')) {
      console.log(`paced at the ingestion bench's rate, ${f.bus}: lag p50 ${ms(f.p50)}, p99 ${ms(f.p99)} — target p99 < 2 s: ${f.p99 < 2000 ? 'met' : 'NOT met'}`);
    }
  } finally {
    await stopAll();
  }
}

if (isMainThread) runBench(main);
else void consumerThread(workerData as ConsumerSetup);

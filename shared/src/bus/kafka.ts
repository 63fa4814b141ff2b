import { randomBytes } from 'node:crypto';
import {
  CompressionTypes,
  Kafka,
  Partitioners,
  logLevel,
  type Admin,
  type Consumer,
  type ConsumerCrashEvent,
  type EachBatchPayload,
  type IHeaders,
  type KafkaMessage,
  type LogEntry,
  type Message,
  type Producer,
} from 'kafkajs';
import { SchemaRegistry } from '@kafkajs/confluent-schema-registry';
import type { Logger } from '../logger';
import type { Bus, BusMessage, ConsumedMessage, SubscribeOptions, Subscription } from './types';
import { createPayloadCodec, type PayloadCodec } from './codec';
import { backoffDelay, busBackoff } from '../retry';

export { createPayloadCodec, type InvalidEventReport, type PayloadCodec, type RegistryClient } from './codec';

/**
 * The `kafka` adapter (architecture: Events): kafkajs 2.2.4, idempotent producer, topic per area
 * (`<topicPrefix><area>`), key = the record's id, event id and type in headers; consumer groups
 * whose offsets are committed only after the handler (and so its transaction) has resolved.
 * Payloads are JSON, or with a Schema Registry the registry's JSON Schema wire format
 * (magic byte, schema id, JSON) validated against its event type's schema (subject `<topic>-<type>`: codec.ts).
 */
export interface KafkaBusOptions {
  brokers: string[];
  clientId: string;
  /** Confluent Schema Registry; payloads are registered and validated as JSON Schema when set */
  schemaRegistryUrl?: string;
  /** prepended to every area to make the Kafka topic (tests use `test-<random>-`) */
  topicPrefix?: string;
  log: Logger;
  /** create missing topics (publish and subscribe) with the admin client */
  ensureTopics?: boolean;
  /** partitions of topics created by ensureTopics (default 6) */
  partitions?: number;
  /** replication factor of created topics (default: the broker's `default.replication.factor`) */
  replicationFactor?: number;
  /** how often a `*` subscription looks for new area topics (ms, default 10 000) */
  topicRefreshMs?: number;
}

export const EVENT_ID_HEADER = 'event-id';
export const EVENT_TYPE_HEADER = 'event-type';
const DEFAULT_BATCH_SIZE = 200;
const DEFAULT_PARTITIONS = 6;

// ---------------------------------------------------------------------------------------------
// pure mapping (unit-tested without a broker)

export function kafkaTopic(prefix: string, area: string): string {
  return `${prefix}${area}`;
}

/** The area of a Kafka topic (the topic without the prefix). */
export function areaOf(prefix: string, topic: string): string {
  return prefix && topic.startsWith(prefix) ? topic.slice(prefix.length) : topic;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Every area topic under a prefix (`topics: ['*']`). An area starts with a letter, so Kafka's
 * internal topics (`__consumer_offsets`, the registry's `_schemas`) never match; no `-`, so with an
 * empty prefix the `test-<random>-…` topics of a shared cluster do not match either.
 */
export function allTopicsPattern(prefix: string): RegExp {
  return new RegExp('^' + escapeRegExp(prefix) + '[a-z][a-z0-9_]*$');
}

/** The Kafka record of a bus message: key = record id, headers `event-id`, `event-type` (+ its own). */
export function toKafkaMessage(message: BusMessage, value: Buffer): Message {
  return {
    key: message.key,
    value,
    headers: { ...(message.headers ?? {}), [EVENT_ID_HEADER]: message.eventId, [EVENT_TYPE_HEADER]: message.type },
  };
}

/**
 * Messages → one record batch per run of consecutive messages with the same topic, in the given
 * order (sent one after another, so the order holds within and across topics).
 */
export function toTopicBatches(prefix: string, messages: BusMessage[], values: Buffer[]): { topic: string; messages: Message[] }[] {
  const batches: { topic: string; messages: Message[] }[] = [];
  messages.forEach((m, i) => {
    const topic = kafkaTopic(prefix, m.topic);
    const record = toKafkaMessage(m, values[i]);
    const last = batches[batches.length - 1];
    if (last && last.topic === topic) last.messages.push(record);
    else batches.push({ topic, messages: [record] });
  });
  return batches;
}

/**
 * A broker refuses a partition's record batch over its `message.max.bytes` (1 MiB by default), and
 * kafkajs then numbers the idempotent producer's next batches out of order: a relay that fell behind
 * on large events (a POS batch's) jammed for good (bench/bus.ts's backlog run). So sends stay under
 * `maxBytes` of keys, values and headers, in order; a message larger than that alone goes gzipped.
 */
export const MAX_SEND_BYTES = 768 * 1024;

export function toSizedSends(batches: { topic: string; messages: Message[] }[], maxBytes = MAX_SEND_BYTES): { topic: string; messages: Message[]; compress: boolean }[] {
  const sends: { topic: string; messages: Message[]; compress: boolean }[] = [];
  for (const batch of batches) {
    let current: Message[] = [];
    let bytes = 0;
    const flush = () => {
      if (current.length > 0) sends.push({ topic: batch.topic, messages: current, compress: false });
      current = [];
      bytes = 0;
    };
    for (const m of batch.messages) {
      const size = messageBytes(m);
      if (size > maxBytes) {
        flush();
        sends.push({ topic: batch.topic, messages: [m], compress: true });
        continue;
      }
      if (bytes + size > maxBytes) flush();
      current.push(m);
      bytes += size;
    }
    flush();
  }
  return sends;
}

function messageBytes(m: Message): number {
  let n = 64; // record overhead (offsets, timestamps, lengths), generously
  n += m.key ? Buffer.byteLength(m.key as string | Buffer) : 0;
  n += m.value ? Buffer.byteLength(m.value as string | Buffer) : 0;
  for (const [k, v] of Object.entries(m.headers ?? {})) n += Buffer.byteLength(k) + (v === undefined ? 0 : Buffer.byteLength(Array.isArray(v) ? v.join('') : (v as string | Buffer)));
  return n;
}

function headerString(value: IHeaders[string]): string | undefined {
  if (value === undefined) return undefined;
  // a repeated header: the last one wins, as in a map
  const one = Array.isArray(value) ? value[value.length - 1] : value;
  if (one === undefined) return undefined;
  return Buffer.isBuffer(one) ? one.toString('utf8') : String(one);
}

/** A consumed record → ConsumedMessage (position `<partition>:<offset>`); headers exclude event-id/-type. */
export function fromKafkaMessage(
  prefix: string,
  topic: string,
  partition: number,
  message: KafkaMessage,
  payload: Record<string, unknown>,
): ConsumedMessage {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(message.headers ?? {})) {
    const s = headerString(value);
    if (s !== undefined && name !== EVENT_ID_HEADER && name !== EVENT_TYPE_HEADER) headers[name] = s;
  }
  const raw = message.headers ?? {};
  return {
    topic: areaOf(prefix, topic),
    key: message.key ? message.key.toString('utf8') : '',
    eventId: headerString(raw[EVENT_ID_HEADER]) ?? String(payload.id ?? ''),
    type: headerString(raw[EVENT_TYPE_HEADER]) ?? String(payload.type ?? ''),
    payload,
    headers,
    position: `${partition}:${message.offset}`,
  };
}

/** The offset to commit after handling `offset` (Kafka commits the next offset to read). */
export function nextOffset(offset: string): string {
  return (BigInt(offset) + 1n).toString();
}

/** Delay before a failed batch is redelivered: the bus policy, as the postgres adapter (200 ms doubling, at most 30 s). */
export function retryDelayMs(failures: number): number {
  return backoffDelay(failures, busBackoff);
}

/** What processBatch needs from its subscription. */
export interface BatchRun {
  prefix: string;
  batchSize: number;
  decode(value: Buffer | null): Promise<Record<string, unknown>>;
  handler(batch: ConsumedMessage[]): Promise<void>;
  stopped(): boolean;
  /** a chunk failed (decoding or handler): redeliver from `offset` (its first message) */
  failed(offset: string, err: unknown): void;
  /** a chunk was handled and committed */
  succeeded(): void;
}

/**
 * One kafkajs `eachBatch` call (autoCommit and eachBatchAutoResolve off): the handler gets the
 * batch in chunks of batchSize, in offset order. Only after the handler resolved (its transaction
 * committed) is the chunk's last offset resolved and committed, explicitly; the heartbeat follows.
 * A failed chunk is neither resolved nor committed, and the rest of the batch is not handled.
 */
export async function processBatch(run: BatchRun, payload: EachBatchPayload): Promise<'done' | 'failed' | 'interrupted'> {
  const { batch, resolveOffset, heartbeat, commitOffsetsIfNecessary, isRunning, isStale } = payload;
  const size = Math.max(1, run.batchSize);
  for (let i = 0; i < batch.messages.length; i += size) {
    // stopping, or a seek is pending for this partition: the unhandled rest comes again
    if (!isRunning() || isStale() || run.stopped()) return 'interrupted';
    const chunk = batch.messages.slice(i, i + size);
    try {
      const decoded = await Promise.all(chunk.map((m) => decodeOrMark(run, m.value)));
      const consumed = chunk.map((m, j) => {
        const d = decoded[j];
        const message = fromKafkaMessage(run.prefix, batch.topic, batch.partition, m, d.payload);
        return d.undecodable === undefined ? message : { ...message, undecodable: d.undecodable };
      });
      await run.handler(consumed);
    } catch (err) {
      run.failed(chunk[0].offset, err);
      return 'failed';
    }
    const last = chunk[chunk.length - 1].offset;
    resolveOffset(last);
    await commitOffsetsIfNecessary({ topics: [{ topic: batch.topic, partitions: [{ partition: batch.partition, offset: nextOffset(last) }] }] });
    run.succeeded();
    await heartbeat();
  }
  return 'done';
}

/**
 * A value that can never be decoded (not JSON, not an object, refused by the registry's schema) is
 * handed on marked `undecodable`, its bytes as text in `payload.value`, so the consumer parks it and
 * the partition moves on (issue 13); any other decoding failure (the registry unreachable) fails the
 * chunk, to be redelivered.
 */
async function decodeOrMark(run: BatchRun, value: Buffer | null): Promise<{ payload: Record<string, unknown>; undecodable?: string }> {
  try {
    return { payload: await run.decode(value) };
  } catch (err) {
    const e = err as Error;
    const permanent =
      err instanceof SyntaxError ||
      /^(empty event payload|event payload is not a JSON object)$/.test(e?.message ?? '') ||
      ['ConfluentSchemaRegistryValidationError', 'ConfluentSchemaRegistryArgumentError'].includes(e?.name);
    if (!permanent) throw err;
    return { payload: { value: value ? value.toString('utf8') : null }, undecodable: `${e.name}: ${e.message}` };
  }
}

// ---------------------------------------------------------------------------------------------
// logging

/** kafkajs's log level for a pino logger's level. */
export function kafkaLogLevel(level: string): logLevel {
  switch (level) {
    case 'trace':
    case 'debug':
      return logLevel.DEBUG;
    case 'info':
      return logLevel.INFO;
    case 'warn':
      return logLevel.WARN;
    case 'silent':
      return logLevel.NOTHING;
    default:
      return logLevel.ERROR;
  }
}

/** kafkajs logCreator writing to pino: ERROR→error, WARN→warn, INFO→info, DEBUG→debug. */
export function pinoLogCreator(log: Logger) {
  return () =>
    ({ namespace, level, log: entry }: LogEntry): void => {
      const { message, timestamp: _timestamp, logger: _logger, ...extra } = entry;
      const fields = { kafkajs: namespace, ...extra };
      // kafkajs's connection logs every error response (a topic's leader moving, a topic just created)
      // at ERROR; its callers retry those or fail with them, and we log what fails there
      if (namespace === 'Connection' && level === logLevel.ERROR && message.startsWith('Response ')) log.debug(fields, message);
      else if (level === logLevel.ERROR) log.error(fields, message);
      else if (level === logLevel.WARN) log.warn(fields, message);
      else if (level === logLevel.INFO) log.info(fields, message);
      else log.debug(fields, message);
    };
}

// ---------------------------------------------------------------------------------------------
// the bus

export async function createKafkaBus(opts: KafkaBusOptions): Promise<Bus> {
  const log = opts.log.child({ component: 'bus', bus: 'kafka' });
  const kafka = new Kafka({
    clientId: opts.clientId,
    brokers: opts.brokers,
    logLevel: kafkaLogLevel(log.level),
    logCreator: pinoLogCreator(log),
  });
  const newProducer = () =>
    kafka.producer({
      idempotent: true,
      maxInFlightRequests: 1,
      createPartitioner: Partitioners.DefaultPartitioner,
      allowAutoTopicCreation: !opts.ensureTopics,
    });
  const producer = newProducer();
  await producer.connect();
  const registry = opts.schemaRegistryUrl
    ? new SchemaRegistry({ host: opts.schemaRegistryUrl, clientId: opts.clientId })
    : undefined;
  const codec = createPayloadCodec(registry, undefined, (info) => log.error(info, 'event does not match its type\'s registered schema: published as plain JSON (fix the producer or the contract)'));
  return new KafkaBus(kafka, producer, newProducer, codec, opts, log);
}

/**
 * For the bus contract suite: a factory when `KAFKA_BROKERS` is set (else null). Every bus it
 * makes shares one random `test-<hex>-` topic prefix, as every postgres bus of a test run shares
 * one database. Defaults fit the suite: 1 partition per topic (the suite checks publish order
 * across keys, which Kafka keeps only within a partition; per key it holds with any count) and no
 * schema registry (the suite's payloads are not full envelopes). `overrides` changes either.
 */
export function kafkaBusFactoryFromEnv(
  log: Logger,
  env: Record<string, string | undefined> = process.env,
  overrides: Partial<Omit<KafkaBusOptions, 'log'>> = {},
): (() => Promise<Bus>) | null {
  const brokers = (env.KAFKA_BROKERS ?? '').split(',').map((b) => b.trim()).filter(Boolean);
  if (brokers.length === 0) return null;
  const topicPrefix = `test-${randomBytes(4).toString('hex')}-`;
  return () => createKafkaBus({ brokers, clientId: 'test', topicPrefix, ensureTopics: true, partitions: 1, topicRefreshMs: 1000, ...overrides, log });
}

class KafkaBus implements Bus {
  readonly kind = 'kafka' as const;
  private readonly prefix: string;
  private readonly subscriptions = new Set<KafkaSubscription>();
  private readonly createdTopics = new Set<string>();
  private readonly warnedTopics = new Set<string>();
  private admin: Promise<Admin> | null = null;
  private closed = false;
  private sendChain: Promise<void> = Promise.resolve();
  private producerStale = false;

  constructor(
    private readonly kafka: Kafka,
    private producer: Producer,
    private readonly newProducer: () => Producer,
    readonly codec: PayloadCodec,
    private readonly opts: KafkaBusOptions,
    private readonly log: Logger,
  ) {
    this.prefix = opts.topicPrefix ?? '';
  }

  async publish(messages: BusMessage[]): Promise<void> {
    if (this.closed) throw new Error('bus closed');
    if (messages.length === 0) return;
    const values: Buffer[] = [];
    for (const m of messages) values.push(await this.codec.encode(kafkaTopic(this.prefix, m.topic), m.payload));
    const batches = toTopicBatches(this.prefix, messages, values);
    const topics = [...new Set(batches.map((b) => b.topic))];
    this.warnUnmatched(topics);
    if (this.opts.ensureTopics) await this.ensureTopics(topics);
    // one send at a time: kafkajs's idempotent producer, given concurrent sends, numbers a partition's
    // batches out of order and Kafka 4.x refuses them (OUT_OF_ORDER_SEQUENCE_NUMBER, seen in the bus
    // contract's concurrent-appenders test); in turn, publish order across callers is the call order
    const sending = this.sendChain.then(async () => {
      try {
        if (this.producerStale) {
          this.producerStale = false;
          await this.producer.connect();
        }
        // acks -1: every in-sync replica has the batch when send resolves
        for (const send of toSizedSends(batches)) {
          await this.producer.send({ topic: send.topic, messages: send.messages, acks: -1, ...(send.compress ? { compression: CompressionTypes.GZIP } : {}) });
        }
      } catch (err) {
        // a producer whose send failed may hold sequence numbers the broker never stored: every later
        // batch would be refused as out of order. The next publish (the relay retries) gets a new one.
        const old = this.producer;
        this.producer = this.newProducer();
        this.producerStale = true;
        await old.disconnect().catch(() => undefined);
        throw err;
      }
    });
    this.sendChain = sending.catch(() => undefined);
    await sending;
    for (const s of this.subscriptions) s.topicsSeen(topics);
  }

  async subscribe(options: SubscribeOptions): Promise<Subscription> {
    if (this.closed) throw new Error('bus closed');
    const sub = new KafkaSubscription(this, options, () => this.subscriptions.delete(sub));
    this.subscriptions.add(sub);
    try {
      await sub.start();
    } catch (err) {
      await sub.stop().catch(() => undefined);
      throw err;
    }
    return sub;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const results = await Promise.allSettled([
      ...[...this.subscriptions].map((s) => s.stop()),
      this.producer.disconnect(),
      this.admin ? this.admin.then((a) => a.disconnect()) : Promise.resolve(),
    ]);
    for (const r of results) if (r.status === 'rejected') this.log.warn({ err: String(r.reason) }, 'kafka bus close: disconnect failed');
  }

  // --- used by subscriptions

  get topicPrefix(): string {
    return this.prefix;
  }

  get options(): KafkaBusOptions {
    return this.opts;
  }

  get logger(): Logger {
    return this.log;
  }

  /** Per group: the partitions' high watermarks less the group's committed offsets (metrics; read at scrape time). */
  async groupLag(groups: string[]): Promise<Array<{ group: string; lag: number }>> {
    const admin = await this.adminClient();
    const ends = new Map<string, Promise<Map<number, number>>>();
    const highOf = (topic: string) => {
      if (!ends.has(topic)) ends.set(topic, admin.fetchTopicOffsets(topic).then((o) => new Map(o.map((p) => [p.partition, Number(p.high)]))));
      return ends.get(topic)!;
    };
    return Promise.all(
      groups.map(async (group) => {
        let lag = 0;
        for (const { topic, partitions } of await admin.fetchOffsets({ groupId: this.groupId(group) })) {
          const high = await highOf(topic);
          // a partition the group never committed on counts from its start (approximately: low is not read)
          for (const p of partitions) lag += Math.max(0, (high.get(p.partition) ?? 0) - Math.max(0, Number(p.offset)));
        }
        return { group, lag };
      }),
    );
  }

  /** A group's id on the cluster: the topic prefix namespaces groups as it does topics (one cluster, several platforms or test runs). */
  groupId(group: string): string {
    return `${this.prefix}${group}`;
  }

  newConsumer(group: string): Consumer {
    return this.kafka.consumer({ groupId: this.groupId(group), allowAutoTopicCreation: !this.opts.ensureTopics });
  }

  async listTopics(): Promise<string[]> {
    return (await this.adminClient()).listTopics();
  }

  async ensureTopics(topics: string[]): Promise<void> {
    const missing = topics.filter((t) => !this.createdTopics.has(t));
    if (missing.length === 0) return;
    // Several processes create the same area topics at start: the loser of that race, or a metadata
    // read just after a creation, may hear UNKNOWN_TOPIC_OR_PARTITION / NOT_LEADER until the broker has
    // the topic's leaders. Those are retriable; a start does not fail on them (bounded: ~30 s).
    for (let attempt = 1; ; attempt++) {
      try {
        const admin = await this.adminClient();
        // false (no throw) when they exist already
        await admin.createTopics({
          waitForLeaders: false,
          topics: missing.map((topic) => ({
            topic,
            numPartitions: this.opts.partitions ?? DEFAULT_PARTITIONS,
            replicationFactor: this.opts.replicationFactor ?? -1,
          })),
        });
        const metadata = await admin.fetchTopicMetadata({ topics: missing });
        const leaderless = metadata.topics.filter((t) => t.partitions.length === 0 || t.partitions.some((p) => p.leader < 0));
        if (leaderless.length > 0) throw Object.assign(new Error(`topics without leaders yet: ${leaderless.map((t) => t.name).join(', ')}`), { retriable: true });
        break;
      } catch (err) {
        const retriable = (err as { retriable?: boolean }).retriable === true || /does not host this topic-partition|not the leader|leader not available/i.test((err as Error).message ?? '');
        if (!retriable || attempt >= 12) throw err;
        await new Promise((r) => setTimeout(r, Math.min(250 * 2 ** (attempt - 1), 5000)));
      }
    }
    for (const t of missing) this.createdTopics.add(t);
  }

  private adminClient(): Promise<Admin> {
    if (!this.admin) {
      const admin = this.kafka.admin();
      this.admin = admin.connect().then(() => admin);
      this.admin.catch(() => (this.admin = null));
    }
    return this.admin;
  }

  private warnUnmatched(topics: string[]): void {
    const all = allTopicsPattern(this.prefix);
    for (const t of topics) {
      if (all.test(t) || this.warnedTopics.has(t)) continue;
      this.warnedTopics.add(t);
      this.log.warn({ topic: t }, 'topic is not an area name ([a-z][a-z0-9_]*): `*` subscriptions will not see it');
    }
  }
}

/**
 * One kafkajs consumer in the group. `*` resolves the prefix's area topics itself (the regex) and
 * restarts the consumer when a new one appears: kafkajs matches a RegExp subscription only once,
 * at subscribe time. New partitions of a group start from the earliest offset.
 */
class KafkaSubscription implements Subscription {
  private consumer: Consumer | null = null;
  private current: string[] = [];
  private stopped = false;
  private chain: Promise<void> = Promise.resolve();
  private refreshTimer: ReturnType<typeof setInterval> | null = null;
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();
  private readonly failures = new Map<string, number>();
  private readonly wildcard: boolean;
  private readonly pattern: RegExp;
  private readonly log: Logger;

  constructor(
    private readonly bus: KafkaBus,
    private readonly options: SubscribeOptions,
    private readonly onStop: () => void,
  ) {
    this.wildcard = options.topics.includes('*');
    this.pattern = allTopicsPattern(bus.topicPrefix);
    this.log = bus.logger.child({ group: options.group });
  }

  async start(): Promise<void> {
    await this.restart();
    if (this.wildcard) {
      this.refreshTimer = setInterval(() => void this.restart().catch((err) => this.report(err)), this.bus.options.topicRefreshMs ?? 10_000);
      this.refreshTimer.unref?.();
    }
  }

  /** The bus published to these topics: a `*` subscription picks up new ones at once. */
  topicsSeen(topics: string[]): void {
    if (!this.wildcard || this.stopped) return;
    if (topics.some((t) => this.pattern.test(t) && !this.current.includes(t))) void this.restart().catch((err) => this.report(err));
  }

  private async resolveTopics(): Promise<string[]> {
    const prefix = this.bus.topicPrefix;
    if (this.wildcard) return (await this.bus.listTopics()).filter((t) => this.pattern.test(t)).sort();
    const topics = [...new Set(this.options.topics.map((t) => kafkaTopic(prefix, t)))].sort();
    if (this.bus.options.ensureTopics) await this.bus.ensureTopics(topics);
    return topics;
  }

  /** (Re)starts the consumer when its topic list changed; serialised. */
  private restart(force = false): Promise<void> {
    const run = this.chain.then(async () => {
      if (this.stopped) return;
      const topics = await this.resolveTopics();
      const same = topics.length === this.current.length && topics.every((t, i) => t === this.current[i]);
      if (same && !force && (this.consumer || topics.length === 0)) return;
      if (this.consumer) {
        const old = this.consumer;
        this.consumer = null;
        await old.disconnect().catch((err) => this.log.warn({ err: String(err) }, 'consumer disconnect failed'));
      }
      this.current = topics;
      if (topics.length === 0 || this.stopped) return; // `*` before any area topic exists
      const consumer = this.bus.newConsumer(this.options.group);
      consumer.on(consumer.events.CRASH, (e: ConsumerCrashEvent) => this.onCrash(consumer, e));
      await consumer.connect();
      try {
        await consumer.subscribe({ topics, fromBeginning: this.options.startAt !== 'latest' });
        await consumer.run({
          autoCommit: false,
          eachBatchAutoResolve: false,
          eachBatch: (payload) => this.eachBatch(consumer, payload),
        });
      } catch (err) {
        await consumer.disconnect().catch(() => undefined);
        throw err;
      }
      this.consumer = consumer;
      this.log.debug({ topics }, 'kafka consumer running');
    });
    this.chain = run.catch(() => undefined);
    return run;
  }

  private async eachBatch(consumer: Consumer, payload: EachBatchPayload): Promise<void> {
    const { batch } = payload;
    const key = `${batch.topic}:${batch.partition}`;
    await processBatch(
      {
        prefix: this.bus.topicPrefix,
        batchSize: this.options.batchSize ?? DEFAULT_BATCH_SIZE,
        decode: (value) => this.bus.codec.decode(value),
        handler: this.options.handler,
        stopped: () => this.stopped,
        failed: (offset, err) => this.retryLater(consumer, batch.topic, batch.partition, offset, payload.pause, err),
        succeeded: () => this.failures.delete(key),
      },
      payload,
    );
  }

  /**
   * A failed chunk: seek its partition back to the chunk's first offset and pause that partition
   * for a backoff, then the same messages come again, first (what the handler contract asks).
   * Not by throwing to kafkajs: that restarts the fetch of every partition, with kafkajs's own
   * retry policy, and after `retry.retries` crashes and restarts the consumer (a group rebalance).
   */
  private retryLater(consumer: Consumer, topic: string, partition: number, offset: string, pause: () => () => void, err: unknown): void {
    const key = `${topic}:${partition}`;
    const failures = (this.failures.get(key) ?? 0) + 1;
    this.failures.set(key, failures);
    const delay = retryDelayMs(failures);
    this.log.warn({ topic, partition, offset, failures, retryInMs: delay, err: err instanceof Error ? err.message : String(err) }, 'bus handler failed; batch will be redelivered');
    this.report(err);
    try {
      // the next fetch starts at the first unhandled offset (nothing was resolved past it either)
      consumer.seek({ topic, partition, offset });
      const resume = pause();
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        if (!this.stopped) resume();
      }, delay);
      timer.unref?.();
      this.timers.add(timer);
    } catch (seekErr) {
      this.log.warn({ err: String(seekErr) }, 'seek after a failed batch failed');
    }
  }

  /** kafkajs restarts a consumer after retriable crashes itself; after the others we do. */
  private onCrash(consumer: Consumer, event: ConsumerCrashEvent): void {
    const { error, restart } = event.payload;
    this.report(error);
    if (restart || this.stopped || this.consumer !== consumer) return;
    this.log.error({ err: error.message }, 'kafka consumer crashed; restarting in 5 s');
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.restart(true).catch((err) => this.report(err));
    }, 5000);
    timer.unref?.();
    this.timers.add(timer);
  }

  private report(err: unknown): void {
    try {
      this.options.onError?.(err);
    } catch {
      // the callback's own failure is not ours to handle
    }
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    if (this.refreshTimer) clearInterval(this.refreshTimer);
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    await this.chain;
    const consumer = this.consumer;
    this.consumer = null;
    try {
      await consumer?.disconnect();
    } finally {
      this.onStop();
    }
  }
}

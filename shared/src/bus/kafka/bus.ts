import { randomBytes } from 'node:crypto';
import { CompressionTypes, Kafka, type Admin, type Consumer, type Producer } from 'kafkajs';
import { SchemaRegistry } from '@kafkajs/confluent-schema-registry';
import type { Logger } from '../../logger';
import type { Bus, BusMessage, PartitionEnd, SubscribeOptions, Subscription } from '../types';
import { createPayloadCodec, type PayloadCodec } from '../codec';
import { allTopicsPattern, kafkaTopic, toSizedSends, toTopicBatches } from './records';
import { kafkaLogLevel, pinoLogCreator } from './logging';
import { KafkaSubscription } from './subscription';
import { KeyHashPartitioner } from './partitioner';

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

const DEFAULT_PARTITIONS = 6;

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
      // kafkajs's DefaultPartitioner's partitions, hashed without its 64-bit Long objects (partitioner.ts)
      createPartitioner: KeyHashPartitioner,
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

export class KafkaBus implements Bus {
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

  /** The replay's group deleted on the cluster (a rebuild's): a later subscription of that name reads from the start. */
  async forget(group: string): Promise<void> {
    const admin = await this.adminClient();
    try {
      await admin.deleteGroups([this.groupId(group)]);
    } catch (err) {
      // a group never created (or deleted before) is forgotten already
      const codes = ((err as { groups?: Array<{ error?: { type?: string } }> }).groups ?? []).map((g) => g.error?.type);
      if (codes.length === 0 || codes.some((c) => c !== 'GROUP_ID_NOT_FOUND')) throw err;
    }
  }

  async partitionEnds(topics: string[]): Promise<PartitionEnd[]> {
    const admin = await this.adminClient();
    const existing = new Set(await admin.listTopics());
    const out: PartitionEnd[] = [];
    for (const topic of topics) {
      const name = kafkaTopic(this.prefix, topic);
      if (!existing.has(name)) continue;
      for (const p of await admin.fetchTopicOffsets(name)) out.push({ topic, partition: p.partition, low: p.low, high: p.high });
    }
    return out;
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

import type { Consumer, ConsumerCrashEvent, EachBatchPayload } from 'kafkajs';
import type { Logger } from '../../logger';
import type { ConsumedMessage, SubscribeOptions, Subscription } from '../types';
import { commitGathered, Gather, processBatch, retryDelayMs, type PartitionOffset } from './batches';
import { allTopicsPattern, kafkaTopic } from './records';
import type { KafkaBus } from './bus';

const DEFAULT_BATCH_SIZE = 200;
/**
 * Partitions whose fetched batches kafkajs hands to `eachBatch` at once (its workers): their chunks
 * are gathered into one handler call and one offset commit (batches.ts, Gather). At least the
 * partitions a member is assigned (6 per topic by default).
 */
const PARTITIONS_AT_ONCE = 64;

/** What one running kafkajs consumer gathers: its partitions' chunks and their offset commits. */
interface Gathers {
  handler: Gather<ConsumedMessage[]>;
  commit: Gather<{ offset: PartitionOffset; commitOffsets: EachBatchPayload['commitOffsetsIfNecessary'] }>;
}

/**
 * One kafkajs consumer in the group. `*` resolves the prefix's area topics itself (the regex) and
 * restarts the consumer when a new one appears: kafkajs matches a RegExp subscription only once,
 * at subscribe time. New partitions of a group start from the earliest offset.
 */
export class KafkaSubscription implements Subscription {
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
      const gathers: Gathers = {
        handler: new Gather((chunks) => this.options.handler(chunks.flat()), this.options.batchSize ?? DEFAULT_BATCH_SIZE),
        // the offsets of one gathered handler call: one request
        commit: new Gather(commitGathered),
      };
      consumer.on(consumer.events.CRASH, (e: ConsumerCrashEvent) => this.onCrash(consumer, e));
      await consumer.connect();
      try {
        await consumer.subscribe({ topics, fromBeginning: this.options.startAt !== 'latest' });
        await consumer.run({
          autoCommit: false,
          eachBatchAutoResolve: false,
          partitionsConsumedConcurrently: PARTITIONS_AT_ONCE,
          eachBatch: (payload) => this.eachBatch(consumer, gathers, payload),
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

  private async eachBatch(consumer: Consumer, gathers: Gathers, payload: EachBatchPayload): Promise<void> {
    const { batch } = payload;
    const key = `${batch.topic}:${batch.partition}`;
    await processBatch(
      {
        prefix: this.bus.topicPrefix,
        batchSize: this.options.batchSize ?? DEFAULT_BATCH_SIZE,
        decode: (value) => this.bus.codec.decode(value),
        handler: (chunk) => gathers.handler.submit(chunk, chunk.length),
        commit: (offset, commitOffsets) => gathers.commit.submit({ offset, commitOffsets }),
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

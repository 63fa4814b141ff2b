// One kafkajs batch handed to a subscription's handler: chunks, commits after the handler, redelivery on failure.
import type { EachBatchPayload } from 'kafkajs';
import type { ConsumedMessage } from '../types';
import { backoffDelay, busBackoff } from '../../retry';
import { fromKafkaMessage, nextOffset } from './records';

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
  /** commits a partition's next offset with the payload's commitOffsetsIfNecessary (default: that call, one request each) */
  commit?(offset: PartitionOffset, commitOffsets: EachBatchPayload['commitOffsetsIfNecessary']): Promise<void>;
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
    if (run.commit) await run.commit({ topic: batch.topic, partition: batch.partition, offset: nextOffset(last) }, commitOffsetsIfNecessary);
    else await commitOffsetsIfNecessary({ topics: [{ topic: batch.topic, partitions: [{ partition: batch.partition, offset: nextOffset(last) }] }] });
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

/**
 * Calls made in the same turn of the event loop, run as one: `run` gets the items submitted before it
 * starts, in submission order, at most `limit` by weight (always at least one; the rest go in the next
 * run), and every submitter gets that run's outcome. A subscription gathers its partitions' chunks
 * so (one handler call, so one transaction, for the partitions of a fetch) and their offset commits
 * (one request): with kafkajs handing each partition to `eachBatch` on its own, a transaction and a
 * commit request per partition's chunk cost the consumer and the broker per event (bench/README.md).
 * Each partition still hands in its next chunk only after its last one ran, so the order per
 * partition (per key) holds; a failed run fails every chunk in it, each redelivered from its start.
 */
export class Gather<T> {
  private queue: Array<{ item: T; weight: number; resolve: () => void; reject: (err: unknown) => void }> = [];
  private active = false;

  constructor(
    private readonly run: (items: T[]) => Promise<void>,
    private readonly limit = Infinity,
  ) {}

  submit(item: T, weight = 1): Promise<void> {
    const done = new Promise<void>((resolve, reject) => this.queue.push({ item, weight, resolve, reject }));
    if (!this.active) {
      this.active = true;
      // after this turn's other partitions (their decoding is microtasks) have handed theirs in
      setImmediate(() => void this.drain());
    }
    return done;
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      let n = 0;
      let weight = 0;
      while (n < this.queue.length && (n === 0 || weight + this.queue[n].weight <= this.limit)) weight += this.queue[n++].weight;
      const taken = this.queue.splice(0, n);
      try {
        await this.run(taken.map((t) => t.item));
        for (const t of taken) t.resolve();
      } catch (err) {
        for (const t of taken) t.reject(err);
      }
    }
    this.active = false;
  }
}

/** A partition's next offset to commit, as the commit gather takes it. */
export interface PartitionOffset {
  topic: string;
  partition: number;
  offset: string;
}

/**
 * Offsets of several partitions as one commit: by the first one's `commitOffsetsIfNecessary` (the
 * consumer group's own commit, which a stopping consumer still sends for what it handled; kafkajs's
 * `consumer.commitOffsets` drops it once the consumer stops), a partition given twice at its later offset.
 */
export async function commitGathered(items: Array<{ offset: PartitionOffset; commitOffsets: EachBatchPayload['commitOffsetsIfNecessary'] }>): Promise<void> {
  if (items.length === 0) return;
  const byTopic = new Map<string, Map<number, string>>();
  for (const { offset: o } of items) {
    const partitions = byTopic.get(o.topic) ?? new Map<number, string>();
    partitions.set(o.partition, o.offset);
    byTopic.set(o.topic, partitions);
  }
  await items[0].commitOffsets({ topics: [...byTopic].map(([topic, partitions]) => ({ topic, partitions: [...partitions].map(([partition, offset]) => ({ partition, offset })) })) });
}

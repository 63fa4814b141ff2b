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

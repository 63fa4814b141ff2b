// Bus messages ⇄ Kafka records: topics, keys, headers, send sizes, positions (pure; unit-tested without a broker).
import type { IHeaders, KafkaMessage, Message } from 'kafkajs';
import type { BusMessage, ConsumedMessage } from '../types';

export const EVENT_ID_HEADER = 'event-id';
export const EVENT_TYPE_HEADER = 'event-type';

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

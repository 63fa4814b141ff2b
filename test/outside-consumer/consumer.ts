/**
 * A consumer of the platform's events as another team would write it: `kafkajs` and
 * `@kafkajs/confluent-schema-registry` only, nothing of this repository. It reads what docs/kafka.md,
 * "Consuming events from Kafka", documents: area topics, key = the record's id, headers `event-id`
 * and `event-type`, values in the registry's JSON Schema wire format decoded by their schema id.
 */
import { Kafka, logLevel, type IHeaders } from 'kafkajs';
import { SchemaRegistry } from '@kafkajs/confluent-schema-registry';

export interface ConsumedEvent {
  topic: string;
  partition: number;
  offset: string;
  /** the record's id (the key) */
  key: string | null;
  headers: Record<string, string>;
  /** the registry schema id the value names (null: a plain JSON value, from a platform without a registry) */
  schemaId: number | null;
  /** the decoded (and, with a schema id, validated) event envelope */
  event: Record<string, unknown>;
}

export interface ConsumeAllOptions {
  brokers: string[];
  registryUrl: string;
  /** topic names, or patterns (e.g. /^acme-[a-z_]+$/ for every area topic under a prefix) */
  topics: Array<string | RegExp>;
  groupId: string;
  /** stop once this answers true for what has arrived so far */
  until: (received: ConsumedEvent[]) => boolean;
  /** give up after this long (ms, default 60 000): rejects with what had arrived */
  timeoutMs?: number;
}

function headerText(value: IHeaders[string]): string | undefined {
  const one = Array.isArray(value) ? value[value.length - 1] : value;
  return one === undefined ? undefined : Buffer.isBuffer(one) ? one.toString('utf8') : String(one);
}

/** Reads the topics from the beginning until `until` is satisfied; answers every event read, in arrival order. */
export async function consumeAll(options: ConsumeAllOptions): Promise<ConsumedEvent[]> {
  const kafka = new Kafka({ clientId: `${options.groupId}-reader`, brokers: options.brokers, logLevel: logLevel.ERROR });
  const registry = new SchemaRegistry({ host: options.registryUrl });
  const consumer = kafka.consumer({ groupId: options.groupId });
  const received: ConsumedEvent[] = [];
  await consumer.connect();
  try {
    await consumer.subscribe({ topics: options.topics, fromBeginning: true });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        const error = new Error(`consumeAll: gave up after ${options.timeoutMs ?? 60_000} ms with ${received.length} events (${received.map((r) => r.headers['event-type']).join(', ')})`);
        reject(Object.assign(error, { received }));
      }, options.timeoutMs ?? 60_000);
      let done = false;
      // kafkajs restarts the consumer after a retriable crash by itself; any other ends the read
      consumer.on(consumer.events.CRASH, ({ payload }) => {
        if (payload.restart || done) return;
        done = true;
        clearTimeout(timer);
        reject(payload.error);
      });
      consumer
        .run({
          eachMessage: async ({ topic, partition, message }) => {
            if (done) return;
            const value = message.value;
            let schemaId: number | null = null;
            let event: Record<string, unknown>;
            try {
              if (!value) throw new Error('no value');
              // magic byte 0: the registry's wire format (then 4 bytes of schema id); else plain JSON
              schemaId = value[0] === 0 ? value.readInt32BE(1) : null;
              event = schemaId === null ? JSON.parse(value.toString('utf8')) : await registry.decode(value);
            } catch (err) {
              // a value this reader cannot decode ends the read: the caller sees which and why
              done = true;
              clearTimeout(timer);
              reject(new Error(`${topic}/${partition}@${message.offset}: ${err instanceof Error ? `${err.name}: ${err.message}` : String(err)}`));
              return;
            }
            const headers: Record<string, string> = {};
            for (const [name, v] of Object.entries(message.headers ?? {})) {
              const text = headerText(v);
              if (text !== undefined) headers[name] = text;
            }
            received.push({ topic, partition, offset: message.offset, key: message.key ? message.key.toString('utf8') : null, headers, schemaId, event });
            if (options.until(received)) {
              done = true;
              clearTimeout(timer);
              resolve();
            }
          },
        })
        .catch((err: unknown) => {
          clearTimeout(timer);
          reject(err);
        });
    });
  } finally {
    await consumer.disconnect();
  }
  return received;
}

import { COMPATIBILITY, SchemaType, type SchemaRegistry } from '@kafkajs/confluent-schema-registry';
import { eventSubject, eventTypeJsonSchema, type JsonSchemaObject } from './schemas';
import { payloadJson } from './payload-text';

/** The parts of the registry client the codec uses. */
export type RegistryClient = Pick<SchemaRegistry, 'register' | 'getSchema' | 'decode'>;

/** A subject's registered schema: its id and the registry client's validator of it (the one `decode` runs too). */
interface Writer {
  id: number;
  schema: Awaited<ReturnType<SchemaRegistry['getSchema']>>;
}

/** The registry's JSON Schema wire format: magic byte 0, the schema id (4 bytes, big-endian), the JSON. */
function wireFormat(id: number, json: string): Buffer {
  const value = Buffer.allocUnsafe(5 + Buffer.byteLength(json));
  value[0] = 0;
  value.writeInt32BE(id, 1);
  value.write(json, 5, 'utf8');
  return value;
}

/** How the Kafka adapter writes and reads event payloads: plain JSON, or the registry's JSON Schema wire format. */
export interface PayloadCodec {
  encode(topic: string, payload: Record<string, unknown>): Promise<Buffer>;
  decode(value: Buffer | null): Promise<Record<string, unknown>>;
}

function asObject(value: unknown): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error('event payload is not a JSON object');
  return value as Record<string, unknown>;
}

/**
 * Without a registry: values are plain JSON. With one: each event type's JSON Schema is registered
 * once per topic under subject `<topic>-<type>` (TopicRecordNameStrategy, see `eventSubject`; cached),
 * the subject set to BACKWARD compatibility when the registry first sees it, and each value is
 * written in the registry's wire format with its type's schema id, validated on encode and decode.
 * Decoding goes by the schema id in the value alone, so readers need no knowledge of the subjects.
 * Either way decode reads both forms (magic byte 0 = registry format), so producers and consumers
 * configured differently still understand each other.
 */
/** An event its type's schema refused on the way out (a producer's bug): it went out as plain JSON. */
export type InvalidEventReport = (info: { topic: string; type: string; eventId: unknown; error: string }) => void;

export function createPayloadCodec(
  registry?: RegistryClient,
  schemaOf: (type: string) => JsonSchemaObject = eventTypeJsonSchema,
  onInvalid?: InvalidEventReport,
): PayloadCodec {
  const writers = new Map<string, Promise<Writer>>();
  const writerOf = (client: RegistryClient, topic: string, type: string): Promise<Writer> => {
    const subject = eventSubject(topic, type);
    let writer = writers.get(subject);
    if (!writer) {
      // the client sets the compatibility on a subject's first registration (and refuses a subject configured otherwise)
      writer = client
        .register({ type: SchemaType.JSON, schema: JSON.stringify(schemaOf(type)) }, { subject, compatibility: COMPATIBILITY.BACKWARD })
        .then(async ({ id }) => ({ id, schema: await client.getSchema(id) }));
      // a failed registration is tried again by the next publish
      writer.catch(() => writers.delete(subject));
      writers.set(subject, writer);
    }
    return writer;
  };
  return {
    async encode(topic, payload) {
      // the payload's JSON: the text the relay read from the outbox when it is one of its payloads (payload-text.ts)
      const json = payloadJson(payload);
      if (!registry) return Buffer.from(json);
      if (typeof payload.type !== 'string' || payload.type === '') throw new Error('event payload has no type: no schema subject to write it under');
      const { id, schema } = await writerOf(registry, topic, payload.type);
      // validated as the registry client's encode does (its validator, compiled once per schema id), the wire format written here from the JSON as it is
      const paths: string[][] = [];
      if (schema.isValid(payload, { errorHook: (path) => paths.push(path) })) return wireFormat(id, json);
      // An event its own schema refuses would be refused on every retry: the relay would stop
      // publishing the service's events for good. It goes out as plain JSON instead (the platform's
      // consumers read both forms; a registry deserializer refuses it, so other teams park it) and
      // is reported as the producer's bug it is.
      onInvalid?.({ topic, type: payload.type, eventId: payload.id, error: `invalid payload at ${JSON.stringify(paths)}` });
      return Buffer.from(json);
    },
    async decode(value) {
      if (!value || value.length === 0) throw new Error('empty event payload');
      if (value[0] !== 0) return asObject(JSON.parse(value.toString('utf8')));
      if (registry) return asObject(await registry.decode(value));
      // registry wire format without a registry: 1 magic byte + 4 bytes schema id, then the JSON
      return asObject(JSON.parse(value.subarray(5).toString('utf8')));
    },
  };
}

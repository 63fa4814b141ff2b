import { COMPATIBILITY, SchemaType, type SchemaRegistry } from '@kafkajs/confluent-schema-registry';
import { eventSubject, eventTypeJsonSchema, type JsonSchemaObject } from './schemas';

/** The parts of the registry client the codec uses. */
export type RegistryClient = Pick<SchemaRegistry, 'register' | 'encode' | 'decode'>;

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
  const ids = new Map<string, Promise<number>>();
  const schemaId = (client: RegistryClient, topic: string, type: string): Promise<number> => {
    const subject = eventSubject(topic, type);
    let id = ids.get(subject);
    if (!id) {
      // the client sets the compatibility on a subject's first registration (and refuses a subject configured otherwise)
      id = client
        .register({ type: SchemaType.JSON, schema: JSON.stringify(schemaOf(type)) }, { subject, compatibility: COMPATIBILITY.BACKWARD })
        .then((r) => r.id);
      // a failed registration is tried again by the next publish
      id.catch(() => ids.delete(subject));
      ids.set(subject, id);
    }
    return id;
  };
  return {
    async encode(topic, payload) {
      if (!registry) return Buffer.from(JSON.stringify(payload));
      if (typeof payload.type !== 'string' || payload.type === '') throw new Error('event payload has no type: no schema subject to write it under');
      const id = await schemaId(registry, topic, payload.type);
      try {
        return await registry.encode(id, payload);
      } catch (err) {
        // An event its own schema refuses would be refused on every retry: the relay would stop
        // publishing the service's events for good. It goes out as plain JSON instead (the platform's
        // consumers read both forms; a registry deserializer refuses it, so other teams park it) and
        // is reported as the producer's bug it is.
        if ((err as Error)?.name !== 'ConfluentSchemaRegistryValidationError') throw err;
        onInvalid?.({ topic, type: payload.type, eventId: payload.id, error: `${(err as Error).message} at ${JSON.stringify((err as { paths?: unknown }).paths ?? [])}` });
        return Buffer.from(JSON.stringify(payload));
      }
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

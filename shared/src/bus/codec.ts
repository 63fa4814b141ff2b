import { SchemaType, type SchemaRegistry } from '@kafkajs/confluent-schema-registry';
import { eventJsonSchema, type JsonSchemaObject } from './schemas';

/** How the Kafka adapter writes and reads event payloads: plain JSON, or the registry's JSON Schema wire format. */
/** The parts of the registry client the codec uses. */
export type RegistryClient = Pick<SchemaRegistry, 'register' | 'encode' | 'decode'>;

export interface PayloadCodec {
  encode(topic: string, payload: Record<string, unknown>): Promise<Buffer>;
  decode(value: Buffer | null): Promise<Record<string, unknown>>;
}

function asObject(value: unknown): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error('event payload is not a JSON object');
  return value as Record<string, unknown>;
}

/**
 * Without a registry: values are plain JSON. With one: the JSON Schema is registered once per topic
 * (subject `<topic>-value`, cached) and values use the registry's wire format, validated on encode
 * and decode. Either way decode reads both forms (magic byte 0 = registry format), so producers
 * and consumers configured differently still understand each other.
 */
export function createPayloadCodec(registry?: RegistryClient, schema: JsonSchemaObject = eventJsonSchema()): PayloadCodec {
  const schemaText = JSON.stringify(schema);
  const ids = new Map<string, Promise<number>>();
  const schemaId = (client: RegistryClient, topic: string): Promise<number> => {
    let id = ids.get(topic);
    if (!id) {
      id = client.register({ type: SchemaType.JSON, schema: schemaText }, { subject: `${topic}-value` }).then((r) => r.id);
      // a failed registration is tried again by the next publish
      id.catch(() => ids.delete(topic));
      ids.set(topic, id);
    }
    return id;
  };
  return {
    async encode(topic, payload) {
      if (!registry) return Buffer.from(JSON.stringify(payload));
      return registry.encode(await schemaId(registry, topic), payload);
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

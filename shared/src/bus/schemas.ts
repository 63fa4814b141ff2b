import { z } from 'zod';
import { EventEnvelope, eventTypes } from '@bop/contracts';
import { eventObjectSchemas } from './event-objects';

/** A JSON Schema document (plain JSON). */
export type JsonSchemaObject = Record<string, unknown>;

/** One event type's published schema: its topic (without the prefix) and the JSON Schema of its payloads. */
export interface EventTypeSchema {
  type: string;
  /** the owning service's name: its relay publishes the service's outbox there */
  topic: string;
  schema: JsonSchemaObject;
}

/**
 * The Schema Registry subject of an event type's schema on a topic: Confluent's
 * TopicRecordNameStrategy (`<topic>-<record name>`, the record name being the event type). One
 * topic (a service's) carries many event types, each with its own schema and compatibility history.
 */
export function eventSubject(topic: string, type: string): string {
  return `${topic}-${type}`;
}

/**
 * Draft-07, not zod's default 2020-12: the registry client validates payloads with ajv 7, which
 * compiles draft-07 only, and Confluent's JSON Schema provider supports it in every version.
 * `io: 'output'` describes what producers write: closed objects (`additionalProperties: false`).
 */
function toJsonSchema(schema: z.ZodType): JsonSchemaObject {
  return forAjv7(z.toJSONSchema(schema, { target: 'draft-7', io: 'output' }) as JsonSchemaObject);
}

// keywords whose value is a map of names to subschemas (the names are data, not keywords)
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'definitions', '$defs', 'dependencies']);

/**
 * Drops `format`: ajv 7 (the registry client's validator, on the consumer side too) refuses to
 * compile a schema with a format it has no definition of, and it defines none by default. The
 * contracts' formats (date-time, date) come with zod's `pattern` beside them: the strings stay checked.
 */
function forAjv7(node: unknown, inMap = false): JsonSchemaObject {
  if (Array.isArray(node)) return node.map((n) => forAjv7(n)) as unknown as JsonSchemaObject;
  if (node === null || typeof node !== 'object') return node as JsonSchemaObject;
  const out: JsonSchemaObject = {};
  for (const [key, value] of Object.entries(node)) {
    if (!inMap && key === 'format' && typeof value === 'string') continue;
    out[key] = inMap ? forAjv7(value) : forAjv7(value, SCHEMA_MAPS.has(key));
  }
  return out;
}

const cache = new Map<string, string>();

function cached(key: string, build: () => JsonSchemaObject): JsonSchemaObject {
  let text = cache.get(key);
  if (text === undefined) {
    text = JSON.stringify(build());
    cache.set(key, text);
  }
  // a fresh copy each time: callers may not mutate the cached document
  return JSON.parse(text) as JsonSchemaObject;
}

/**
 * The JSON Schema of any event payload: the contracts' `EventEnvelope` (type any string,
 * `data.object` any object), derived with zod 4's `z.toJSONSchema`. Internal (non-catalogue)
 * event types are published under it.
 */
export function eventJsonSchema(): JsonSchemaObject {
  return cached('*', () => ({
    ...toJsonSchema(EventEnvelope),
    title: 'Event',
    description: 'Event envelope (id evt_…, type, createdAt, apiVersion v1, actor, locationId, data.object, data.previous)',
  }));
}

const catalogue = new Map(eventTypes.map((e) => [e.type, e]));

/** The envelope of one event type as JSON Schema: `type` fixed to it, `data.object` the given object schema. */
export function envelopeJsonSchema(type: string, object: z.ZodType, description: string): JsonSchemaObject {
  const envelope = EventEnvelope.extend({
    type: z.literal(type),
    data: z.object({ object, previous: z.record(z.string(), z.unknown()).optional() }),
  });
  return { ...toJsonSchema(envelope), title: type, description };
}

/**
 * The JSON Schema of one event type's payloads: for a catalogued type the envelope with `type`
 * fixed to it and `data.object` the resource's schema (the generic object where the event's object
 * is no resource of the contracts); for any other (internal) type the generic envelope.
 */
export function eventTypeJsonSchema(type: string): JsonSchemaObject {
  const def = catalogue.get(type);
  if (!def) return eventJsonSchema();
  const object = eventObjectSchemas[type];
  return cached(type, () =>
    envelopeJsonSchema(
      type,
      object ?? z.record(z.string(), z.unknown()),
      `${type} (topic ${def.service}): the event envelope; data.object ${object ? 'the resource as the API returns it' : 'the event\'s object'}, data.previous the changed fields' old values`,
    ),
  );
}

/** Every public (catalogued) event type with its topic and schema, in catalogue order. */
export function eventTypeSchemas(): EventTypeSchema[] {
  return eventTypes.map((e) => ({ type: e.type, topic: e.service, schema: eventTypeJsonSchema(e.type) }));
}

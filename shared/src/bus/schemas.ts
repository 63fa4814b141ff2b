import { z } from 'zod';
import { EventEnvelope } from '@bop/contracts';

/** A JSON Schema document (plain JSON). */
export type JsonSchemaObject = Record<string, unknown>;

let envelopeSchema: string | undefined;

/**
 * The JSON Schema of an event payload: the contracts' `EventEnvelope`, derived with zod 4's
 * `z.toJSONSchema`. Registered in the Schema Registry as the value schema of every area topic
 * (subject `<topic>-value`) when `SCHEMA_REGISTRY_URL` is set.
 *
 * Draft-07, not zod's default 2020-12: the registry client validates payloads with ajv 7, which
 * compiles draft-07 only, and Confluent's JSON Schema provider supports it in every version.
 * `io: 'output'` describes what producers write: closed objects (`additionalProperties: false`).
 */
export function eventJsonSchema(): JsonSchemaObject {
  envelopeSchema ??= JSON.stringify({
    ...z.toJSONSchema(EventEnvelope, { target: 'draft-7', io: 'output' }),
    title: 'Event',
    description: 'Event envelope (id evt_…, type, createdAt, apiVersion v1, actor, locationId, data.object, data.previous)',
  });
  // a fresh copy each time: callers may not mutate the cached document
  return JSON.parse(envelopeSchema) as JsonSchemaObject;
}

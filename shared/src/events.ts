import type { EntityManager } from '@mikro-orm/postgresql';
import type { EventEnvelope } from '@bop/contracts';
import { now } from './clock';
import type { Principal } from './auth';
import { eventEnvelope } from './work';
import { currentTraceParent } from './telemetry/trace-context';

export interface RecordEventInput {
  type: string;
  aggregateType: string;
  aggregateId: string;
  locationId: string | null;
  /** the full resource as the API returns it */
  object: Record<string, unknown>;
  /** old values of changed fields (update events) */
  previous?: Record<string, unknown>;
  actor: Principal | null;
}

/**
 * Records an event in the outbox through `em`, so it commits (or not) with the change.
 * Call it inside the transaction that changes the record, after locking the record's row.
 */
export function recordEvent(em: EntityManager, input: RecordEventInput): EventEnvelope {
  const createdAt = now();
  const envelope = eventEnvelope(input, input.actor, createdAt);
  em.create('OutboxEntry', {
    eventId: envelope.id,
    type: input.type,
    aggregateType: input.aggregateType,
    aggregateId: input.aggregateId,
    locationId: input.locationId,
    payload: envelope as unknown as Record<string, unknown>,
    createdAt,
    publishedAt: null,
    traceParent: currentTraceParent(),
  });
  return envelope;
}

/** Old values of the fields that differ between two API representations (for `data.previous`). */
export function changedFields(before: Record<string, unknown>, after: Record<string, unknown>, ignore: string[] = ['version', 'updatedAt']): Record<string, unknown> {
  const previous: Record<string, unknown> = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (ignore.includes(key)) continue;
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) previous[key] = before[key] ?? null;
  }
  return previous;
}

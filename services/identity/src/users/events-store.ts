import type { EntityManager } from '@mikro-orm/postgresql';
import { recordEvent, type Principal } from '@bop/shared';

export type Actor = Principal | null;

/** Records an internal identity event (`identity.<entity>.<verb>`) in the outbox of the current transaction. */
export function emit(
  em: EntityManager,
  type: string,
  aggregate: { type: string; id: string },
  object: object,
  actor: Actor,
  previous?: Record<string, unknown>,
): void {
  recordEvent(em, {
    type: `identity.${type}`,
    aggregateType: aggregate.type,
    aggregateId: aggregate.id,
    locationId: null,
    object: object as Record<string, unknown>,
    previous: previous && Object.keys(previous).length > 0 ? previous : undefined,
    actor,
  });
}

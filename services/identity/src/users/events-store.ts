import type { Principal, Work } from '@bop/shared';

/**
 * Records an internal identity event (`identity.<entity>.<verb>`) in the unit's transaction, as the
 * unit's actor (`actor` only where the event's differs, e.g. the system accepting an invitation).
 */
export function emit(
  w: Work,
  type: string,
  aggregate: { type: string; id: string },
  object: object,
  previous?: Record<string, unknown>,
  actor?: Principal,
): void {
  w.emit(
    {
      type: `identity.${type}`,
      aggregateType: aggregate.type,
      aggregateId: aggregate.id,
      locationId: null,
      object: object as Record<string, unknown>,
      previous: previous && Object.keys(previous).length > 0 ? previous : undefined,
    },
    actor ? { actor } : undefined,
  );
}

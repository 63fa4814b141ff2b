import type { Delivery } from './entities';

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

export function deliveryDto(d: Omit<Delivery, 'body'>) {
  return {
    id: d.id,
    endpointId: d.endpointId,
    eventId: d.eventId,
    eventType: d.eventType,
    status: d.status as 'pending' | 'succeeded' | 'failed',
    attempts: d.attempts,
    lastStatus: d.lastStatus ?? null,
    lastError: d.lastError ?? null,
    lastAttemptAt: iso(d.lastAttemptAt),
    nextAttemptAt: d.status === 'pending' ? iso(d.nextAttemptAt) : null,
    replayId: d.replayId ?? null,
    createdAt: d.createdAt.toISOString(),
    updatedAt: d.updatedAt.toISOString(),
  };
}

export function deliveryDetailDto(d: Delivery) {
  return { ...deliveryDto(d), body: d.body };
}

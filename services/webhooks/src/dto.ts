import type { Delivery, Endpoint } from './entities';

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

export interface Counts {
  pending: number;
  failed: number;
}

export function endpointDto(e: Endpoint, counts: Counts = { pending: 0, failed: 0 }) {
  return {
    id: e.id,
    url: e.url,
    events: e.events,
    description: e.description ?? null,
    status: e.status as 'active' | 'disabled',
    disabledReason: (e.disabledReason ?? null) as 'failures' | 'gone' | 'manual' | null,
    integrationId: e.integrationId ?? null,
    pendingDeliveries: counts.pending,
    failedDeliveries: counts.failed,
    consecutiveFailures: e.consecutiveFailures,
    version: e.version,
    createdAt: e.createdAt.toISOString(),
    updatedAt: e.updatedAt.toISOString(),
  };
}

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
    createdAt: d.createdAt.toISOString(),
    updatedAt: d.updatedAt.toISOString(),
  };
}

export function deliveryDetailDto(d: Delivery) {
  return { ...deliveryDto(d), body: d.body };
}

import type { Endpoint } from './entities';

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

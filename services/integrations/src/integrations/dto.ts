import type { Integration as IntegrationView, IntegrationDetail as IntegrationDetailView } from '@bop/contracts';
import type { Integration } from './entities';
import type { IntegrationKey } from '../keys/entities';
import { keyDto } from '../keys/dto';
import { maskConfig, missingConfig } from './config-values';
import { deriveHealth, type ReportedHealth } from '../health/derive-health';
import type { EndpointView } from './collaborators';

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

/** The integration as the API shows it; health derived at `now` (never secrets: config is masked). */
export function integrationDto(i: Integration, now: Date): IntegrationView {
  return {
    id: i.id,
    name: i.name,
    description: i.description,
    status: i.status as 'active' | 'paused',
    manifest: i.manifest,
    config: maskConfig(i.manifest.config, i.config),
    missingConfig: missingConfig(i.manifest.config, i.config),
    health: deriveHealth({ reported: i.reportedHealth as ReportedHealth | null, lastHeartbeatAt: i.lastHeartbeatAt ?? null, intervalSeconds: i.heartbeatIntervalSeconds, now }),
    healthMessage: i.healthMessage ?? null,
    lastHeartbeatAt: iso(i.lastHeartbeatAt),
    heartbeatIntervalSeconds: i.heartbeatIntervalSeconds,
    pausedAt: iso(i.pausedAt),
    version: i.version,
    createdAt: i.createdAt.toISOString(),
    updatedAt: i.updatedAt.toISOString(),
  };
}

export function endpointDto(e: EndpointView) {
  return {
    id: e.id,
    url: e.url,
    events: e.events,
    status: e.status,
    ...(e.pendingDeliveries !== undefined ? { pendingDeliveries: e.pendingDeliveries } : {}),
    ...(e.failedDeliveries !== undefined ? { failedDeliveries: e.failedDeliveries } : {}),
  };
}

export function integrationDetailDto(i: Integration, keys: IntegrationKey[], endpoints: EndpointView[] | null, now: Date): IntegrationDetailView {
  return {
    ...integrationDto(i, now),
    keys: keys.map((k) => keyDto(k, now)),
    webhookEndpoints: endpoints ? endpoints.map(endpointDto) : null,
  };
}

import type { Integration as IntegrationView, IntegrationDetail as IntegrationDetailView } from '@bop/contracts';
import type { Integration, IntegrationKey, IntegrationLog, IngestionBatch } from './entities';
import { maskConfig, missingConfig } from './domain/config';
import { deriveHealth, silentAfter, type ReportedHealth } from './domain/health';
import { keyStatus } from './domain/keys';
import type { EndpointView } from './lib/collaborators';

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

export function keyDto(k: IntegrationKey, now: Date) {
  return {
    id: k.id,
    prefix: k.prefix,
    scopes: k.scopes,
    status: keyStatus({ revokedAt: k.revokedAt ?? null, expiresAt: k.expiresAt ?? null }, now),
    createdAt: k.createdAt.toISOString(),
    expiresAt: iso(k.expiresAt),
    revokedAt: iso(k.revokedAt),
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

export function healthDto(i: Integration, now: Date) {
  const last = i.lastHeartbeatAt ?? null;
  return {
    integrationId: i.id,
    health: deriveHealth({ reported: i.reportedHealth as ReportedHealth | null, lastHeartbeatAt: last, intervalSeconds: i.heartbeatIntervalSeconds, now }),
    healthMessage: i.healthMessage ?? null,
    lastHeartbeatAt: iso(last),
    heartbeatIntervalSeconds: i.heartbeatIntervalSeconds,
    silentAfter: last ? silentAfter(last, i.heartbeatIntervalSeconds).toISOString() : null,
  };
}

export function logDto(l: IntegrationLog) {
  return {
    id: l.id,
    integrationId: l.integrationId,
    level: l.level as 'debug' | 'info' | 'warning' | 'error',
    message: l.message,
    context: l.context ?? null,
    createdAt: l.createdAt.toISOString(),
  };
}

export function batchDto(b: IngestionBatch) {
  return {
    batchId: b.id,
    integrationId: b.integrationId,
    source: b.source,
    endpoint: b.endpoint,
    received: b.received,
    created: b.created,
    updated: b.updated,
    unchanged: b.unchanged,
    duplicate: b.duplicate,
    rejected: b.rejected,
    rejectedRecords: b.rejectedRecords,
    createdAt: b.createdAt.toISOString(),
  };
}

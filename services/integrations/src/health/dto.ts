import type { Integration } from '../integrations/entities';
import { deriveHealth, silentAfter, type ReportedHealth } from './derive-health';

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

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

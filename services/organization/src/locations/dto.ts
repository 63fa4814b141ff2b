import type { Location } from './entities';

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

export function locationDto(l: Location) {
  return {
    id: l.id,
    name: l.name,
    externalId: l.externalId ?? null,
    timezone: l.timezone,
    businessDayCutoff: l.businessDayCutoff,
    orgUnitId: l.orgUnitId ?? null,
    address: l.address ?? null,
    status: l.status as 'active' | 'archived',
    version: l.version,
    createdAt: l.createdAt.toISOString(),
    updatedAt: l.updatedAt.toISOString(),
    archivedAt: iso(l.archivedAt),
  };
}

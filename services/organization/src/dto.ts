import type { Location, OrgUnit, Department } from './entities';
import { ancestorsOf, type ParentMap } from './domain/org-tree';

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

export function orgUnitDto(u: OrgUnit, parents: ParentMap) {
  const path = ancestorsOf(parents, u.id);
  return {
    id: u.id,
    name: u.name,
    kind: u.kind ?? null,
    parentId: u.parentId ?? null,
    path,
    depth: path.length,
    status: u.status as 'active' | 'archived',
    version: u.version,
    createdAt: u.createdAt.toISOString(),
    updatedAt: u.updatedAt.toISOString(),
  };
}

export function departmentDto(d: Department) {
  return {
    id: d.id,
    name: d.name,
    code: d.code ?? null,
    locationId: d.locationId ?? null,
    status: d.status as 'active' | 'archived',
    version: d.version,
    createdAt: d.createdAt.toISOString(),
    updatedAt: d.updatedAt.toISOString(),
  };
}

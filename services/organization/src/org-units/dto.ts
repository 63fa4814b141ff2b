import type { OrgUnit } from './entities';
import { ancestorsOf, type ParentMap } from './org-tree';

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

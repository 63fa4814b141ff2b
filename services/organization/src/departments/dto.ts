import type { Department } from './entities';

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

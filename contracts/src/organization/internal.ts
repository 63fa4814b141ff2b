import { z } from '../zod';

/**
 * `POST /internal/locations:resolve` (organization): the current state of the locations named by id
 * and/or externalId, for the read-through of the area services' replicas (a replica miss, or a write
 * whose answer depends on the location's status), and the locations in org units and the units below
 * them (a person's reach by org unit, for a write). Names organization does not know are simply absent.
 */
export const LocationsResolveRequest = z.strictObject({
  ids: z.array(z.string().min(1).max(200)).max(2000).optional(),
  externalIds: z.array(z.string().min(1).max(200)).max(2000).optional(),
  orgUnitIds: z.array(z.string().min(1).max(200)).max(2000).optional(),
});
export type LocationsResolveRequest = z.output<typeof LocationsResolveRequest>;

/** A location as the replicas keep it (`<schema>.locations`). */
export const ReplicatedLocation = z.object({
  id: z.string(),
  externalId: z.string().nullable(),
  timezone: z.string(),
  businessDayCutoff: z.string(),
  status: z.string(),
  orgUnitId: z.string().nullable(),
  updatedAt: z.string(),
});
export type ReplicatedLocation = z.output<typeof ReplicatedLocation>;

export const LocationsResolveAnswer = z.object({ data: z.array(ReplicatedLocation) });
export type LocationsResolveAnswer = z.output<typeof LocationsResolveAnswer>;

/** `POST /internal/departments:resolve` (organization): the current state of departments by id, for the people service's replica. */
export const DepartmentsResolveRequest = z.strictObject({ ids: z.array(z.string().min(1).max(200)).max(2000) });
export type DepartmentsResolveRequest = z.output<typeof DepartmentsResolveRequest>;

export const ReplicatedDepartment = z.object({ id: z.string(), locationId: z.string().nullable(), status: z.string(), updatedAt: z.string() });
export type ReplicatedDepartment = z.output<typeof ReplicatedDepartment>;

export const DepartmentsResolveAnswer = z.object({ data: z.array(ReplicatedDepartment) });
export type DepartmentsResolveAnswer = z.output<typeof DepartmentsResolveAnswer>;

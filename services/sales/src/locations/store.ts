import { locateRecords as locateIn, resolveLocations as resolveIn, type EntityManager } from '@bop/shared';

export { locationFor, type LocationMap, type ReplicaLocation } from '@bop/shared';

/** Sales' replica of the organization (the kit's, on schema `sales`). */
export const resolveLocations = (em: EntityManager, inputs: Iterable<{ locationId?: string; locationExternalId?: string }>) => resolveIn(em, 'sales', inputs);

export const locateRecords = <T extends { locationId?: string; locationExternalId?: string }>(em: EntityManager, parsed: Array<{ data?: T }>) => locateIn<T>(em, 'sales', parsed);


import { locateRecords as locateIn, resolveLocations as resolveIn, type Work } from '@bop/shared';

export { locationFor, type LocationMap, type ReplicaLocation } from '@bop/shared';

/** Sales' replica of the organization (the kit's, in the unit's schema). */
export const resolveLocations = (w: Work, inputs: Iterable<{ locationId?: string; locationExternalId?: string }>) => resolveIn(w, inputs);

export const locateRecords = <T extends { locationId?: string; locationExternalId?: string }>(w: Work, parsed: Array<{ data?: T }>) => locateIn<T>(w, parsed);

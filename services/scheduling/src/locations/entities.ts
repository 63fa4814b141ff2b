import { locationReplicaEntity } from '@bop/shared';
import type { InferEntity } from '@mikro-orm/core';

/** Replica of organization's locations, fed by location.* events (the kit's orgReplicaConsumers): zones, reach and validation. */
export const SchedulingLocation = locationReplicaEntity('SchedulingLocation');
export type SchedulingLocation = InferEntity<typeof SchedulingLocation>;

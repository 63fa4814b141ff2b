import { locationReplicaEntity } from '@bop/shared';
import type { InferEntity } from '@mikro-orm/core';

/** Replica of organization's locations, fed by location.* events (the kit's orgReplicaConsumers): time zones, reach, validation. */
export const PeopleLocation = locationReplicaEntity('PeopleLocation');
export type PeopleLocation = InferEntity<typeof PeopleLocation>;

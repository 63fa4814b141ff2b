import { locationReplicaEntity } from '@bop/shared';
import type { InferEntity } from '@mikro-orm/core';

/** Replica of organization's locations, fed by location.* events (the kit's orgReplicaConsumers); the ORM's default schema. */
export const SalesLocation = locationReplicaEntity('SalesLocation');
export type SalesLocation = InferEntity<typeof SalesLocation>;

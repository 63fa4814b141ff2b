import { locationReplicaEntity } from '@bop/shared';
import type { InferEntity } from '@mikro-orm/core';

/** Replica of organization's locations, fed by location.* events (the kit's orgReplicaConsumers): reach, org units and validation. */
export const InsightsLocation = locationReplicaEntity('InsightsLocation');
export type InsightsLocation = InferEntity<typeof InsightsLocation>;

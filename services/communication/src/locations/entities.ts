import { locationReplicaEntity } from '@bop/shared';
import type { InferEntity } from '@mikro-orm/core';

/** Replica of organization's locations, fed by location.* events (the kit's orgReplicaConsumers): reach and validation. */
export const CommunicationLocation = locationReplicaEntity('CommunicationLocation');
export type CommunicationLocation = InferEntity<typeof CommunicationLocation>;

import { locationReplicaEntity } from '@bop/shared';
import type { InferEntity } from '@mikro-orm/core';

/** Replica of organization's locations, fed by location.* events (the kit's orgReplicaConsumers). */
export const CashLocation = locationReplicaEntity('CashLocation', 'cash');
export type CashLocation = InferEntity<typeof CashLocation>;

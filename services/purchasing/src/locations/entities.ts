import { locationReplicaEntity } from '@bop/shared';
import type { InferEntity } from '@mikro-orm/core';

/** Replica of organization's locations, fed by location.* events (the kit's orgReplicaConsumers). */
export const PurchasingLocation = locationReplicaEntity('PurchasingLocation');
export type PurchasingLocation = InferEntity<typeof PurchasingLocation>;

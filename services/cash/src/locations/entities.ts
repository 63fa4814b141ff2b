import { locationReplicaEntity } from '@bop/shared';
import type { InferEntity } from '@mikro-orm/core';

/** Replica of organization's locations, fed by location.* events (the kit's orgReplicaConsumers), in cash's schema as the contracts name it. */
export const CashLocation = locationReplicaEntity('CashLocation');
export type CashLocation = InferEntity<typeof CashLocation>;

import { locationReplicaEntity } from '@bop/shared';
import { serviceTable } from '@bop/contracts';
import type { InferEntity } from '@mikro-orm/core';

/** Replica of organization's locations, fed by location.* events (the kit's orgReplicaConsumers), in cash's schema as the contracts name it. */
export const CashLocation = locationReplicaEntity('CashLocation', serviceTable.cash.schema);
export type CashLocation = InferEntity<typeof CashLocation>;

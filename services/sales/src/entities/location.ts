import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** Replica of organization's locations, fed by location.* events (the kit's orgReplicaConsumers). */
export const SalesLocation = defineEntity({
  name: 'SalesLocation',
  schema: 'sales',
  tableName: 'locations',
  properties: {
    id: p.string().primary(),
    externalId: p.string().nullable(),
    timezone: p.string(),
    businessDayCutoff: p.string(),
    status: p.string(),
    updatedAt: p.datetime(),
  },
});
export type SalesLocation = InferEntity<typeof SalesLocation>;

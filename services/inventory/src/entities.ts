import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** Replica of organization's locations, fed by location.* events (the kit's orgReplicaConsumers). */
export const InventoryLocation = defineEntity({
  name: 'InventoryLocation',
  schema: 'inventory',
  tableName: 'locations',
  properties: {
    id: p.string().primary(),
    externalId: p.string().nullable(),
    timezone: p.string(),
    businessDayCutoff: p.string(),
    status: p.string(),
    orgUnitId: p.string().nullable(),
    updatedAt: p.datetime(),
  },
});
export type InventoryLocation = InferEntity<typeof InventoryLocation>;

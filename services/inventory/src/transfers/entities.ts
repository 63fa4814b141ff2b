import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { TransferLine } from '@bop/contracts';

/** A transfer between two locations (supplement: Transfer states). */
export const InventoryTransfer = defineEntity({
  name: 'InventoryTransfer',
  tableName: 'transfers',
  properties: {
    id: p.string().primary(),
    fromLocationId: p.string(),
    toLocationId: p.string(),
    status: p.string(),
    lines: p.json<TransferLine[]>(),
    note: p.string().nullable(),
    receiveNote: p.string().nullable(),
    sentAt: p.datetime(),
    receivedAt: p.datetime().nullable(),
    version: p.integer(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
    actor: p.json<{ type: string; id: string | null }>(),
  },
});
export type InventoryTransfer = InferEntity<typeof InventoryTransfer>;

/** MikroORM entities of the transfers area. */
export const transfersEntities = [InventoryTransfer] as const;

import { locationReplicaEntity } from '@bop/shared';
import type { InferEntity } from '@mikro-orm/core';

/**
 * MikroORM entities of the stock area: the replica of organization's locations, fed by location.*
 * events (the kit's orgReplicaConsumers), whose zones and cut-offs give movements their business day.
 * The stock tables themselves (stock_documents, the ledger's stock_levels and stock_movements) are
 * written in bulk with SQL, as ledger/store.ts does.
 */
export const InventoryLocation = locationReplicaEntity('InventoryLocation', 'inventory');
export type InventoryLocation = InferEntity<typeof InventoryLocation>;

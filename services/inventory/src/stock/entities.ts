import { locationReplicaEntity } from '@bop/shared';
import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { StockAdjustment, StockDocumentLine } from '@bop/contracts';
import type { DocumentKind } from './dto';

/**
 * MikroORM entities of the stock area: the replica of organization's locations, fed by location.*
 * events (the kit's orgReplicaConsumers), whose zones and cut-offs give movements their business day.
 * The ledger's tables (stock_levels, stock_movements) are written in bulk with SQL, as ledger/store.ts does.
 */
export const InventoryLocation = locationReplicaEntity('InventoryLocation');
export type InventoryLocation = InferEntity<typeof InventoryLocation>;

/** An adjustment or a waste record; its movements are the ledger's (cause stock_adjustment / waste_record). */
export const InventoryStockDocument = defineEntity({
  name: 'InventoryStockDocument',
  tableName: 'stock_documents',
  properties: {
    id: p.string().primary(),
    kind: p.string().$type<DocumentKind>(),
    locationId: p.string(),
    reason: p.string(),
    note: p.string().nullable(),
    lines: p.json<StockDocumentLine[]>(),
    occurredAt: p.datetime(),
    businessDay: p.string().columnType('date'),
    createdAt: p.datetime(),
    actor: p.json<{ type: StockAdjustment['actor']['type']; id: string | null }>(),
  },
});
export type InventoryStockDocument = InferEntity<typeof InventoryStockDocument>;

/** MikroORM entities of the stock area. */
export const stockEntities = [InventoryLocation, InventoryStockDocument] as const;

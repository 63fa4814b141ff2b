import { locationReplicaEntity } from '@bop/shared';
import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { StockAdjustment, StockDocumentLine, StockMovementType } from '@bop/contracts';
import type { DocumentKind } from './dto';

/**
 * MikroORM entities of the stock area: the replica of organization's locations, fed by location.*
 * events (the kit's orgReplicaConsumers), whose zones and cut-offs give movements their business day.
 * The ledger's tables (stock_levels, stock_movements) are written in bulk with SQL, as ledger/store.ts
 * does (`npm run bench:sql inventory.`); their entities below are for reading them.
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

/** A level of an item at a location (derived from the ledger; written by ledger/store.ts only). Decimals as Postgres prints numeric(20,6). */
export const InventoryStockLevel = defineEntity({
  name: 'InventoryStockLevel',
  tableName: 'stock_levels',
  properties: {
    itemId: p.string().primary(),
    locationId: p.string().primary(),
    onHand: p.decimal('string'),
    reserved: p.decimal('string'),
    averageCost: p.decimal('string').nullable(),
    stockValue: p.decimal('string').nullable(),
    parLevel: p.decimal('string').nullable(),
    reorderPoint: p.decimal('string').nullable(),
    version: p.integer(),
    updatedAt: p.datetime(),
  },
});
export type InventoryStockLevel = InferEntity<typeof InventoryStockLevel>;

/** A movement of the append-only ledger (written by ledger/store.ts only); `seq` is its append order (bigserial). */
export const InventoryStockMovement = defineEntity({
  name: 'InventoryStockMovement',
  tableName: 'stock_movements',
  properties: {
    id: p.string().primary(),
    seq: p.bigint('string').nullable(),
    itemId: p.string(),
    locationId: p.string(),
    type: p.string().$type<StockMovementType>(),
    quantity: p.decimal('string'),
    reservedChange: p.decimal('string'),
    onHandAfter: p.decimal('string'),
    reservedAfter: p.decimal('string'),
    unitCost: p.decimal('string').nullable(),
    value: p.decimal('string').nullable(),
    causeType: p.string(),
    causeId: p.string(),
    reason: p.string().nullable(),
    note: p.string().nullable(),
    businessDay: p.string().columnType('date').nullable(),
    occurredAt: p.datetime(),
    createdAt: p.datetime(),
    actor: p.json<{ type: string; id: string | null }>(),
  },
});
export type InventoryStockMovement = InferEntity<typeof InventoryStockMovement>;

/** MikroORM entities of the stock area. */
export const stockEntities = [InventoryLocation, InventoryStockDocument, InventoryStockLevel, InventoryStockMovement] as const;

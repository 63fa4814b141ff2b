import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { StockCountItem, StockCountLine } from '@bop/contracts';

/** A stock count (supplement: Stock count states); `results` is frozen when it is posted or cancelled. */
export const InventoryStockCount = defineEntity({
  name: 'InventoryStockCount',
  tableName: 'stock_counts',
  properties: {
    id: p.string().primary(),
    locationId: p.string(),
    status: p.string(),
    countedAt: p.datetime(),
    lines: p.json<StockCountLine[]>(),
    note: p.string().nullable(),
    results: p.json<StockCountItem[]>().nullable(),
    cancelReason: p.string().nullable(),
    postedAt: p.datetime().nullable(),
    cancelledAt: p.datetime().nullable(),
    version: p.integer(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
    actor: p.json<{ type: string; id: string | null }>(),
  },
});
export type InventoryStockCount = InferEntity<typeof InventoryStockCount>;

/** MikroORM entities of the counts area. */
export const countsEntities = [InventoryStockCount] as const;

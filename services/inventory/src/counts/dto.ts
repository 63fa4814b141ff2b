import type { StockCount, StockCountItem, StockCountStatus } from '@bop/contracts';
import { totalVarianceValue } from './count-rules';
import type { InventoryStockCount } from './entities';

/** The count as the API returns it (and `data.object` of its events), with its items' figures. */
export function countDto(c: InventoryStockCount, items: StockCountItem[]): StockCount {
  return {
    id: c.id,
    locationId: c.locationId,
    status: c.status as StockCountStatus,
    countedAt: c.countedAt.toISOString(),
    note: c.note ?? null,
    lines: c.lines.map((l) => ({ itemId: l.itemId, storageAreaId: l.storageAreaId ?? null, quantity: l.quantity, unitId: l.unitId ?? null, baseQuantity: l.baseQuantity })),
    items,
    varianceValue: totalVarianceValue(items),
    cancelReason: c.cancelReason ?? null,
    postedAt: c.postedAt ? c.postedAt.toISOString() : null,
    cancelledAt: c.cancelledAt ? c.cancelledAt.toISOString() : null,
    version: c.version,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
  };
}

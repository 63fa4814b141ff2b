import type { StockAdjustment, StockDocumentLine, StockMovement, WasteRecord } from '@bop/contracts';
import { formatNullable, formatQuantity } from '../ledger/quantity';
import { totalValue } from './adjustment-rules';
import type { InventoryStockDocument } from './entities';

export type DocumentKind = 'adjustment' | 'waste';

/** Every key in one order (jsonb reads back with its own key order). */
export function documentLine(l: StockDocumentLine): StockDocumentLine {
  return {
    itemId: l.itemId,
    quantity: l.quantity,
    unitId: l.unitId ?? null,
    baseQuantity: formatQuantity(l.baseQuantity),
    unitCost: formatNullable(l.unitCost),
    value: formatNullable(l.value),
    movementId: l.movementId,
  };
}

/** An adjustment or waste record as the API answers it (and `data.object` of `waste.recorded`). */
export function documentDto(r: InventoryStockDocument, movements: StockMovement[]): StockAdjustment | WasteRecord {
  const lines = r.lines.map(documentLine);
  return {
    id: r.id,
    locationId: r.locationId,
    reason: r.reason,
    note: r.note ?? null,
    occurredAt: new Date(r.occurredAt).toISOString(),
    businessDay: r.businessDay,
    lines,
    totalValue: formatQuantity(totalValue(lines.map((l) => l.value))),
    movements,
    actor: { type: r.actor.type, id: r.actor.id ?? null },
    createdAt: new Date(r.createdAt).toISOString(),
  } as StockAdjustment | WasteRecord;
}

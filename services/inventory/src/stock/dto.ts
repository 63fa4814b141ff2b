import type { StockAdjustment, StockDocumentLine, StockMovement, WasteRecord } from '@bop/contracts';
import { formatNullable, formatQuantity } from '../ledger/quantity';
import { totalValue } from './adjustment-rules';

export type DocumentKind = 'adjustment' | 'waste';

/** A stored row of `inventory.stock_documents` (business_day read as text). */
export interface DocumentRow {
  id: string;
  kind: DocumentKind;
  location_id: string;
  reason: string;
  note: string | null;
  lines: StockDocumentLine[];
  occurred_at: Date | string;
  business_day: string;
  created_at: Date | string;
  actor: { type: StockAdjustment['actor']['type']; id: string | null };
}

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
export function documentDto(r: DocumentRow, movements: StockMovement[]): StockAdjustment | WasteRecord {
  const lines = r.lines.map(documentLine);
  return {
    id: r.id,
    locationId: r.location_id,
    reason: r.reason,
    note: r.note,
    occurredAt: new Date(r.occurred_at).toISOString(),
    businessDay: r.business_day,
    lines,
    totalValue: formatQuantity(totalValue(lines.map((l) => l.value))),
    movements,
    actor: { type: r.actor.type, id: r.actor.id ?? null },
    createdAt: new Date(r.created_at).toISOString(),
  } as StockAdjustment | WasteRecord;
}

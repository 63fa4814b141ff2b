import type { Transfer, TransferStatus } from '@bop/contracts';
import type { InventoryTransfer } from './entities';

/** The transfer as the API returns it (and `data.object` of its events). */
export function transferDto(t: InventoryTransfer): Transfer {
  return {
    id: t.id,
    fromLocationId: t.fromLocationId,
    toLocationId: t.toLocationId,
    status: t.status as TransferStatus,
    note: t.note ?? null,
    receiveNote: t.receiveNote ?? null,
    lines: t.lines.map((l) => ({
      itemId: l.itemId,
      quantity: l.quantity,
      unitId: l.unitId ?? null,
      sentQuantity: l.sentQuantity,
      unitCost: l.unitCost ?? null,
      sentValue: l.sentValue ?? null,
      receivedQuantity: l.receivedQuantity ?? null,
      difference: l.difference ?? null,
      differenceValue: l.differenceValue ?? null,
    })),
    sentAt: t.sentAt.toISOString(),
    receivedAt: t.receivedAt ? t.receivedAt.toISOString() : null,
    version: t.version,
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
  };
}

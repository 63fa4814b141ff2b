import type { StockMovement } from '@bop/contracts';
import type { FilterQuery } from '@mikro-orm/core';
import { BadRequest, findPlain, type Work } from '@bop/shared';
import { stockMovementDto } from '../ledger/store';
import { InventoryStockMovement } from './entities';

export interface MovementFilter {
  /** null: every location */
  reachable: string[] | null;
  locationId?: string;
  itemId?: string;
  type?: string;
  causeType?: string;
  causeId?: string;
  from?: string;
  to?: string;
  /** the decoded cursor: the `seq` of the last movement of the previous page */
  after: string | null;
  limit: number;
}

/** A page of the ledger in append order (`limit + 1` rows, each with its sequence as `id` for the cursor). */
export async function listMovements(w: Work, f: MovementFilter): Promise<Array<{ id: string; movement: StockMovement }>> {
  const where: Array<FilterQuery<InventoryStockMovement>> = [];
  if (f.reachable) where.push({ locationId: { $in: f.reachable } });
  if (f.locationId) where.push({ locationId: f.locationId });
  if (f.itemId) where.push({ itemId: f.itemId });
  if (f.type) where.push({ type: f.type as InventoryStockMovement['type'] });
  if (f.causeType) where.push({ causeType: f.causeType });
  if (f.causeId) where.push({ causeId: f.causeId });
  if (f.from) where.push({ occurredAt: { $gte: new Date(f.from) } });
  if (f.to) where.push({ occurredAt: { $lt: new Date(f.to) } });
  if (f.after !== null) {
    if (!/^\d{1,18}$/.test(f.after)) throw new BadRequest('The cursor is not valid.', [{ path: 'cursor', message: 'Not a cursor returned by this list.' }]);
    where.push({ seq: { $gt: f.after } });
  }
  const rows = await findPlain(w.em, InventoryStockMovement, where.length > 0 ? { $and: where } : {}, { orderBy: { seq: 'asc' }, limit: f.limit + 1 });
  return rows.map((r) => ({ id: String(r.seq), movement: stockMovementDto(r) }));
}

import type { StockMovement } from '@bop/contracts';
import { BadRequest, SqlWhere, sqlQuery, type Work } from '@bop/shared';
import { stockMovementFromRow } from '../ledger/store';

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
  const { em } = w;
  const where = new SqlWhere()
    .andIn('"location_id"', f.reachable)
    .andIf(f.locationId, '"location_id" = ?')
    .andIf(f.itemId, '"item_id" = ?')
    .andIf(f.type, '"type" = ?')
    .andIf(f.causeType, '"cause_type" = ?')
    .andIf(f.causeId, '"cause_id" = ?')
    .andIf(f.from ? new Date(f.from) : undefined, '"occurred_at" >= ?')
    .andIf(f.to ? new Date(f.to) : undefined, '"occurred_at" < ?');
  if (f.after !== null) {
    if (!/^\d{1,18}$/.test(f.after)) throw new BadRequest('The cursor is not valid.', [{ path: 'cursor', message: 'Not a cursor returned by this list.' }]);
    where.and('"seq" > ?::bigint', f.after);
  }
  // raw SQL: the ledger's movements, read as ledger/store.ts writes and maps them (stockMovementFromRow; no entity), keyset on the bigint seq
  const rows = await sqlQuery(em, `select * from "${w.schema}"."stock_movements" ${String(where)} order by "seq" limit ?`, [...where.params, f.limit + 1]);
  return rows.map((r) => ({ id: String(r.seq), movement: stockMovementFromRow(r) }));
}

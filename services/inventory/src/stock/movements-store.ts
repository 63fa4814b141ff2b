import type { StockMovement } from '@bop/contracts';
import { BadRequest, sqlList, sqlQuery, type EntityManager } from '@bop/shared';
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
export async function listMovements(em: EntityManager, f: MovementFilter): Promise<Array<{ id: string; movement: StockMovement }>> {
  const where: string[] = [];
  const params: unknown[] = [];
  const add = (sql: string, value: unknown) => {
    where.push(sql);
    params.push(value);
  };
  if (f.reachable) add(`"location_id" = any(?::text[])`, sqlList(f.reachable));
  if (f.locationId) add('"location_id" = ?', f.locationId);
  if (f.itemId) add('"item_id" = ?', f.itemId);
  if (f.type) add('"type" = ?', f.type);
  if (f.causeType) add('"cause_type" = ?', f.causeType);
  if (f.causeId) add('"cause_id" = ?', f.causeId);
  if (f.from) add('"occurred_at" >= ?', new Date(f.from));
  if (f.to) add('"occurred_at" < ?', new Date(f.to));
  if (f.after !== null) {
    if (!/^\d{1,18}$/.test(f.after)) throw new BadRequest('The cursor is not valid.', [{ path: 'cursor', message: 'Not a cursor returned by this list.' }]);
    add('"seq" > ?::bigint', f.after);
  }
  const rows = await sqlQuery(
    em,
    `select * from "inventory"."stock_movements" ${where.length > 0 ? `where ${where.join(' and ')}` : ''} order by "seq" limit ?`,
    [...params, f.limit + 1],
  );
  return rows.map((r) => ({ id: String(r.seq), movement: stockMovementFromRow(r) }));
}

import type { RecordedSalesObject } from '@bop/contracts';
import { findPlain, sqlList, sqlQuery, type Work } from '@bop/shared';
import { InventoryItem } from '../items/entities';
import { postMovements, type MovementInput } from '../ledger/store';
import { depletionChanges, depletionTarget, movementTypeOf, usagePerUnit, type Applied, type RecordedTransaction } from './usage';
import { loadGraph } from './store';

// raw SQL (bulk jsonb statements over a whole batch of sales) because it pays: measured by `npm run bench:depletion`

interface DepletionRow {
  transaction_id: string;
  location_id: string;
  version: number;
  applied: Record<string, string>;
}

export interface DepletionUpdate {
  transaction_id: string;
  location_id: string;
  version: number;
  applied: Record<string, string>;
}

/** A transaction of an event with its event's location and reason. */
export type Entry = RecordedTransaction & { locationId: string; reason: string | null };

/** The newest version of each transaction the events carry (a chunk, or a batch of events, may name one twice). */
function newestOf(transactions: Entry[]): Entry[] {
  const byId = new Map<string, Entry>();
  for (const t of transactions) {
    const seen = byId.get(t.id);
    if (!seen || t.version > seen.version) byId.set(t.id, t);
  }
  return [...byId.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** Locks (creating at version 0, nothing applied) the depletion rows of these transactions, in id order. */
export async function lockDepletions(w: Work, transactions: Entry[]): Promise<Map<string, DepletionRow>> {
  const keys = JSON.stringify(transactions.map((t) => [t.id, t.locationId]));
  // raw SQL (bench:sql inventory.lock-depletions): 45,739 µs against 137,787 through the ORM (3.0×: an insert … on conflict of 1,000 rows' parameters, then a locked select of 1,000 bound ids)
  // set-based create-and-lock of a bus batch's depletion rows in id order (bench:depletion)
  await sqlQuery(
    w.em,
    `insert into "${w.schema}"."sale_depletions" ("transaction_id", "location_id", "version", "applied", "updated_at")
     select k->>0, k->>1, 0, '{}'::jsonb, ? from jsonb_array_elements(?::jsonb) as k order by k->>0
     on conflict ("transaction_id") do nothing`,
    [w.now, keys],
  );
  const rows = await sqlQuery<DepletionRow>(
    w.em,
    `select "transaction_id", "location_id", "version", "applied" from "${w.schema}"."sale_depletions"
     where "transaction_id" in (select k->>0 from jsonb_array_elements(?::jsonb) as k) order by "transaction_id" for update`,
    [keys],
  );
  return new Map(rows.map((r) => [r.transaction_id, r]));
}

/**
 * Leaves out transactions with nothing to do: no line names an item (a POS whose items are not
 * mapped yet) and nothing was applied for them before. Most of a busy feed can be like that; a
 * later version that names items (`:map`) arrives as a new event and is applied then.
 */
export async function withoutNothingToDo(w: Work, transactions: Entry[]): Promise<Entry[]> {
  const itemless = transactions.filter((t) => t.lines.every((l) => l.itemId === null));
  if (itemless.length === 0) return transactions;
  // raw SQL (bench:sql inventory.without-nothing-to-do): 7,180 µs against 20,093 through the ORM (2.8×: one text[] parameter against the ORM's hundreds of bound ids)
  // the depletion consumer's hot path: most of a busy feed is item-less sales (bench:depletion)
  const stored = await sqlQuery<{ transaction_id: string }>(
    w.em,
    `select "transaction_id" from "${w.schema}"."sale_depletions" where "transaction_id" = any(?::text[])`,
    [sqlList(itemless.map((t) => t.id))],
  );
  const keep = new Set(stored.map((r) => r.transaction_id));
  return transactions.filter((t) => keep.has(t.id) || t.lines.some((l) => l.itemId !== null));
}

/** Items of these ids that inventory knows. */
export async function knownItems(w: Work, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await findPlain(w.em, InventoryItem, { id: { $in: ids } });
  return new Set(rows.map((r) => r.id));
}

/** What the depletion of these transactions has now applied (their rows locked by lockDepletions), in one statement. */
export async function updateDepletions(w: Work, updates: DepletionUpdate[]): Promise<void> {
  // raw SQL (bench:sql inventory.update-depletions): 41,927 µs against 152,383 through the ORM (3.6×: the ORM's one statement is an insert … on conflict merge binding every row)
  // set-based update of a whole bus batch's depletion rows, jsonb_to_recordset (bench:depletion)
  await sqlQuery(
    w.em,
    `update "${w.schema}"."sale_depletions" d set "location_id" = x."location_id", "version" = x."version", "applied" = x."applied", "updated_at" = ?
     from jsonb_to_recordset(?::jsonb) as x("transaction_id" text, "location_id" text, "version" int, "applied" jsonb)
     where d."transaction_id" = x."transaction_id"`,
    [w.now, JSON.stringify(updates)],
  );
}

/**
 * Applies `sales.transactions.recorded` events (one, or a bus batch of them): for each transaction
 * newer than what was applied, the ingredients it should have taken (recipes as they are now, nested
 * ones expanded to leaves; an item without a recipe takes itself) less what it took before, posted
 * as one ledger write.
 */
export async function applyRecordedSales(w: Work, objects: RecordedSalesObject | RecordedSalesObject[]): Promise<{ movements: number; applied: number; skipped: number }> {
  const entries = (Array.isArray(objects) ? objects : [objects]).flatMap((o) => o.transactions.map((t): Entry => ({ ...t, locationId: t.locationId ?? o.locationId, reason: o.reason ?? null })));
  const transactions = await withoutNothingToDo(w, newestOf(entries));
  if (transactions.length === 0) return { movements: 0, applied: 0, skipped: 0 };
  const rows = await lockDepletions(w, transactions);
  const fresh = transactions.filter((t) => t.version > rows.get(t.id)!.version);
  const skipped = transactions.length - fresh.length;
  if (fresh.length === 0) return { movements: 0, applied: 0, skipped };

  const soldIds = [...new Set(fresh.flatMap((t) => (t.status === 'voided' ? [] : t.lines.flatMap((l) => (l.itemId === null ? [] : [l.itemId])))))];
  const known = await knownItems(w, soldIds);
  const graph = await loadGraph(w, [...known]);
  const memo = new Map();
  const usage = (itemId: string) => (known.has(itemId) ? usagePerUnit(itemId, graph, memo) : undefined);

  const movements: MovementInput[] = [];
  const updates: DepletionUpdate[] = [];
  for (const t of fresh) {
    const unknown = t.status === 'voided' ? [] : [...new Set(t.lines.flatMap((l) => (l.itemId !== null && !known.has(l.itemId) ? [l.itemId] : [])))];
    if (unknown.length > 0) w.log.warn({ transactionId: t.id, itemIds: unknown }, 'depletion: lines name items inventory does not know; they deplete nothing');
    const row = rows.get(t.id)!;
    const locationId = t.locationId;
    const target = depletionTarget(t, usage);
    const applied: Applied | null = row.version === 0 ? null : { locationId: row.location_id, items: row.applied };
    const occurredAt = new Date(t.occurredAt);
    const type = movementTypeOf(t);
    for (const change of depletionChanges(applied, locationId, target)) {
      movements.push({ ...change, type, cause: { type: 'sales_transaction', id: t.id }, reason: t.reason, occurredAt });
    }
    updates.push({ transaction_id: t.id, location_id: locationId, version: t.version, applied: Object.fromEntries(target) });
  }

  await updateDepletions(w, updates);
  // one ledger write for all the events: one stock.level_changed per item and location however many sales touched it
  await postMovements(w, movements, { movementDtos: false });
  return { movements: movements.length, applied: fresh.length, skipped };
}

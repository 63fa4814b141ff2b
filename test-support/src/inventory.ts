/**
 * Inventory rows written directly (not through the items API), as the inventory and purchasing tests
 * need them: items, units of measure, movements posted to the ledger, and stock levels read back.
 */
import { newId } from '@bop/shared';
import type { MovementInput } from '@svc/inventory';
import { publishEvent } from './events';
import { eventually, type TestServices } from './harness';
import { sql, type SqlTarget } from './sql';

type BaseUnit = 'each' | 'g' | 'ml';

/** An item row written directly: base unit `each` unless told, optional standard cost. */
export async function insertItem(target: SqlTarget, over: { id?: string; name?: string; sku?: string | null; externalId?: string | null; baseUnit?: BaseUnit; cost?: string | null; status?: 'active' | 'archived' } = {}): Promise<string> {
  const id = over.id ?? newId('item');
  const now = new Date();
  await sql(
    target,
    `insert into inventory.items (id, external_id, sku, barcodes, name, base_unit, cost, status, created_at, updated_at) values ($1, $2, $3, '{}', $4, $5, $6, $7, $8, $9)`,
    [id, over.externalId ?? null, over.sku ?? null, over.name ?? id, over.baseUnit ?? 'each', over.cost ?? null, over.status ?? 'active', now, now],
  );
  return id;
}

let unitSeq = 0;
/** A unit of measure written directly: `factor` base units each, company-wide unless `itemId`; a unique name (names are unique company-wide). */
export async function insertUnit(target: SqlTarget, baseUnit: BaseUnit, factor: string, itemId: string | null = null): Promise<string> {
  const id = newId('unitOfMeasure');
  await sql(
    target,
    `insert into inventory.units_of_measure (id, name, base_unit, factor, item_id, created_at, updated_at) values ($1, $2, $3, $4, $5, now(), now())`,
    [id, `pack ${++unitSeq} of ${factor} ${baseUnit}`, baseUnit, factor, itemId],
  );
  return id;
}

/** The stored level of an item at a location (numbers as strings without trailing zeros), or undefined. */
export async function levelOf(target: SqlTarget, itemId: string, locationId: string) {
  const rows = await sql(
    target,
    `select trim_scale(on_hand)::text as on_hand, trim_scale(reserved)::text as reserved, trim_scale(average_cost)::text as average_cost, version from inventory.stock_levels where item_id = $1 and location_id = $2`,
    [itemId, locationId],
  );
  return rows[0] as { on_hand: string; reserved: string; average_cost: string | null; version: number } | undefined;
}

/** A stack running inventory, with its location ids by externalId (NYC-1: New York, cut-off 04:00; BER-1: Berlin, cut-off 05:00). */
export interface InventoryTarget {
  stack: TestServices;
  locations: Record<string, string>;
}

/** Movements written straight to the ledger (in one posting), as another area would: cause an adjustment unless told, location NYC-1 unless told. */
export async function postLedger(s: InventoryTarget, movements: Array<Partial<MovementInput> & Pick<MovementInput, 'itemId' | 'type' | 'quantity'>>, opts: { requireAvailable?: boolean } = {}) {
  // loaded when called: a test file that does not post gets none of inventory's code
  const { postMovements } = await import('@svc/inventory');
  return s.stack.services.inventory.svc.runtime.write((w) =>
    postMovements(
      w,
      movements.map((m) => ({ locationId: s.locations['NYC-1'], cause: { type: 'stock_adjustment', id: 'adj_TEST' }, occurredAt: w.now, ...m })),
      { requireAvailable: opts.requireAvailable ? { path: (i) => `lines[${i}].quantity` } : undefined },
    ),
  );
}

/**
 * An item in inventory (inserted directly) that sales' item replica knows too — `item.created` as
 * inventory would publish it — waited for in `sales.items` (the stack must run the sales service).
 */
export async function itemKnownToSales(s: InventoryTarget, over: { name: string; sku: string; baseUnit?: BaseUnit; cost?: string }): Promise<string> {
  const id = await insertItem(s.stack, { name: over.name, sku: over.sku, baseUnit: over.baseUnit, cost: over.cost });
  const updatedAt = new Date().toISOString();
  await publishEvent(s.stack, 'inventory', 'item.created', { id, sku: over.sku, barcodes: [], externalId: null, name: over.name, status: 'active', updatedAt }, { createdAt: updatedAt });
  await eventually(async () => (await sql(s.stack, `select 1 from sales.items where id = $1`, [id])).length > 0);
  return id;
}

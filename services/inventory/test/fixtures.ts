/**
 * Shared helpers of the inventory tests: a stack with organization (locations reach inventory's
 * replica through the bus) and inventory, items inserted directly (any area's test can have items
 * without going through the items API), and the ledger's state read back.
 */
import { organizationService } from '@svc/organization';
import { newId, newIdWithPrefix } from '@bop/shared';
import { eventually, startTestServices, type TestServices } from '@bop/test-support';
import { inventoryService, postMovements, type MovementInput } from '../src';

export interface InventoryStack {
  stack: TestServices;
  sql: (q: string, p?: unknown[]) => Promise<any[]>;
  /** location ids by externalId (NYC-1: New York, cut-off 04:00; BER-1: Berlin, cut-off 05:00) */
  locations: Record<string, string>;
}

/** Organization + inventory (+ `more` services) on a fresh database, with two locations replicated into inventory. */
export async function startInventoryStack(more: Parameters<typeof startTestServices>[0] = [], env: Record<string, string> = {}): Promise<InventoryStack> {
  const stack = await startTestServices([organizationService, inventoryService, ...more], env);
  const sql = (q: string, p: unknown[] = []): Promise<any[]> => stack.services.inventory.svc.runtime.orm.em.getConnection().execute(q, p);
  const nyc = await stack.services.organization.call('POST', '/locations', { body: { name: 'NYC', timezone: 'America/New_York', businessDayCutoff: '04:00', externalId: 'NYC-1' } });
  const ber = await stack.services.organization.call('POST', '/locations', { body: { name: 'Berlin', timezone: 'Europe/Berlin', businessDayCutoff: '05:00', externalId: 'BER-1' } });
  const locations = { 'NYC-1': nyc.body.id as string, 'BER-1': ber.body.id as string };
  await eventually(async () => (await sql(`select 1 from inventory.locations where id in (?, ?)`, [locations['NYC-1'], locations['BER-1']])).length === 2);
  return { stack, sql, locations };
}

/** An item row written directly (not through the items API): base unit `each` unless told, optional standard cost. */
export async function insertItem(sql: InventoryStack['sql'], over: { id?: string; name?: string; sku?: string | null; externalId?: string | null; baseUnit?: 'each' | 'g' | 'ml'; cost?: string | null; status?: 'active' | 'archived' } = {}): Promise<string> {
  const id = over.id ?? newId('item');
  const now = new Date();
  await sql(
    `insert into inventory.items (id, external_id, sku, barcodes, name, base_unit, cost, status, created_at, updated_at) values (?, ?, ?, '{}', ?, ?, ?, ?, ?, ?)`,
    [id, over.externalId ?? null, over.sku ?? null, over.name ?? id, over.baseUnit ?? 'each', over.cost ?? null, over.status ?? 'active', now, now],
  );
  return id;
}

/** The stored level of an item at a location (numbers as strings without trailing zeros), or undefined. */
export async function levelOf(sql: InventoryStack['sql'], itemId: string, locationId: string) {
  const rows = await sql(
    `select trim_scale(on_hand)::text as on_hand, trim_scale(reserved)::text as reserved, trim_scale(average_cost)::text as average_cost, version from inventory.stock_levels where item_id = ? and location_id = ?`,
    [itemId, locationId],
  );
  return rows[0] as { on_hand: string; reserved: string; average_cost: string | null; version: number } | undefined;
}

/** The `inventory` outbox events of a type (payload envelopes), oldest first. */
export async function outboxEvents(sql: InventoryStack['sql'], type: string) {
  return (await sql(`select payload from inventory.outbox where type = ? order by seq`, [type])).map((r) => r.payload);
}

/**
 * An item in inventory (inserted directly) that sales' item replica knows too — `item.created` as
 * inventory would publish it — waited for in `sales.items` (the stack must run the sales service).
 */
export async function itemKnownToSales(s: InventoryStack, over: { name: string; sku: string; baseUnit?: 'each' | 'g' | 'ml'; cost?: string }): Promise<string> {
  const id = await insertItem(s.sql, { name: over.name, sku: over.sku, baseUnit: over.baseUnit, cost: over.cost });
  const updatedAt = new Date().toISOString();
  const object = { id, sku: over.sku, barcodes: [], externalId: null, name: over.name, status: 'active', updatedAt };
  const envelope = { id: newIdWithPrefix('evt'), type: 'item.created', createdAt: updatedAt, apiVersion: 'v1', actor: { type: 'system', id: null }, locationId: null, data: { object } };
  await s.stack.bus.publish([{ topic: 'inventory', key: id, eventId: envelope.id, type: 'item.created', payload: envelope }]);
  const salesSql = (q: string, p: unknown[]) => s.stack.services.sales.svc.runtime.orm.em.getConnection().execute(q, p);
  await eventually(async () => (await salesSql(`select 1 from sales.items where id = ?`, [id])).length > 0);
  return id;
}

/** Movements written straight to the ledger (in one posting), as another area would: cause an adjustment unless told, location NYC-1 unless told. */
export function postLedger(s: InventoryStack, movements: Array<Partial<MovementInput> & Pick<MovementInput, 'itemId' | 'type' | 'quantity'>>, opts: { requireAvailable?: boolean } = {}) {
  return s.stack.services.inventory.svc.runtime.orm.em.fork().transactional((em) =>
    postMovements(
      em,
      movements.map((m) => ({ locationId: s.locations['NYC-1'], cause: { type: 'stock_adjustment', id: 'adj_TEST' }, occurredAt: new Date(), ...m })),
      { now: new Date(), actor: null, requireAvailable: opts.requireAvailable ? { path: (i) => `lines[${i}].quantity` } : undefined },
    ),
  );
}

/** A unit of measure written directly: `factor` base units each, company-wide unless `itemId`. */
export async function insertUnit(sql: InventoryStack['sql'], baseUnit: 'each' | 'g' | 'ml', factor: string, itemId: string | null = null): Promise<string> {
  const id = newId('unitOfMeasure');
  await sql(`insert into inventory.units_of_measure (id, name, base_unit, factor, item_id, created_at, updated_at) values (?, ?, ?, ?, ?, now(), now())`, [id, `${factor} ${baseUnit}`, baseUnit, factor, itemId]);
  return id;
}

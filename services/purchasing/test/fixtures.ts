/**
 * Shared helpers of the purchasing integration tests: a stack with organization (locations reach
 * inventory's and purchasing's replicas through the bus), identity (company settings: approval
 * threshold, invoice-match tolerances), inventory (items, units, stock, the receipt consumer) and
 * purchasing; factories for suppliers, catalogs and orders; and the outboxes read back.
 */
import { identityService } from '@svc/identity';
import { inventoryService } from '@svc/inventory';
import { organizationService } from '@svc/organization';
import { newId, type Principal } from '@bop/shared';
import { eventually, person, startTestServices, type HttpResult, type TestService } from '@bop/test-support';
import { insertItem, levelOf, postLedger, type InventoryStack } from '../../inventory/test/fixtures';
import { purchasingService } from '../src';

export { insertItem, levelOf, postLedger };

let unitSeq = 0;
/** A unit of measure written directly: `factor` base units each, company-wide unless `itemId`; a unique name (names are unique company-wide). */
export async function insertUnit(sql: InventoryStack['sql'], baseUnit: 'each' | 'g' | 'ml', factor: string, itemId: string | null = null): Promise<string> {
  const id = newId('unitOfMeasure');
  await sql(`insert into inventory.units_of_measure (id, name, base_unit, factor, item_id, created_at, updated_at) values (?, ?, ?, ?, ?, now(), now())`, [id, `pack ${++unitSeq} of ${factor} ${baseUnit}`, baseUnit, factor, itemId]);
  return id;
}

/** Identity's owner is created from this password (nothing printed). */
const quietIdentity = { BOOTSTRAP_ADMIN_PASSWORD: 'a-good-long-password-123' };

/** The inventory fixtures' stack shape (`sql` runs on inventory's connection) plus purchasing's. */
export interface PurchasingStack extends InventoryStack {
  /** SQL on the purchasing service's connection (the same database) */
  psql: (q: string, p?: unknown[]) => Promise<any[]>;
  purchasing: TestService;
  inventory: TestService;
  identity: TestService;
  organization: TestService;
}

/** Organization, identity, inventory and purchasing on one fresh database, two locations replicated into inventory and purchasing. */
export async function startPurchasingStack(): Promise<PurchasingStack> {
  const stack = await startTestServices([organizationService, identityService, inventoryService, purchasingService], quietIdentity);
  const s = stack.services;
  const sql = (q: string, p: unknown[] = []): Promise<any[]> => s.inventory.svc.runtime.orm.em.getConnection().execute(q, p);
  const psql = (q: string, p: unknown[] = []): Promise<any[]> => s.purchasing.svc.runtime.orm.em.getConnection().execute(q, p);
  const nyc = await s.organization.call('POST', '/locations', { body: { name: 'NYC', timezone: 'America/New_York', businessDayCutoff: '04:00', externalId: 'NYC-1' } });
  const ber = await s.organization.call('POST', '/locations', { body: { name: 'Berlin', timezone: 'Europe/Berlin', businessDayCutoff: '05:00', externalId: 'BER-1' } });
  const locations = { 'NYC-1': nyc.body.id as string, 'BER-1': ber.body.id as string };
  const ids = [locations['NYC-1'], locations['BER-1']];
  await eventually(async () => (await sql(`select 1 from inventory.locations where id in (?, ?)`, ids)).length === 2);
  await eventually(async () => (await psql(`select 1 from purchasing.locations where id in (?, ?)`, ids)).length === 2);
  return { stack, sql, psql, locations, purchasing: s.purchasing, inventory: s.inventory, identity: s.identity, organization: s.organization };
}

/** A third location, replicated into purchasing (and inventory) before it is answered. */
export async function newLocation(s: PurchasingStack, name: string): Promise<string> {
  const r = await s.organization.call('POST', '/locations', { body: { name, timezone: 'Europe/London', businessDayCutoff: '04:00' } });
  if (r.status !== 201) throw new Error(`location: ${r.status} ${JSON.stringify(r.body)}`);
  await eventually(async () => (await s.psql(`select 1 from purchasing.locations where id = ?`, [r.body.id])).length === 1);
  await eventually(async () => (await s.sql(`select 1 from inventory.locations where id = ?`, [r.body.id])).length === 1);
  return r.body.id;
}

/** Archives a location in organization and waits until purchasing's replica says so. */
export async function archiveLocation(s: PurchasingStack, id: string): Promise<void> {
  const r = await s.organization.call('DELETE', `/locations/${id}`);
  if (r.status !== 200) throw new Error(`archive location: ${r.status} ${JSON.stringify(r.body)}`);
  await eventually(async () => (await s.psql(`select 1 from purchasing.locations where id = ? and status = 'archived'`, [id])).length === 1);
}

type CallOpts = { as?: Principal; ifMatch?: string | number };
const headersOf = (o: CallOpts): Record<string, string> => (o.ifMatch === undefined ? {} : { 'if-match': typeof o.ifMatch === 'number' ? `"${o.ifMatch}"` : o.ifMatch });

/** Calls purchasing (default: a person with every permission at Everyone). */
export function api<T = any>(s: PurchasingStack, method: string, path: string, body?: unknown, o: CallOpts = {}): Promise<HttpResult<T>> {
  return s.purchasing.call<T>(method, path, { as: o.as, body, headers: headersOf(o) });
}

/** Throws with the answer when the status is not the expected one (a fixture's request must succeed). */
export function expectStatus<T>(r: HttpResult<T>, status: number, what: string): HttpResult<T> {
  if (r.status !== status) throw new Error(`${what}: expected ${status}, got ${r.status} ${JSON.stringify(r.body)}`);
  return r;
}

let seq = 0;
/** A unique name for suppliers, items, invoice numbers. */
export const unique = (prefix: string) => `${prefix} ${++seq}-${Math.random().toString(36).slice(2, 7)}`;

/** An active supplier (unique name unless told). */
export async function newSupplier(s: PurchasingStack, over: Record<string, unknown> = {}): Promise<any> {
  return expectStatus(await api(s, 'POST', '/suppliers', { name: unique('Supplier'), ...over }), 201, 'create supplier').body;
}

export interface CatalogLineInput {
  supplierItemCode: string;
  itemId: string;
  packSize?: string;
  unitId?: string | null;
  price: string;
  minimumOrderQuantity?: string;
  leadTimeDays?: number | null;
  description?: string | null;
}

/** Replaces a supplier's catalog (pack size 1 of the base unit unless told). */
export async function putCatalog(s: PurchasingStack, supplierId: string, lines: CatalogLineInput[]): Promise<any> {
  const body = { lines: lines.map((l) => ({ packSize: '1', ...l })) };
  return expectStatus(await api(s, 'PUT', `/suppliers/${supplierId}/catalog`, body), 200, 'put catalog').body;
}

/** A supplier with a catalog of `lines`; answers the supplier and its catalog. */
export async function supplierWithCatalog(s: PurchasingStack, lines: CatalogLineInput[], over: Record<string, unknown> = {}): Promise<{ supplier: any; catalog: any }> {
  const supplier = await newSupplier(s, over);
  return { supplier, catalog: await putCatalog(s, supplier.id, lines) };
}

/**
 * A supplier selling two fresh items (inventory base unit `each`): A in cases of 12 at 24.00 (a unit
 * of measure of 12 each), B singly at 2.50. Codes are unique per call.
 */
export async function standardSupplier(s: PurchasingStack, over: Record<string, unknown> = {}) {
  const itemA = await insertItem(s.sql, { name: unique('Lemons') });
  const itemB = await insertItem(s.sql, { name: unique('Limes') });
  const case12 = await insertUnit(s.sql, 'each', '12');
  const codeA = unique('A').replace(/\s/g, '-');
  const codeB = unique('B').replace(/\s/g, '-');
  const { supplier, catalog } = await supplierWithCatalog(
    s,
    [
      { supplierItemCode: codeA, itemId: itemA, packSize: '1', unitId: case12, price: '24.00' },
      { supplierItemCode: codeB, itemId: itemB, price: '2.50' },
    ],
    over,
  );
  return { supplier, catalog, itemA, itemB, codeA, codeB, case12 };
}

/** POST /purchase-orders at NYC-1 unless told. */
export function createOrder(s: PurchasingStack, body: Record<string, unknown>, o: CallOpts = {}) {
  return api(s, 'POST', '/purchase-orders', { locationId: s.locations['NYC-1'], ...body }, o);
}

/** An order action (`approve`, `send`, `receive`, `cancel`). */
export function orderAction(s: PurchasingStack, id: string, action: 'approve' | 'send' | 'receive' | 'cancel', body: Record<string, unknown> = {}, o: CallOpts = {}) {
  return api(s, 'POST', `/purchase-orders/${id}:${action}`, body, o);
}

/** A draft order (201 required). */
export async function draftOrder(s: PurchasingStack, body: Record<string, unknown>): Promise<any> {
  return expectStatus(await createOrder(s, body), 201, 'create order').body;
}

/** A sent order (within the approval threshold: sent straight from draft). */
export async function sentOrder(s: PurchasingStack, body: Record<string, unknown>): Promise<any> {
  const draft = await draftOrder(s, body);
  return expectStatus(await orderAction(s, draft.id, 'send'), 200, 'send order').body;
}

/** PATCH /company-settings through identity (a person with every permission); answers the settings. */
export async function setCompanySettings(s: PurchasingStack, patch: Record<string, unknown>): Promise<any> {
  return expectStatus(await s.identity.call('PATCH', '/company-settings', { body: patch }), 200, 'company settings').body;
}

export const exactTolerances = { quantityAbsolute: null, quantityPercent: null, priceAbsolute: null, pricePercent: null };

/** The purchasing outbox's events of a type (payload envelopes), oldest first; `aggregateId` narrows to one record. */
export async function purchasingEvents(s: PurchasingStack, type: string, aggregateId?: string): Promise<any[]> {
  const rows = aggregateId
    ? await s.psql(`select payload from purchasing.outbox where type = ? and aggregate_id = ? order by seq`, [type, aggregateId])
    : await s.psql(`select payload from purchasing.outbox where type = ? order by seq`, [type]);
  return rows.map((r) => (typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload));
}

/** A person holding each named permission at the given locations only. */
export function personAt(locationIds: string[], perms: string[]): Principal {
  return person(Object.fromEntries(perms.map((p) => [p, [{ type: 'locations' as const, ids: locationIds }]])));
}

/** The receipt movements inventory booked for a purchase order, in ledger order. */
export function receiptMovements(s: PurchasingStack, purchaseOrderId: string) {
  return s.sql(
    `select item_id, location_id, type, trim_scale(quantity)::text as quantity, trim_scale(unit_cost)::text as unit_cost, cause_type, cause_id, reason
     from inventory.stock_movements where cause_type = 'purchase_order' and cause_id = ? order by seq`,
    [purchaseOrderId],
  );
}

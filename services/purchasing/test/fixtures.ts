/**
 * Shared helpers of the purchasing integration tests: a stack with organization (locations reach
 * inventory's and purchasing's replicas through the bus), identity (company settings: approval
 * threshold, invoice-match tolerances), inventory (items, units, stock, the receipt consumer) and
 * purchasing; factories for suppliers, catalogs and orders; and the outboxes read back.
 */
import { identityService } from '@svc/identity';
import { inventoryService } from '@svc/inventory';
import { organizationService } from '@svc/organization';
import type { Principal } from '@bop/shared';
import {
  insertItem,
  insertUnit,
  person,
  quietIdentity,
  replicatedLocation,
  serviceSql,
  standardLocations,
  startTestServices,
  untilReplicated,
  type HttpResult,
  type InventoryTarget,
  type ServiceSql,
  type TestService,
} from '@bop/test-support';
import { purchasingService } from '../src';

/** The stack with its locations; `sql` runs on inventory's connection, `psql` on purchasing's (the same database). */
export interface PurchasingStack extends InventoryTarget {
  /** SQL on the inventory service's connection */
  sql: ServiceSql;
  /** SQL on the purchasing service's connection (the same database) */
  psql: ServiceSql;
  purchasing: TestService;
  inventory: TestService;
  identity: TestService;
  organization: TestService;
}

/** Organization, identity, inventory and purchasing on one fresh database, two locations replicated into inventory and purchasing. */
export async function startPurchasingStack(): Promise<PurchasingStack> {
  const stack = await startTestServices([organizationService, identityService, inventoryService, purchasingService], quietIdentity);
  const s = stack.services;
  const locations = await standardLocations(stack, ['inventory', 'purchasing']);
  return { stack, sql: serviceSql(s.inventory), psql: serviceSql(s.purchasing), locations, purchasing: s.purchasing, inventory: s.inventory, identity: s.identity, organization: s.organization };
}

/** A third location, replicated into purchasing (and inventory) before it is answered. */
export async function newLocation(s: PurchasingStack, name: string): Promise<string> {
  return replicatedLocation(s.stack, { name, timezone: 'Europe/London', businessDayCutoff: '04:00' }, ['purchasing', 'inventory']);
}

/** Archives a location in organization and waits until purchasing's replica says so. */
export async function archiveLocation(s: PurchasingStack, id: string): Promise<void> {
  const r = await s.organization.call('DELETE', `/locations/${id}`);
  if (r.status !== 200) throw new Error(`archive location: ${r.status} ${JSON.stringify(r.body)}`);
  await untilReplicated(s.stack, 'purchasing', [id], { status: 'archived' });
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
  const itemA = await insertItem(s.stack, { name: unique('Lemons') });
  const itemB = await insertItem(s.stack, { name: unique('Limes') });
  const case12 = await insertUnit(s.stack, 'each', '12');
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

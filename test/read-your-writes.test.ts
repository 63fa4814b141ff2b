/**
 * Read-your-writes across services (architecture: "Consistency and faults"; issue 13 item 7): once
 * organization has answered a write of a location, every service accepts or refuses references to it
 * accordingly, whether its replica has caught up or not. The stack runs with every relay held back, so
 * no event reaches a replica: each service can only know the location by reading it through from
 * organization (the race is certain, not lucky). Then organization goes down: a service decides with
 * its replica when that can, and answers 503 (retryable) rather than a refusal it cannot vouch for.
 */
import { cashService } from '@svc/cash';
import { identityService } from '@svc/identity';
import { inventoryService } from '@svc/inventory';
import { organizationService } from '@svc/organization';
import { purchasingService } from '@svc/purchasing';
import { salesService } from '@svc/sales';
import { createLogger, newId, Relay } from '@bop/shared';
import { eventually, integration, person, quietIdentity, startTestServices, type HttpResult, type TestServices } from '@bop/test-support';

let stack: TestServices;
const pos = integration(['sales:write', 'sales:read']);
const sql = (q: string, p: unknown[] = []): Promise<any[]> => stack.services.inventory.svc.runtime.orm.em.getConnection().execute(q, p);

const call = (service: string, method: string, path: string, body?: unknown) => stack.services[service].call(method, path, { body });
const paths = (r: HttpResult) => ((r.body?.errors ?? []) as Array<{ path: string }>).map((e) => e.path);
let seq = 0;
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++seq}`;

/** A fresh location through `PUT /locations/external/{x}`: answered 201, replicated nowhere. */
async function onboard(): Promise<{ id: string; externalId: string }> {
  const externalId = unique('RYW');
  const r = await call('organization', 'PUT', `/locations/external/${externalId}`, { name: externalId, timezone: 'America/New_York', businessDayCutoff: '04:00' });
  expect(r.status).toBe(201);
  return { id: r.body.id, externalId };
}

const sale = (externalId: string, locationExternalId: string) => ({
  externalId,
  locationExternalId,
  occurredAt: new Date(Date.now() - 60_000).toISOString(),
  type: 'sale',
  lines: [{ itemSku: 'BURGER', name: 'Burger', quantity: '1', unitPrice: '8.00', tax: '0.64' }],
  tenders: [{ type: 'card', amount: '8.64' }],
  subtotal: '8.00',
  tax: '0.64',
  total: '8.64',
  currency: 'USD',
});
const salesBatch = (transactions: unknown[]) => stack.services.sales.call('POST', '/sales/transactions:batch', { as: pos, body: { source: 'pos-ryw', transactions } });
const adjust = (locationId: string, itemId: string) => call('inventory', 'POST', '/inventory/adjustments', { locationId, reason: 'opening_balance', lines: [{ itemId, quantity: '3', unitCost: '1.00' }] });
const count = (locationId: string, itemId: string) => call('inventory', 'POST', '/stock-counts', { locationId, lines: [{ itemId, quantity: '3' }] });
const deposit = (locationId: string) => call('cash', 'POST', '/cash/deposits', { locationId, amount: '120.00' });
const order = (locationId: string) => call('purchasing', 'POST', '/purchase-orders', { supplierId, locationId, lines: [{ supplierItemCode: 'RYW-LEMON', quantity: '2' }] });

let itemId: string;
let supplierId: string;

beforeAll(async () => {
  stack = await startTestServices([organizationService, identityService, inventoryService, cashService, salesService, purchasingService], quietIdentity, { relay: false });
  itemId = newId('item');
  await sql(`insert into inventory.items (id, name, base_unit, barcodes, status, created_at, updated_at) values (?, 'Lemons', 'each', '{}', 'active', now(), now())`, [itemId]);
  const supplier = await call('purchasing', 'POST', '/suppliers', { name: 'Citrus & Co' });
  expect(supplier.status).toBe(201);
  supplierId = supplier.body.id;
  expect((await call('purchasing', 'PUT', `/suppliers/${supplierId}/catalog`, { lines: [{ supplierItemCode: 'RYW-LEMON', itemId, packSize: '1', price: '2.00' }] })).status).toBe(200);
});
afterAll(async () => {
  await stack?.close();
});

describe('a location just written at organization', () => {
  it('is accepted by every service right after PUT /locations/external/{x} answered 201', async () => {
    const at = await onboard();
    expect(await sql(`select 1 from inventory.locations where id = ?`, [at.id])).toEqual([]);

    const sales = await salesBatch([sale(unique('T'), at.externalId)]);
    expect(sales.status).toBe(202);
    expect(sales.body).toMatchObject({ received: 1, created: 1, rejected: 0 });
    expect((await adjust(at.id, itemId)).status).toBe(201);
    expect((await count(at.id, itemId)).status).toBe(201);
    expect((await deposit(at.id)).status).toBe(201);
    expect((await order(at.id)).status).toBe(201);
    expect((await call('purchasing', 'POST', '/suppliers', { name: unique('Local supplier'), locationIds: [at.id] })).status).toBe(201);

    // what organization answered is kept in the replicas (no event has been published)
    const replicas = await sql(
      `select 'sales' as s, status from sales.locations where id = ? union all select 'inventory', status from inventory.locations where id = ?
       union all select 'cash', status from cash.locations where id = ? union all select 'purchasing', status from purchasing.locations where id = ? order by 1`,
      [at.id, at.id, at.id, at.id],
    );
    expect(replicas).toEqual(['cash', 'inventory', 'purchasing', 'sales'].map((s) => ({ s, status: 'active' })));
  });

  it('is refused by every location-bound write right after DELETE /locations/{id} answered, and taken again right after it is reactivated', async () => {
    const at = await onboard();
    expect((await count(at.id, itemId)).status).toBe(201); // the replicas now hold it active

    expect((await call('organization', 'DELETE', `/locations/${at.id}`)).status).toBe(200);
    for (const r of [await count(at.id, itemId), await adjust(at.id, itemId), await deposit(at.id), await order(at.id)]) {
      expect(r.status).toBe(422);
      expect(r.body.code).toBe('validation_error');
      expect(paths(r)).toEqual(['locationId']);
    }
    // ingestion still takes records of an archived location, with a warning (spec: ingestion rule 10)
    const sales = await salesBatch([sale(unique('T'), at.externalId)]);
    expect(sales.body).toMatchObject({ created: 1, rejected: 0 });
    expect(sales.body.results[0].warnings).toEqual([{ path: 'locationExternalId', message: `Location ${at.id} is archived.` }]);

    expect((await call('organization', 'PATCH', `/locations/${at.id}`, { status: 'active' })).status).toBe(200);
    expect((await count(at.id, itemId)).status).toBe(201);
    expect((await deposit(at.id)).status).toBe(201);
  });

  it('never writes an older state of organization over a newer one the replica holds', async () => {
    const at = await onboard();
    expect((await count(at.id, itemId)).status).toBe(201);
    // as if a later event had already reached inventory (organization's answer is older)
    await sql(`update inventory.locations set timezone = 'Asia/Tokyo', updated_at = now() + interval '1 day' where id = ?`, [at.id]);
    expect((await count(at.id, itemId)).status).toBe(201);
    expect(await sql(`select timezone from inventory.locations where id = ?`, [at.id])).toEqual([{ timezone: 'Asia/Tokyo' }]);
  });

  it('is unknown everywhere when organization knows no such location', async () => {
    const missing = newId('location');
    const r = await count(missing, itemId);
    expect(r.status).toBe(422);
    expect(r.body.errors).toEqual([{ path: 'locationId', message: `No location ${missing}.` }]);
    const sales = await salesBatch([sale(unique('T'), 'NO-SUCH-STORE')]);
    expect(sales.body).toMatchObject({ created: 0, rejected: 1 });
    expect(sales.body.results[0].errors).toEqual([{ path: 'locationExternalId', message: 'No location with externalId NO-SUCH-STORE.' }]);
  });
});

describe('a person whose reach is an org unit', () => {
  it('reaches a location created in that unit at once for writes', async () => {
    const unit = await call('organization', 'POST', '/org-units', { name: unique('Region') });
    expect(unit.status).toBe(201);
    const at = await call('organization', 'POST', '/locations', { name: unique('Store'), timezone: 'Europe/Paris', businessDayCutoff: '04:00', orgUnitId: unit.body.id });
    expect(at.status).toBe(201);
    const manager = person({ 'stock_counts.count': [{ type: 'org_units', ids: [unit.body.id] }] });
    const counted = await stack.services.inventory.call('POST', '/stock-counts', { as: manager, body: { locationId: at.body.id, lines: [{ itemId, quantity: '1' }] } });
    expect(counted.status).toBe(201);
    // a location outside the unit stays out of reach
    const other = await onboard();
    const refused = await stack.services.inventory.call('POST', '/stock-counts', { as: manager, body: { locationId: other.id, lines: [{ itemId, quantity: '1' }] } });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('out_of_reach');
  });
});

describe('an item just created at inventory', () => {
  it('is accepted on a customer invoice right after POST /items answered 201 (sales reads it through)', async () => {
    const item = await call('inventory', 'POST', '/items', { name: 'Catering tray', baseUnit: 'each' });
    expect(item.status).toBe(201);
    const customer = await call('sales', 'POST', '/customers', { name: 'Ada Lovelace', email: 'ada@example.com' });
    expect(customer.status).toBe(201);
    const invoice = await call('sales', 'POST', '/customer-invoices', {
      customerId: customer.body.id,
      currency: 'USD',
      lines: [{ itemId: item.body.id, description: 'Catering tray', quantity: '1', unitPrice: '40.00', tax: '0.00' }],
    });
    expect(invoice.status).toBe(201);
    expect(await sql(`select name, status from sales.items where id = ?`, [item.body.id])).toEqual([{ name: 'Catering tray', status: 'active' }]);

    const missing = newId('item');
    const refused = await call('sales', 'POST', '/customer-invoices', { customerId: customer.body.id, currency: 'USD', lines: [{ itemId: missing, description: 'Nothing', quantity: '1', unitPrice: '1.00', tax: '0.00' }] });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual([{ path: 'lines[0].itemId', message: `No item with id ${missing}.` }]);
  });

  it('matches a POS line naming it by SKU, barcode or externalId right after POST /items answered 201', async () => {
    const at = await onboard();
    const tag = unique('RYW-ITEM');
    const item = await call('inventory', 'POST', '/items', { name: 'Lemonade', baseUnit: 'each', sku: `${tag}-SKU`, barcodes: [`${tag}-EAN`], externalId: `${tag}-EXT` });
    expect(item.status).toBe(201);
    expect(await sql(`select 1 from sales.items where id = ?`, [item.body.id])).toEqual([]);
    const line = (ref: Record<string, string>) => ({ ...ref, name: 'Lemonade', quantity: '1', unitPrice: '8.00', tax: '0.64' });
    const lines = [line({ itemSku: `${tag}-SKU` }), line({ itemBarcode: `${tag}-EAN` }), line({ itemExternalId: `${tag}-EXT` }), line({ itemSku: `${tag}-NONE` })];
    const t = { ...sale(unique('T'), at.externalId), lines, subtotal: '32.00', tax: '2.56', total: '34.56', tenders: [{ type: 'card', amount: '34.56' }] };
    const r = await salesBatch([t]);
    expect(r.status).toBe(202);
    expect(r.body).toMatchObject({ created: 1, rejected: 0 });
    const [stored] = await sql(`select lines from sales.transactions where external_id = ?`, [t.externalId]);
    expect(stored.lines.map((l: { itemId?: string | null }) => l.itemId ?? null)).toEqual([item.body.id, item.body.id, item.body.id, null]);
    // only the reference no item carries is queued for mapping
    const queued = await sql(`select ref_value from sales.unmapped_items where source = 'pos-ryw' and ref_value like ?`, [`${tag}%`]);
    expect(queued).toEqual([{ ref_value: `${tag}-NONE` }]);
  });
});

describe('organization unreachable', () => {
  it('decides with the replica when it knows the location, else answers 503 service_unavailable', async () => {
    const known = await onboard();
    const archived = await onboard();
    expect((await call('organization', 'DELETE', `/locations/${archived.id}`)).status).toBe(200);
    // organization's events reach the replicas (its relay, held back so far, runs for a while)
    const relay = new Relay({ schema: 'organization', topic: 'organization', connectionString: stack.db.url, bus: stack.bus, log: createLogger('relay', 'silent'), pollMs: 200 });
    relay.start();
    await eventually(async () => (await sql(`select 1 from inventory.locations where id = ? and status = 'archived'`, [archived.id])).length === 1);
    await eventually(async () => (await sql(`select 1 from inventory.locations where id = ?`, [known.id])).length === 1);
    await relay.stop();
    const unseen = await onboard(); // answered by organization, in no replica

    await stack.services.organization.close();

    expect((await adjust(known.id, itemId)).status).toBe(201);
    // the same refusal as organization's answer gave right after the archive
    const refused = await count(archived.id, itemId);
    expect(refused.status).toBe(422);
    expect(paths(refused)).toEqual(['locationId']);

    const unavailable = await adjust(unseen.id, itemId);
    expect(unavailable.status).toBe(503);
    expect(unavailable.body.code).toBe('service_unavailable');
    expect(unavailable.headers.get('retry-after')).toBeTruthy();
    const sales = await salesBatch([sale(unique('T'), unseen.externalId)]);
    expect(sales.status).toBe(503);
    expect(sales.body.code).toBe('service_unavailable');
  });
});

/**
 * Suppliers and their catalogs: create, read, list, patch and archive; the external PUT (201 then
 * 200, the same content again no new version, concurrent first PUTs make one supplier); unique
 * names among active suppliers (409 with the path); the locations a supplier delivers to; the
 * catalog converting packs to base units through inventory's units (422 at the line for an unknown
 * or archived item or a unit that does not apply); writes need reach Everyone.
 */
import { insertItem, insertUnit, outboxPayloads, person } from '@bop/test-support';
import { api, archiveLocation, newLocation, newSupplier, personAt, putCatalog, startPurchasingStack, unique, type PurchasingStack } from './fixtures';

let s: PurchasingStack;
let nyc: string;
let ber: string;

beforeAll(async () => {
  s = await startPurchasingStack();
  nyc = s.locations['NYC-1'];
  ber = s.locations['BER-1'];
});
afterAll(async () => {
  await s?.stack.close();
});

const paths = (body: any) => (body.errors ?? []).map((e: { path: string }) => e.path);

describe('suppliers', () => {
  it('creates, reads, lists, patches; If-Match guards a patch', async () => {
    const name = unique('Sysco Metro');
    const r = await api(s, 'POST', '/suppliers', {
      name,
      externalId: unique('ERP'),
      accountNumber: 'C-1001',
      email: 'orders@sysco.example',
      phone: '+1 212 555 0100',
      locationIds: [nyc],
      defaultLeadTimeDays: 2,
      note: 'Deliveries before 10',
    });
    expect(r.status).toBe(201);
    expect(r.headers.get('location')).toBe(`/api/v1/suppliers/${r.body.id}`);
    expect(r.headers.get('etag')).toBe('"1"');
    expect(r.body).toEqual({
      id: expect.stringMatching(/^sup_/),
      externalId: expect.any(String),
      name,
      accountNumber: 'C-1001',
      email: 'orders@sysco.example',
      phone: '+1 212 555 0100',
      locationIds: [nyc],
      defaultLeadTimeDays: 2,
      note: 'Deliveries before 10',
      status: 'active',
      archivedAt: null,
      version: 1,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });

    const got = await api(s, 'GET', `/suppliers/${r.body.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(r.body);
    expect((await api(s, 'GET', `/suppliers/external/${encodeURIComponent(r.body.externalId)}`)).body).toEqual(r.body);
    expect((await api(s, 'GET', '/suppliers/sup_missing')).status).toBe(404);
    expect((await api(s, 'GET', '/suppliers/external/nope')).status).toBe(404);

    const byExternal = await api(s, 'GET', `/suppliers?externalId=${encodeURIComponent(r.body.externalId)}`);
    expect(byExternal.body.data).toEqual([r.body]);

    // only the fields sent change; null clears
    const stale = await api(s, 'PATCH', `/suppliers/${r.body.id}`, { phone: null }, { ifMatch: 7 });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('version_mismatch');
    const patched = await api(s, 'PATCH', `/suppliers/${r.body.id}`, { phone: null, defaultLeadTimeDays: 3 }, { ifMatch: 1 });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ name, phone: null, defaultLeadTimeDays: 3, accountNumber: 'C-1001', version: 2 });
    expect(patched.headers.get('etag')).toBe('"2"');
    // the same values again change nothing
    const same = await api(s, 'PATCH', `/suppliers/${r.body.id}`, { defaultLeadTimeDays: 3 });
    expect(same.body.version).toBe(2);
  });

  it('refuses bad input with field paths', async () => {
    const r = await api(s, 'POST', '/suppliers', { email: 'not-an-email', defaultLeadTimeDays: 400, colour: 'red' });
    expect(r.status).toBe(422);
    expect(r.body.code).toBe('validation_error');
    expect(paths(r.body)).toEqual(expect.arrayContaining(['name', 'email', 'defaultLeadTimeDays', 'colour']));
  });

  it('names are unique among active suppliers (case-insensitive): 409 with the path; archived names are free', async () => {
    const first = await newSupplier(s, { name: 'Fresh Direct Produce' });
    const dup = await api(s, 'POST', '/suppliers', { name: 'FRESH direct produce' });
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe('conflict');
    expect(dup.body.errors).toEqual([{ path: 'name', message: expect.stringContaining(first.id) }]);

    // renaming another onto it is refused too
    const other = await newSupplier(s);
    const renamed = await api(s, 'PATCH', `/suppliers/${other.id}`, { name: 'Fresh Direct Produce' });
    expect(renamed.status).toBe(409);
    expect(paths(renamed.body)).toEqual(['name']);

    // LIKE's wildcards in a name stand for themselves
    await newSupplier(s, { name: 'WildXCard 50 off' });
    expect((await api(s, 'POST', '/suppliers', { name: 'Wild_Card 50%' })).status).toBe(201);

    // an externalId is unique among all suppliers
    const ext = await newSupplier(s, { externalId: 'ERP-UNIQ-1' });
    const extDup = await api(s, 'POST', '/suppliers', { name: unique('Other'), externalId: 'ERP-UNIQ-1' });
    expect(extDup.status).toBe(409);
    expect(extDup.body.errors).toEqual([{ path: 'externalId', message: expect.stringContaining(ext.id) }]);

    // once archived, the name may be used again; reviving the archived one then collides
    expect((await api(s, 'DELETE', `/suppliers/${first.id}`)).status).toBe(200);
    const again = await api(s, 'POST', '/suppliers', { name: 'Fresh Direct Produce' });
    expect(again.status).toBe(201);
    const revive = await api(s, 'PATCH', `/suppliers/${first.id}`, { status: 'active' });
    expect(revive.status).toBe(409);
    expect(paths(revive.body)).toEqual(['name']);
  });

  it('archives (DELETE): history kept, archiving again changes nothing; lists filter by status', async () => {
    const sup = await newSupplier(s);
    const r = await api(s, 'DELETE', `/suppliers/${sup.id}`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: sup.id, status: 'archived', archivedAt: expect.any(String), version: 2 });
    const again = await api(s, 'DELETE', `/suppliers/${sup.id}`);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(r.body);
    expect((await api(s, 'GET', `/suppliers/${sup.id}`)).body.status).toBe('archived');
    expect((await api(s, 'DELETE', '/suppliers/sup_missing')).status).toBe(404);

    const archived = await api(s, 'GET', '/suppliers?status=archived&limit=200');
    expect(archived.body.data.map((x: any) => x.id)).toContain(sup.id);
    const active = await api(s, 'GET', '/suppliers?status=active&limit=200');
    expect(active.body.data.map((x: any) => x.id)).not.toContain(sup.id);
    expect(active.body.data.every((x: any) => x.status === 'active')).toBe(true);

    // reviving clears archivedAt
    const revived = await api(s, 'PATCH', `/suppliers/${sup.id}`, { status: 'active' });
    expect(revived.body).toMatchObject({ status: 'active', archivedAt: null, version: 3 });

    // a change event per change (issue 41 item 3), data.object the supplier as the API returns it; archiving again records none
    const events = await outboxPayloads(s.stack, 'purchasing', { aggregateId: sup.id });
    expect(events.map((e) => e.type)).toEqual(['supplier.created', 'supplier.archived', 'supplier.updated']);
    expect(events[1]).toMatchObject({ locationId: null, data: { object: r.body, previous: { status: 'active', archivedAt: null } } });
    expect(events[2].data).toEqual({ object: revived.body, previous: { status: 'archived', archivedAt: r.body.archivedAt } });
  });

  it('validates the locations it delivers to: unknown, archived, listed twice → 422 at the entry; lists by location', async () => {
    const closed = await newLocation(s, unique('Closed'));
    await archiveLocation(s, closed);
    const r = await api(s, 'POST', '/suppliers', { name: unique('Sup'), locationIds: [nyc, 'loc_nowhere', nyc, closed] });
    expect(r.status).toBe(422);
    expect(r.body.errors).toEqual(
      expect.arrayContaining([
        { path: 'locationIds[1]', message: expect.stringContaining('No location loc_nowhere') },
        { path: 'locationIds[2]', message: 'Listed twice.' },
        { path: 'locationIds[3]', message: expect.stringContaining('archived') },
      ]),
    );
    expect(r.body.errors).toHaveLength(3);

    const nycOnly = await newSupplier(s, { locationIds: [nyc] });
    const berOnly = await newSupplier(s, { locationIds: [ber] });
    const everywhere = await newSupplier(s);
    const atNyc = (await api(s, 'GET', `/suppliers?locationId=${nyc}&limit=200`)).body.data.map((x: any) => x.id);
    expect(atNyc).toEqual(expect.arrayContaining([nycOnly.id, everywhere.id]));
    expect(atNyc).not.toContain(berOnly.id);
  });

  it('PUT /suppliers/external/{externalId}: 201 then 200; the same content again is no new version; absent fields clear; status kept', async () => {
    const externalId = unique('AP').replace(/\s/g, '-');
    const name = unique('Baldor');
    const created = await api(s, 'PUT', `/suppliers/external/${externalId}`, { name, accountNumber: 'B-7', locationIds: [ber] });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe(`/api/v1/suppliers/${created.body.id}`);
    expect(created.body).toMatchObject({ externalId, name, accountNumber: 'B-7', locationIds: [ber], status: 'active', version: 1 });

    const same = await api(s, 'PUT', `/suppliers/external/${externalId}`, { name, accountNumber: 'B-7', locationIds: [ber] });
    expect(same.status).toBe(200);
    expect(same.body).toEqual(created.body);

    const replaced = await api(s, 'PUT', `/suppliers/external/${externalId}`, { name, phone: '555' });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ id: created.body.id, accountNumber: null, phone: '555', locationIds: [], version: 2 });

    // If-Match applies when something changes
    const stale = await api(s, 'PUT', `/suppliers/external/${externalId}`, { name, phone: '556' }, { ifMatch: 1 });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('version_mismatch');

    // a sync without status never revives an archived supplier
    await api(s, 'DELETE', `/suppliers/${created.body.id}`);
    const synced = await api(s, 'PUT', `/suppliers/external/${externalId}`, { name, phone: '557' });
    expect(synced.status).toBe(200);
    expect(synced.body).toMatchObject({ status: 'archived', phone: '557' });
    const bad = await api(s, 'PUT', `/suppliers/external/${externalId}`, { phone: '557' });
    expect(bad.status).toBe(422);
    expect(paths(bad.body)).toEqual(['name']);
  });

  it('concurrent first PUTs of one externalId create one supplier', async () => {
    const externalId = unique('RACE').replace(/\s/g, '-');
    const name = unique('Racing');
    const results = await Promise.all([0, 1, 2, 3, 4].map(() => api(s, 'PUT', `/suppliers/external/${externalId}`, { name, email: 'a@b.example' })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 201]);
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
    expect(results.every((r) => r.body.version === 1)).toBe(true);
    const rows = await s.psql(`select id from purchasing.suppliers where external_id = ?`, [externalId]);
    expect(rows).toHaveLength(1);
  });

  it('writes need suppliers.manage at reach Everyone; reading needs purchasing.read at any reach', async () => {
    const sup = await newSupplier(s);
    const item = await insertItem(s.stack);
    const local = personAt([nyc], ['suppliers.manage', 'purchasing.read']);
    const attempts = await Promise.all([
      api(s, 'POST', '/suppliers', { name: unique('Local') }, { as: local }),
      api(s, 'PATCH', `/suppliers/${sup.id}`, { note: 'x' }, { as: local }),
      api(s, 'DELETE', `/suppliers/${sup.id}`, undefined, { as: local }),
      api(s, 'PUT', `/suppliers/external/${unique('L').replace(/\s/g, '-')}`, { name: unique('Local') }, { as: local }),
      api(s, 'PUT', `/suppliers/${sup.id}/catalog`, { lines: [{ supplierItemCode: 'X', itemId: item, packSize: '1', price: '1' }] }, { as: local }),
    ]);
    for (const r of attempts) {
      expect(r.status).toBe(403);
      expect(r.body.code).toBe('out_of_reach');
    }
    expect((await api(s, 'GET', `/suppliers/${sup.id}`)).body.version).toBe(1);

    expect((await api(s, 'GET', `/suppliers/${sup.id}`, undefined, { as: local })).status).toBe(200);
    expect((await api(s, 'GET', `/suppliers/${sup.id}/catalog`, undefined, { as: local })).status).toBe(200);
    expect((await api(s, 'GET', '/suppliers', undefined, { as: local })).status).toBe(200);

    const none = person({ 'orders.create': [{ type: 'everyone' }] });
    const denied = await api(s, 'GET', '/suppliers', undefined, { as: none });
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe('forbidden');
  });
});

describe('catalogs', () => {
  it('is empty (version 0) before the first PUT; 404 for an unknown supplier', async () => {
    const sup = await newSupplier(s);
    const r = await api(s, 'GET', `/suppliers/${sup.id}/catalog`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ supplierId: sup.id, lines: [], version: 0, updatedAt: null });
    expect((await api(s, 'GET', '/suppliers/sup_missing/catalog')).status).toBe(404);
    expect((await api(s, 'PUT', '/suppliers/sup_missing/catalog', { lines: [] })).status).toBe(404);
  });

  it('converts packs to base units via a unit of measure and prices the base unit; the same lines again are no new version', async () => {
    const sup = await newSupplier(s, { defaultLeadTimeDays: 4 });
    const lemons = await insertItem(s.stack, { name: 'Lemons' });
    const flour = await insertItem(s.stack, { name: 'Flour', baseUnit: 'g' });
    const oil = await insertItem(s.stack, { name: 'Olive oil', baseUnit: 'ml' });
    const case12 = await insertUnit(s.stack, 'each', '12');
    const kg = await insertUnit(s.stack, 'g', '1000');
    const lines = [
      { supplierItemCode: 'LEM-12', itemId: lemons, description: 'Lemons, case of 12', packSize: '1', unitId: case12, price: '18.95', minimumOrderQuantity: '2', leadTimeDays: 1 },
      { supplierItemCode: 'FLR-25', itemId: flour, packSize: '25', unitId: kg, price: '31.50' },
      { supplierItemCode: 'OIL-5L', itemId: oil, packSize: '5000.000', price: '42' },
    ];
    const r = await api(s, 'PUT', `/suppliers/${sup.id}/catalog`, { lines });
    expect(r.status).toBe(200);
    expect(r.headers.get('etag')).toBe('"1"');
    const [catalogEvent, ...more] = await outboxPayloads(s.stack, 'purchasing', { type: 'supplier.catalog_replaced', aggregateId: sup.id });
    expect(more).toHaveLength(0);
    expect(catalogEvent.data.object).toEqual(r.body);
    expect(r.body).toEqual({
      supplierId: sup.id,
      version: 1,
      updatedAt: expect.any(String),
      lines: [
        {
          supplierItemCode: 'LEM-12',
          itemId: lemons,
          itemName: 'Lemons',
          description: 'Lemons, case of 12',
          packSize: '1',
          unitId: case12,
          baseUnit: 'each',
          baseQuantityPerPack: '12',
          price: '18.95',
          baseUnitPrice: '1.579167',
          minimumOrderQuantity: '2',
          leadTimeDays: 1,
        },
        {
          supplierItemCode: 'FLR-25',
          itemId: flour,
          itemName: 'Flour',
          description: null,
          packSize: '25',
          unitId: kg,
          baseUnit: 'g',
          baseQuantityPerPack: '25000',
          price: '31.5',
          baseUnitPrice: '0.00126',
          minimumOrderQuantity: '1',
          leadTimeDays: 4,
        },
        {
          supplierItemCode: 'OIL-5L',
          itemId: oil,
          itemName: 'Olive oil',
          description: null,
          packSize: '5000',
          unitId: null,
          baseUnit: 'ml',
          baseQuantityPerPack: '5000',
          price: '42',
          baseUnitPrice: '0.0084',
          minimumOrderQuantity: '1',
          leadTimeDays: 4,
        },
      ],
    });
    expect((await api(s, 'GET', `/suppliers/${sup.id}/catalog`)).body).toEqual(r.body);

    const same = await api(s, 'PUT', `/suppliers/${sup.id}/catalog`, { lines }, { ifMatch: 99 });
    expect(same.status).toBe(200);
    expect(same.body).toEqual(r.body);

    // the supplier's default lead time follows the supplier
    await api(s, 'PATCH', `/suppliers/${sup.id}`, { defaultLeadTimeDays: 6 });
    expect((await api(s, 'GET', `/suppliers/${sup.id}/catalog`)).body.lines.map((l: any) => l.leadTimeDays)).toEqual([1, 6, 6]);

    const stale = await api(s, 'PUT', `/suppliers/${sup.id}/catalog`, { lines: lines.slice(0, 1) }, { ifMatch: 2 });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('version_mismatch');
    const replaced = await api(s, 'PUT', `/suppliers/${sup.id}/catalog`, { lines: lines.slice(0, 1) }, { ifMatch: 1 });
    expect(replaced.status).toBe(200);
    expect(replaced.body.version).toBe(2);
    expect(replaced.body.lines.map((l: any) => l.supplierItemCode)).toEqual(['LEM-12']);

    const cleared = await api(s, 'PUT', `/suppliers/${sup.id}/catalog`, { lines: [] });
    expect(cleared.body).toMatchObject({ lines: [], version: 3 });
  });

  it('refuses unknown or archived items, units that do not apply, and lines naming a code or item twice (422 at the line)', async () => {
    const sup = await newSupplier(s);
    const item = await insertItem(s.stack);
    const other = await insertItem(s.stack);
    const archived = await insertItem(s.stack, { status: 'archived' });
    const grams = await insertUnit(s.stack, 'g', '1000');
    const othersUnit = await insertUnit(s.stack, 'each', '6', other);

    const dup = await api(s, 'PUT', `/suppliers/${sup.id}/catalog`, {
      lines: [
        { supplierItemCode: 'A-1', itemId: item, packSize: '1', price: '1' },
        { supplierItemCode: 'a-1', itemId: other, packSize: '1', price: '1' },
        { supplierItemCode: 'B-1', itemId: item, packSize: '1', price: '1' },
      ],
    });
    expect(dup.status).toBe(422);
    expect(dup.body.errors).toEqual([
      { path: 'lines[1].supplierItemCode', message: 'Also on line 0.' },
      { path: 'lines[2].itemId', message: expect.stringContaining('Also on line 0') },
    ]);

    const bad = await api(s, 'PUT', `/suppliers/${sup.id}/catalog`, {
      lines: [
        { supplierItemCode: 'OK', itemId: item, packSize: '1', price: '1' },
        { supplierItemCode: 'GONE', itemId: 'itm_missing', packSize: '1', price: '1' },
        { supplierItemCode: 'OLD', itemId: archived, packSize: '1', price: '1' },
        { supplierItemCode: 'KG', itemId: other, packSize: '1', unitId: grams, price: '1' },
      ],
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([
      { path: 'lines[1].itemId', message: 'No item itm_missing.' },
      { path: 'lines[2].itemId', message: `Item ${archived} is archived.` },
      { path: 'lines[3].unitId', message: expect.stringContaining('measures g') },
    ]);

    const foreign = await api(s, 'PUT', `/suppliers/${sup.id}/catalog`, { lines: [{ supplierItemCode: 'SIX', itemId: item, packSize: '1', unitId: othersUnit, price: '1' }] });
    expect(foreign.status).toBe(422);
    expect(foreign.body.errors).toEqual([{ path: 'lines[0].unitId', message: `Unit ${othersUnit} belongs to item ${other}.` }]);

    const shape = await api(s, 'PUT', `/suppliers/${sup.id}/catalog`, { lines: [{ supplierItemCode: 'Z', itemId: item, packSize: '0', price: 3, minimumOrderQuantity: '0' }] });
    expect(shape.status).toBe(422);
    expect(paths(shape.body)).toEqual(expect.arrayContaining(['lines[0].packSize', 'lines[0].price', 'lines[0].minimumOrderQuantity']));

    expect((await api(s, 'GET', `/suppliers/${sup.id}/catalog`)).body.version).toBe(0);
  });

  it('an archived supplier’s catalog cannot change (409) but can still be read', async () => {
    const sup = await newSupplier(s);
    const item = await insertItem(s.stack);
    await putCatalog(s, sup.id, [{ supplierItemCode: 'K', itemId: item, price: '3' }]);
    await api(s, 'DELETE', `/suppliers/${sup.id}`);
    const r = await api(s, 'PUT', `/suppliers/${sup.id}/catalog`, { lines: [] });
    expect(r.status).toBe(409);
    expect(r.body.code).toBe('conflict');
    expect((await api(s, 'GET', `/suppliers/${sup.id}/catalog`)).body.lines).toHaveLength(1);
  });
});

/**
 * Customers (supplement: /customers): POST, PUT/GET by externalId (create or replace, idempotent),
 * GET/PATCH by id (If-Match), the list with filters and cursors, validation with field paths,
 * `sales.customer.*` events in the outbox, company-wide reach, and the link of online orders
 * (stored before or after their customer) to customer records.
 */
import { organizationService } from '@svc/organization';
import { salesService } from '../src';
import { integration, person, replicatedLocation, serviceSql, startTestServices, type ServiceSql, type TestServices } from '@bop/test-support';

let stack: TestServices;
const crm = integration(['sales:write', 'sales:read']);

let n = 0;
const nextExt = (prefix = 'C') => `${prefix}-${++n}`;

/** A full customer as a person enters it. */
function customerBody(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'Ada Lovelace',
    email: 'Ada@Example.COM',
    phone: '+44 20 7946 0958',
    billingAddress: { line1: '12 St James Sq', city: 'London', postalCode: 'SW1Y 4JH', country: 'GB' },
    shippingAddress: { line1: '1 Main St', line2: 'Suite 4', city: 'Springfield', region: 'IL', postalCode: '62701', country: 'US' },
    taxId: 'GB123456789',
    notes: 'Prefers invoices by email.',
    ...over,
  };
}

const sales = () => stack.services.sales;
const post = (body: unknown, as = person()) => sales().call('POST', '/customers', { as, body });
const put = (externalId: string, body: unknown, opts: { as?: ReturnType<typeof person>; headers?: Record<string, string> } = {}) =>
  sales().call('PUT', `/customers/external/${encodeURIComponent(externalId)}`, { as: opts.as ?? crm, body, headers: opts.headers });
const patch = (id: string, body: unknown, headers?: Record<string, string>) => sales().call('PATCH', `/customers/${id}`, { body, headers });
const get = (path: string, as = person()) => sales().call('GET', path, { as });
const sql: ServiceSql = (q, p) => serviceSql(sales())(q, p);
const outbox = (aggregateId: string) => sql(`select type, aggregate_type, location_id, payload from sales.outbox where aggregate_id = ? order by seq`, [aggregateId]);
const count = async () => Number((await sql(`select count(*)::int as n from sales.customers`))[0].n);

beforeAll(async () => {
  stack = await startTestServices([organizationService, salesService]);
  await replicatedLocation(stack, { name: 'Warehouse', timezone: 'Europe/London', externalId: 'CUS-WH' }, ['sales']);
});
afterAll(async () => {
  await stack?.close();
});

describe('POST /customers', () => {
  it('creates an active customer (201, ETag, Location), email lower-cased, addresses in full', async () => {
    const ext = nextExt();
    const r = await post(customerBody({ externalId: ext }));
    expect(r.status).toBe(201);
    expect(r.headers.get('etag')).toBe('"1"');
    expect(r.headers.get('location')).toBe(`/api/v1/customers/${r.body.id}`);
    expect(r.body).toEqual({
      id: expect.stringMatching(/^cus_/),
      externalId: ext,
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      phone: '+44 20 7946 0958',
      billingAddress: { line1: '12 St James Sq', line2: null, city: 'London', region: null, postalCode: 'SW1Y 4JH', country: 'GB' },
      shippingAddress: { line1: '1 Main St', line2: 'Suite 4', city: 'Springfield', region: 'IL', postalCode: '62701', country: 'US' },
      taxId: 'GB123456789',
      notes: 'Prefers invoices by email.',
      status: 'active',
      archivedAt: null,
      version: 1,
      createdAt: expect.any(String),
      updatedAt: r.body.createdAt,
    });
    expect((await get(`/customers/${r.body.id}`)).body).toEqual(r.body);
  });

  it('needs only a name; the rest is null, and several customers may share an email', async () => {
    const a = await post({ name: '  Walk-in  ' });
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({ name: 'Walk-in', externalId: null, email: null, phone: null, billingAddress: null, shippingAddress: null, taxId: null, notes: null });
    const b = await post({ name: 'Walk-in', email: 'shared@example.com' });
    const c = await post({ name: 'Walk-in two', email: 'SHARED@example.com', externalId: null });
    expect([b.status, c.status]).toEqual([201, 201]);
    expect(c.body.email).toBe('shared@example.com');
  });

  it('records sales.customer.created and the public customer.created with the envelope and the customer as data.object', async () => {
    const r = await post(customerBody({ externalId: nextExt() }));
    const events = await outbox(r.body.id);
    expect(events).toEqual([
      { type: 'sales.customer.created', aggregate_type: 'customer', location_id: null, payload: expect.any(Object) },
      { type: 'customer.created', aggregate_type: 'customer', location_id: null, payload: expect.any(Object) },
    ]);
    expect(events[1].payload).toMatchObject({ type: 'customer.created', locationId: null, data: { object: r.body } });
    expect(events[0].payload).toEqual({
      id: expect.stringMatching(/^evt_/),
      type: 'sales.customer.created',
      createdAt: expect.any(String),
      apiVersion: 'v1',
      actor: { type: 'user', id: 'usr_test' },
      locationId: null,
      data: { object: r.body },
    });
  });

  it('answers 409 conflict when the externalId is taken (company-wide) and stores nothing', async () => {
    const ext = nextExt();
    const first = await post(customerBody({ externalId: ext }));
    const before = await count();
    const again = await post({ name: 'Someone else', externalId: ext });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'conflict', detail: `Customer ${first.body.id} already has externalId ${ext}.`, errors: [{ path: 'externalId', message: 'Already used by another customer.' }] });
    expect(await count()).toBe(before);
  });

  it('answers 422 with field paths and stores nothing', async () => {
    const before = await count();
    const bad = async (body: unknown) => {
      const r = await post(body);
      expect(r.status).toBe(422);
      expect(r.body.code).toBe('validation_error');
      return r.body.errors;
    };
    expect(await bad({})).toEqual([{ path: 'name', message: expect.any(String) }]);
    expect(await bad({ name: '   ' })).toEqual([{ path: 'name', message: expect.any(String) }]);
    expect(await bad(customerBody({ email: 'not-an-email' }))).toEqual([{ path: 'email', message: 'Must be an email address such as ada@example.com.' }]);
    expect(await bad(customerBody({ phone: 'call me' }))).toEqual([{ path: 'phone', message: 'Must be a phone number of 6 to 15 digits such as +1 555 010 2030.' }]);
    expect(await bad(customerBody({ phone: '12345' }))).toEqual([{ path: 'phone', message: expect.stringMatching(/6 to 15 digits/) }]);
    expect(await bad(customerBody({ billingAddress: { line1: '1 Main St', city: 'Springfield', country: 'XX' } }))).toEqual([
      { path: 'billingAddress.country', message: 'Must be an ISO 3166-1 alpha-2 country code such as US.' },
    ]);
    expect(await bad(customerBody({ shippingAddress: { city: 'Springfield', country: 'us' } }))).toEqual([
      { path: 'shippingAddress.line1', message: expect.any(String) },
      { path: 'shippingAddress.country', message: expect.any(String) },
    ]);
    expect(await bad(customerBody({ billingAddress: { line1: 'x', city: 'y', country: 'US', street: 'z' } }))).toEqual([{ path: 'billingAddress.street', message: 'Unknown field.' }]);
    expect(await bad(customerBody({ externalId: '' }))).toEqual([{ path: 'externalId', message: expect.any(String) }]);
    expect(await bad(customerBody({ status: 'archived' }))).toEqual([{ path: 'status', message: 'Unknown field.' }]);
    expect(await bad(customerBody({ notes: 'x'.repeat(2001), taxId: 42 }))).toEqual([
      { path: 'taxId', message: expect.any(String) },
      { path: 'notes', message: expect.any(String) },
    ]);
    expect(await count()).toBe(before);
  });
});

describe('PUT /customers/external/{externalId}', () => {
  it('creates (201), answers the same content with the stored record (200, no version, no event), replaces changes (version + 1)', async () => {
    const ext = nextExt('CRM');
    const created = await put(ext, customerBody());
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ externalId: ext, email: 'ada@example.com', status: 'active', version: 1 });

    // same content, other spelling of the email and other key order → unchanged
    const { name, ...rest } = customerBody({ email: 'ADA@example.com' });
    const same = await put(ext, { ...rest, name });
    expect(same.status).toBe(200);
    expect(same.body).toEqual(created.body);

    // a replace: fields left out are cleared
    const replaced = await put(ext, { name: 'Ada King', email: 'ada@example.com', billingAddress: { line1: '12 St James Sq', city: 'London', country: 'GB' } });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toEqual({
      ...created.body,
      name: 'Ada King',
      phone: null,
      billingAddress: { line1: '12 St James Sq', line2: null, city: 'London', region: null, postalCode: null, country: 'GB' },
      shippingAddress: null,
      taxId: null,
      notes: null,
      version: 2,
      updatedAt: expect.any(String),
    });
    expect(replaced.body.updatedAt >= created.body.updatedAt).toBe(true);

    const events = await outbox(created.body.id);
    expect(events.map((e) => e.type)).toEqual(['sales.customer.created', 'customer.created', 'sales.customer.updated', 'customer.updated']);
    expect(events[0].payload.actor).toEqual({ type: 'integration', id: 'int_test' });
    expect(events[3].payload.data).toEqual(events[2].payload.data);
    expect(events[2].payload).toEqual({
      id: expect.stringMatching(/^evt_/),
      type: 'sales.customer.updated',
      createdAt: expect.any(String),
      apiVersion: 'v1',
      actor: { type: 'integration', id: 'int_test' },
      locationId: null,
      data: {
        object: replaced.body,
        previous: {
          name: 'Ada Lovelace',
          phone: '+44 20 7946 0958',
          billingAddress: created.body.billingAddress,
          shippingAddress: created.body.shippingAddress,
          taxId: 'GB123456789',
          notes: 'Prefers invoices by email.',
        },
      },
    });
  });

  it('keeps the stored status when the body has none (a sync does not revive an archived customer); status sent is applied', async () => {
    const ext = nextExt('CRM');
    const created = await put(ext, { name: 'Old Client', status: 'archived' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: 'archived', archivedAt: created.body.createdAt });
    const resent = await put(ext, { name: 'Old Client' });
    expect(resent.status).toBe(200);
    expect(resent.body).toEqual(created.body);
    const revived = await put(ext, { name: 'Old Client', status: 'active' });
    expect(revived.body).toMatchObject({ status: 'active', archivedAt: null, version: 2 });
  });

  it('honours If-Match on a change (409 version_mismatch) and ignores it on an unchanged re-send', async () => {
    const ext = nextExt('CRM');
    await put(ext, { name: 'Versioned' });
    expect((await put(ext, { name: 'Versioned' }, { headers: { 'if-match': '"9"' } })).status).toBe(200);
    const stale = await put(ext, { name: 'Versioned 2' }, { headers: { 'if-match': '"9"' } });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ code: 'version_mismatch', currentVersion: 1 });
    const fresh = await put(ext, { name: 'Versioned 2' }, { headers: { 'if-match': '"1"' } });
    expect(fresh.body).toMatchObject({ name: 'Versioned 2', version: 2 });
  });

  it('creates one customer when the same new customer arrives twice at once', async () => {
    const ext = nextExt('CRM');
    const [x, y] = await Promise.all([put(ext, customerBody()), put(ext, customerBody())]);
    expect([x.status, y.status].sort()).toEqual([200, 201]);
    expect(x.body.id).toBe(y.body.id);
    expect((await outbox(x.body.id)).map((e) => e.type)).toEqual(['sales.customer.created', 'customer.created']);
  });

  it('answers 422 with field paths and stores nothing', async () => {
    const ext = nextExt('CRM');
    const bad = await put(ext, { externalId: 'OTHER', name: 'X', email: 'x@', shippingAddress: { line1: 'a', city: 'b', country: 'ZZ' } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([
      { path: 'email', message: expect.any(String) },
      { path: 'shippingAddress.country', message: expect.any(String) },
      { path: 'externalId', message: 'Unknown field.' },
    ]);
    expect((await put(ext, { name: 'X', status: 'deleted' })).body.errors).toEqual([{ path: 'status', message: expect.any(String) }]);
    expect(await sql(`select id from sales.customers where external_id = ?`, [ext])).toEqual([]);
  });
});

describe('GET /customers/{id}, /customers/external/{externalId}', () => {
  it('gets by id and by externalId; 404 not_found when unknown', async () => {
    const ext = nextExt();
    const created = await post(customerBody({ externalId: ext }));
    expect((await get(`/customers/external/${ext}`)).body).toEqual(created.body);
    expect((await get(`/customers/external/${ext}`)).headers.get('etag')).toBe('"1"');
    const missing = await get('/customers/cus_nope');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: 'not_found', detail: 'No customer with id cus_nope.' });
    const missingExt = await get('/customers/external/NOPE');
    expect(missingExt.status).toBe(404);
    expect(missingExt.body.code).toBe('not_found');
  });
});

describe('PATCH /customers/{id}', () => {
  it('changes only the fields sent (null clears), version + 1, sales.customer.updated with the old values', async () => {
    const created = await post(customerBody({ externalId: nextExt() }));
    const r = await patch(created.body.id, { email: 'ADA.KING@example.com', phone: null, shippingAddress: { line1: '2 Side St', city: 'Leeds', country: 'GB' } });
    expect(r.status).toBe(200);
    expect(r.headers.get('etag')).toBe('"2"');
    expect(r.body).toEqual({
      ...created.body,
      email: 'ada.king@example.com',
      phone: null,
      shippingAddress: { line1: '2 Side St', line2: null, city: 'Leeds', region: null, postalCode: null, country: 'GB' },
      version: 2,
      updatedAt: expect.any(String),
    });
    const events = await outbox(created.body.id);
    expect(events.map((e) => e.type)).toEqual(['sales.customer.created', 'customer.created', 'sales.customer.updated', 'customer.updated']);
    expect(events[2].payload).toMatchObject({ type: 'sales.customer.updated', actor: { type: 'user', id: 'usr_test' }, locationId: null });
    expect(events[3].payload).toMatchObject({ type: 'customer.updated', data: events[2].payload.data });
    // only what changed: the billing address read back from jsonb is not reported as changed
    expect(events[2].payload.data).toEqual({ object: r.body, previous: { email: 'ada@example.com', phone: '+44 20 7946 0958', shippingAddress: created.body.shippingAddress } });
  });

  it('changes nothing (no version, no event) when the fields sent are the stored ones', async () => {
    const created = await post(customerBody());
    const r = await patch(created.body.id, { name: 'Ada Lovelace', email: 'ADA@example.com' });
    expect(r.status).toBe(200);
    expect(r.body).toEqual(created.body);
    expect((await patch(created.body.id, {})).body).toEqual(created.body);
    expect((await outbox(created.body.id)).map((e) => e.type)).toEqual(['sales.customer.created', 'customer.created']);
  });

  it('archives and reactivates with status', async () => {
    const created = await post({ name: 'Seasonal' });
    const archived = await patch(created.body.id, { status: 'archived' });
    expect(archived.body).toMatchObject({ status: 'archived', archivedAt: archived.body.updatedAt, version: 2 });
    const noted = await patch(created.body.id, { notes: 'Closed down.' });
    expect(noted.body).toMatchObject({ status: 'archived', archivedAt: archived.body.archivedAt, notes: 'Closed down.', version: 3 });
    const active = await patch(created.body.id, { status: 'active' });
    expect(active.body).toMatchObject({ status: 'active', archivedAt: null, version: 4 });
    const events = await outbox(created.body.id);
    const previous = events.filter((e) => e.type.startsWith('sales.')).map((e) => e.payload.data.previous);
    expect(previous).toEqual([undefined, { status: 'active', archivedAt: null }, { notes: null }, { status: 'archived', archivedAt: archived.body.archivedAt }]);
    // the public types say what happened: archiving is customer.archived, data.object the customer as the API returned it
    const published = events.filter((e) => !e.type.startsWith('sales.'));
    expect(published.map((e) => [e.type, e.payload.data.object.version])).toEqual([['customer.created', 1], ['customer.archived', 2], ['customer.updated', 3], ['customer.updated', 4]]);
    expect(published[1].payload.data.object).toEqual(archived.body);
  });

  it('answers 409 version_mismatch when If-Match names another version, and applies it when it matches', async () => {
    const created = await post({ name: 'Concurrent' });
    const stale = await patch(created.body.id, { name: 'Mine' }, { 'if-match': '"2"' });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ code: 'version_mismatch', currentVersion: 1 });
    // a person's edit is guarded even when it would change nothing
    expect((await patch(created.body.id, { name: 'Concurrent' }, { 'if-match': '"2"' })).status).toBe(409);
    const ok = await patch(created.body.id, { name: 'Mine' }, { 'if-match': '"1"' });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ name: 'Mine', version: 2 });
    expect((await get(`/customers/${created.body.id}`)).body.name).toBe('Mine');
  });

  it('sets, moves and clears the externalId; 409 conflict when another customer has it', async () => {
    const holder = await post({ name: 'Holder', externalId: nextExt() });
    const c = await post({ name: 'Mover' });
    const taken = await patch(c.body.id, { externalId: holder.body.externalId });
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({ code: 'conflict', errors: [{ path: 'externalId', message: 'Already used by another customer.' }] });
    const ext = nextExt();
    expect((await patch(c.body.id, { externalId: ext })).body).toMatchObject({ externalId: ext, version: 2 });
    expect((await get(`/customers/external/${ext}`)).body.id).toBe(c.body.id);
    expect((await patch(c.body.id, { externalId: null })).body).toMatchObject({ externalId: null, version: 3 });
    expect((await get(`/customers/external/${ext}`)).status).toBe(404);
    // the freed externalId can be taken by another customer
    expect((await post({ name: 'Next', externalId: ext })).status).toBe(201);
  });

  it('answers 422 with field paths, 404 for an unknown customer', async () => {
    const c = await post({ name: 'Strict' });
    const bad = await patch(c.body.id, { name: null, email: 'nope', billingAddress: { line1: 'a', city: 'b', country: 'US', zip: '1' }, id: 'cus_x' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([
      { path: 'name', message: expect.any(String) },
      { path: 'email', message: expect.any(String) },
      { path: 'billingAddress.zip', message: 'Unknown field.' },
      { path: 'id', message: 'Unknown field.' },
    ]);
    expect((await get(`/customers/${c.body.id}`)).body).toEqual(c.body);
    const missing = await patch('cus_nope', { name: 'X' });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('not_found');
  });
});

describe('GET /customers', () => {
  it('pages with cursors in id order', async () => {
    const made = [];
    for (let i = 0; i < 3; i++) made.push((await post({ name: `Page ${i}`, email: 'pages@example.com' })).body);
    const first = await get('/customers?limit=2&email=pages@example.com');
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ data: made.slice(0, 2), nextCursor: expect.any(String), hasMore: true });
    const second = await get(`/customers?limit=2&email=pages@example.com&cursor=${first.body.nextCursor}`);
    expect(second.body).toEqual({ data: [made[2]], nextCursor: null, hasMore: false });
  });

  it('filters by email (exact, case-insensitive), updatedSince and status', async () => {
    const a = (await post({ name: 'Filter A', email: 'filter@example.com' })).body;
    const b = (await post({ name: 'Filter B', email: 'Filter@Example.com' })).body;
    await post({ name: 'Filter C', email: 'filter2@example.com' });
    const ids = async (query: string) => (await get(`/customers?${query}`)).body.data.map((c: { id: string }) => c.id);
    expect(await ids(`email=${encodeURIComponent('FILTER@example.COM')}`)).toEqual([a.id, b.id]);

    await sql(`update sales.customers set updated_at = '2020-01-01T00:00:00Z' where id = ?`, [b.id]);
    expect(await ids('email=filter@example.com&updatedSince=2021-01-01T00:00:00Z')).toEqual([a.id]);
    expect(await ids('email=filter@example.com&updatedSince=2020-01-01T00:00:00Z')).toEqual([a.id, b.id]);

    await patch(b.id, { status: 'archived' });
    expect(await ids('email=filter@example.com&status=archived')).toEqual([b.id]);
    expect(await ids('email=filter@example.com&status=active')).toEqual([a.id]);
  });

  it('answers 400 for bad filters and cursors', async () => {
    const email = await get('/customers?email=nope');
    expect(email.status).toBe(400);
    expect(email.body.errors).toEqual([{ path: 'email', message: expect.any(String) }]);
    expect((await get('/customers?updatedSince=yesterday')).body.errors).toEqual([{ path: 'updatedSince', message: expect.any(String) }]);
    expect((await get('/customers?limit=0')).body.errors).toEqual([{ path: 'limit', message: expect.any(String) }]);
    expect((await get('/customers?status=gone')).status).toBe(400);
    const cursor = await get('/customers?cursor=garbage');
    expect(cursor.status).toBe(400);
    expect(cursor.body.errors).toEqual([{ path: 'cursor', message: 'Not a cursor returned by this list.' }]);
  });
});

describe('reach (customers.read / customers.manage reach Everyone only)', () => {
  it('lets integrations and people at Everyone in; refuses a narrower reach (403 out_of_reach) and a missing permission (403 forbidden)', async () => {
    const c = (await post({ name: 'Reach' })).body;
    const reader = person({ 'customers.read': [{ type: 'everyone' }] });
    expect((await get(`/customers/${c.id}`, reader)).status).toBe(200);
    expect((await get(`/customers/${c.id}`, crm)).status).toBe(200);

    const narrow = person({ 'customers.read': [{ type: 'locations', ids: ['loc_x'] }], 'customers.manage': [{ type: 'locations', ids: ['loc_x'] }] });
    for (const path of [`/customers/${c.id}`, '/customers', `/customers/external/X`]) {
      const r = await get(path, narrow);
      expect([path, r.status, r.body.code]).toEqual([path, 403, 'out_of_reach']);
    }
    expect((await post({ name: 'Nope' }, narrow)).body.code).toBe('out_of_reach');

    // reading is not managing
    const denied = await post({ name: 'Nope' }, reader);
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe('forbidden');
    const put403 = await put('NOPE', { name: 'Nope' }, { as: reader });
    expect([put403.status, put403.body.code]).toEqual([403, 'forbidden']);
    const patch403 = await sales().call('PATCH', `/customers/${c.id}`, { as: reader, body: { name: 'Nope' } });
    expect([patch403.status, patch403.body.code]).toEqual([403, 'forbidden']);
    expect((await get(`/customers/${c.id}`)).body).toEqual(c);
  });
});

describe('online orders linked to customers', () => {
  const putOrder = (externalId: string, customer: Record<string, unknown> | undefined, source = 'shop-cus') =>
    sales().call('PUT', `/sales-orders/external/${externalId}`, {
      as: crm,
      body: { source, customer, locationExternalId: 'CUS-WH', lines: [{ itemSku: 'MUG', quantity: '1', unitPrice: '9.00' }], currency: 'GBP' },
    });
  const order = async (id: string) => (await sales().call('GET', `/sales-orders/${id}`, { as: crm })).body;

  it('links orders stored before their customer when the customer is created (version + 1), and no others', async () => {
    const ext = nextExt('SHOP');
    const early = (await putOrder('CUS-O1', { externalId: ext, name: 'Early Bird' })).body;
    const otherSource = (await putOrder('CUS-O1', { externalId: ext }, 'shop-cus-2')).body;
    const stranger = (await putOrder('CUS-O2', { externalId: nextExt('SHOP') })).body;
    expect([early.customerId, otherSource.customerId, stranger.customerId]).toEqual([null, null, null]);

    const customer = await put(ext, { name: 'Early Bird' });
    expect(customer.status).toBe(201);
    const linked = await order(early.id);
    expect(linked).toMatchObject({ customerId: customer.body.id, version: 2, customer: { externalId: ext, name: 'Early Bird', email: null } });
    expect(linked.updatedAt >= early.updatedAt).toBe(true);
    expect((await order(otherSource.id)).customerId).toBe(customer.body.id);
    expect(await order(stranger.id)).toEqual(stranger);

    // re-sending the unchanged order leaves it as it is, and no customer record is made from orders
    const resent = await putOrder('CUS-O1', { externalId: ext, name: 'Early Bird' });
    expect(resent.body).toEqual(linked);
    expect(await sql(`select 1 from sales.customers where external_id = ?`, [stranger.customer.externalId])).toEqual([]);
    // orders keep no events of the link (the order's catalogue has no update event)
    expect((await outbox(early.id)).map((e) => e.type)).toEqual(['sales_order.created']);
  });

  it('links the orders of an externalId a customer takes over by PATCH; orders keep their link when it moves on', async () => {
    const oldExt = nextExt('SHOP');
    const newExt = nextExt('SHOP');
    const customer = (await post({ name: 'Renamed', externalId: oldExt })).body;
    const before = (await putOrder('CUS-O3', { externalId: oldExt })).body;
    const waiting = (await putOrder('CUS-O4', { externalId: newExt })).body;
    expect([before.customerId, waiting.customerId]).toEqual([customer.id, null]);

    expect((await patch(customer.id, { externalId: newExt })).status).toBe(200);
    expect(await order(waiting.id)).toMatchObject({ customerId: customer.id, version: 2 });
    expect(await order(before.id)).toEqual(before);
  });

  it('links an order stored while its customer is being created, whichever commits first', async () => {
    const ext = nextExt('SHOP');
    const [o, c] = await Promise.all([putOrder('CUS-O5', { externalId: ext }), put(ext, { name: 'Racer' })]);
    expect([o.status, c.status]).toEqual([201, 201]);
    expect((await order(o.body.id)).customerId).toBe(c.body.id);
  });
});

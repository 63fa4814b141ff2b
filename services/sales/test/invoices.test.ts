/**
 * Customer invoices (supplement: /customer-invoices, Customer invoice states): drafts from lines or from
 * an online order, :issue (gapless numbers under concurrency, invoice.issued), :pay (partial, full,
 * invoice.paid once, no overpayment), :void, If-Match, validation with field paths, 404s, the list
 * with its filters and cursor, company-wide reach, events with their envelope in the outbox.
 */
import { organizationService } from '@svc/organization';
import { salesService } from '../src';
import { integration, person, replicatedLocation, serviceSql, startTestServices, type ServiceSql, type TestServices } from '@bop/test-support';

let stack: TestServices;
const shop = integration(['sales:write', 'sales:read']);
const accounts = integration(['sales:write', 'sales:read']);

let n = 0;
const next = (prefix: string) => `${prefix}-${++n}`;

const sales = () => stack.services.sales;
const sql: ServiceSql = (q, p) => serviceSql(sales())(q, p);
const outbox = (aggregateId: string) => sql(`select type, aggregate_type, location_id, payload from sales.outbox where aggregate_id = ? order by seq`, [aggregateId]);
const count = async () => Number((await sql(`select count(*)::int as n from sales.invoices`))[0].n);

type As = ReturnType<typeof person> | typeof accounts;
const create = (body: unknown, as: As = person()) => sales().call('POST', '/customer-invoices', { as, body });
const command = (id: string, verb: 'issue' | 'pay' | 'void', body: unknown = {}, opts: { as?: As; headers?: Record<string, string> } = {}) =>
  sales().call('POST', `/customer-invoices/${id}:${verb}`, { as: opts.as ?? person(), body, headers: opts.headers });
const issue = (id: string, headers?: Record<string, string>) => command(id, 'issue', {}, { headers });
const pay = (id: string, body: Record<string, unknown>, headers?: Record<string, string>) => command(id, 'pay', { method: 'bank_transfer', paidAt: '2026-11-20', ...body }, { headers });
const voidIt = (id: string, reason = 'raised in error') => command(id, 'void', { reason });
const get = (path: string, as: As = person()) => sales().call('GET', path, { as });

async function newCustomer(over: Record<string, unknown> = {}): Promise<any> {
  const r = await sales().call('POST', '/customers', {
    body: { name: 'Ada Lovelace', email: 'ada@example.com', taxId: 'GB123456789', billingAddress: { line1: '12 St James Sq', city: 'London', country: 'GB' }, ...over },
  });
  expect(r.status).toBe(201);
  return r.body;
}

/** Catering for 40 (2 × 250.00, 10.00 off, tax 49.00) and a cake at 8.25 %. */
const linesBody = (customerId: string, over: Record<string, unknown> = {}) => ({
  customerId,
  currency: 'USD',
  lines: [
    { description: 'Catering, 40 guests', quantity: '2', unitPrice: '250.00', discount: '10.00', tax: '49.00' },
    { description: 'Cake', quantity: '1', unitPrice: '35.50', taxRate: '8.25' },
  ],
  ...over,
});

async function draft(customerId: string, over: Record<string, unknown> = {}): Promise<any> {
  const r = await create(linesBody(customerId, over));
  expect(r.status).toBe(201);
  return r.body;
}

async function issued(customerId: string, over: Record<string, unknown> = {}): Promise<any> {
  const d = await draft(customerId, over);
  const r = await issue(d.id);
  expect(r.status).toBe(200);
  return r.body;
}

/** An online order (3 × 0.10 + 1 × 12.00, tax 0.96, shipping 4.99) naming customer `customerExternalId`. */
async function newOrder(customerExternalId: string | null, over: Record<string, unknown> = {}): Promise<any> {
  const ext = next('O');
  const r = await sales().call('PUT', `/sales-orders/external/${ext}`, { as: shop, body: orderBody(customerExternalId, over) });
  expect(r.status).toBe(201);
  return r.body;
}
function orderBody(customerExternalId: string | null, over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    source: 'shop-main',
    ...(customerExternalId ? { customer: { externalId: customerExternalId, name: 'Ada' } } : {}),
    locationExternalId: 'INV-WH',
    lines: [
      { itemExternalId: 'SKU-PEN', name: 'Pen', quantity: '3', unitPrice: '0.10' },
      { itemExternalId: 'SKU-BOOK', quantity: '1', unitPrice: '12.00', tax: '0.96' },
    ],
    shipping: { method: 'standard', amount: '4.99' },
    currency: 'USD',
    ...over,
  };
}

beforeAll(async () => {
  stack = await startTestServices([organizationService, salesService]);
  await replicatedLocation(stack, { name: 'Warehouse', timezone: 'Europe/London', externalId: 'INV-WH' }, ['sales']);
  await sql(`insert into sales.items (id, sku, external_id, name, status, updated_at) values ('itm_cake', 'CAKE', 'CAKE', 'Cake', 'active', now())`);
});
afterAll(async () => {
  await stack?.close();
});

describe('POST /customer-invoices from lines', () => {
  it('creates a draft (201, ETag, Location) with exact totals; GET returns it; sales.customer_invoice.created', async () => {
    const c = await newCustomer();
    const r = await create(linesBody(c.id, { dueDate: '2099-01-31', notes: 'Thank you!', reference: 'PO-77', lines: [...linesBody(c.id).lines, { description: 'Cake stand', itemId: 'itm_cake', quantity: '3', unitPrice: '0.125' }] }));
    expect(r.status).toBe(201);
    expect(r.headers.get('etag')).toBe('"1"');
    expect(r.headers.get('location')).toBe(`/api/v1/customer-invoices/${r.body.id}`);
    expect(r.body).toEqual({
      id: expect.stringMatching(/^cin_/),
      number: null,
      status: 'draft',
      customerId: c.id,
      salesOrderId: null,
      currency: 'USD',
      lines: [
        { description: 'Catering, 40 guests', itemId: null, quantity: '2', unitPrice: '250.00', discount: '10.00', taxRate: null, tax: '49.00', lineTotal: '490.00' },
        // 35.50 × 8.25 % = 2.92875 → 2.93
        { description: 'Cake', itemId: null, quantity: '1', unitPrice: '35.50', discount: '0.00', taxRate: '8.25', tax: '2.93', lineTotal: '35.50' },
        // 3 × 0.125 = 0.375 → 0.38
        { description: 'Cake stand', itemId: 'itm_cake', quantity: '3', unitPrice: '0.125', discount: '0.00', taxRate: null, tax: '0.00', lineTotal: '0.38' },
      ],
      subtotal: '525.88',
      taxTotal: '51.93',
      total: '577.81',
      amountPaid: '0.00',
      balanceDue: '577.81',
      payments: [],
      dueDate: '2099-01-31',
      notes: 'Thank you!',
      reference: 'PO-77',
      billTo: null,
      issuedAt: null,
      sentTo: null,
      sentAt: null,
      paidAt: null,
      voidedAt: null,
      voidReason: null,
      version: 1,
      createdAt: expect.any(String),
      updatedAt: r.body.createdAt,
    });
    expect((await get(`/customer-invoices/${r.body.id}`)).body).toEqual(r.body);
    const events = await outbox(r.body.id);
    expect(events).toEqual([
      { type: 'sales.customer_invoice.created', aggregate_type: 'customer_invoice', location_id: null, payload: expect.any(Object) },
      { type: 'invoice.created', aggregate_type: 'customer_invoice', location_id: null, payload: expect.any(Object) },
    ]);
    // the public twin: the draft as the API returns it
    expect(events[1].payload).toMatchObject({ type: 'invoice.created', locationId: null, data: { object: r.body } });
    expect(events[0].payload).toEqual({
      id: expect.stringMatching(/^evt_/),
      type: 'sales.customer_invoice.created',
      createdAt: expect.any(String),
      apiVersion: 'v1',
      actor: { type: 'user', id: 'usr_test' },
      locationId: null,
      data: { object: r.body },
    });
  });

  it('keeps JPY totals in whole yen', async () => {
    const c = await newCustomer();
    const r = await create({ customerId: c.id, currency: 'JPY', lines: [{ description: 'Bento', quantity: '3', unitPrice: '333.5' }, { description: 'Tea', quantity: '1', unitPrice: '1000', taxRate: '10' }] });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ subtotal: '2001', taxTotal: '100', total: '2101', amountPaid: '0', balanceDue: '2101' });
    expect(r.body.lines.map((l: any) => [l.lineTotal, l.tax])).toEqual([['1001', '0'], ['1000', '100']]);
  });

  it('answers 422 with field paths and stores nothing', async () => {
    const c = await newCustomer();
    const archived = await newCustomer({ name: 'Gone' });
    expect((await sales().call('PATCH', `/customers/${archived.id}`, { body: { status: 'archived' } })).status).toBe(200);
    const before = await count();
    const bad = async (body: unknown) => {
      const r = await create(body);
      expect(r.status).toBe(422);
      expect(r.body.code).toBe('validation_error');
      return r.body.errors;
    };
    expect(await bad({})).toEqual([
      { path: 'customerId', message: expect.any(String) },
      { path: 'currency', message: expect.any(String) },
      { path: 'lines', message: expect.any(String) },
    ]);
    expect(await bad(linesBody('cus_nope'))).toEqual([{ path: 'customerId', message: 'No customer with id cus_nope.' }]);
    expect(await bad(linesBody(archived.id))).toEqual([{ path: 'customerId', message: `Customer ${archived.id} is archived: it receives no new invoices.` }]);
    expect(await bad(linesBody(c.id, { currency: 'usd', lines: [] }))).toEqual([
      { path: 'currency', message: 'Must be an ISO 4217 currency code such as USD.' },
      { path: 'lines', message: 'An invoice has at least one line.' },
    ]);
    expect(await bad(linesBody(c.id, { lines: [{ description: 'x', quantity: '0', unitPrice: '1.00' }, { description: 'y', quantity: '1', unitPrice: '1', discount: '0.001' }, { description: 'z', quantity: '1', unitPrice: '1', taxRate: '150' }, { description: 'w', quantity: '2', unitPrice: '1.50', discount: '3.01' }] }))).toEqual([
      { path: 'lines[0].quantity', message: 'Must be greater than zero.' },
      { path: 'lines[1].discount', message: 'USD amounts have at most 2 decimals.' },
      { path: 'lines[2].taxRate', message: 'Must be a percentage from 0 to 100.' },
      { path: 'lines[3].discount', message: 'The discount is more than quantity × unitPrice (3.00).' },
    ]);
    expect(await bad(linesBody(c.id, { lines: [{ description: 'x', quantity: '1', unitPrice: '1', tax: '0.10', taxRate: '5' }] }))).toEqual([{ path: 'lines[0].taxRate', message: 'Send tax or taxRate, not both.' }]);
    expect(await bad(linesBody(c.id, { lines: [{ description: 'x', itemId: 'itm_nope', quantity: '1', unitPrice: '1' }] }))).toEqual([{ path: 'lines[0].itemId', message: 'No item with id itm_nope.' }]);
    expect(await bad(linesBody(c.id, { lines: [{ description: 'Free sample', quantity: '1', unitPrice: '0' }] }))).toEqual([{ path: 'lines', message: 'The invoice total is zero: there is nothing to invoice.' }]);
    expect(await bad(linesBody(c.id, { dueDate: '2020-01-01' }))).toEqual([{ path: 'dueDate', message: 'Must be today or later.' }]);
    expect(await bad(linesBody(c.id, { status: 'paid', total: '1.00' })).then((e: any[]) => e.map((x) => x.path))).toEqual(['status', 'total']);
    expect(await count()).toBe(before);
  });
});

describe('POST /customer-invoices from an online order', () => {
  it("copies the order's customer, currency, lines and shipping: the invoice total is the order's", async () => {
    const ext = next('C');
    const c = await newCustomer({ externalId: ext });
    const order = await newOrder(ext);
    expect(order.customerId).toBe(c.id);
    const r = await create({ salesOrderId: order.id, reference: 'web order' });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      status: 'draft',
      customerId: c.id,
      salesOrderId: order.id,
      currency: 'USD',
      lines: [
        { description: 'Pen', itemId: null, quantity: '3', unitPrice: '0.10', discount: '0.00', taxRate: null, tax: '0.00', lineTotal: '0.30' },
        { description: 'SKU-BOOK', itemId: null, quantity: '1', unitPrice: '12.00', discount: '0.00', taxRate: null, tax: '0.96', lineTotal: '12.00' },
        { description: 'Shipping (standard)', itemId: null, quantity: '1', unitPrice: '4.99', discount: '0.00', taxRate: null, tax: '0.00', lineTotal: '4.99' },
      ],
      subtotal: '17.29',
      taxTotal: '0.96',
      total: order.total,
      reference: 'web order',
    });
    expect(order.total).toBe('18.25');
  });

  it('needs customerId when the order is linked to no customer; refuses another customer than the linked one', async () => {
    const unlinked = await newOrder(null);
    const missing = await create({ salesOrderId: unlinked.id });
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual([{ path: 'customerId', message: `Sales order ${unlinked.id} is linked to no customer record: send customerId.` }]);
    const c = await newCustomer();
    const ok = await create({ salesOrderId: unlinked.id, customerId: c.id });
    expect(ok.status).toBe(201);
    expect(ok.body.customerId).toBe(c.id);

    const ext = next('C');
    const owner = await newCustomer({ externalId: ext });
    const linked = await newOrder(ext);
    const other = await create({ salesOrderId: linked.id, customerId: c.id });
    expect(other.status).toBe(422);
    expect(other.body.errors).toEqual([{ path: 'customerId', message: `Sales order ${linked.id} belongs to customer ${owner.id}.` }]);
    expect((await create({ salesOrderId: linked.id, customerId: owner.id })).status).toBe(201);
  });

  it('answers 422 for an unknown order, 409 for a cancelled one and for an order already invoiced (a void invoice frees it)', async () => {
    const c = await newCustomer();
    const unknown = await create({ salesOrderId: 'sor_nope', customerId: c.id });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors).toEqual([{ path: 'salesOrderId', message: 'No sales order with id sor_nope.' }]);

    const cancelled = await newOrder(null);
    expect((await sales().call('POST', `/sales-orders/${cancelled.id}:cancel`, { body: {} })).status).toBe(200);
    const refused = await create({ salesOrderId: cancelled.id, customerId: c.id });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'conflict', detail: `Sales order ${cancelled.id} is cancelled: it cannot be invoiced.` });

    const order = await newOrder(null);
    const first = await create({ salesOrderId: order.id, customerId: c.id });
    expect(first.status).toBe(201);
    const again = await create({ salesOrderId: order.id, customerId: c.id });
    expect(again.status).toBe(409);
    expect(again.body.detail).toBe(`Sales order ${order.id} is already invoiced by ${first.body.id} (status draft); void that invoice first.`);
    expect((await voidIt(first.body.id)).status).toBe(200);
    expect((await create({ salesOrderId: order.id, customerId: c.id })).status).toBe(201);
  });

  it('invoices an order once when two drafts are asked for at the same time', async () => {
    const c = await newCustomer();
    const order = await newOrder(null);
    const results = await Promise.all([1, 2, 3].map(() => create({ salesOrderId: order.id, customerId: c.id })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
  });

  it(':issue refuses a draft whose order was changed or cancelled since', async () => {
    const c = await newCustomer();
    const ext = next('O');
    const put = (body: unknown) => sales().call('PUT', `/sales-orders/external/${ext}`, { as: shop, body });
    const order = (await put(orderBody(null))).body;
    const d = (await create({ salesOrderId: order.id, customerId: c.id })).body;
    expect((await put(orderBody(null, { lines: [{ itemExternalId: 'SKU-PEN', quantity: '5', unitPrice: '0.10' }] }))).status).toBe(200);
    const changed = await issue(d.id);
    expect(changed.status).toBe(409);
    expect(changed.body.detail).toBe(`Sales order ${order.id} changed after this draft was made: void the draft and create a new one from the order.`);

    expect((await voidIt(d.id)).status).toBe(200);
    const d2 = (await create({ salesOrderId: order.id, customerId: c.id })).body;
    expect(d2.total).toBe('5.49');
    expect((await sales().call('POST', `/sales-orders/${order.id}:cancel`, { body: {} })).status).toBe(200);
    const cancelled = await issue(d2.id);
    expect(cancelled.status).toBe(409);
    expect(cancelled.body.detail).toBe(`Sales order ${order.id} was cancelled after this draft was made: void the draft.`);
    expect((await get(`/customer-invoices/${d2.id}`)).body).toMatchObject({ status: 'draft', number: null });
  });
});

describe('POST /customer-invoices/{id}:issue', () => {
  it('assigns the next number, fixes issuedAt, the due date (+30 days) and the customer as billed, records the send and invoice.issued', async () => {
    const c = await newCustomer({ name: 'Grace Hopper', email: 'grace@example.com' });
    const d = await draft(c.id);
    const r = await issue(d.id);
    expect(r.status).toBe(200);
    expect(r.headers.get('etag')).toBe('"2"');
    const issuedAt = new Date(r.body.issuedAt);
    const due = new Date(Date.UTC(issuedAt.getUTCFullYear(), issuedAt.getUTCMonth(), issuedAt.getUTCDate() + 30)).toISOString().slice(0, 10);
    expect(r.body).toEqual({
      ...d,
      number: expect.stringMatching(/^INV-\d{6}$/),
      status: 'issued',
      dueDate: due,
      billTo: { name: 'Grace Hopper', email: 'grace@example.com', taxId: 'GB123456789', address: { line1: '12 St James Sq', line2: null, city: 'London', region: null, postalCode: null, country: 'GB' } },
      issuedAt: expect.any(String),
      sentTo: 'grace@example.com',
      sentAt: r.body.issuedAt,
      version: 2,
      updatedAt: r.body.issuedAt,
    });
    // the customer's later changes do not touch an issued invoice
    expect((await sales().call('PATCH', `/customers/${c.id}`, { body: { name: 'Rear Admiral Hopper' } })).status).toBe(200);
    expect((await get(`/customer-invoices/${d.id}`)).body).toEqual(r.body);

    const events = await outbox(d.id);
    expect(events.map((e) => e.type)).toEqual(['sales.customer_invoice.created', 'invoice.created', 'invoice.issued']);
    expect(events[2]).toMatchObject({ aggregate_type: 'customer_invoice', location_id: null });
    expect(events[2].payload).toEqual({
      id: expect.stringMatching(/^evt_/),
      type: 'invoice.issued',
      createdAt: r.body.issuedAt,
      apiVersion: 'v1',
      actor: { type: 'user', id: 'usr_test' },
      locationId: null,
      data: {
        object: r.body,
        previous: { number: null, status: 'draft', dueDate: null, billTo: null, issuedAt: null, sentTo: null, sentAt: null },
      },
    });
    const jsonb = await sql(`select payload->'data'->'object'->>'number' as number from sales.outbox where type = 'invoice.issued' and aggregate_id = ?`, [d.id]);
    expect(jsonb).toEqual([{ number: r.body.number }]);
  });

  it('keeps a due date sent with the draft; a customer without email gets no send recorded', async () => {
    const c = await newCustomer({ email: null });
    const r = await issue((await draft(c.id, { dueDate: '2099-06-30' })).id);
    expect(r.body).toMatchObject({ status: 'issued', dueDate: '2099-06-30', sentTo: null, sentAt: null, billTo: { email: null } });
  });

  it('answers 409 conflict when not a draft (issued, paid, void), 409 version_mismatch for a stale If-Match, 404 for an unknown id', async () => {
    const c = await newCustomer();
    const d = await draft(c.id);
    const stale = await issue(d.id, { 'If-Match': '"7"' });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('version_mismatch');
    const ok = await issue(d.id, { 'If-Match': '"1"' });
    expect(ok.status).toBe(200);
    const again = await issue(d.id);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'conflict', detail: 'The invoice is already issued (status issued).' });

    const paid = await issued(c.id, { lines: [{ description: 'x', quantity: '1', unitPrice: '5.00' }] });
    expect((await pay(paid.id, { amount: '5.00' })).status).toBe(200);
    expect((await issue(paid.id)).body).toMatchObject({ code: 'conflict', detail: 'The invoice is already issued (status paid).' });

    const voided = await draft(c.id);
    expect((await voidIt(voided.id)).status).toBe(200);
    const v = await issue(voided.id);
    expect(v.status).toBe(409);
    expect(v.body.detail).toBe('The invoice is void, a final state: it cannot be issued. Create a new invoice.');

    const missing = await issue('cin_nope');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: 'not_found', detail: 'No customer invoice with id cin_nope.' });
  });

  it('gives concurrent issues distinct consecutive numbers; numbers are gapless and never reused after a void', async () => {
    const c = await newCustomer();
    const drafts = await Promise.all([1, 2, 3, 4, 5, 6].map(() => draft(c.id)));
    const results = await Promise.all(drafts.map((d) => issue(d.id)));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    const numbers = results.map((r) => Number(r.body.number.slice(4))).sort((a, b) => a - b);
    expect(numbers).toEqual(numbers.map((_, i) => numbers[0] + i));

    // an issued invoice keeps its number when voided; the next issue takes the next one
    const voided = await voidIt(results[0].body.id);
    expect(voided.body).toMatchObject({ status: 'void', number: results[0].body.number });
    const later = await issued(c.id);
    expect(Number(later.number.slice(4))).toBe(numbers[numbers.length - 1] + 1);

    // every number issued in this database, 1 … n, once each
    const all = (await sql(`select number from sales.invoices where number is not null order by number`)).map((r) => r.number);
    expect(all).toEqual(all.map((_, i) => `INV-${String(i + 1).padStart(6, '0')}`));
  });
});

describe('POST /customer-invoices/{id}:pay', () => {
  it('records a partial payment, then the payment that clears the balance: paid, invoice.paid once', async () => {
    const c = await newCustomer();
    const inv = await issued(c.id, { lines: [{ description: 'Consulting', quantity: '1', unitPrice: '0.30' }] });
    const first = await pay(inv.id, { amount: '0.10', method: 'card', paidAt: '2026-11-20T09:30:00Z', reference: 'AUTH-1' });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      status: 'partially_paid',
      amountPaid: '0.10',
      balanceDue: '0.20',
      paidAt: null,
      version: 3,
      payments: [{ id: expect.stringMatching(/^cip_/), amount: '0.10', method: 'card', paidAt: '2026-11-20T09:30:00.000Z', reference: 'AUTH-1', recordedAt: expect.any(String) }],
    });
    const second = await pay(inv.id, { amount: '0.2', paidAt: '2026-11-21' }, { 'If-Match': '"3"' });
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ status: 'paid', amountPaid: '0.30', balanceDue: '0.00', paidAt: expect.any(String), version: 4 });
    expect(second.body.payments).toEqual([
      first.body.payments[0],
      { id: expect.stringMatching(/^cip_/), amount: '0.20', method: 'bank_transfer', paidAt: '2026-11-21T00:00:00.000Z', reference: null, recordedAt: expect.any(String) },
    ]);
    expect((await get(`/customer-invoices/${inv.id}`)).body).toEqual(second.body);

    const events = await outbox(inv.id);
    expect(events.map((e) => e.type)).toEqual([
      'sales.customer_invoice.created',
      'invoice.created',
      'invoice.issued',
      'sales.customer_invoice.payment_recorded',
      'sales.customer_invoice.payment_recorded',
      'invoice.paid',
    ]);
    const paid = events[5].payload;
    expect(paid).toEqual({
      id: expect.stringMatching(/^evt_/),
      type: 'invoice.paid',
      createdAt: second.body.paidAt,
      apiVersion: 'v1',
      actor: { type: 'user', id: 'usr_test' },
      locationId: null,
      data: { object: second.body, previous: { status: 'partially_paid', amountPaid: '0.10', balanceDue: '0.20', payments: first.body.payments, paidAt: null } },
    });

    // paid is final
    const more = await pay(inv.id, { amount: '0.01' });
    expect(more.status).toBe(409);
    expect(more.body).toMatchObject({ code: 'conflict', detail: 'The invoice is paid, a final state: its balance is zero.' });
    expect((await sql(`select count(*)::int as n from sales.outbox where type = 'invoice.paid' and aggregate_id = ?`, [inv.id]))[0].n).toBe(1);
  });

  it('pays in full at once, in JPY', async () => {
    const c = await newCustomer();
    const inv = await issued(c.id, { currency: 'JPY', lines: [{ description: 'Bento', quantity: '3', unitPrice: '333.5', taxRate: '8' }] });
    expect(inv).toMatchObject({ subtotal: '1001', taxTotal: '80', total: '1081' });
    const fraction = await pay(inv.id, { amount: '1080.5', method: 'cash' });
    expect(fraction.status).toBe(422);
    expect(fraction.body.errors).toEqual([{ path: 'amount', message: 'JPY amounts have at most 0 decimals.' }]);
    const r = await pay(inv.id, { amount: '1081', method: 'cash' });
    expect(r.body).toMatchObject({ status: 'paid', amountPaid: '1081', balanceDue: '0' });
    expect((await outbox(inv.id)).map((e) => e.type).filter((t) => t === 'invoice.paid')).toHaveLength(1);
  });

  it('refuses overpayments, zero, future dates and bad fields (422 with paths) and stores no payment', async () => {
    const c = await newCustomer();
    const inv = await issued(c.id);
    const part = await pay(inv.id, { amount: '77.43' });
    expect(part.body.balanceDue).toBe('500.00');
    const bad = async (body: Record<string, unknown>) => {
      const r = await command(inv.id, 'pay', body);
      expect(r.status).toBe(422);
      return r.body.errors;
    };
    expect(await bad({ amount: '500.01', method: 'cash', paidAt: '2026-11-20' })).toEqual([{ path: 'amount', message: 'More than the balance due (500.00): overpayments are not recorded.' }]);
    expect(await bad({ amount: '0.00', method: 'cash', paidAt: '2026-11-20' })).toEqual([{ path: 'amount', message: 'Must be greater than zero.' }]);
    expect(await bad({ amount: '1.00', method: 'cash', paidAt: '2999-01-01' })).toEqual([{ path: 'paidAt', message: 'Must not be in the future.' }]);
    expect(await bad({ amount: 5, method: 'cheque' })).toEqual([
      { path: 'amount', message: 'send decimals as strings' },
      { path: 'method', message: 'Must be one of cash, card, bank_transfer, other.' },
      { path: 'paidAt', message: expect.any(String) },
    ]);
    const now = (await get(`/customer-invoices/${inv.id}`)).body;
    expect(now).toMatchObject({ status: 'partially_paid', amountPaid: '77.43', version: 3 });
    expect(now.payments).toHaveLength(1);
  });

  it('answers 409 for a draft or a void invoice, version_mismatch for a stale If-Match, 404 for an unknown id', async () => {
    const c = await newCustomer();
    const d = await draft(c.id);
    const onDraft = await pay(d.id, { amount: '1.00' });
    expect(onDraft.status).toBe(409);
    expect(onDraft.body).toMatchObject({ code: 'conflict', detail: 'The invoice is a draft: issue it before recording payments.' });
    const inv = await issued(c.id);
    expect((await pay(inv.id, { amount: '1.00' }, { 'If-Match': '"1"' })).body.code).toBe('version_mismatch');
    expect((await voidIt(inv.id)).status).toBe(200);
    const onVoid = await pay(inv.id, { amount: '1.00' });
    expect(onVoid.status).toBe(409);
    expect(onVoid.body.detail).toBe('The invoice is void, a final state: it takes no payments.');
    expect((await pay('cin_nope', { amount: '1.00' })).status).toBe(404);
  });
});

describe('POST /customer-invoices/{id}:void', () => {
  it('voids a draft (no number) with sales.customer_invoice.voided and the public invoice.voided; void is final', async () => {
    const c = await newCustomer();
    const d = await draft(c.id);
    const r = await voidIt(d.id, 'duplicate');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ ...d, status: 'void', balanceDue: '0.00', voidedAt: expect.any(String), voidReason: 'duplicate', version: 2, updatedAt: r.body.voidedAt });
    const events = await outbox(d.id);
    expect(events.map((e) => e.type)).toEqual(['sales.customer_invoice.created', 'invoice.created', 'sales.customer_invoice.voided', 'invoice.voided']);
    expect(events[2].payload.data.object).toEqual(r.body);
    expect(events[3].payload.data).toEqual(events[2].payload.data);
    const again = await voidIt(d.id);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'conflict', detail: 'The invoice is already void.' });
  });

  it('voids an issued invoice without payments (it keeps its number); refuses once a payment is recorded', async () => {
    const c = await newCustomer();
    const inv = await issued(c.id);
    const r = await voidIt(inv.id);
    expect(r.body).toMatchObject({ status: 'void', number: inv.number, issuedAt: inv.issuedAt });

    const part = await issued(c.id);
    await pay(part.id, { amount: '10.00' });
    const refused = await voidIt(part.id);
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toBe('The invoice has payments recorded (status partially_paid): it cannot be voided.');

    const full = await issued(c.id);
    await pay(full.id, { amount: full.total });
    expect((await voidIt(full.id)).body.detail).toBe('The invoice has payments recorded (status paid): it cannot be voided.');
  });

  it('needs a reason (422), honours If-Match, answers 404 for an unknown id', async () => {
    const c = await newCustomer();
    const d = await draft(c.id);
    const none = await command(d.id, 'void', {});
    expect(none.status).toBe(422);
    expect(none.body.errors).toEqual([{ path: 'reason', message: expect.any(String) }]);
    expect((await command(d.id, 'void', { reason: 'x' }, { headers: { 'If-Match': '"2"' } })).body.code).toBe('version_mismatch');
    expect((await voidIt('cin_nope')).status).toBe(404);
  });
});

describe('GET /customer-invoices', () => {
  it('404s an unknown id', async () => {
    const r = await get('/customer-invoices/cin_nope');
    expect(r.status).toBe(404);
    expect(r.body.code).toBe('not_found');
  });

  it('filters by customerId and status, pages with a cursor', async () => {
    const c = await newCustomer();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await draft(c.id)).id);
    await issue(ids[1]);
    await issue(ids[3]);
    await voidIt(ids[4]);

    const page1 = await get(`/customer-invoices?customerId=${c.id}&limit=2`);
    expect(page1.status).toBe(200);
    expect(page1.body.data.map((i: any) => i.id)).toEqual(ids.slice(0, 2));
    expect(page1.body.hasMore).toBe(true);
    const page2 = await get(`/customer-invoices?customerId=${c.id}&limit=2&cursor=${page1.body.nextCursor}`);
    expect(page2.body.data.map((i: any) => i.id)).toEqual(ids.slice(2, 4));
    const page3 = await get(`/customer-invoices?customerId=${c.id}&limit=2&cursor=${page2.body.nextCursor}`);
    expect(page3.body).toEqual({ data: [expect.objectContaining({ id: ids[4], status: 'void' })], nextCursor: null, hasMore: false });

    expect((await get(`/customer-invoices?customerId=${c.id}&status=issued`)).body.data.map((i: any) => i.id)).toEqual([ids[1], ids[3]]);
    expect((await get(`/customer-invoices?customerId=${c.id}&status=draft`)).body.data.map((i: any) => i.id)).toEqual([ids[0], ids[2]]);
  });

  it('dueBefore lists what is still owed (issued or partially paid) and due before the date, with payments', async () => {
    const c = await newCustomer();
    const soon = await issued(c.id, { dueDate: '2098-01-10' });
    const partly = await issued(c.id, { dueDate: '2098-01-05' });
    const paidOff = await issued(c.id, { dueDate: '2098-01-05' });
    await issued(c.id, { dueDate: '2098-02-01' });
    const voided = await issued(c.id, { dueDate: '2098-01-05' });
    await draft(c.id, { dueDate: '2098-01-05' });
    await pay(partly.id, { amount: '1.00' });
    await pay(paidOff.id, { amount: paidOff.total });
    await voidIt(voided.id);

    const due = await get(`/customer-invoices?customerId=${c.id}&dueBefore=2098-01-11`);
    expect(due.body.data.map((i: any) => i.id)).toEqual([soon.id, partly.id]);
    expect(due.body.data[1]).toMatchObject({ status: 'partially_paid', balanceDue: '576.43', payments: [expect.objectContaining({ amount: '1.00' })] });
    expect((await get(`/customer-invoices?customerId=${c.id}&dueBefore=2098-01-10`)).body.data.map((i: any) => i.id)).toEqual([partly.id]);
    expect((await get(`/customer-invoices?customerId=${c.id}&dueBefore=2098-01-11&status=partially_paid`)).body.data.map((i: any) => i.id)).toEqual([partly.id]);
    expect((await get(`/customer-invoices?customerId=${c.id}&dueBefore=2098-01-11&status=paid`)).body.data).toEqual([]);
  });

  it('answers 400 with field paths for bad filters', async () => {
    const r = await get('/customer-invoices?status=open&dueBefore=tomorrow&limit=0');
    expect(r.status).toBe(400);
    expect(r.body.errors.map((e: any) => e.path).sort()).toEqual(['dueBefore', 'limit', 'status']);
  });
});

describe('reach and credentials', () => {
  it('is company-wide: a person whose reach is a location gets 403 out_of_reach; an integration with sales scopes works', async () => {
    const local = person({ 'customer_invoices.read': [{ type: 'locations', ids: ['loc_x'] }], 'customer_invoices.manage': [{ type: 'locations', ids: ['loc_x'] }] });
    const c = await newCustomer();
    const list = await get('/customer-invoices', local);
    expect(list.status).toBe(403);
    expect(list.body.code).toBe('out_of_reach');
    expect((await create(linesBody(c.id), local)).status).toBe(403);

    const byKey = await create(linesBody(c.id), accounts);
    expect(byKey.status).toBe(201);
    expect((await command(byKey.body.id, 'issue', {}, { as: accounts })).status).toBe(200);
    expect((await outbox(byKey.body.id))[2].payload.actor).toEqual({ type: 'integration', id: 'int_test' });
    expect((await get(`/customer-invoices/${byKey.body.id}`, local)).status).toBe(403);
  });
});

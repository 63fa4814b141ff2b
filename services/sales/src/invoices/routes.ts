import { assertCompanyWide, NotFound, decodeCursor, pageLimit, route, toPage, type RouteDef, type ServiceRuntime } from '@bop/shared';
import type { SalesConfig } from '../config';
import { invoiceDto } from './dto';
import { createInvoice, dtoOf, findInvoice, listInvoices, issueInvoice, payInvoice, paymentsOf, voidInvoice } from './store';

/** Permission catalogue: customer_invoices.* reach Everyone only (invoices belong to the company, not a location). */
/** customer invoices (supplement: Sales lists, orders and invoices, /customer-invoices; Customer invoice states) */
export const invoiceRoutes = (svc: ServiceRuntime<SalesConfig>): RouteDef[] => [
  route('GET /customer-invoices', async (ctx) => {
    assertCompanyWide(ctx.reach(), 'Customer invoices');
    const { limit, cursor, status, customerId, dueBefore } = ctx.query;
    const n = pageLimit(limit);
    const rows = await listInvoices(ctx.em, { after: decodeCursor(cursor), status, customerId, dueBefore }, n + 1);
    const payments = await paymentsOf(ctx.em, rows.slice(0, n).map((r) => r.id));
    return { body: toPage(rows, n, (r) => invoiceDto(r, payments.get(r.id) ?? [])) };
  }),

  route('POST /customer-invoices', async (ctx) => {
    assertCompanyWide(ctx.reach(), 'Customer invoices');
    const body = await createInvoice(ctx.em, ctx.body, { actor: ctx.principal, now: svc.clock.now() });
    return { status: 201, body, headers: { Location: `/api/v1/customer-invoices/${body.id}` } };
  }),

  route('GET /customer-invoices/{id}', async (ctx) => {
    assertCompanyWide(ctx.reach(), 'Customer invoices');
    const invoice = await findInvoice(ctx.em, ctx.params.id);
    if (!invoice) throw new NotFound('customer invoice', ctx.params.id);
    return { body: await dtoOf(ctx.em, invoice) };
  }),

  route('POST /customer-invoices/{id}:issue', async (ctx) => {
    assertCompanyWide(ctx.reach(), 'Customer invoices');
    const body = await issueInvoice(ctx.em, ctx.params.id, { actor: ctx.principal, now: svc.clock.now(), checkVersion: (v) => ctx.checkVersion(v) });
    return { body };
  }),

  route('POST /customer-invoices/{id}:pay', async (ctx) => {
    assertCompanyWide(ctx.reach(), 'Customer invoices');
    const body = await payInvoice(ctx.em, ctx.params.id, ctx.body, { actor: ctx.principal, now: svc.clock.now(), checkVersion: (v) => ctx.checkVersion(v) });
    return { body };
  }),

  route('POST /customer-invoices/{id}:void', async (ctx) => {
    assertCompanyWide(ctx.reach(), 'Customer invoices');
    const body = await voidInvoice(ctx.em, ctx.params.id, ctx.body.reason, { actor: ctx.principal, now: svc.clock.now(), checkVersion: (v) => ctx.checkVersion(v) });
    return { body };
  }),
];

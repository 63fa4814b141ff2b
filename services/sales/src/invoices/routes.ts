import { assertCompanyWide, NotFound, mapPage, route, type RouteDef, type ServiceRuntime } from '@bop/shared';
import type { SalesConfig } from '../config';
import { invoiceDto } from './dto';
import { createInvoice, dtoOf, findInvoice, invoiceConflictFor, listInvoices, issueInvoice, payInvoice, paymentsOf, voidInvoice } from './store';

/** Permission catalogue: customer_invoices.* reach Everyone only (invoices belong to the company, not a location). */
/** customer invoices (supplement: Sales lists, orders and invoices, /customer-invoices; Customer invoice states) */
export const invoiceRoutes = (_svc: ServiceRuntime<SalesConfig>): RouteDef[] => [
  route('GET /customer-invoices', async (ctx) => {
    assertCompanyWide(ctx.reach(), 'Customer invoices');
    const { limit, cursor, updatedSince, status, customerId, dueBefore } = ctx.query;
    const page = await listInvoices(ctx, { status, customerId, dueBefore }, { limit, cursor, updatedSince });
    const payments = await paymentsOf(ctx, page.data.map((r) => r.id));
    return { body: mapPage(page, (r) => invoiceDto(r, payments.get(r.id) ?? [])) };
  }),

  route(
    'POST /customer-invoices',
    async (ctx) => {
      assertCompanyWide(ctx.reach(), 'Customer invoices');
      const body = await createInvoice(ctx, ctx.body);
      return { status: 201, body, headers: { Location: `/api/v1/customer-invoices/${body.id}` } };
    },
    { conflict: invoiceConflictFor },
  ),

  route('GET /customer-invoices/{id}', async (ctx) => {
    assertCompanyWide(ctx.reach(), 'Customer invoices');
    const invoice = await findInvoice(ctx, ctx.params.id);
    if (!invoice) throw new NotFound('customer invoice', ctx.params.id);
    return { body: await dtoOf(ctx, invoice) };
  }),

  route('POST /customer-invoices/{id}:issue', async (ctx) => {
    assertCompanyWide(ctx.reach(), 'Customer invoices');
    const body = await issueInvoice(ctx, ctx.params.id);
    return { body };
  }),

  route('POST /customer-invoices/{id}:pay', async (ctx) => {
    assertCompanyWide(ctx.reach(), 'Customer invoices');
    const body = await payInvoice(ctx, ctx.params.id, ctx.body);
    return { body };
  }),

  route('POST /customer-invoices/{id}:void', async (ctx) => {
    assertCompanyWide(ctx.reach(), 'Customer invoices');
    const body = await voidInvoice(ctx, ctx.params.id, ctx.body.reason);
    return { body };
  }),
];

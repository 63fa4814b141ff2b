import { route, type RouteDef, locationFilter } from '@bop/shared';
import { companySettings } from '../orders/settings';
import { supplierInvoiceDto } from './dto';
import { approveInvoice, assertInvoiceInReach, disputeInvoice, getInvoice, invoiceConflictFor, listInvoices, recordInvoice } from './store';

/**
 * Supplier invoices (spec: Purchasing and ordering; supplement: Supplier invoice states). Reach: the
 * location of the order matched; an invoice matching no order belongs to no location (reach Everyone).
 */
export const invoicesRoutes = (): RouteDef[] => [
  route('GET /supplier-invoices', async (ctx) => {
    const inLocations = locationFilter(ctx.reach(), ctx.query.locationId);
    return { body: await listInvoices(ctx, inLocations, ctx.query) };
  }),

  // the company's tolerances are read when the invoice is recorded and kept with it
  route(
    'POST /supplier-invoices',
    async (ctx) => {
      const { invoiceMatchTolerances } = await companySettings(ctx.services, ctx.requestId);
      const body = await recordInvoice(ctx, ctx.body, invoiceMatchTolerances);
      return { status: 201, body, headers: { Location: `/api/v1/supplier-invoices/${body.id}` } };
    },
    { conflict: invoiceConflictFor },
  ),

  route('GET /supplier-invoices/{id}', async (ctx) => {
    const invoice = await getInvoice(ctx, ctx.params.id);
    assertInvoiceInReach(ctx.reach(), invoice.locationId ?? null);
    return { body: supplierInvoiceDto(invoice) };
  }),

  route('POST /supplier-invoices/{id}:approve', async (ctx) => {
    return { body: await approveInvoice(ctx, ctx.params.id, ctx.body.note ?? null) };
  }),

  route('POST /supplier-invoices/{id}:dispute', async (ctx) => {
    return { body: await disputeInvoice(ctx, ctx.params.id, ctx.body.reason) };
  }),
];

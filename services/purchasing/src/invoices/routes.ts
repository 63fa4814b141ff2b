import { route, writeTransaction, type RouteDef, type ServiceRuntime, locationFilter } from '@bop/shared';
import type { PurchasingConfig } from '../config';
import { companySettings } from '../orders/settings';
import { supplierInvoiceDto } from './dto';
import { approveInvoiceInTransaction, assertInvoiceInReach, disputeInvoiceInTransaction, getInvoice, invoiceConflictFor, listInvoices, recordInvoice } from './store';

/**
 * Supplier invoices (spec: Purchasing and ordering; supplement: Supplier invoice states). Reach: the
 * location of the order matched; an invoice matching no order belongs to no location (reach Everyone).
 */
export const invoicesRoutes = (svc: ServiceRuntime<PurchasingConfig>): RouteDef[] => [
  route('GET /supplier-invoices', async (ctx) => {
    const inLocations = locationFilter(ctx.reach(), ctx.query.locationId);
    return { body: await listInvoices(ctx.em, inLocations, ctx.query) };
  }),

  // the company's tolerances are read when the invoice is recorded and kept with it
  route('POST /supplier-invoices', async (ctx) => {
    const reach = ctx.reach();
    const { invoiceMatchTolerances } = await companySettings(svc.services, ctx.requestId);
    const w = { actor: ctx.principal, now: svc.clock.now(), reach };
    const body = await writeTransaction(ctx.em, (em) => recordInvoice(em, ctx.body, invoiceMatchTolerances, w), invoiceConflictFor);
    return { status: 201, body, headers: { Location: `/api/v1/supplier-invoices/${body.id}` } };
  }),

  route('GET /supplier-invoices/{id}', async (ctx) => {
    const reach = ctx.reach();
    const invoice = await getInvoice(ctx.em, ctx.params.id);
    assertInvoiceInReach(reach, invoice.locationId ?? null);
    return { body: supplierInvoiceDto(invoice) };
  }),

  route('POST /supplier-invoices/{id}:approve', async (ctx) => {
    const c = { actor: ctx.principal, now: svc.clock.now(), reach: ctx.reach(), checkVersion: (v: number) => ctx.checkVersion(v) };
    return { body: await approveInvoiceInTransaction(ctx.em, ctx.params.id, ctx.body.note ?? null, c) };
  }),

  route('POST /supplier-invoices/{id}:dispute', async (ctx) => {
    const c = { actor: ctx.principal, now: svc.clock.now(), reach: ctx.reach(), checkVersion: (v: number) => ctx.checkVersion(v) };
    return { body: await disputeInvoiceInTransaction(ctx.em, ctx.params.id, ctx.body.reason, c) };
  }),
];

import type { FilterQuery } from '@mikro-orm/core';
import {
  NotFound,
  decodeCursor,
  pageLimit,
  route,
  toPage,
  writeTransaction,
  type RouteDef,
  type ServiceRuntime,
  locationFilter,
} from '@bop/shared';
import type { PurchasingConfig } from '../config';
import { companySettings } from '../orders/settings';
import { supplierInvoiceDto } from './dto';
import { SupplierInvoiceEntity } from './entities';
import { approveInvoice, assertInvoiceInReach, disputeInvoice, invoiceConflictFor, recordInvoice } from './store';

/**
 * Supplier invoices (spec: Purchasing and ordering; supplement: Supplier invoice states). Reach: the
 * location of the order matched; an invoice matching no order belongs to no location (reach Everyone).
 */
export const invoicesRoutes = (svc: ServiceRuntime<PurchasingConfig>): RouteDef[] => [
  route('GET /supplier-invoices', async (ctx) => {
    const { limit, cursor, status, supplierId, purchaseOrderId, locationId, updatedSince } = ctx.query;
    const reach = ctx.reach();
    const inLocations = locationFilter(reach, locationId);
    const where: FilterQuery<SupplierInvoiceEntity>[] = [];
    const after = decodeCursor(cursor);
    if (after) where.push({ id: { $gt: after } });
    if (inLocations) where.push({ locationId: inLocations });
    if (status) where.push({ status });
    if (supplierId) where.push({ supplierId });
    if (purchaseOrderId) where.push({ purchaseOrderId });
    if (updatedSince) where.push({ updatedAt: { $gte: new Date(updatedSince) } });
    const n = pageLimit(limit);
    const rows = await ctx.em.find(SupplierInvoiceEntity, { $and: where }, { orderBy: { id: 'asc' }, limit: n + 1 });
    return { body: toPage(rows, n, supplierInvoiceDto) };
  }),

  // the company's tolerances are read when the invoice is recorded and kept with it
  route('POST /supplier-invoices', async (ctx) => {
    const reach = ctx.reach();
    const { invoiceMatchTolerances } = await companySettings(svc.services, ctx.requestId);
    const w = { actor: ctx.principal, now: new Date(), reach };
    const body = await writeTransaction(ctx.em, (em) => recordInvoice(em, ctx.body, invoiceMatchTolerances, w), invoiceConflictFor);
    return { status: 201, body, headers: { Location: `/api/v1/supplier-invoices/${body.id}` } };
  }),

  route('GET /supplier-invoices/{id}', async (ctx) => {
    const reach = ctx.reach();
    const invoice = await ctx.em.findOne(SupplierInvoiceEntity, { id: ctx.params.id });
    if (!invoice) throw new NotFound('supplier invoice', ctx.params.id);
    assertInvoiceInReach(reach, invoice.locationId ?? null);
    return { body: supplierInvoiceDto(invoice) };
  }),

  route('POST /supplier-invoices/{id}:approve', async (ctx) => {
    const c = { actor: ctx.principal, now: new Date(), reach: ctx.reach(), checkVersion: (v: number) => ctx.checkVersion(v) };
    return { body: await ctx.em.transactional((em) => approveInvoice(em, ctx.params.id, ctx.body.note ?? null, c)) };
  }),

  route('POST /supplier-invoices/{id}:dispute', async (ctx) => {
    const c = { actor: ctx.principal, now: new Date(), reach: ctx.reach(), checkVersion: (v: number) => ctx.checkVersion(v) };
    return { body: await ctx.em.transactional((em) => disputeInvoice(em, ctx.params.id, ctx.body.reason, c)) };
  }),
];

import { assertCompanyWide, NotFound, route, writeTransaction, type RouteDef, type ServiceRuntime } from '@bop/shared';
import type { PurchasingConfig } from '../config';
import { catalogDto, supplierDto } from './dto';
import { archiveSupplier, catalogOf, createFields, createSupplier, findSupplier, listSuppliers, patchSupplier, putSupplierByExternalId, replaceCatalogOf, supplierConflictFor } from './store';

/**
 * Suppliers and catalogs (spec: Purchasing and ordering). Suppliers are company-wide: reading needs
 * the permission at any reach, writing it at reach Everyone.
 */
export const suppliersRoutes = (svc: ServiceRuntime<PurchasingConfig>): RouteDef[] => [
  route('GET /suppliers', async (ctx) => {
    ctx.reach();
    return { body: await listSuppliers(ctx.em, ctx.query) };
  }),

  route('POST /suppliers', async (ctx) => {
    assertCompanyWide(ctx.reach(), 'Suppliers');
    const w = { actor: ctx.principal, now: svc.clock.now() };
    const supplier = await writeTransaction(ctx.em, (tem) => createSupplier(tem, createFields(ctx.body), w), supplierConflictFor);
    return { status: 201, body: supplier, headers: { Location: `/api/v1/suppliers/${supplier.id}` } };
  }),

  route('GET /suppliers/external/{externalId}', async (ctx) => {
    ctx.reach();
    const supplier = await findSupplier(ctx.em, { externalId: ctx.params.externalId });
    if (!supplier) throw new NotFound('supplier with externalId', ctx.params.externalId);
    return { body: supplierDto(supplier) };
  }),

  // create or replace from an ERP or AP system; the same content again answers 200 with the stored supplier (no version)
  route('PUT /suppliers/external/{externalId}', async (ctx) => {
    assertCompanyWide(ctx.reach(), 'Suppliers');
    const w = { actor: ctx.principal, now: svc.clock.now(), checkVersion: (v: number) => ctx.checkVersion(v) };
    const result = await putSupplierByExternalId(ctx.em, ctx.params.externalId, ctx.body, w);
    return { status: result.status, body: result.supplier, headers: result.status === 201 ? { Location: `/api/v1/suppliers/${result.supplier.id}` } : undefined };
  }),

  route('GET /suppliers/{id}', async (ctx) => {
    ctx.reach();
    const supplier = await findSupplier(ctx.em, { id: ctx.params.id });
    if (!supplier) throw new NotFound('supplier', ctx.params.id);
    return { body: supplierDto(supplier) };
  }),

  route('PATCH /suppliers/{id}', async (ctx) => {
    assertCompanyWide(ctx.reach(), 'Suppliers');
    const w = { actor: ctx.principal, now: svc.clock.now(), checkVersion: (v: number) => ctx.checkVersion(v) };
    return { body: await patchSupplier(ctx.em, ctx.params.id, ctx.body, w) };
  }),

  // archive: history kept; no new orders. Open orders stay as they are. Archiving an archived supplier changes nothing.
  route('DELETE /suppliers/{id}', async (ctx) => {
    assertCompanyWide(ctx.reach(), 'Suppliers');
    const w = { actor: ctx.principal, now: svc.clock.now(), checkVersion: (v: number) => ctx.checkVersion(v) };
    return { body: await archiveSupplier(ctx.em, ctx.params.id, w) };
  }),

  route('GET /suppliers/{id}/catalog', async (ctx) => {
    ctx.reach();
    const supplier = await findSupplier(ctx.em, { id: ctx.params.id });
    if (!supplier) throw new NotFound('supplier', ctx.params.id);
    return { body: catalogDto(supplier, await catalogOf(ctx.em, supplier.id)) };
  }),

  // 409 for an archived supplier; If-Match compares the catalog's version
  route('PUT /suppliers/{id}/catalog', async (ctx) => {
    assertCompanyWide(ctx.reach(), 'Suppliers');
    const w = { actor: ctx.principal, now: svc.clock.now(), checkVersion: (v: number) => ctx.checkVersion(v), requestId: ctx.requestId };
    return { body: await replaceCatalogOf(ctx.em, svc.services, ctx.params.id, ctx.body, w) };
  }),
];

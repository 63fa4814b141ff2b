import type { FilterQuery } from '@mikro-orm/core';
import { assertCompanyWide, Conflict, NotFound, decodeCursor, pageLimit, route, toPage, writeTransaction, type RouteDef, type ServiceRuntime } from '@bop/shared';
import type { PurchasingConfig } from '../config';
import { catalogDto, supplierDto } from './dto';
import { PurchasingSupplier } from './entities';
import { catalogOf, createFields, createSupplier, findSupplier, lockExternalId, patchFields, replaceCatalog, replaceFields, supplierConflictFor, updateSupplier } from './store';

/**
 * Suppliers and catalogs (spec: Purchasing and ordering). Suppliers are company-wide: reading needs
 * the permission at any reach, writing it at reach Everyone.
 */
export const suppliersRoutes = (svc: ServiceRuntime<PurchasingConfig>): RouteDef[] => [
  route('GET /suppliers', async (ctx) => {
    ctx.reach();
    const { limit, cursor, status, locationId, externalId, updatedSince } = ctx.query;
    const where: FilterQuery<PurchasingSupplier>[] = [];
    const after = decodeCursor(cursor);
    if (after) where.push({ id: { $gt: after } });
    if (status) where.push({ status });
    if (externalId) where.push({ externalId });
    if (updatedSince) where.push({ updatedAt: { $gte: new Date(updatedSince) } });
    // delivers there: lists it, or lists no location (all)
    if (locationId) where.push({ $or: [{ locationIds: { $contains: [locationId] } } as FilterQuery<PurchasingSupplier>, { locationIds: { $eq: [] } } as FilterQuery<PurchasingSupplier>] });
    const n = pageLimit(limit);
    const rows = await ctx.em.find(PurchasingSupplier, { $and: where }, { orderBy: { id: 'asc' }, limit: n + 1 });
    return { body: toPage(rows, n, supplierDto) };
  }),

  route('POST /suppliers', async (ctx) => {
    assertCompanyWide(ctx.reach(), 'Suppliers');
    const w = { actor: ctx.principal, now: new Date() };
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
    const { externalId } = ctx.params;
    const w = { actor: ctx.principal, now: new Date(), checkVersion: (v: number) => ctx.checkVersion(v) };
    const result = await writeTransaction(
      ctx.em,
      async (tem) => {
        // concurrent first PUTs of one externalId queue here: one creates, the others then replace
        await lockExternalId(tem, externalId);
        const existing = await findSupplier(tem, { externalId }, { lock: true });
        if (!existing) return { status: 201, supplier: await createSupplier(tem, replaceFields(ctx.body, externalId, null), w) };
        return { status: 200, supplier: await updateSupplier(tem, existing, replaceFields(ctx.body, externalId, existing), w) };
      },
      supplierConflictFor,
    );
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
    const w = { actor: ctx.principal, now: new Date(), checkVersion: (v: number) => ctx.checkVersion(v) };
    const supplier = await writeTransaction(
      ctx.em,
      async (tem) => {
        const row = await findSupplier(tem, { id: ctx.params.id }, { lock: true });
        if (!row) throw new NotFound('supplier', ctx.params.id);
        // If-Match guards a person's edit even when it turns out to change nothing
        ctx.checkVersion(row.version);
        return updateSupplier(tem, row, patchFields(row, ctx.body), w);
      },
      supplierConflictFor,
    );
    return { body: supplier };
  }),

  // archive: history kept; no new orders. Open orders stay as they are. Archiving an archived supplier changes nothing.
  route('DELETE /suppliers/{id}', async (ctx) => {
    assertCompanyWide(ctx.reach(), 'Suppliers');
    const w = { actor: ctx.principal, now: new Date(), checkVersion: (v: number) => ctx.checkVersion(v) };
    const supplier = await writeTransaction(
      ctx.em,
      async (tem) => {
        const row = await findSupplier(tem, { id: ctx.params.id }, { lock: true });
        if (!row) throw new NotFound('supplier', ctx.params.id);
        return updateSupplier(tem, row, patchFields(row, { status: 'archived' }), w);
      },
      supplierConflictFor,
    );
    return { body: supplier };
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
    const w = { actor: ctx.principal, now: new Date(), checkVersion: (v: number) => ctx.checkVersion(v), requestId: ctx.requestId };
    const catalog = await ctx.em.transactional(async (tem) => {
      const supplier = await findSupplier(tem, { id: ctx.params.id }, { lock: true });
      if (!supplier) throw new NotFound('supplier', ctx.params.id);
      if (supplier.status !== 'active') throw new Conflict(`Supplier ${supplier.id} is archived; its catalog cannot change.`);
      return replaceCatalog(tem, svc.services, supplier, ctx.body, w);
    });
    return { body: catalog };
  }),
];

import { assertCompanyWide, NotFound, route, type RouteDef } from '@bop/shared';
import { catalogDto, supplierDto } from './dto';
import { archiveSupplier, catalogOf, createFields, createSupplier, findSupplier, listSuppliers, patchSupplier, putSupplierByExternalId, replaceCatalogOf, supplierConflictFor } from './store';

/**
 * Suppliers and catalogs (spec: Purchasing and ordering). Suppliers are company-wide: reading needs
 * the permission at any reach (the kit refuses a caller without it), writing it at reach Everyone.
 */
export const suppliersRoutes = (): RouteDef[] => [
  route('GET /suppliers', async (ctx) => {
    return { body: await listSuppliers(ctx, ctx.query) };
  }),

  route(
    'POST /suppliers',
    async (ctx) => {
      assertCompanyWide(ctx.reach(), 'Suppliers');
      const supplier = await createSupplier(ctx, createFields(ctx.body));
      return { status: 201, body: supplier, headers: { Location: `/api/v1/suppliers/${supplier.id}` } };
    },
    { conflict: supplierConflictFor },
  ),

  route('GET /suppliers/external/{externalId}', async (ctx) => {
    const supplier = await findSupplier(ctx, { externalId: ctx.params.externalId });
    if (!supplier) throw new NotFound('supplier with externalId', ctx.params.externalId);
    return { body: supplierDto(supplier) };
  }),

  // create or replace from an ERP or AP system; the same content again answers 200 with the stored supplier (no version)
  route(
    'PUT /suppliers/external/{externalId}',
    async (ctx) => {
      assertCompanyWide(ctx.reach(), 'Suppliers');
      const result = await putSupplierByExternalId(ctx, ctx.params.externalId, ctx.body);
      return { status: result.status, body: result.supplier, headers: result.status === 201 ? { Location: `/api/v1/suppliers/${result.supplier.id}` } : undefined };
    },
    { conflict: supplierConflictFor },
  ),

  route('GET /suppliers/{id}', async (ctx) => {
    const supplier = await findSupplier(ctx, { id: ctx.params.id });
    if (!supplier) throw new NotFound('supplier', ctx.params.id);
    return { body: supplierDto(supplier) };
  }),

  route(
    'PATCH /suppliers/{id}',
    async (ctx) => {
      assertCompanyWide(ctx.reach(), 'Suppliers');
      return { body: await patchSupplier(ctx, ctx.params.id, ctx.body) };
    },
    { conflict: supplierConflictFor },
  ),

  // archive: history kept; no new orders. Open orders stay as they are. Archiving an archived supplier changes nothing.
  route(
    'DELETE /suppliers/{id}',
    async (ctx) => {
      assertCompanyWide(ctx.reach(), 'Suppliers');
      return { body: await archiveSupplier(ctx, ctx.params.id) };
    },
    { conflict: supplierConflictFor },
  ),

  route('GET /suppliers/{id}/catalog', async (ctx) => {
    const supplier = await findSupplier(ctx, { id: ctx.params.id });
    if (!supplier) throw new NotFound('supplier', ctx.params.id);
    return { body: catalogDto(supplier, await catalogOf(ctx, supplier.id)) };
  }),

  // 409 for an archived supplier; If-Match compares the catalog's version
  route('PUT /suppliers/{id}/catalog', async (ctx) => {
    assertCompanyWide(ctx.reach(), 'Suppliers');
    return { body: await replaceCatalogOf(ctx, ctx.params.id, ctx.body, ctx.requestId) };
  }),
];

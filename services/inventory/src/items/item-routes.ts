import { assertCompanyWide, NotFound, route, type RouteDef } from '@bop/shared';
import { createFields, patchFields, replaceFields } from './item-fields';
import { fieldsOf } from './dto';
import { createItem, findItem, itemConflictFor, itemDtoOf, itemDtos, listItems, lockExternalId, updateItem } from './store';

/** Items, categories and units are company-wide: reading needs the permission at any reach, writing it at reach Everyone. */
/** items (spec: Inventory; supplement: DELETE /items/{id} archives) */
export const itemRoutes = (): RouteDef[] => [
  route('GET /items', async (ctx) => {
    const { limit, cursor, status, categoryId, sku, barcode, externalId, updatedSince } = ctx.query;
    const page = await listItems(ctx, { status, categoryId, sku, barcode, externalId }, { limit, cursor, updatedSince });
    return { body: { ...page, data: await itemDtos(ctx, page.data) } };
  }),

  route(
    'POST /items',
    async (ctx) => {
      assertCompanyWide(ctx.reach(), 'Items');
      const item = await createItem(ctx, createFields(ctx.body));
      return { status: 201, body: item, headers: { Location: `/api/v1/items/${item.id}` } };
    },
    { conflict: itemConflictFor },
  ),

  route('GET /items/external/{externalId}', async (ctx) => {
    const row = await findItem(ctx, { externalId: ctx.params.externalId });
    if (!row) throw new NotFound('item with externalId', ctx.params.externalId);
    return { body: await itemDtoOf(ctx, row) };
  }),

  // create or replace from a POS or store catalog; the same content again answers 200 with the stored item (no version, no event)
  route(
    'PUT /items/external/{externalId}',
    async (ctx) => {
      assertCompanyWide(ctx.reach(), 'Items');
      const { externalId } = ctx.params;
      // concurrent first PUTs of one externalId queue here: one creates, the others then replace
      await lockExternalId(ctx, externalId);
      const existing = await findItem(ctx, { externalId }, { lock: true });
      if (!existing) {
        const item = await createItem(ctx, replaceFields(ctx.body, externalId, null));
        return { status: 201, body: item, headers: { Location: `/api/v1/items/${item.id}` } };
      }
      return { status: 200, body: await updateItem(ctx, existing, replaceFields(ctx.body, externalId, existing.status)) };
    },
    { conflict: itemConflictFor },
  ),

  route('GET /items/{id}', async (ctx) => {
    const row = await findItem(ctx, { id: ctx.params.id });
    if (!row) throw new NotFound('item', ctx.params.id);
    return { body: await itemDtoOf(ctx, row) };
  }),

  route(
    'PATCH /items/{id}',
    async (ctx) => {
      assertCompanyWide(ctx.reach(), 'Items');
      const row = await findItem(ctx, { id: ctx.params.id }, { lock: true });
      if (!row) throw new NotFound('item', ctx.params.id);
      // If-Match guards a person's edit even when it turns out to change nothing
      ctx.checkVersion(row.version);
      return { body: await updateItem(ctx, row, patchFields(fieldsOf(row), ctx.body)) };
    },
    { conflict: itemConflictFor },
  ),

  // supplement: archive; history kept; no longer orderable or countable. Archiving an archived item changes nothing (200, no event).
  route(
    'DELETE /items/{id}',
    async (ctx) => {
      assertCompanyWide(ctx.reach(), 'Items');
      const row = await findItem(ctx, { id: ctx.params.id }, { lock: true });
      if (!row) throw new NotFound('item', ctx.params.id);
      return { body: await updateItem(ctx, row, { ...fieldsOf(row), status: 'archived' }) };
    },
    { conflict: itemConflictFor },
  ),
];

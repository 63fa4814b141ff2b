import { assertCompanyWide, NotFound, decodeCursor, now, pageLimit, route, toPage, type RouteDef, writeTransaction } from '@bop/shared';
import { createFields, patchFields, replaceFields } from './item-fields';
import { fieldsOf } from './dto';
import { createItem, findItem, itemConflictFor, itemDtoOf, itemDtos, listItems, lockExternalId, updateItem } from './store';

/** Items, categories and units are company-wide: reading needs the permission at any reach, writing it at reach Everyone. */
/** items (spec: Inventory; supplement: DELETE /items/{id} archives) */
export const itemRoutes = (): RouteDef[] => [
  route('GET /items', async (ctx) => {
    ctx.reach();
    const { limit, cursor, status, categoryId, sku, barcode, externalId, updatedSince } = ctx.query;
    const after = decodeCursor(cursor);
    const n = pageLimit(limit);
    const rows = await listItems(ctx.em, { after, status, categoryId, sku, barcode, externalId, updatedSince, limit: n });
    const page = toPage(rows, n, (r) => r);
    return { body: { ...page, data: await itemDtos(ctx.em, page.data) } };
  }),

  route('POST /items', async (ctx) => {
    assertCompanyWide(ctx.reach(), 'Items');
    const w = { actor: ctx.principal, now: now() };
    const item = await writeTransaction(ctx.em, (tem) => createItem(tem, createFields(ctx.body), w), itemConflictFor);
    return { status: 201, body: item, headers: { Location: `/api/v1/items/${item.id}` } };
  }),

  route('GET /items/external/{externalId}', async (ctx) => {
    ctx.reach();
    const row = await findItem(ctx.em, { externalId: ctx.params.externalId });
    if (!row) throw new NotFound('item with externalId', ctx.params.externalId);
    return { body: await itemDtoOf(ctx.em, row) };
  }),

  // create or replace from a POS or store catalog; the same content again answers 200 with the stored item (no version, no event)
  route('PUT /items/external/{externalId}', async (ctx) => {
    assertCompanyWide(ctx.reach(), 'Items');
    const { externalId } = ctx.params;
    const w = { actor: ctx.principal, now: now(), checkVersion: (v: number) => ctx.checkVersion(v) };
    const result = await writeTransaction(
      ctx.em,
      async (tem) => {
        // concurrent first PUTs of one externalId queue here: one creates, the others then replace
        await lockExternalId(tem, externalId);
        const existing = await findItem(tem, { externalId }, { lock: true });
        if (!existing) return { status: 201, item: await createItem(tem, replaceFields(ctx.body, externalId, null), w) };
        return { status: 200, item: await updateItem(tem, existing, replaceFields(ctx.body, externalId, existing.status), w) };
      },
      itemConflictFor,
    );
    return { status: result.status, body: result.item, headers: result.status === 201 ? { Location: `/api/v1/items/${result.item.id}` } : undefined };
  }),

  route('GET /items/{id}', async (ctx) => {
    ctx.reach();
    const row = await findItem(ctx.em, { id: ctx.params.id });
    if (!row) throw new NotFound('item', ctx.params.id);
    return { body: await itemDtoOf(ctx.em, row) };
  }),

  route('PATCH /items/{id}', async (ctx) => {
    assertCompanyWide(ctx.reach(), 'Items');
    const w = { actor: ctx.principal, now: now(), checkVersion: (v: number) => ctx.checkVersion(v) };
    const item = await writeTransaction(
      ctx.em,
      async (tem) => {
        const row = await findItem(tem, { id: ctx.params.id }, { lock: true });
        if (!row) throw new NotFound('item', ctx.params.id);
        // If-Match guards a person's edit even when it turns out to change nothing
        ctx.checkVersion(row.version);
        return updateItem(tem, row, patchFields(fieldsOf(row), ctx.body), w);
      },
      itemConflictFor,
    );
    return { body: item };
  }),

  // supplement: archive; history kept; no longer orderable or countable. Archiving an archived item changes nothing (200, no event).
  route('DELETE /items/{id}', async (ctx) => {
    assertCompanyWide(ctx.reach(), 'Items');
    const w = { actor: ctx.principal, now: now(), checkVersion: (v: number) => ctx.checkVersion(v) };
    const item = await writeTransaction(
      ctx.em,
      async (tem) => {
        const row = await findItem(tem, { id: ctx.params.id }, { lock: true });
        if (!row) throw new NotFound('item', ctx.params.id);
        return updateItem(tem, row, { ...fieldsOf(row), status: 'archived' }, w);
      },
      itemConflictFor,
    );
    return { body: item };
  }),
];

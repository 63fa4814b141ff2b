import { assertCompanyWide, decodeCursor, now, pageLimit, route, toPage, type RouteDef } from '@bop/shared';
import { categoryDto } from './dto';
import { createCategory, listCategories, updateCategory } from './category-store';

/** item categories (supplement: GET/POST /item-categories, PATCH /item-categories/{id}) */
export const categoryRoutes = (): RouteDef[] => [
  route('GET /item-categories', async (ctx) => {
    ctx.reach();
    const { limit, cursor, status, parentId } = ctx.query;
    const after = decodeCursor(cursor);
    const n = pageLimit(limit);
    const rows = await listCategories(ctx.em, { after, status, parentId, limit: n });
    return { body: toPage(rows, n, categoryDto) };
  }),

  route('POST /item-categories', async (ctx) => {
    assertCompanyWide(ctx.reach(), 'Item categories');
    const row = await createCategory(ctx.em, ctx.body, now());
    return { status: 201, body: categoryDto(row) };
  }),

  route('PATCH /item-categories/{id}', async (ctx) => {
    assertCompanyWide(ctx.reach(), 'Item categories');
    const row = await updateCategory(ctx.em, ctx.params.id, ctx.body, (v) => ctx.checkVersion(v), now());
    return { body: categoryDto(row) };
  }),
];

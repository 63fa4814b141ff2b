import { assertCompanyWide, mapPage, route, type RouteDef } from '@bop/shared';
import { categoryDto } from './dto';
import { categoryConflictFor, createCategory, listCategories, updateCategory } from './category-store';

/** item categories (supplement: GET/POST /item-categories, PATCH /item-categories/{id}) */
export const categoryRoutes = (): RouteDef[] => [
  route('GET /item-categories', async (ctx) => {
    const { limit, cursor, updatedSince, status, parentId } = ctx.query;
    return { body: mapPage(await listCategories(ctx, { status, parentId }, { limit, cursor, updatedSince }), categoryDto) };
  }),

  route(
    'POST /item-categories',
    async (ctx) => {
      assertCompanyWide(ctx.reach(), 'Item categories');
      const row = await createCategory(ctx, ctx.body);
      return { status: 201, body: categoryDto(row) };
    },
    { conflict: categoryConflictFor },
  ),

  route(
    'PATCH /item-categories/{id}',
    async (ctx) => {
      assertCompanyWide(ctx.reach(), 'Item categories');
      return { body: categoryDto(await updateCategory(ctx, ctx.params.id, ctx.body)) };
    },
    { conflict: categoryConflictFor },
  ),
];

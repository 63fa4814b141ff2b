import { assertCompanyWide, route, type RouteDef } from '@bop/shared';
import { getRecipe, replaceRecipe } from './store';

/** Recipes belong to the company, not a location: reading takes any reach of the row's permission, writing reach Everyone. */
/** usage recipes (spec: Inventory, GET/PUT /usage-recipes/{itemId}) */
export const recipesRoutes = (): RouteDef[] => [
  route('GET /usage-recipes/{itemId}', async (ctx) => ({ body: await getRecipe(ctx, ctx.params.itemId) })),

  // the whole recipe: 201 when the item had none, 200 when replaced (or sent again unchanged), 204 when an empty list removed it
  route('PUT /usage-recipes/{itemId}', async (ctx) => {
    assertCompanyWide(ctx.reach(), 'Usage recipes');
    return replaceRecipe(ctx, ctx.params.itemId, ctx.body);
  }),
];

import { LockMode } from '@mikro-orm/core';
import type { UsageRecipeReplace } from '@bop/contracts';
import {
  assertCompanyWide,
  NotFound,
  ValidationError,
  actorOf,
  canonicalJson,
  insertEvents,
  route,
  sqlQuery,
  type EntityManager,
  type FieldError,
  type RouteDef,
  type ServiceRuntime,
} from '@bop/shared';
import type { InventoryConfig } from '../config';
import type { ResolvedLine } from '../items/lines';
import { resolveLines } from '../items/lines-store';
import { formatQuantity } from '../ledger/quantity';
import { checkNesting, type StoredComponent } from './domain';
import { UsageRecipeRow } from './entities';
import { itemNames, loadGraph, lockRecipes, longestUsedByChain, recipeDto } from './store';

/** Recipes belong to the company, not a location: reading takes any reach of the row's permission, writing reach Everyone. */
const indexOf = (path: string) => Number(/^components\[(\d+)\]/.exec(path)?.[1] ?? -1);

/**
 * The components as stored, or a 422 naming every bad one: the item itself, an item listed twice,
 * an unknown or archived item, a unit that does not exist or measures another base unit (resolveLines),
 * a quantity that is zero once converted to the base unit.
 */
async function storedComponents(em: EntityManager, itemId: string, body: UsageRecipeReplace): Promise<StoredComponent[]> {
  const errors: FieldError[] = [];
  const firstAt = new Map<string, number>();
  body.components.forEach((c, i) => {
    if (c.itemId === itemId) errors.push({ path: `components[${i}].itemId`, message: 'A recipe cannot use its own item.' });
    const first = firstAt.get(c.itemId);
    if (first !== undefined) errors.push({ path: `components[${i}].itemId`, message: `Item ${c.itemId} is already listed at components[${first}]; give its whole quantity there.` });
    else firstAt.set(c.itemId, i);
  });
  let resolved: ResolvedLine[] = [];
  try {
    resolved = await resolveLines(em, body.components.map((c) => ({ itemId: c.itemId, quantity: c.quantity, unitId: c.unitId ?? null })), { path: 'components' });
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    errors.push(...(err.errors ?? []));
  }
  if (errors.length === 0) {
    resolved.forEach((r, i) => {
      if (r.base.isZero()) errors.push({ path: `components[${i}].quantity`, message: `Less than 0.000001 ${r.item.baseUnit} once converted to the item's base unit.` });
    });
  }
  if (errors.length > 0) throw new ValidationError(errors.sort((a, b) => indexOf(a.path) - indexOf(b.path)));
  return body.components.map((c, i) => ({
    itemId: c.itemId,
    quantity: formatQuantity(c.quantity),
    unitId: c.unitId ?? null,
    yield: formatQuantity(c.yield ?? '1'),
    baseQuantity: formatQuantity(resolved[i].base),
  }));
}

const eventOf = (type: string, object: Record<string, unknown>, previous?: Record<string, unknown>) => ({
  type,
  aggregateType: 'usage_recipe',
  aggregateId: object.itemId as string,
  locationId: null,
  object,
  ...(previous ? { previous } : {}),
});

/** usage recipes (spec: Inventory, GET/PUT /usage-recipes/{itemId}) */
export const recipesRoutes = (_svc: ServiceRuntime<InventoryConfig>): RouteDef[] => [
  route('GET /usage-recipes/{itemId}', async (ctx) => {
    ctx.reach();
    const { itemId } = ctx.params;
    const row = await ctx.em.findOne(UsageRecipeRow, { itemId });
    if (!row || row.components.length === 0) {
      const item = await sqlQuery(ctx.em, 'select 1 from "inventory"."items" where "id" = ?', [itemId]);
      throw item.length === 0 ? new NotFound('item', itemId) : new NotFound('usage recipe for item', itemId);
    }
    const graph = await loadGraph(ctx.em, row.components.map((c) => c.itemId));
    return { body: recipeDto(row, graph) };
  }),

  // the whole recipe: 201 when the item had none, 200 when replaced (or sent again unchanged), 204 when an empty list removed it
  route('PUT /usage-recipes/{itemId}', async (ctx) => {
    assertCompanyWide(ctx.reach(), 'Usage recipes');
    const { itemId } = ctx.params;
    const now = new Date();
    const actor = actorOf(ctx.principal);
    return ctx.em.transactional(async (em) => {
      await lockRecipes(em);
      const item = await sqlQuery(em, 'select 1 from "inventory"."items" where "id" = ?', [itemId]);
      if (item.length === 0) throw new NotFound('item', itemId);
      const existing = await em.findOne(UsageRecipeRow, { itemId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      // a removed recipe keeps its row and version: If-Match never matches a recipe that was removed and made again
      ctx.checkVersion(existing?.version ?? 0);
      const had = existing !== null && existing.components.length > 0;

      if (ctx.body.components.length === 0) {
        if (!existing || !had) return { status: 204 };
        const before = recipeDto(existing, await loadGraph(em, existing.components.map((c) => c.itemId)));
        Object.assign(existing, { components: [], version: existing.version + 1, updatedAt: now });
        await em.flush();
        await insertEvents(em, 'inventory', [eventOf('inventory.usage_recipe.removed', recipeDto(existing, new Map()), { components: before.components, version: before.version })], actor, now);
        return { status: 204 };
      }

      const components = await storedComponents(em, itemId, ctx.body);
      const graph = await loadGraph(em, components.map((c) => c.itemId));
      const usedBy = await longestUsedByChain(em, itemId);
      const names = await itemNames(em, [itemId, ...usedBy, ...components.map((c) => c.itemId), ...[...graph.values()].flatMap((cs) => cs.map((c) => c.itemId))]);
      const nesting = checkNesting(itemId, components, graph, usedBy, names);
      if (nesting.length > 0) throw new ValidationError(nesting);

      // the same recipe again changes nothing: no version, no event
      if (had && canonicalJson(existing.components) === canonicalJson(components)) return { status: 200, body: recipeDto(existing, graph) };
      const previous = had ? recipeDto(existing, await loadGraph(em, existing.components.map((c) => c.itemId))).components : undefined;
      let row: UsageRecipeRow;
      if (existing) {
        // a recipe made again after its removal starts anew (its version goes on)
        Object.assign(existing, { components, version: existing.version + 1, updatedAt: now, ...(had ? {} : { createdAt: now }) });
        row = existing;
      } else {
        row = em.create(UsageRecipeRow, { itemId, components, version: 1, createdAt: now, updatedAt: now });
      }
      await em.flush();
      const body = recipeDto(row, graph);
      await insertEvents(em, 'inventory', [eventOf('inventory.usage_recipe.replaced', body, previous ? { components: previous } : undefined)], actor, now);
      return { status: had ? 200 : 201, body };
    });
  }),
];

import { LockMode } from '@mikro-orm/core';
import { RECIPE_MAX_DEPTH, type UsageRecipe, type UsageRecipeReplace } from '@bop/contracts';
import { NotFound, ValidationError, canonicalJson, findPlain, lockForTransaction, type EntityManager, type FieldError, type Work } from '@bop/shared';
import type { ResolvedLine } from '../items/lines';
import { resolveLines } from '../items/lines-store';
import { formatQuantity } from '../ledger/quantity';
import { checkNesting, depletesDto, formatGross, type RecipeGraph, type StoredComponent } from './usage';
import { UsageRecipeRow } from './entities';
import { InventoryItem } from '../items/entities';

/**
 * Serialises recipe writes (they are rare): each PUT checks cycles and depth against a graph no other
 * PUT is changing, so two edits can never close a cycle between them (A uses B / B uses A at once).
 */
export async function lockRecipes(w: Work): Promise<void> {
  await lockForTransaction(w.em, `${w.schema}.usage_recipes`);
}

/**
 * The stored recipes of `roots` and of everything below them (one query per level; stored graphs
 * are at most RECIPE_MAX_DEPTH deep, a level more is read to notice a graph that is not).
 */
export async function loadGraph(w: Work, roots: string[]): Promise<RecipeGraph> {
  const { em } = w;
  const graph: RecipeGraph = new Map();
  const seen = new Set<string>();
  let frontier = [...new Set(roots)];
  for (let level = 0; frontier.length > 0 && level <= RECIPE_MAX_DEPTH + 1; level++) {
    frontier.forEach((id) => seen.add(id));
    // a removed recipe keeps its row with no components: it uses nothing
    const rows = (await findPlain(em, UsageRecipeRow, { itemId: { $in: frontier } })).filter((r) => r.components.length > 0);
    const next = new Set<string>();
    for (const r of rows) {
      graph.set(r.itemId, r.components);
      for (const c of r.components) if (!seen.has(c.itemId)) next.add(c.itemId);
    }
    frontier = [...next];
  }
  return graph;
}

/**
 * The longest chain of recipes that use `itemId`, directly or through others, outermost first
 * (empty when nothing uses it). Read under `lockRecipes`, so it cannot change meanwhile.
 */
export async function longestUsedByChain(w: Work, itemId: string): Promise<string[]> {
  // the recipes read whole and walked in code: 2,339–7,033 µs where a recursive query over jsonb containment
  // took 27,015–52,133 on 171 recipes (bench:sql, 2026-11-28). Of chains of one length, the first in code-point order.
  const usedBy = new Map<string, string[]>();
  for (const r of await findPlain(w.em, UsageRecipeRow, {})) {
    for (const c of r.components) usedBy.set(c.itemId, [...(usedBy.get(c.itemId) ?? []), r.itemId]);
  }
  let best: string[] = [];
  const longer = (a: string[], b: string[]) => {
    if (a.length !== b.length) return a.length > b.length;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] < b[i];
    return false;
  };
  const walk = (path: string[]) => {
    if (longer(path, best)) best = path;
    if (path.length > RECIPE_MAX_DEPTH + 1) return;
    for (const user of new Set(usedBy.get(path[0]))) if (!path.includes(user)) walk([user, ...path]);
  };
  for (const user of new Set(usedBy.get(itemId))) walk([user]);
  return best;
}

const itemExists = async (em: EntityManager, id: string): Promise<boolean> => (await em.count(InventoryItem, { id })) > 0;

/** Names of items, for messages. */
export async function itemNames(w: Work, ids: string[]): Promise<Map<string, string>> {
  const { em } = w;
  const rows = await findPlain(em, InventoryItem, { id: { $in: [...new Set(ids)] } });
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** The recipe as the API shows it; `graph` holds the stored recipes below it (for `depletes`). */
export function recipeDto(row: UsageRecipeRow, graph: RecipeGraph): UsageRecipe {
  const withSelf: RecipeGraph = new Map(graph).set(row.itemId, row.components);
  return {
    itemId: row.itemId,
    components: row.components.map((c) => ({ itemId: c.itemId, quantity: c.quantity, unitId: c.unitId, yield: c.yield, baseQuantity: c.baseQuantity, grossQuantity: formatGross(c) })),
    depletes: depletesDto(row.itemId, withSelf),
    version: row.version,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const indexOf = (path: string) => Number(/^components\[(\d+)\]/.exec(path)?.[1] ?? -1);

/**
 * The components as stored, or a 422 naming every bad one: the item itself, an item listed twice,
 * an unknown or archived item, a unit that does not exist or measures another base unit (resolveLines),
 * a quantity that is zero once converted to the base unit.
 */
async function storedComponents(w: Work, itemId: string, body: UsageRecipeReplace): Promise<StoredComponent[]> {
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
    resolved = await resolveLines(w, body.components.map((c) => ({ itemId: c.itemId, quantity: c.quantity, unitId: c.unitId ?? null })), { path: 'components' });
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

/** `GET /usage-recipes/{itemId}`: the recipe, or 404 naming whether the item or its recipe is missing. */
export async function getRecipe(w: Work, itemId: string): Promise<UsageRecipe> {
  const { em } = w;
  const row = await em.findOne(UsageRecipeRow, { itemId });
  if (!row || row.components.length === 0) {
    throw !(await itemExists(em, itemId)) ? new NotFound('item', itemId) : new NotFound('usage recipe for item', itemId);
  }
  const graph = await loadGraph(w, row.components.map((c) => c.itemId));
  return recipeDto(row, graph);
}

/**
 * `PUT /usage-recipes/{itemId}`: the whole recipe — 201 when the item had
 * none, 200 when replaced (or sent again unchanged), 204 when an empty list removed it.
 */
export async function replaceRecipe(w: Work, itemId: string, recipe: UsageRecipeReplace): Promise<{ status: 200 | 201 | 204; body?: UsageRecipe }> {
  const { em, now } = w;
  await lockRecipes(w);
  if (!(await itemExists(em, itemId))) throw new NotFound('item', itemId);
  const existing = await em.findOne(UsageRecipeRow, { itemId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  // a removed recipe keeps its row and version: If-Match never matches a recipe that was removed and made again
  w.checkVersion(existing?.version ?? 0);
  const had = existing !== null && existing.components.length > 0;

  if (recipe.components.length === 0) {
    if (!existing || !had) return { status: 204 };
    const before = recipeDto(existing, await loadGraph(w, existing.components.map((c) => c.itemId)));
    Object.assign(existing, { components: [], version: existing.version + 1, updatedAt: now });
    await em.flush();
    w.emit(eventOf('inventory.usage_recipe.removed', recipeDto(existing, new Map()), { components: before.components, version: before.version }));
    // the project's own public types, next to the internal ones (whose envelopes stay as they were)
    w.emit(eventOf('usage_recipe.removed', recipeDto(existing, new Map()), { components: before.components }));
    return { status: 204 };
  }

  const components = await storedComponents(w, itemId, recipe);
  const graph = await loadGraph(w, components.map((c) => c.itemId));
  const usedBy = await longestUsedByChain(w, itemId);
  const names = await itemNames(w, [itemId, ...usedBy, ...components.map((c) => c.itemId), ...[...graph.values()].flatMap((cs) => cs.map((c) => c.itemId))]);
  const nesting = checkNesting(itemId, components, graph, usedBy, names);
  if (nesting.length > 0) throw new ValidationError(nesting);

  // the same recipe again changes nothing: no version, no event
  if (had && canonicalJson(existing.components) === canonicalJson(components)) return { status: 200, body: recipeDto(existing, graph) };
  const previous = had ? recipeDto(existing, await loadGraph(w, existing.components.map((c) => c.itemId))).components : undefined;
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
  w.emit(eventOf('inventory.usage_recipe.replaced', body, previous ? { components: previous } : undefined));
  w.emit(eventOf('usage_recipe.replaced', body, previous ? { components: previous } : undefined));
  return { status: had ? 200 : 201, body };
}

import { RECIPE_MAX_DEPTH, type UsageRecipe } from '@bop/contracts';
import { sqlQuery, type EntityManager } from '@bop/shared';
import { depletesDto, formatGross, type RecipeGraph, type StoredComponent } from './domain';
import type { UsageRecipeRow } from './entities';

/**
 * Serialises recipe writes (they are rare): each PUT checks cycles and depth against a graph no other
 * PUT is changing, so two edits can never close a cycle between them (A uses B / B uses A at once).
 */
export async function lockRecipes(em: EntityManager): Promise<void> {
  await sqlQuery(em, 'select pg_advisory_xact_lock(hashtextextended(?, 0))', ['inventory.usage_recipes']);
}

/**
 * The stored recipes of `roots` and of everything below them (one query per level; stored graphs
 * are at most RECIPE_MAX_DEPTH deep, a level more is read to notice a graph that is not).
 */
export async function loadGraph(em: EntityManager, roots: string[]): Promise<RecipeGraph> {
  const graph: RecipeGraph = new Map();
  const seen = new Set<string>();
  let frontier = [...new Set(roots)];
  for (let level = 0; frontier.length > 0 && level <= RECIPE_MAX_DEPTH + 1; level++) {
    frontier.forEach((id) => seen.add(id));
    const rows = await sqlQuery<{ item_id: string; components: StoredComponent[] }>(
      em,
      `select "item_id", "components" from "inventory"."usage_recipes"
       where "item_id" = any(array(select jsonb_array_elements_text(?::jsonb))) and jsonb_array_length("components") > 0`,
      [JSON.stringify(frontier)],
    );
    const next = new Set<string>();
    for (const r of rows) {
      graph.set(r.item_id, r.components);
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
export async function longestUsedByChain(em: EntityManager, itemId: string): Promise<string[]> {
  const rows = await sqlQuery<{ path: string[] }>(
    em,
    `with recursive up("item_id", "path") as (
       select r."item_id", array[r."item_id"]::text[] from "inventory"."usage_recipes" r
       where r."components" @> jsonb_build_array(jsonb_build_object('itemId', ?::text))
       union all
       select r."item_id", r."item_id"::text || up."path" from up
       join "inventory"."usage_recipes" r on r."components" @> jsonb_build_array(jsonb_build_object('itemId', up."item_id"))
       where cardinality(up."path") <= ? and not (r."item_id" = any(up."path"))
     )
     select "path" from up order by cardinality("path") desc, "path" limit 1`,
    [itemId, RECIPE_MAX_DEPTH + 1],
  );
  return rows[0]?.path ?? [];
}

/** Names of items, for messages. */
export async function itemNames(em: EntityManager, ids: string[]): Promise<Map<string, string>> {
  const rows = await sqlQuery<{ id: string; name: string }>(
    em,
    `select "id", "name" from "inventory"."items" where "id" = any(array(select jsonb_array_elements_text(?::jsonb)))`,
    [JSON.stringify([...new Set(ids)])],
  );
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

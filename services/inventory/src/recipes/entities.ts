import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { StoredComponent } from './usage';

/**
 * What one base unit of a sold item uses (core schema: inventory.usage_recipes). A removed recipe
 * keeps its row with no components, so its version goes on counting for If-Match.
 */
export const UsageRecipeRow = defineEntity({
  name: 'UsageRecipeRow',
  tableName: 'usage_recipes',
  properties: {
    itemId: p.string().primary(),
    components: p.json<StoredComponent[]>(),
    version: p.integer(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type UsageRecipeRow = InferEntity<typeof UsageRecipeRow>;

/** MikroORM entities of the recipes area (sale_depletions is written set-based in SQL by the depletion consumer). */
export const recipesEntities = [UsageRecipeRow] as const;

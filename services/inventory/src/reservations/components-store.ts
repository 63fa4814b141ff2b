import type Decimal from 'decimal.js';
import type { Work } from '@bop/shared';
import { usagePerUnit } from '../recipes/usage';
import { loadGraph } from '../recipes/store';

/**
 * The stock items one base unit of each item takes when it leaves as an order line — the same rule
 * as the depletion of sales: its usage recipe's ingredients (nested recipes expanded, yields
 * applied), or the item itself when it has no recipe.
 */
export async function stockComponents(w: Work, itemIds: string[]): Promise<Map<string, Array<{ itemId: string; perUnit: Decimal }>>> {
  const graph = await loadGraph(w, itemIds);
  const memo = new Map<string, Map<string, Decimal>>();
  return new Map(itemIds.map((id) => [id, [...usagePerUnit(id, graph, memo)].map(([itemId, perUnit]) => ({ itemId, perUnit }))]));
}

import Decimal from 'decimal.js';
import type { FieldError } from '@bop/shared';
import { RECIPE_MAX_DEPTH, type RecordedSalesObject, type StockMovementType } from '@bop/contracts';

/**
 * Pure rules of usage recipes and the depletion of sales (no I/O): expanding nested recipes to leaf
 * ingredients with yields, refusing cycles and too deep nesting, the ingredients a transaction should
 * have taken, and the difference to what was already applied.
 */

/** Products of several yields stay exact far beyond the ledger's six decimals; rounded once at the end. */
const D = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP });

const round6 = (v: Decimal.Value) => new D(v).toDecimalPlaces(6, D.ROUND_HALF_UP);
const fmt = (v: Decimal.Value) => {
  const d = round6(v);
  return d.isZero() ? '0' : d.toFixed();
};

/** A component as stored (jsonb): what was sent plus the usable quantity in the component's base unit. */
export interface StoredComponent {
  itemId: string;
  quantity: string;
  unitId: string | null;
  yield: string;
  baseQuantity: string;
}

/** Recipes by sold item (only items that have one). */
export type RecipeGraph = Map<string, StoredComponent[]>;

/** What leaves stock per usable quantity: base ÷ yield (a 0.8 yield takes 125 g for 100 g usable). */
export const grossOf = (c: StoredComponent): Decimal => new D(c.baseQuantity).dividedBy(c.yield);
export const formatGross = (c: StoredComponent): string => fmt(grossOf(c));

/** Stored graphs are acyclic and at most RECIPE_MAX_DEPTH deep (PUT refuses otherwise); met anyway, it is a bug. */
export class RecipeGraphError extends Error {}

/**
 * What one base unit of `itemId` takes from stock: nested recipes expanded down to the items that
 * have none (yields multiply along the way); an item without a recipe takes itself.
 */
export function usagePerUnit(itemId: string, graph: RecipeGraph, memo: Map<string, Map<string, Decimal>> = new Map(), path: string[] = []): Map<string, Decimal> {
  const known = memo.get(itemId);
  if (known) return known;
  if (path.includes(itemId)) throw new RecipeGraphError(`usage recipes form a cycle: ${[...path, itemId].join(' → ')}`);
  if (path.length > RECIPE_MAX_DEPTH) throw new RecipeGraphError(`usage recipes nest deeper than ${RECIPE_MAX_DEPTH}: ${path.join(' → ')}`);
  const components = graph.get(itemId);
  const usage = new Map<string, Decimal>();
  if (!components || components.length === 0) usage.set(itemId, new D(1));
  else {
    for (const c of components) {
      const gross = grossOf(c);
      for (const [leaf, q] of usagePerUnit(c.itemId, graph, memo, [...path, itemId])) usage.set(leaf, (usage.get(leaf) ?? new D(0)).plus(gross.times(q)));
    }
  }
  memo.set(itemId, usage);
  return usage;
}

/** `usagePerUnit` as the API shows it (`depletes`), in item id order. */
export function depletesDto(itemId: string, graph: RecipeGraph): Array<{ itemId: string; quantity: string }> {
  return [...usagePerUnit(itemId, graph)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([id, q]) => ({ itemId: id, quantity: fmt(q) }));
}

/**
 * Recipe levels below an item in `graph` (0: no recipe) with the deepest chain, or the chain back to
 * `target` when one is reached (a cycle through the item being edited).
 */
function depthBelow(itemId: string, graph: RecipeGraph, target: string, memo: Map<string, { depth: number; chain: string[] }>): { depth: number; chain: string[]; cycle?: string[] } {
  if (itemId === target) return { depth: 0, chain: [itemId], cycle: [itemId] };
  const known = memo.get(itemId);
  if (known) return known;
  const components = graph.get(itemId) ?? [];
  let best = { depth: 0, chain: [itemId] };
  for (const c of components) {
    const below = depthBelow(c.itemId, graph, target, memo);
    if (below.cycle) return { ...below, cycle: [itemId, ...below.cycle] };
    if (below.depth + 1 > best.depth) best = { depth: below.depth + 1, chain: [itemId, ...below.chain] };
  }
  memo.set(itemId, best);
  return best;
}

/**
 * The nesting rules of a new recipe for `itemId` (components already known to exist): no component
 * that uses the item, directly or not (a cycle), and at most RECIPE_MAX_DEPTH recipe levels along any
 * chain through the item — `usedBy` is the longest chain of recipes above it, outermost first.
 * `stored` holds the stored recipes of everything below the components.
 */
export function checkNesting(itemId: string, components: StoredComponent[], stored: RecipeGraph, usedBy: string[], names: Map<string, string>): FieldError[] {
  const name = (id: string) => (names.has(id) ? `${names.get(id)} (${id})` : id);
  const errors: FieldError[] = [];
  const memo = new Map<string, { depth: number; chain: string[] }>();
  let deepest: { index: number; depth: number; chain: string[] } | null = null;
  components.forEach((c, i) => {
    const below = depthBelow(c.itemId, stored, itemId, memo);
    if (below.cycle) {
      const cycle = [itemId, ...below.cycle];
      errors.push({ path: `components[${i}].itemId`, message: `${name(c.itemId)} uses ${name(itemId)}, which would make a cycle: ${cycle.map(name).join(' → ')}.` });
      return;
    }
    if (!deepest || below.depth > deepest.depth) deepest = { index: i, depth: below.depth, chain: below.chain };
  });
  if (errors.length > 0 || !deepest) return errors;
  const d = deepest as { index: number; depth: number; chain: string[] };
  const levels = usedBy.length + 1 + d.depth;
  if (levels > RECIPE_MAX_DEPTH) {
    const chain = [...usedBy, itemId, ...d.chain];
    errors.push({
      path: d.depth > 0 ? `components[${d.index}].itemId` : 'components',
      message: `Recipes would nest ${levels} levels deep (${chain.map(name).join(' → ')}); the limit is ${RECIPE_MAX_DEPTH}.`,
    });
  }
  return errors;
}

export type RecordedTransaction = RecordedSalesObject['transactions'][number];

/**
 * The ingredients a transaction should have taken from stock (positive: taken), rounded to the
 * ledger's six decimals: nothing when voided, else Σ over lines naming an item of its usage per unit
 * × the line's quantity (a refund's negative quantities give stock back). `usage` answers undefined
 * for an item inventory does not know: that line is skipped.
 */
export function depletionTarget(tx: RecordedTransaction, usage: (itemId: string) => Map<string, Decimal> | undefined): Map<string, string> {
  const sum = new Map<string, Decimal>();
  if (tx.status === 'voided') return new Map();
  for (const line of tx.lines) {
    if (line.itemId === null) continue;
    const perUnit = usage(line.itemId);
    if (!perUnit) continue;
    const q = new D(line.quantity);
    for (const [leaf, u] of perUnit) sum.set(leaf, (sum.get(leaf) ?? new D(0)).plus(u.times(q)));
  }
  const target = new Map<string, string>();
  for (const [itemId, q] of [...sum].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const r = round6(q);
    if (!r.isZero()) target.set(itemId, r.toFixed());
  }
  return target;
}

/** What a transaction has taken so far (sale_depletions row). */
export interface Applied {
  locationId: string;
  items: Record<string, string>;
}

/**
 * The stock changes (quantity: change of on hand) that bring what was applied to the target: the
 * difference per item at the same location; everything back at the old location and the whole
 * target at the new one when the transaction moved.
 */
export function depletionChanges(applied: Applied | null, locationId: string, target: Map<string, string>): Array<{ itemId: string; locationId: string; quantity: string }> {
  const changes: Array<{ itemId: string; locationId: string; quantity: string }> = [];
  if (applied === null) {
    // a first application (most of them): the whole target leaves stock; target strings are canonical and non-zero
    for (const [itemId, q] of target) changes.push({ itemId, locationId, quantity: q.startsWith('-') ? q.slice(1) : `-${q}` });
    return changes;
  }
  const before = applied.items;
  if (applied.locationId !== locationId) {
    for (const [itemId, q] of Object.entries(before)) if (!new D(q).isZero()) changes.push({ itemId, locationId: applied.locationId, quantity: new D(q).toFixed() });
    for (const [itemId, q] of target) changes.push({ itemId, locationId, quantity: new D(q).negated().toFixed() });
    return changes;
  }
  const ids = [...new Set([...Object.keys(before), ...target.keys()])].sort();
  for (const itemId of ids) {
    const delta = new D(target.get(itemId) ?? 0).minus(before[itemId] ?? 0);
    if (!delta.isZero()) changes.push({ itemId, locationId, quantity: delta.negated().toFixed() });
  }
  return changes;
}

/** The ledger's movement type of a transaction's depletion and its corrections. */
export function movementTypeOf(tx: RecordedTransaction): StockMovementType {
  if (tx.status === 'voided') return 'void_reversal';
  return tx.type === 'refund' ? 'refund' : 'sale';
}

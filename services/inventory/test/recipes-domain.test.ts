/**
 * The pure rules of recipes and depletion (recipes/domain.ts): expansion to leaf ingredients with
 * yields, nesting checks, a transaction's target and the difference to what was applied.
 */
import { checkNesting, depletionChanges, depletionTarget, movementTypeOf, usagePerUnit, RecipeGraphError, type RecipeGraph, type RecordedTransaction, type StoredComponent } from '../src/recipes/usage';

const c = (itemId: string, baseQuantity: string, y = '1'): StoredComponent => ({ itemId, quantity: baseQuantity, unitId: null, yield: y, baseQuantity });
const plain = (m: Map<string, { toFixed(): string }>) => Object.fromEntries([...m].map(([k, v]) => [k, v.toFixed()]));
const tx = (over: Partial<RecordedTransaction> = {}): RecordedTransaction => ({ id: 'stx_1', version: 1, type: 'sale', status: 'completed', occurredAt: '2026-11-21T15:00:00Z', lines: [], ...over });

describe('usagePerUnit', () => {
  it('takes an item without a recipe itself, and multiplies quantities and yields down nested recipes', () => {
    const graph: RecipeGraph = new Map([
      ['burger', [c('bun', '1'), c('patty', '2', '0.5')]],
      ['patty', [c('beef', '100', '0.8'), c('salt', '1')]],
    ]);
    expect(plain(usagePerUnit('cola', graph))).toEqual({ cola: '1' });
    expect(plain(usagePerUnit('burger', graph))).toEqual({ bun: '1', beef: '500', salt: '4' });
  });

  it('adds an ingredient reached along several paths', () => {
    const graph: RecipeGraph = new Map([
      ['combo', [c('burger', '1'), c('fries', '1')]],
      ['burger', [c('salt', '1')]],
      ['fries', [c('salt', '2', '0.5')]],
    ]);
    expect(plain(usagePerUnit('combo', graph))).toEqual({ salt: '5' });
  });

  it('refuses a cyclic graph rather than looping', () => {
    const graph: RecipeGraph = new Map([['a', [c('b', '1')]], ['b', [c('a', '1')]]]);
    expect(() => usagePerUnit('a', graph)).toThrow(RecipeGraphError);
  });
});

describe('checkNesting', () => {
  const names = new Map<string, string>();
  it('names a cycle through the item being edited', () => {
    const stored: RecipeGraph = new Map([['b', [c('c', '1')]], ['c', [c('a', '1')]]]);
    expect(checkNesting('a', [c('x', '1'), c('b', '1')], stored, [], names)).toEqual([{ path: 'components[1].itemId', message: 'b uses a, which would make a cycle: a → b → c → a.' }]);
  });

  it('counts recipe levels above and below the item', () => {
    const stored: RecipeGraph = new Map([['b', [c('c', '1')]]]);
    expect(checkNesting('a', [c('b', '1')], stored, Array.from({ length: 8 }, (_, i) => `u${i}`), names)).toEqual([]);
    expect(checkNesting('a', [c('b', '1')], stored, Array.from({ length: 9 }, (_, i) => `u${i}`), names)).toEqual([
      { path: 'components[0].itemId', message: `Recipes would nest 11 levels deep (${[...Array.from({ length: 9 }, (_, i) => `u${i}`), 'a', 'b', 'c'].join(' → ')}); the limit is 10.` },
    ]);
  });
});

describe('depletionTarget and depletionChanges', () => {
  const usage = (id: string) => (id === 'unknown' ? undefined : usagePerUnit(id, new Map([['latte', [c('milk', '200'), c('beans', '18', '0.9')]]])));

  it('sums lines through recipes, skips unmatched and unknown items, rounds to six decimals', () => {
    const t = tx({ lines: [{ itemId: 'latte', quantity: '2' }, { itemId: null, quantity: '5' }, { itemId: 'unknown', quantity: '1' }, { itemId: 'latte', quantity: '1.5' }, { itemId: 'cookie', quantity: '0.333333' }] });
    expect(Object.fromEntries(depletionTarget(t, usage))).toEqual({ beans: '70', cookie: '0.333333', milk: '700' });
    expect(depletionTarget(tx({ status: 'voided', lines: [{ itemId: 'latte', quantity: '1' }] }), usage).size).toBe(0);
    expect(Object.fromEntries(depletionTarget(tx({ type: 'refund', lines: [{ itemId: 'latte', quantity: '-1' }] }), usage))).toEqual({ beans: '-20', milk: '-200' });
  });

  it('changes on hand by the difference to what was applied, or moves it to a new location', () => {
    expect(depletionChanges(null, 'loc_A', new Map([['milk', '400']]))).toEqual([{ itemId: 'milk', locationId: 'loc_A', quantity: '-400' }]);
    const applied = { locationId: 'loc_A', items: { milk: '400', beans: '40' } };
    expect(depletionChanges(applied, 'loc_A', new Map([['milk', '600'], ['sugar', '5']]))).toEqual([
      { itemId: 'beans', locationId: 'loc_A', quantity: '40' },
      { itemId: 'milk', locationId: 'loc_A', quantity: '-200' },
      { itemId: 'sugar', locationId: 'loc_A', quantity: '-5' },
    ]);
    expect(depletionChanges(applied, 'loc_A', new Map([['milk', '400'], ['beans', '40']]))).toEqual([]);
    expect(depletionChanges(applied, 'loc_B', new Map([['milk', '400']]))).toEqual([
      { itemId: 'milk', locationId: 'loc_A', quantity: '400' },
      { itemId: 'beans', locationId: 'loc_A', quantity: '40' },
      { itemId: 'milk', locationId: 'loc_B', quantity: '-400' },
    ]);
  });

  it('types the movements: sale, refund, void_reversal', () => {
    expect(movementTypeOf(tx())).toBe('sale');
    expect(movementTypeOf(tx({ type: 'refund' }))).toBe('refund');
    expect(movementTypeOf(tx({ type: 'refund', status: 'voided' }))).toBe('void_reversal');
  });
});

/**
 * Suggested orders (pure): need = par − available − on order + expected usage until delivery, packs
 * rounded up and raised to the minimum order, and the arithmetic in words.
 */
import type { CatalogLine } from '@bop/contracts';
import { suggestLine, type SuggestInput } from '../src/suggested/compute';

const catalogLine = (over: Partial<CatalogLine> = {}): CatalogLine => ({
  supplierItemCode: 'SYS-1',
  itemId: 'itm_1',
  itemName: 'Lemons',
  description: null,
  packSize: '12',
  unitId: null,
  baseUnit: 'each',
  baseQuantityPerPack: '12',
  price: '18.95',
  baseUnitPrice: '1.579167',
  minimumOrderQuantity: '1',
  leadTimeDays: 3,
  ...over,
});

function input(over: { line?: Partial<CatalogLine>; level?: Partial<SuggestInput['level']>; onOrder?: string; usageDays?: number } = {}): SuggestInput {
  return {
    line: catalogLine(over.line),
    level: { onHand: '10', reserved: '0', available: '10', parLevel: '48', usage: '84', ...over.level },
    onOrder: over.onOrder ?? '12',
    usageDays: over.usageDays ?? 28,
  };
}

describe('suggestLine', () => {
  it('orders up to par plus the usage until delivery, in whole packs', () => {
    expect(suggestLine(input())).toEqual({
      supplierItemCode: 'SYS-1',
      itemId: 'itm_1',
      itemName: 'Lemons',
      baseUnit: 'each',
      parLevel: '48',
      onHand: '10',
      reserved: '0',
      available: '10',
      onOrder: '12',
      usageInWindow: '84',
      averageDailyUsage: '3',
      leadTimeDays: 3,
      expectedUsage: '9',
      need: '35',
      baseQuantityPerPack: '12',
      minimumOrderQuantity: '1',
      quantity: '3',
      price: '18.95',
      amount: '56.85',
      explanation: 'par 48 − available 10 − on order 12 + expected usage 9 (3/day × 3 days) = 35 each; 35 ÷ 12 per pack = 2.92 → 3 packs. (Usage 84 each over the last 28 days = 3/day.)',
    });
  });

  it('orders exactly the packs needed when the need is a whole number of packs', () => {
    const out = suggestLine(input({ level: { parLevel: '49' } }));
    expect(out).toMatchObject({ need: '36', quantity: '3', amount: '56.85' });
    expect(out.explanation).toContain('= 36 each; 36 ÷ 12 per pack = 3 → 3 packs.');
    const one = suggestLine(input({ level: { parLevel: '14' } }));
    expect(one).toMatchObject({ need: '1', quantity: '1' });
    expect(one.explanation).toContain('1 ÷ 12 per pack = 0.08 → 1 pack.');
  });

  it('raises the packs to the minimum order', () => {
    const out = suggestLine(input({ line: { minimumOrderQuantity: '5' } }));
    expect(out).toMatchObject({ need: '35', quantity: '5', minimumOrderQuantity: '5', amount: '94.75' });
    expect(out.explanation).toContain('35 ÷ 12 per pack = 2.92 → 3 packs, raised to the minimum order of 5 packs.');
    // a minimum below the packs needed changes nothing; a fractional minimum stays as it is
    expect(suggestLine(input({ line: { minimumOrderQuantity: '2' } })).quantity).toBe('3');
    const half = suggestLine(input({ level: { parLevel: '14' }, line: { minimumOrderQuantity: '2.5' } }));
    expect(half).toMatchObject({ quantity: '2.5', amount: '47.38' }); // 47.375 half-up
  });

  it('orders nothing when the need is zero or less, whatever the minimum', () => {
    const none = suggestLine(input({ level: { parLevel: '13' }, line: { minimumOrderQuantity: '5' } }));
    expect(none).toMatchObject({ need: '0', quantity: '0', amount: '0.00' });
    expect(none.explanation).toBe('par 13 − available 10 − on order 12 + expected usage 9 (3/day × 3 days) = 0 each; nothing to order. (Usage 84 each over the last 28 days = 3/day.)');
    const negative = suggestLine(input({ level: { parLevel: '5', available: '40', onHand: '40' }, line: { minimumOrderQuantity: '5' } }));
    expect(negative).toMatchObject({ need: '-38', quantity: '0', amount: '0.00' });
    expect(negative.explanation).toContain('= -38 each; nothing to order.');
  });

  it('lists an item without a par level with 0 packs and says to configure one', () => {
    const out = suggestLine(input({ level: { parLevel: null } }));
    expect(out).toMatchObject({ parLevel: null, need: '0', quantity: '0', amount: '0.00', averageDailyUsage: '3', expectedUsage: '9' });
    expect(out.explanation).toBe(
      'No par level for Lemons at this location, so nothing is suggested: configure one with POST /stock-levels:configure. (Available 10 each, on order 12 each; usage 84 each over the last 28 days = 3/day.)',
    );
  });

  it('counts usage below zero (refunds exceeded sales) as none', () => {
    const out = suggestLine(input({ level: { usage: '-5' } }));
    expect(out).toMatchObject({ usageInWindow: '-5', averageDailyUsage: '0', expectedUsage: '0', need: '26', quantity: '3' });
    expect(out.explanation).toBe(
      'par 48 − available 10 − on order 12 + expected usage 0 (0/day × 3 days) = 26 each; 26 ÷ 12 per pack = 2.17 → 3 packs. (Usage -5 each over the last 28 days counts as 0: refunds exceeded sales.)',
    );
  });

  it('takes a missing lead time as 0 days and says so', () => {
    const out = suggestLine(input({ line: { leadTimeDays: null } }));
    expect(out).toMatchObject({ leadTimeDays: 0, averageDailyUsage: '3', expectedUsage: '0', need: '26', quantity: '3' });
    expect(out.explanation).toContain('+ expected usage 0 (3/day × 0 days: no lead time set on the catalog line or the supplier) = 26 each');
    expect(suggestLine(input({ line: { leadTimeDays: 1 } })).explanation).toContain('(3/day × 1 day)');
  });

  it('rounds the average and the expected usage to six decimals, half up', () => {
    const out = suggestLine(input({ level: { parLevel: '20', available: '0', onHand: '0', usage: '100' }, onOrder: '0' }));
    // 100 ÷ 28 = 3.5714285… → 3.571429; × 3 = 10.714287
    expect(out).toMatchObject({ averageDailyUsage: '3.571429', expectedUsage: '10.714287', need: '30.714287', quantity: '3' });
    expect(out.explanation).toContain('(3.571429/day × 3 days) = 30.714287 each; 30.714287 ÷ 12 per pack = 2.56 → 3 packs');
    const third = suggestLine(input({ level: { usage: '2' }, usageDays: 3 }));
    expect(third).toMatchObject({ averageDailyUsage: '0.666667', expectedUsage: '2.000001' }); // 2 ÷ 3 rounded before × 3 days
    expect(third.explanation).toContain('over the last 3 days = 0.666667/day');
  });

  it('shows the pack quotient with more decimals when two would hide a remainder', () => {
    const just = suggestLine(input({ level: { parLevel: '24.01', available: '0', onHand: '0', usage: '0' }, onOrder: '0' }));
    expect(just).toMatchObject({ need: '24.01', quantity: '3' });
    expect(just.explanation).toContain('24.01 ÷ 12 per pack = 2.000833 → 3 packs');
    const almost = suggestLine(input({ level: { parLevel: '35.99', available: '0', onHand: '0', usage: '0' }, onOrder: '0' }));
    expect(almost.explanation).toContain('35.99 ÷ 12 per pack = 2.999167 → 3 packs');
  });

  it('works in grams for a 2.5 kg bag', () => {
    const bag = catalogLine({ supplierItemCode: 'FLR-25', itemId: 'itm_flour', itemName: 'Flour', baseUnit: 'g', packSize: '2.5', unitId: 'uom_kg', baseQuantityPerPack: '2500', price: '31.5', baseUnitPrice: '0.0126', leadTimeDays: 2 });
    const out = suggestLine({ line: bag, level: { onHand: '3700.5', reserved: '500', available: '3200.5', parLevel: '10000', usage: '7000' }, onOrder: '2500', usageDays: 28 });
    // 10000 − 3200.5 − 2500 + 250 × 2 = 4799.5 g; ÷ 2500 = 1.9198 → 2 bags
    expect(out).toMatchObject({ baseUnit: 'g', averageDailyUsage: '250', expectedUsage: '500', need: '4799.5', baseQuantityPerPack: '2500', quantity: '2', price: '31.5', amount: '63.00' });
    expect(out.explanation).toBe(
      'par 10000 − available 3200.5 (on hand 3700.5 − reserved 500) − on order 2500 + expected usage 500 (250/day × 2 days) = 4799.5 g; 4799.5 ÷ 2500 g per pack = 1.92 → 2 packs. (Usage 7000 g over the last 28 days = 250/day.)',
    );
  });

  it('rounds up packs smaller than one base unit', () => {
    const half = catalogLine({ baseUnit: 'ml', packSize: '0.5', baseQuantityPerPack: '0.5', price: '0.1', leadTimeDays: 0 });
    const out = suggestLine({ line: half, level: { onHand: '0', reserved: '0', available: '0', parLevel: '3.2', usage: '0' }, onOrder: '0', usageDays: 7 });
    expect(out).toMatchObject({ need: '3.2', quantity: '7', amount: '0.70' });
    expect(out.explanation).toContain('3.2 ÷ 0.5 ml per pack = 6.4 → 7 packs');
  });

  it('normalizes the numbers it is given', () => {
    const out = suggestLine({
      line: catalogLine({ baseQuantityPerPack: '12.000000', minimumOrderQuantity: '1.000', price: '18.9500' }),
      level: { onHand: '10.000000', reserved: '0.000000', available: '10.000000', parLevel: '48.000000', usage: '84.000000' },
      onOrder: '12.000000',
      usageDays: 28,
    });
    expect(out).toMatchObject({ parLevel: '48', onHand: '10', reserved: '0', available: '10', onOrder: '12', usageInWindow: '84', baseQuantityPerPack: '12', minimumOrderQuantity: '1', price: '18.95', quantity: '3', amount: '56.85' });
  });
});

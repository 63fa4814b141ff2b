/**
 * The stock area's rules that need no database: the sign each adjustment reason allows, costs only
 * on stock that arrives, notes for `other`, no future occurredAt, line limits, ledger range, totals.
 */
import Decimal from 'decimal.js';
import { adjustmentLineErrors, baseQuantityError, headerErrors, lineCountErrors, sortErrors, totalValue } from '../src/stock/adjustment-rules';
import { stampAfterLock } from '../src/ledger/store';

const now = new Date('2026-11-21T15:00:00Z');

describe('adjustment lines', () => {
  it('fits the sign to the reason and allows a cost only on stock that arrives', () => {
    expect(adjustmentLineErrors({ reason: 'found', lines: [{ itemId: 'a', quantity: '2', unitCost: '1' }, { itemId: 'b', quantity: '-1' }] })).toEqual([
      { path: 'lines[1].quantity', message: 'Reason found adds stock: the quantity must be positive.' },
    ]);
    expect(adjustmentLineErrors({ reason: 'lost', lines: [{ itemId: 'a', quantity: '2' }] })).toEqual([{ path: 'lines[0].quantity', message: 'Reason lost removes stock: the quantity must be negative.' }]);
    expect(adjustmentLineErrors({ reason: 'correction', lines: [{ itemId: 'a', quantity: '2', unitCost: '3' }, { itemId: 'a', quantity: '-2' }] })).toEqual([]);
    expect(adjustmentLineErrors({ reason: 'correction', lines: [{ itemId: 'a', quantity: '-2', unitCost: '3' }, { itemId: 'a', quantity: '-2', unitCost: null }] })).toEqual([
      { path: 'lines[0].unitCost', message: expect.stringContaining('Only stock that arrives') },
    ]);
  });
});

describe('document header', () => {
  it('needs a note with reason other and refuses a future occurredAt (5 minutes of clock skew tolerated)', () => {
    expect(headerErrors({ reason: 'other' }, now)).toEqual([{ path: 'note', message: expect.stringContaining('note is required') }]);
    expect(headerErrors({ reason: 'other', note: 'Tasting for the menu' }, now)).toEqual([]);
    expect(headerErrors({ reason: 'spoiled', occurredAt: '2026-11-21T15:04:59Z' }, now)).toEqual([]);
    expect(headerErrors({ reason: 'spoiled', occurredAt: '2026-11-21T15:05:01Z' }, now)).toEqual([{ path: 'occurredAt', message: 'Must not be in the future.' }]);
    expect(headerErrors({ reason: 'spoiled', occurredAt: '2026-11-21T17:00:00+02:00' }, now)).toEqual([]);
  });

  it('limits the lines of a document', () => {
    expect(lineCountErrors([1, 2, 3], 3)).toEqual([]);
    expect(lineCountErrors([1, 2, 3, 4], 3)).toEqual([{ path: 'lines', message: 'At most 3 lines per document; send the rest in another.' }]);
  });
});

describe('ledger range and totals', () => {
  it('refuses quantities that round to zero or exceed numeric(20,6), and values too large', () => {
    expect(baseQuantityError(2, new Decimal(0), null)).toEqual({ path: 'lines[2].quantity', message: expect.stringContaining('Rounds to zero') });
    expect(baseQuantityError(0, new Decimal('1e14'), null)).toEqual({ path: 'lines[0].quantity', message: expect.stringContaining('Too large') });
    expect(baseQuantityError(0, new Decimal('-99999999999999.999999'), null)).toBeNull();
    expect(baseQuantityError(1, new Decimal('1e8'), '1000000')).toEqual({ path: 'lines[1].unitCost', message: expect.stringContaining('too large') });
    expect(baseQuantityError(1, new Decimal('1e8'), '999999')).toBeNull();
  });

  it('sorts errors by line, header fields first, and sums the known values', () => {
    const sorted = sortErrors([
      { path: 'lines[10].quantity', message: 'a' },
      { path: 'lines[2].unitCost', message: 'b' },
      { path: 'locationId', message: 'c' },
      { path: 'lines[2].itemId', message: 'd' },
    ]);
    expect(sorted.map((e) => e.path)).toEqual(['locationId', 'lines[2].unitCost', 'lines[2].itemId', 'lines[10].quantity']);
    expect(totalValue(['1.25', null, '-0.25', '3']).toFixed()).toBe('4');
    expect(totalValue([null]).toFixed()).toBe('0');
  });
});

describe('level stamps', () => {
  it('stamps with the clock after the lock, never behind a level\u2019s last stamp', () => {
    const later = new Date('2026-11-21T15:00:00.010Z');
    expect(stampAfterLock(now, [{ updatedAt: new Date('2026-11-21T14:59:00Z') }])).toEqual(now);
    expect(stampAfterLock(now, [{ updatedAt: new Date('2026-11-21T14:59:00Z') }, { updatedAt: later }])).toEqual(later);
    expect(stampAfterLock(now, [])).toEqual(now);
  });
});

import { formatRate, rateInForce, sameRate, type DatedRate } from '../src/pay-rates/rate-in-force';
import { furtherLocations, inEffect, localDate } from '../src/employees/effective-dating';
import { fieldChanges } from '../src/activity/changes';

const r = (id: string, effectiveDate: string, amount: string, position: string | null = null): DatedRate => ({ id, type: 'hourly', amount, position, effectiveDate });

describe('rateInForce', () => {
  const rates = [r('prt_1', '2026-01-01', '15'), r('prt_2', '2026-06-01', '16'), r('prt_3', '2026-03-01', '18', 'Cook'), r('prt_4', '2026-06-01', '16.50')];
  it('takes the newest rate effective on the date, the later recorded on a tie', () => {
    expect(rateInForce(rates, '2025-12-31')).toBeNull();
    expect(rateInForce(rates, '2026-01-01')?.id).toBe('prt_1');
    expect(rateInForce(rates, '2026-05-31')?.id).toBe('prt_1');
    expect(rateInForce(rates, '2026-06-01')?.id).toBe('prt_4');
  });
  it("prefers the position's own rate, else the general one", () => {
    expect(rateInForce(rates, '2026-02-01', 'Cook')?.id).toBe('prt_1');
    expect(rateInForce(rates, '2026-03-01', 'cook')?.id).toBe('prt_3');
    expect(rateInForce(rates, '2026-07-01', 'Cook')?.id).toBe('prt_3');
    expect(rateInForce(rates, '2026-07-01', 'Server')?.id).toBe('prt_4');
  });
  it('formats amounts with two to four decimals and compares rates by value', () => {
    expect(['18.5', '18.375', '52000', '0', '18.0010'].map(formatRate)).toEqual(['18.50', '18.375', '52000.00', '0.00', '18.001']);
    expect(sameRate({ type: 'hourly', amount: '18.5', position: 'Cook', effectiveDate: '2026-01-01' }, { type: 'hourly', amount: '18.50', position: 'cook', effectiveDate: '2026-01-01' })).toBe(true);
    expect(sameRate({ type: 'hourly', amount: '18.5', position: null, effectiveDate: '2026-01-01' }, { type: 'salary', amount: '18.5', position: null, effectiveDate: '2026-01-01' })).toBe(false);
  });
});

describe('effective dating', () => {
  it('reads the local date in the location time zone', () => {
    const at = new Date('2026-11-30T12:00:00Z');
    expect(localDate('Pacific/Auckland', at)).toBe('2026-12-01');
    expect(localDate('America/Los_Angeles', at)).toBe('2026-11-30');
    expect(inEffect('2026-12-01', '2026-12-01')).toBe(true);
    expect(inEffect('2026-12-02', '2026-12-01')).toBe(false);
    expect(furtherLocations('loc_a', ['loc_b', 'loc_a', 'loc_b', 'loc_c'])).toEqual(['loc_b', 'loc_c']);
  });
  it('lists the fields a change touched for the audit trail', () => {
    expect(fieldChanges({ a: 1, b: [1], version: 1 }, { a: 1, b: [2], c: 'x', version: 2 })).toEqual([
      { field: 'b', from: [1], to: [2] },
      { field: 'c', from: null, to: 'x' },
    ]);
  });
});

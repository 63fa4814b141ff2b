/**
 * The exact fixed-point helpers of the ingestion checks agree with decimal.js (the money type
 * everywhere else) to the last digit.
 */
import Decimal from 'decimal.js';
import { formatMoney, roundMoney } from '../src';
import { formatScaledMoney, mulScaled, roundScaled, toScaled } from '../src/transactions/exact';

describe('exact fixed-point arithmetic', () => {
  it('reads decimal strings exactly, with sign and up to 12 decimals', () => {
    expect(toScaled('8.50')).toBe(8_500_000_000_000n);
    expect(toScaled('-0.000001')).toBe(-1_000_000n);
    expect(toScaled('999999999999999.999999')).toBe(999999999999999999999000000n);
    expect(toScaled('0')).toBe(0n);
    expect(() => toScaled('1.0000000000001')).toThrow();
  });

  it('multiplies exactly and refuses a product it cannot hold', () => {
    expect(mulScaled(toScaled('2'), toScaled('3.005'))).toBe(toScaled('6.01'));
    expect(mulScaled(toScaled('0.333333'), toScaled('3.000003'))).toBe(toScaled('0.999999999999'));
    expect(() => mulScaled(toScaled('0.0000001'), toScaled('0.0000001'))).toThrow();
  });

  it('rounds half away from zero, on both sides of zero', () => {
    expect(formatScaledMoney(roundScaled(toScaled('2.345'), 2), 2)).toBe('2.35');
    expect(formatScaledMoney(roundScaled(toScaled('-2.345'), 2), 2)).toBe('-2.35');
    expect(formatScaledMoney(roundScaled(toScaled('2.3449'), 2), 2)).toBe('2.34');
    expect(formatScaledMoney(roundScaled(toScaled('0.5'), 0), 0)).toBe('1');
    expect(formatScaledMoney(roundScaled(toScaled('-0.004'), 2), 2)).toBe('0.00');
  });

  it('formats like formatMoney: the currency digits at least, more only when significant', () => {
    expect(formatScaledMoney(toScaled('8.5'), 2)).toBe('8.50');
    expect(formatScaledMoney(toScaled('1.2345'), 2)).toBe('1.2345');
    expect(formatScaledMoney(toScaled('1200'), 0)).toBe('1200');
    expect(formatScaledMoney(toScaled('-3.1'), 3)).toBe('-3.100');
  });

  it('agrees with decimal.js on quantity × price − discount, rounded to 0, 2 and 3 decimals', () => {
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const decimalString = (max: number, decimals: number) => (next() * max).toFixed(decimals);
    for (let i = 0; i < 3000; i++) {
      const quantity = `${next() < 0.2 ? '-' : ''}${decimalString(50, Math.floor(next() * 4))}`;
      const unitPrice = decimalString(500, Math.floor(next() * 7));
      const discount = decimalString(5, Math.floor(next() * 3));
      const exact = mulScaled(toScaled(quantity), toScaled(unitPrice)) - toScaled(discount);
      const reference = new Decimal(quantity).times(unitPrice).minus(discount);
      for (const [currency, minor] of [['JPY', 0], ['USD', 2], ['KWD', 3]] as const) {
        expect(formatScaledMoney(roundScaled(exact, minor), minor)).toBe(formatMoney(roundMoney(reference, currency), currency));
        expect(formatScaledMoney(exact, minor)).toBe(formatMoney(reference, currency));
      }
    }
  });
});

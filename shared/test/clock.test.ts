import { fixedClock, now, systemClock, useClock } from '@bop/shared';
import { nowMs, processClock } from '../src/clock';

describe('kit clock', () => {
  it('reads the process clock by default', () => {
    const before = Date.now();
    const t = nowMs();
    expect(t).toBeGreaterThanOrEqual(before);
    expect(t).toBeLessThanOrEqual(Date.now());
    expect(now()).toBeInstanceOf(Date);
    expect(systemClock.now()).toBeInstanceOf(Date);
  });

  it('useClock fixes the instant for now(), nowMs() and processClock, and restores the previous clock', () => {
    const clock = fixedClock('2026-03-29T00:30:00Z');
    const restore = useClock(clock);
    try {
      expect(now().toISOString()).toBe('2026-03-29T00:30:00.000Z');
      expect(nowMs()).toBe(Date.parse('2026-03-29T00:30:00Z'));
      expect(processClock.now().toISOString()).toBe('2026-03-29T00:30:00.000Z');
      clock.advance(90 * 60_000);
      expect(now().toISOString()).toBe('2026-03-29T02:00:00.000Z');
      clock.set(new Date('2027-01-01T00:00:00Z'));
      expect(processClock.now().toISOString()).toBe('2027-01-01T00:00:00.000Z');

      const inner = useClock(fixedClock('2020-01-01T00:00:00Z'));
      expect(now().getUTCFullYear()).toBe(2020);
      inner();
      expect(now().getUTCFullYear()).toBe(2027);
    } finally {
      restore();
    }
    expect(Math.abs(nowMs() - Date.now())).toBeLessThan(1000);
  });

  it('hands out a new Date each call (callers may mutate theirs)', () => {
    const clock = fixedClock('2026-01-01T00:00:00Z');
    const a = clock.now();
    a.setUTCFullYear(1999);
    expect(clock.now().toISOString()).toBe('2026-01-01T00:00:00.000Z');
  });
});

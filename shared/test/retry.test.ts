import { backoffDelay, type BackoffPolicy } from '@bop/shared';
import { busBackoff, consumerBackoff, defaultBackoff, relayBackoff } from '../src/retry';

/** The waits after the 1st … nth failure. */
const schedule = (n: number, policy: BackoffPolicy, outage?: boolean) => Array.from({ length: n }, (_, i) => backoffDelay(i + 1, policy, outage));

describe('backoffDelay', () => {
  it('doubles from the base per failure up to the cap', () => {
    expect(schedule(9, { baseMs: 100, capMs: 10_000 })).toEqual([100, 200, 400, 800, 1600, 3200, 6400, 10_000, 10_000]);
    expect(backoffDelay(1000, { baseMs: 100, capMs: 10_000 })).toBe(10_000);
  });

  it('waits the base before the first retry (no failure counted yet is treated as the first)', () => {
    expect(backoffDelay(0, { baseMs: 250, capMs: 5000 })).toBe(250);
    expect(backoffDelay(-3, { baseMs: 250, capMs: 5000 })).toBe(250);
  });

  it('caps at outageCapMs during an outage, never above capMs', () => {
    const policy = { baseMs: 200, capMs: 10_000, outageCapMs: 2000 };
    expect(schedule(6, policy, true)).toEqual([200, 400, 800, 1600, 2000, 2000]);
    expect(schedule(6, policy, false)).toEqual([200, 400, 800, 1600, 3200, 6400]);
    expect(backoffDelay(20, { baseMs: 100, capMs: 1000, outageCapMs: 5000 }, true)).toBe(1000);
    expect(backoffDelay(20, { baseMs: 100, capMs: 1000 }, true)).toBe(1000);
  });

  it('uses the default policy when none is given', () => {
    expect(backoffDelay(1)).toBe(defaultBackoff.baseMs);
    expect(backoffDelay(50)).toBe(defaultBackoff.capMs);
    expect(backoffDelay(50, undefined, true)).toBe(defaultBackoff.outageCapMs);
  });

  it('jitter only shortens the wait, by at most its share', () => {
    const policy = { baseMs: 1000, capMs: 1000, jitter: 0.5 };
    for (let i = 0; i < 200; i++) {
      const d = backoffDelay(3, policy);
      expect(d).toBeGreaterThanOrEqual(500);
      expect(d).toBeLessThanOrEqual(1000);
      expect(Number.isInteger(d)).toBe(true);
    }
  });

  it('keeps the schedules the relay, the bus adapters and the consumer runner had', () => {
    // the formulas each place carried before it used the kit policy
    const relay = (f: number, outage: boolean) => Math.min(outage ? 2000 : 10_000, 100 * 2 ** Math.min(f, 7));
    const bus = (f: number, outage: boolean) => Math.min(outage ? 2000 : 30_000, 100 * 2 ** Math.min(Math.max(f, 1), 9));
    const consumer = (step: number, cap: number) => Math.min(cap, 200 * 2 ** Math.min(step, 16));
    for (let f = 1; f <= 40; f++) {
      for (const outage of [false, true]) {
        expect(backoffDelay(f, relayBackoff, outage)).toBe(relay(f, outage));
        expect(backoffDelay(f, busBackoff, outage)).toBe(bus(f, outage));
      }
      expect(backoffDelay(f, consumerBackoff)).toBe(consumer(f - 1, 10_000));
      expect(backoffDelay(f, consumerBackoff, true)).toBe(consumer(f - 1, 5000));
    }
  });
});

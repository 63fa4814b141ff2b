import { retryAfterMs } from '@bop/client';

describe('retryAfterMs', () => {
  it('reads delta-seconds and HTTP dates (RFC 9110), and nothing else', () => {
    const now = Date.parse('2026-11-29T00:00:00Z');
    expect(retryAfterMs('2', now)).toBe(2000);
    expect(retryAfterMs('Sun, 29 Nov 2026 00:00:30 GMT', now)).toBe(30_000);
    expect(retryAfterMs('Sat, 28 Nov 2026 23:59:00 GMT', now)).toBe(0);
    expect(retryAfterMs(null, now)).toBeUndefined();
    expect(retryAfterMs('soon', now)).toBeUndefined();
  });
});

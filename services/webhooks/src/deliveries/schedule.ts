/**
 * Retry schedule (spec: Delivery rules 2 — exponential backoff, about 15 attempts over 3 days).
 * After the n-th failed attempt of a schedule the next waits BASE · 2^(n-1), times a jitter in
 * [1 - JITTER, 1 + JITTER]. With BASE = 16 s and 15 attempts the 14 waits add up to 16 s · (2^14 - 1)
 * ≈ 72.8 h nominal (61.9 h … 83.7 h with jitter):
 *
 *   after attempt   1   2   3     4     5     6      7      8      9      10     11     12   13   14
 *   wait           16s 32s 64s 2m08s 4m16s 8m32s 17m04s 34m08s 1h08m 2h17m 4h33m 9h06m 18h12m 36h25m
 *   (attempt 15 failing ends the schedule: the delivery is `failed`)
 *
 * A receiver's `Retry-After` (seconds or an HTTP date) raises the next wait, up to RETRY_AFTER_MAX_MS.
 */
export const RETRY_BASE_MS = 16_000;
export const JITTER = 0.15;
export const RETRY_AFTER_MAX_MS = 24 * 3_600_000;

/** Nominal wait after the `failedAttempt`-th failed attempt of a schedule (1-based). */
export function nominalDelayMs(failedAttempt: number): number {
  return RETRY_BASE_MS * 2 ** (failedAttempt - 1);
}

export function retryDelayMs(failedAttempt: number, random: () => number = Math.random): number {
  const jitter = 1 - JITTER + 2 * JITTER * random();
  return Math.round(nominalDelayMs(failedAttempt) * jitter);
}

export interface AttemptOutcome {
  /** attempts made in the current schedule, this one included */
  step: number;
  maxAttempts: number;
  now: Date;
  /** from the receiver's Retry-After, already parsed */
  retryAfterMs?: number | null;
  random?: () => number;
}

/** When a failed attempt is tried again, or null when the schedule is exhausted (→ `failed`). */
export function nextAttemptAt(o: AttemptOutcome): Date | null {
  if (o.step >= o.maxAttempts) return null;
  let wait = retryDelayMs(o.step, o.random);
  if (o.retryAfterMs != null && o.retryAfterMs > wait) wait = Math.min(o.retryAfterMs, RETRY_AFTER_MAX_MS);
  return new Date(o.now.getTime() + wait);
}

/** `Retry-After`: delay-seconds or an HTTP date (RFC 9110 10.2.3); null when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, now: Date): number | null {
  const v = Array.isArray(value) ? value[0] : value;
  if (!v) return null;
  const s = v.trim();
  if (/^\d+$/.test(s)) return Number(s) * 1000;
  const at = Date.parse(s);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - now.getTime());
}

/** The nominal schedule: waits after each failed attempt (documentation and tests). */
export function scheduleTable(maxAttempts: number): number[] {
  return Array.from({ length: maxAttempts - 1 }, (_, i) => nominalDelayMs(i + 1));
}

import { randomUUID } from 'node:crypto';

export interface RetryOptions {
  /** attempts in all, the first included (default 4); 1 turns retrying off */
  attempts?: number;
  /** the longest wait before a retry (default 60 s); a longer Retry-After is not waited out: that answer is returned */
  maxDelayMs?: number;
  /** how a wait is spent (default a timer); tests pass one that records it */
  sleep?: (ms: number) => Promise<void>;
}

/** Statuses the API asks a client to retry (spec: Errors, retry guidance: 429 after `Retry-After`; 503 with backoff). */
const RETRIED = new Set([429, 503]);

/** `Retry-After` in milliseconds: delta-seconds or an HTTP date (RFC 9110 §10.2.3); undefined when absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

const timer = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A fetch that gives every POST an `Idempotency-Key` (a random UUID unless the caller set one), so that
 * its retries — sent with the same key — are replayed by the API rather than done twice, and retries a
 * 429 or 503 after the answer's `Retry-After` (else backoff from 0.5 s, doubling), at most `attempts`
 * times in all.
 */
export function retryingFetch(options: RetryOptions = {}, base: typeof fetch = globalThis.fetch): typeof fetch {
  const attempts = Math.max(1, options.attempts ?? 4);
  const maxDelayMs = options.maxDelayMs ?? 60_000;
  const sleep = options.sleep ?? timer;
  return async (input, init) => {
    const request = new Request(input, init);
    if (request.method === 'POST' && !request.headers.has('idempotency-key')) request.headers.set('Idempotency-Key', randomUUID());
    for (let attempt = 1; ; attempt++) {
      const response = await base(attempt < attempts ? request.clone() : request);
      if (!RETRIED.has(response.status) || attempt >= attempts) return response;
      const delay = retryAfterMs(response.headers.get('retry-after')) ?? 500 * 2 ** (attempt - 1);
      if (delay > maxDelayMs) return response;
      await response.body?.cancel();
      await sleep(delay);
    }
  };
}

/**
 * The one retry/backoff policy of the platform (relay, bus adapters, consumer runner, background
 * workers): the wait doubles per failure from `baseMs` up to `capMs`; while the database is out the
 * cap is `outageCapMs`, so work resumes within that long of it coming back. Webhook delivery keeps
 * its own schedule (spec: Delivery rules 2), which is a contract, not a policy.
 */
export interface BackoffPolicy {
  baseMs: number;
  capMs: number;
  /** cap while the failure is an outage (default: capMs) */
  outageCapMs?: number;
  /** 0..1: the wait is reduced by up to this share at random, so replicas do not retry in step (default 0) */
  jitter?: number;
}

export const defaultBackoff: BackoffPolicy = { baseMs: 100, capMs: 10_000, outageCapMs: 2_000 };

/** The outbox relay: 200 ms doubling to 10 s; every 2 s at most during an outage, so publishing resumes soon after it. */
export const relayBackoff: BackoffPolicy = { baseMs: 200, capMs: 10_000, outageCapMs: 2_000 };

/** A bus subscription's failed fetch or batch (both adapters): 200 ms doubling to 30 s; every 2 s at most during an outage. */
export const busBackoff: BackoffPolicy = { baseMs: 200, capMs: 30_000, outageCapMs: 2_000 };

/** The consumer runner's retries of one message: 200 ms doubling to 10 s; outage waits at most 5 s apart. */
export const consumerBackoff: BackoffPolicy = { baseMs: 200, capMs: 10_000, outageCapMs: 5_000 };

/** The wait before retrying after `failures` consecutive failures (1 = the first failure). */
export function backoffDelay(failures: number, policy: BackoffPolicy = defaultBackoff, outage = false): number {
  const cap = outage ? Math.min(policy.outageCapMs ?? policy.capMs, policy.capMs) : policy.capMs;
  const steps = Math.max(0, Math.min(failures - 1, 30));
  const nominal = Math.min(cap, policy.baseMs * 2 ** steps);
  const jitter = policy.jitter ?? 0;
  return jitter > 0 ? Math.round(nominal * (1 - Math.random() * jitter)) : nominal;
}

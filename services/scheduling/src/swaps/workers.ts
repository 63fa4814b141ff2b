import { defineWorker, type ServiceRuntime, type WorkerSpec } from '@bop/shared';
import type { SchedulingConfig } from '../config';
import { expireStartedSwaps } from './store';

/** Supplement: a pending shift swap expires when its shift starts; this loop finds them on the service's clock. */
export const swapExpiry = (svc: ServiceRuntime<SchedulingConfig>) =>
  defineWorker({
    name: 'shift-swap-expiry',
    every: () => svc.config.SCHEDULING_SWAP_EXPIRY_POLL_MS,
    backoff: { baseMs: 500, capMs: 30_000 },
    failureMessage: 'scheduling: expiring shift swaps failed',
    // some expired: more may be waiting, the next round runs at once
    round: async (r) => (await r.write((w) => expireStartedSwaps(w))) > 0,
  });

export const swapWorkers = (svc: ServiceRuntime<SchedulingConfig>): WorkerSpec[] => [swapExpiry(svc)];

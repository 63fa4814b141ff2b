import { defineWorker, type ServiceRuntime } from '@bop/shared';
import type { WebhooksConfig } from '../config';
import { replayBatch } from './store';

/** Queues the deliveries of requested replays, `WEBHOOK_REPLAY_BATCH` events a round (true: more is waiting). */
export const replayWorker = (svc: ServiceRuntime<WebhooksConfig>) =>
  defineWorker({
    name: 'webhook-replay',
    every: () => svc.config.WEBHOOK_REPLAY_POLL_MS,
    round: async (r) => r.write((w) => replayBatch(w, svc.config.WEBHOOK_REPLAY_BATCH)),
  });

import { defineWorker, type ServiceRuntime } from '@bop/shared';
import type { WebhooksConfig } from '../config';
import { makeLoggedEventsVisible, pruneLoggedEvents } from './store';

/** Rows a retention round deletes at most (one statement each: a short lock, whatever the backlog). */
export const PRUNE_BATCH = 1_000;

const DAY_MS = 86_400_000;

/** Makes the events the fan-out logged visible to `GET /events`, in the order they committed. */
export const eventLogSequencer = (svc: ServiceRuntime<WebhooksConfig>) =>
  defineWorker({
    name: 'event-log-sequencer',
    every: () => svc.config.EVENT_LOG_SEQUENCE_MS,
    round: async (r) => {
      await r.write((w) => makeLoggedEventsVisible(w));
    },
  });

/** Deletes events older than `EVENT_LOG_RETENTION_DAYS`, a bounded batch a round (true: more is waiting). */
export const eventLogRetention = (svc: ServiceRuntime<WebhooksConfig>) =>
  defineWorker({
    name: 'event-log-retention',
    every: () => svc.config.RETENTION_CHECK_MS,
    round: async (r) =>
      (await r.write((w) => pruneLoggedEvents(w, new Date(w.now.getTime() - svc.config.EVENT_LOG_RETENTION_DAYS * DAY_MS), PRUNE_BATCH))) === PRUNE_BATCH,
  });

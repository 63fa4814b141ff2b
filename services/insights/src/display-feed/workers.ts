import { defineWorker, type ServiceRuntime } from '@bop/shared';
import type { InsightsConfig } from '../config';
import { rebuildRunning } from '../rebuild/store';
import { dueFeeds, sendFeed } from './store';

/** Locations sent per round (each in its own transaction). */
const FEEDS_PER_ROUND = 100;

/**
 * Sends today's KPIs of each location the read models' consumers marked to the team displays
 * (communication), at most once per location per throttle: a screen shows new sales within seconds.
 * While the read models are rebuilt, it waits.
 */
export const displayFeedWorker = (_svc: ServiceRuntime<InsightsConfig>) =>
  defineWorker({
    name: 'display-feed',
    every: () => 1_000,
    backoff: { baseMs: 500, capMs: 30_000 },
    round: async (r) => {
      if (await r.read((w) => rebuildRunning(w))) return false;
      const due = await r.read((w) => dueFeeds(w, FEEDS_PER_ROUND));
      for (const locationId of due) {
        if (r.stopping) return true;
        await r.write((w) => sendFeed(w, locationId));
      }
      return due.length === FEEDS_PER_ROUND;
    },
  });

import { defineWorker, type BackoffPolicy, type ServiceRuntime, type WorkerSpec } from '@bop/shared';
import type { SalesConfig } from '../config';
import { rebuildMarkedDays } from './rebuild-store';

/** Marks taken per transaction; a full take loops at once, so a backlog drains at the database's pace. */
const TAKE = 2000;
/** Idle poll: a cheap index probe of an empty queue; a few seconds' lag is the spec's (ingestion rule 5). */
const POLL_MS = 250;
/**
 * Pause after a pass that rebuilt something: a day being fed continuously is re-aggregated about
 * once a second instead of back to back (each pass reads the whole day), leaving the database to
 * the ingestion itself; still within "a few seconds later" (ingestion rule 5). A pass over big days
 * waits twenty times as long as it took (at most MAX_SETTLE_MS), so under a sustained load the
 * rebuild takes about a twentieth of the database (the rest is ingestion's, and that of the areas
 * consuming every sale), and a summary trails its transactions by at most about eight seconds.
 */
const SETTLE_MS = 1000;
const SETTLE_FACTOR = 20;
const MAX_SETTLE_MS = 8000;
/** After a failed pass: 200 ms doubling per failure, at most 10 s. */
const REBUILD_BACKOFF: BackoffPolicy = { baseMs: 200, capMs: 10_000 };

/**
 * Rebuilds the day summaries of marked (location, source, business day)s in the background
 * (spec: ingestion rules 5 and 9): the batch only inserts marks, this loop aggregates each marked day
 * once per pass however many batches touched it, so it keeps up with the ingestion rate. The marks
 * stay when a pass fails (its transaction rolled back): the next pass retries them.
 */
export const summaryRebuild = () =>
  defineWorker({
    name: 'summary-rebuild',
    every: POLL_MS,
    backoff: REBUILD_BACKOFF,
    failureMessage: 'sales: rebuilding day summaries failed',
    round: async (r) => {
      // the pass's duration (a measurement, not the clock's instant) sets the pause after it
      const started = performance.now();
      const taken = await r.write((w) => rebuildMarkedDays(w, TAKE));
      // a full take: more is waiting, the next pass runs at once
      if (taken >= TAKE) return true;
      return taken > 0 ? Math.min(MAX_SETTLE_MS, Math.max(SETTLE_MS, SETTLE_FACTOR * (performance.now() - started))) : false;
    },
  });

/** background workers of the summaries area */
export const summariesWorkers = (_svc: ServiceRuntime<SalesConfig>): WorkerSpec[] => [summaryRebuild()];

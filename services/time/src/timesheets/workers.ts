import { defineWorker, type BackoffPolicy, type ServiceRuntime, type WorkerRound } from '@bop/shared';
import type { TimeConfig } from '../config';
import { timeSettings, type TimeSettings } from '../settings/company-settings';
import { FOLD_ROWS, foldTouchRows, touchesPending } from './marks-store';
import { marksToRecalculate, recalculateMarks } from './recalc-store';

/** Timesheets per pass. */
const TAKE = 200;
/** The longest pause after a pass that recalculated something. */
const MAX_PAUSE_MS = 1000;
/** While a feed is marking, the pause after a pass, as a multiple of the time the pass took. */
const PAUSE_PER_PASS = 2;
/** After a failed pass: 200 ms doubling per failure, at most 10 s (the marks stay). */
const RECALC_BACKOFF: BackoffPolicy = { baseMs: 200, capMs: 10_000 };

/**
 * One pass of the background recalculation: folds the touch log into the marks (each statement
 * committed on its own), reads up to `TAKE` marks (oldest first, without locking them), recalculates
 * their timesheets and drops their marks in one unit. Answers how many it took and whether changes
 * arrived during the pass (a feed is running).
 */
async function recalculateMarked(r: WorkerRound, settings: () => Promise<Pick<TimeSettings, 'weekStart'>>): Promise<{ taken: number; marking: boolean }> {
  while ((await r.write((w) => foldTouchRows(w))) === FOLD_ROWS);
  const marks = await r.read((w) => marksToRecalculate(w, TAKE));
  if (marks.length === 0) return { taken: 0, marking: false };
  const loaded = await settings();
  await r.write((w) => recalculateMarks(w, marks, loaded));
  // changes logged while the pass ran: a feed is still sending
  return { taken: marks.length, marking: await r.read((w) => touchesPending(w)) };
}

/**
 * Recalculates marked timesheets in the background (issue: "within seconds of any change"): a batch of
 * punches only marks the timesheets it touches; this loop recalculates each marked one once per pass
 * however many batches touched it, so it keeps up with the ingestion rate.
 */
export const timesheetRecalc = (svc: ServiceRuntime<TimeConfig>) =>
  defineWorker({
    name: 'timesheet-recalc',
    every: () => svc.config.TIME_TIMESHEET_POLL_MS,
    backoff: RECALC_BACKOFF,
    failureMessage: 'time: recalculating timesheets failed',
    round: async (r) => {
      const started = performance.now();
      const { taken, marking } = await recalculateMarked(r, () => timeSettings(svc.services));
      if (taken === 0) return false;
      // while a feed is sending, a pass is followed by a pause twice as long as it took (at most a
      // second): the recalculation takes about a third of the thread and the database, the ingestion
      // the rest, and a timesheet the feed keeps touching is recalculated every few seconds, not after
      // every batch; once the feed stops, the backlog drains back to back
      return marking ? Math.min(MAX_PAUSE_MS, PAUSE_PER_PASS * (performance.now() - started)) : true;
    },
  });

export const timesheetWorkers = (svc: ServiceRuntime<TimeConfig>) => [timesheetRecalc(svc)];

import { RoundWorker, type BackoffPolicy, type ServiceRuntime, type WorkerDef } from '@bop/shared';
import type { TimeConfig } from '../config';
import { timeSettings } from '../settings/company-settings';
import { recalculateMarked } from './recalc-store';

/** Timesheets per pass. */
const TAKE = 200;
/** The longest pause after a pass that recalculated something. */
const MAX_PAUSE_MS = 1000;
/** While a feed is marking, the pause after a pass, as a multiple of the time the pass took. */
const PAUSE_PER_PASS = 2;
/** After a failed pass: 200 ms doubling per failure, at most 10 s (the marks stay). */
const RECALC_BACKOFF: BackoffPolicy = { baseMs: 200, capMs: 10_000 };

/**
 * Recalculates marked timesheets in the background (issue: "within seconds of any change"): a batch of
 * punches only marks the timesheets it touches; this loop recalculates each marked one once per pass
 * however many batches touched it, so it keeps up with the ingestion rate.
 */
export class TimesheetRecalcWorker extends RoundWorker {
  readonly name = 'timesheet-recalc';

  constructor(private readonly svc: ServiceRuntime<TimeConfig>) {
    super(svc.log, RECALC_BACKOFF);
  }

  protected override failureMessage(): string {
    return 'time: recalculating timesheets failed';
  }

  protected async round(): Promise<number> {
    const started = performance.now();
    const { taken, marking } = await recalculateMarked(this.svc.orm.em.fork(), TAKE, () => timeSettings(this.svc.services));
    if (taken === 0) return this.svc.config.TIME_TIMESHEET_POLL_MS;
    // while a feed is sending, a pass is followed by a pause twice as long as it took (at most a
    // second): the recalculation takes about a third of the thread and the database, the ingestion
    // the rest, and a timesheet the feed keeps touching is recalculated every few seconds, not after
    // every batch; once the feed stops, the backlog drains back to back
    return marking ? Math.min(MAX_PAUSE_MS, PAUSE_PER_PASS * (performance.now() - started)) : 0;
  }
}

export const timesheetWorkers = (svc: ServiceRuntime<TimeConfig>): WorkerDef[] => [new TimesheetRecalcWorker(svc)];

import { backoffDelay, Waker, type BackoffPolicy, type Logger, type Orm, type ServiceRuntime, type WorkerDef } from '@bop/shared';
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
 * once per pass however many batches touched it, so it keeps up with the ingestion rate.
 */
export class SummaryRebuildWorker implements WorkerDef {
  readonly name = 'summary-rebuild';
  private stopped = true;
  private loop: Promise<void> | null = null;
  private readonly waker = new Waker();

  constructor(private readonly o: { orm: Orm; log: Logger; pollMs?: number; settleMs?: number }) {}

  start(): void {
    this.stopped = false;
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.waker.wake();
    await this.loop;
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (!this.stopped) {
      let taken = 0;
      const started = performance.now();
      try {
        taken = await rebuildMarkedDays(this.o.orm.em.fork(), TAKE);
        failures = 0;
      } catch (err) {
        failures += 1;
        // the marks stay (the transaction rolled back): the next pass retries them
        this.o.log.warn({ err: (err as Error).message, failures }, 'sales: rebuilding day summaries failed');
        await this.sleep(backoffDelay(failures, REBUILD_BACKOFF));
        continue;
      }
      const settle = Math.min(MAX_SETTLE_MS, Math.max(this.o.settleMs ?? SETTLE_MS, SETTLE_FACTOR * (performance.now() - started)));
      if (taken < TAKE) await this.sleep(taken > 0 ? settle : (this.o.pollMs ?? POLL_MS));
    }
  }

  private sleep(ms: number): Promise<void> {
    return this.stopped ? Promise.resolve() : this.waker.sleep(ms);
  }
}

/** background workers of the summaries area */
export const summariesWorkers = (svc: ServiceRuntime<SalesConfig>): WorkerDef[] => [new SummaryRebuildWorker({ orm: svc.orm, log: svc.log })];

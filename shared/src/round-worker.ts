import type { WorkerDef } from './consumers';
import type { Logger } from './logger';
import { isDatabaseUnavailable } from './db-faults';
import { backoffDelay, defaultBackoff, type BackoffPolicy } from './retry';
import { Waker } from './waker';

/**
 * The one shape of a background loop (email sending, summary rebuilds …): `round()` does one pass and
 * answers how long to wait before the next (0: at once, there is more); a failing round is logged and
 * retried after the kit's backoff (capped at the outage cap while the database is out). `stop()` ends
 * the wait, lets the running round finish, then calls `stopped()`.
 */
export abstract class RoundWorker implements WorkerDef {
  abstract readonly name: string;
  private running = false;
  private loop: Promise<void> | null = null;
  private readonly waker = new Waker();

  constructor(
    protected readonly log: Logger,
    private readonly backoff: BackoffPolicy = defaultBackoff,
  ) {}

  /** One pass; answers the wait in ms before the next. */
  protected abstract round(): Promise<number>;

  /** The log line of a failed round. */
  protected failureMessage(): string {
    return `${this.name}: a round failed; retrying`;
  }

  /** Called once the loop has ended (close clients). */
  protected stopped(): void | Promise<void> {}

  /** Whether stop() was called (a long round checks it between items). */
  protected get stopping(): boolean {
    return !this.running;
  }

  /** Ends the current wait: a round runs now. */
  wake(): void {
    this.waker.wake();
  }

  start(): void {
    this.running = true;
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.waker.wake();
    await this.loop;
    await this.stopped();
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (this.running) {
      let wait: number;
      try {
        wait = await this.round();
        failures = 0;
      } catch (err) {
        failures += 1;
        this.log.warn({ err: (err as Error).message, failures }, this.failureMessage());
        wait = backoffDelay(failures, this.backoff, isDatabaseUnavailable(err));
      }
      if (wait > 0 && this.running) await this.waker.sleep(wait);
    }
  }
}

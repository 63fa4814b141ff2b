import type { WorkerDef } from './consumers';
import type { Orm } from './db';
import { isDatabaseUnavailable } from './db-faults';
import { backoffDelay, defaultBackoff, type BackoffPolicy } from './retry';
import { Waker } from './waker';
import { inWork, openWork, type Work, type WorkScope } from './work';

/**
 * A background loop declared by a service (issue 37): `round` does one pass; the kit runs it, waits
 * `every` ms after a round that found nothing more (at once when it answers `true`, or the ms it
 * answers), retries a failing round after the kit's backoff (capped while the database is out), and
 * stops it after the running round. Tests call `runOnce()` instead of waiting for the loop.
 */
export interface WorkerSpec {
  /** unique within the service */
  name: string;
  /** ms between rounds that found nothing more to do (read before each wait: it may follow config) */
  every: number | (() => number);
  /** one pass: `true` when more is waiting (the next round runs at once), or the ms to wait before it */
  round(ctx: WorkerRound): Promise<boolean | number | void>;
  /** retry delays after a failed round (default: the kit's) */
  backoff?: BackoffPolicy;
  /** the log line of a failed round */
  failureMessage?: string;
  /** runs once the loop has ended (close clients) */
  stopped?(): void | Promise<void>;
}

/** What a round has: units of work on the service's database, and whether the worker is stopping. */
export interface WorkerRound {
  /** the round's instant (the service's clock) */
  readonly now: Date;
  /** a write in a unit (one transaction, `system`, events written on commit): one per item a round handles alone */
  write<T>(fn: (work: Work) => Promise<T>): Promise<T>;
  /** a read in a unit (no transaction; `emit` refuses) */
  read<T>(fn: (work: Work) => Promise<T>): Promise<T>;
  /** stop() was called: a long round checks between items */
  readonly stopping: boolean;
}

/** A declared worker as the kit runs it. */
export interface Worker extends WorkerDef {
  /** runs one round now (after the running one, if any); answers what the round answered */
  runOnce(): Promise<boolean | number | void>;
  /** ends the current wait: a round runs now */
  wake(): void;
}

/** Declares a worker (in a service's `workers`); the kit binds it to the service when it starts. */
export function defineWorker(spec: WorkerSpec): WorkerSpec {
  return spec;
}

export function isWorkerSpec(x: WorkerDef | WorkerSpec): x is WorkerSpec {
  return typeof (x as WorkerSpec).round === 'function';
}

/** The kit's loop around a declared worker. */
export function bindWorker(spec: WorkerSpec, orm: Orm, scope: WorkScope): Worker {
  const waker = new Waker();
  let running = false;
  // stop() was called (not merely: the loop is not running, as in tests that call runOnce without it)
  let stopping = false;
  let loop: Promise<void> | null = null;
  // rounds never overlap: runOnce waits for the loop's round and the loop for runOnce's
  let chain: Promise<unknown> = Promise.resolve();
  const ctx = (): WorkerRound => ({
    now: scope.clock.now(),
    write: (fn) => inWork(orm, scope, fn),
    read: (fn) => fn(openWork(scope, orm.em.fork(), false).work),
    get stopping() {
      return stopping;
    },
  });
  const runOnce = (): Promise<boolean | number | void> => {
    const next = chain.then(() => spec.round(ctx()));
    chain = next.catch(() => undefined);
    return next;
  };
  const every = () => (typeof spec.every === 'function' ? spec.every() : spec.every);
  const run = async () => {
    let failures = 0;
    while (running) {
      let wait: number;
      try {
        const more = await runOnce();
        failures = 0;
        wait = more === true ? 0 : typeof more === 'number' ? more : every();
      } catch (err) {
        failures += 1;
        scope.log.warn({ err: (err as Error).message, failures, worker: spec.name }, spec.failureMessage ?? `${spec.name}: a round failed; retrying`);
        wait = backoffDelay(failures, spec.backoff ?? defaultBackoff, isDatabaseUnavailable(err));
      }
      if (wait > 0 && running) await waker.sleep(wait);
    }
  };
  return {
    name: spec.name,
    runOnce,
    wake: () => waker.wake(),
    start() {
      running = true;
      stopping = false;
      loop = run();
    },
    async stop() {
      running = false;
      stopping = true;
      waker.wake();
      await loop;
      await spec.stopped?.();
    },
  };
}

/** Time, injectable so rules and schedules are tested at a fixed instant without waiting. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

let current: Clock = systemClock;

/**
 * The instant by the process's clock. Rules and stores read the time here (or from `svc.clock`,
 * which agrees unless a service was started with its own), never `new Date()`.
 */
export function now(): Date {
  return current.now();
}

/** Milliseconds since the epoch by the process's clock. */
export function nowMs(): number {
  return current.now().getTime();
}

/** Sets the process's clock (tests fix the instant); returns a function that restores the previous one. */
export function useClock(clock: Clock): () => void {
  const previous = current;
  current = clock;
  return () => {
    current = previous;
  };
}

/** A clock standing at `at` until moved: `fixedClock(…).set(…)` / `.advance(ms)`. */
export function fixedClock(at: Date | string): Clock & { set(at: Date | string): void; advance(ms: number): void } {
  let t = new Date(at).getTime();
  return {
    now: () => new Date(t),
    set: (next) => {
      t = new Date(next).getTime();
    },
    advance: (ms) => {
      t += ms;
    },
  };
}

/** The clock services get by default: the process's, read at each call (so `useClock` reaches them). */
export const processClock: Clock = { now: () => current.now() };

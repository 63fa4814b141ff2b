import type { Clock } from '@bop/shared';

/** Time the tests move by hand (real time plus an offset): schedules and overdue checks are tested without waiting. */
export class FakeClock implements Clock {
  private offset = 0;
  now(): Date {
    return new Date(Date.now() + this.offset);
  }
  advance(ms: number): void {
    this.offset += ms;
  }
  /** jumps to `at` (never backwards) */
  advanceTo(at: Date | string): void {
    const target = new Date(at).getTime();
    const now = this.now().getTime();
    if (target > now) this.offset += target - now + 1;
  }
  /** back to real time */
  reset(): void {
    this.offset = 0;
  }
}

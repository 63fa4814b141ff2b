/**
 * A sleep that a wake-up ends early, for loops woken by NOTIFY with a poll as fallback. A wake-up
 * that comes while the loop is busy is kept: the next sleep returns at once (sleeping through it
 * would cost a whole poll interval).
 */
export class Waker {
  private wakeUp: (() => void) | null = null;
  private signalled = false;

  sleep(ms: number): Promise<void> {
    if (this.signalled) {
      this.signalled = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakeUp = null;
        this.signalled = false;
        resolve();
      };
      const timer = setTimeout(done, ms);
      timer.unref?.();
      this.wakeUp = done;
    });
  }

  wake(): void {
    this.signalled = true;
    this.wakeUp?.();
  }
}

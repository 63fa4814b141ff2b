import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { ApiError } from '@bop/shared';

/** Failed sign-ins per email and client address in a window; over the limit → 429 `rate_limited` with Retry-After. */
export class SignInLimiter {
  private readonly limiter: RateLimiterMemory;

  constructor(
    private readonly maxFailures: number,
    windowMinutes: number,
  ) {
    this.limiter = new RateLimiterMemory({ keyPrefix: 'sign-in', points: maxFailures, duration: Math.max(1, Math.round(windowMinutes * 60)) });
  }

  async check(key: string): Promise<void> {
    const res = await this.limiter.get(key);
    if (res && res.consumedPoints >= this.maxFailures) throw tooMany(res.msBeforeNext);
  }

  async failed(key: string): Promise<void> {
    try {
      await this.limiter.consume(key);
    } catch (err) {
      if (!(err instanceof RateLimiterRes)) throw err;
    }
  }

  async succeeded(key: string): Promise<void> {
    await this.limiter.delete(key);
  }
}

function tooMany(msBeforeNext: number): ApiError {
  const seconds = Math.max(1, Math.ceil(msBeforeNext / 1000));
  return new ApiError('rate_limited', `Too many failed sign-in attempts; retry in ${seconds} s.`, undefined, undefined, { 'Retry-After': String(seconds) });
}

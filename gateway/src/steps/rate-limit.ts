import type { Response } from 'express';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Redis } from 'ioredis';
import { ApiError, type Logger } from '@bop/shared';
import type { GatewayRequest } from '../context';

const WINDOW_SECONDS = 60;

export interface RateLimitSettings {
  interactivePerMin: number;
  ingestPerMin: number;
  redis?: Redis;
}

/** The caller's address (behind trusted proxies: from X-Forwarded-For, as express's `trust proxy` says). */
export function clientIp(req: GatewayRequest, trustProxy: boolean | number | string): string {
  if (req.gw.ip === undefined) req.gw.ip = (trustProxy === false ? req.socket.remoteAddress : req.ip) ?? 'unknown';
  return req.gw.ip;
}

/**
 * Requests per minute per principal (key or session): integration keys at the ingest rate, people and
 * unauthenticated callers (per address) at the interactive rate. Memory by default; Redis when REDIS_URL
 * is set, with a memory limiter standing in while Redis cannot be reached.
 */
export class RateLimits {
  readonly interactive: RateLimiterAbstract;
  readonly ingest: RateLimiterAbstract;
  readonly store: 'memory' | 'redis';

  constructor(
    private readonly settings: RateLimitSettings,
    private readonly trustProxy: boolean | number | string,
    private readonly log: Logger,
  ) {
    this.store = settings.redis ? 'redis' : 'memory';
    this.interactive = this.limiter('i', settings.interactivePerMin);
    this.ingest = this.limiter('g', settings.ingestPerMin);
  }

  private limiter(prefix: string, points: number): RateLimiterAbstract {
    const memory = new RateLimiterMemory({ points, duration: WINDOW_SECONDS, keyPrefix: `rl${prefix}` });
    if (!this.settings.redis) return memory;
    return new RateLimiterRedis({
      storeClient: this.settings.redis,
      points,
      duration: WINDOW_SECONDS,
      keyPrefix: `bop:gateway:rl:${prefix}`,
      rejectIfRedisNotReady: true,
      insuranceLimiter: memory,
    });
  }

  /** Counts the request, sets `RateLimit-*`; over the limit → 429 `rate_limited` with `Retry-After`. */
  async consume(req: GatewayRequest, res: Response): Promise<void> {
    if (req.gw.limited) return;
    req.gw.limited = true;
    const principal = req.gw.auth?.principal;
    const limiter = principal?.kind === 'integration' ? this.ingest : this.interactive;
    const key = req.gw.auth ? req.gw.auth.bucket : `ip:${clientIp(req, this.trustProxy)}`;
    const limit = limiter.points;
    try {
      const r = await limiter.consume(key, 1);
      setHeaders(res, limit, r.remainingPoints, r.msBeforeNext);
    } catch (rej) {
      if (rej instanceof RateLimiterRes) {
        setHeaders(res, limit, 0, rej.msBeforeNext);
        const retryAfter = Math.max(1, Math.ceil(rej.msBeforeNext / 1000));
        throw new ApiError('rate_limited', `Over ${limit} requests per minute; retry after ${retryAfter} s.`, undefined, undefined, {
          'Retry-After': String(retryAfter),
        });
      }
      // the store failed and no stand-in answered: let the request through rather than fail it
      this.log.error({ err: rej }, 'rate limiter failed');
      setHeaders(res, limit, limit, WINDOW_SECONDS * 1000);
    }
  }
}

function setHeaders(res: Response, limit: number, remaining: number, msBeforeNext: number): void {
  res.setHeader('RateLimit-Limit', String(limit));
  res.setHeader('RateLimit-Remaining', String(Math.max(0, remaining)));
  res.setHeader('RateLimit-Reset', String(Math.max(0, Math.ceil(msBeforeNext / 1000))));
}

/** Step 6: every /api/v1 request counts once (a batch is one request). */
export function rateLimit(limits: RateLimits) {
  return (req: GatewayRequest, res: Response): Promise<void> => limits.consume(req, res);
}

import type { ServerResponse } from 'node:http';
import proxyaddr from 'proxy-addr';
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

type TrustProxy = boolean | number | string;
const trustFns = new Map<TrustProxy, (address: string, hop: number) => boolean>();

/** TRUST_PROXY as express's `trust proxy` setting reads it: true, a hop count, or addresses/subnets/names, comma-separated. */
function trustOf(trustProxy: TrustProxy): (address: string, hop: number) => boolean {
  let fn = trustFns.get(trustProxy);
  if (!fn) {
    if (trustProxy === true) fn = () => true;
    else if (trustProxy === false) fn = () => false;
    else if (typeof trustProxy === 'number') fn = (_a, hop) => hop < trustProxy;
    else fn = proxyaddr.compile(trustProxy.split(',').map((v) => v.trim()));
    trustFns.set(trustProxy, fn);
  }
  return fn;
}

/** The caller's address (behind trusted proxies: from X-Forwarded-For, as express's `trust proxy` says). */
export function clientIp(req: GatewayRequest, trustProxy: TrustProxy): string {
  if (req.gw.ip === undefined) req.gw.ip = (trustProxy === false ? req.socket.remoteAddress : proxyaddr(req, trustOf(trustProxy))) ?? 'unknown';
  return req.gw.ip;
}

/** The scheme the caller used: `https` on TLS, else X-Forwarded-Proto when the peer is a trusted proxy (as express's `req.protocol`). */
export function requestProtocol(req: GatewayRequest, trustProxy: TrustProxy): string {
  const own = (req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
  if (!trustOf(trustProxy)(req.socket.remoteAddress ?? '', 0)) return own;
  const header = req.headers['x-forwarded-proto'];
  const value = (Array.isArray(header) ? header[0] : header) || own;
  return value.split(',')[0].trim();
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
  async consume(req: GatewayRequest, res: ServerResponse): Promise<void> {
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

function setHeaders(res: ServerResponse, limit: number, remaining: number, msBeforeNext: number): void {
  res.setHeader('RateLimit-Limit', String(limit));
  res.setHeader('RateLimit-Remaining', String(Math.max(0, remaining)));
  res.setHeader('RateLimit-Reset', String(Math.max(0, Math.ceil(msBeforeNext / 1000))));
}

/** Step 6: every /api/v1 request counts once (a batch is one request). */
export function rateLimit(limits: RateLimits) {
  return (req: GatewayRequest, res: ServerResponse): Promise<void> => limits.consume(req, res);
}

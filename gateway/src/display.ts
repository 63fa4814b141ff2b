import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import express, { type Request, type Response, type Router } from 'express';
import { Pool } from 'undici';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Redis } from 'ioredis';
import { ApiError, INTERNAL_TOKEN_HEADER, NotFound, ServiceUnavailable, type Logger } from '@bop/shared';
import type { GatewayRequest } from './context';
import type { CachedToken } from './internal';
import type { FeatureSwitches } from './steps/features';
import { clientIp } from './steps/rate-limit';

/** The team-display page: static files, no build step. */
export const DISPLAY_PAGE_DIR = path.resolve(__dirname, '..', 'static', 'display');

/** The page's calls and the communication service's internal routes behind them (nothing else passes). */
const CALLS: Record<string, { method: string; path: string; limit: 'pairing' | 'screen' }> = {
  'POST /pairings': { method: 'POST', path: '/internal/display/pairings', limit: 'pairing' },
  'POST /pairings/claim': { method: 'POST', path: '/internal/display/pairings/claim', limit: 'screen' },
  'GET /snapshot': { method: 'GET', path: '/internal/display/snapshot', limit: 'screen' },
  'GET /stream': { method: 'GET', path: '/internal/display/stream', limit: 'screen' },
};
const PASSED_BACK = ['content-type', 'cache-control', 'x-accel-buffering'];

export interface DisplaySettings {
  /** the communication service, when this deployment has it */
  communicationUrl: string | undefined;
  /** the gateway's own token: the display routes are the platform's, the screen token says which screen */
  systemToken: CachedToken;
  features: FeatureSwitches;
  trustProxy: boolean | number | string;
  headersTimeoutMs: number;
  /** new pairing codes per minute per address */
  pairingsPerMin: number;
  /** other display calls (code pick-up polls, snapshots, stream reconnects) per minute per address */
  callsPerMin: number;
  redis?: Redis;
  log: Logger;
}

/**
 * `/display/`: the team-display page a screen opens, and `/display/api/…`, its calls, passed to the
 * communication service outside the /api/v1 catalogue (a screen has no key or session: before pairing
 * it holds a pairing secret, after it a screen token). Rate-limited per address; behind the `displays`
 * feature switch. The live stream passes through unbuffered, with no body timeout (it sends a keep-alive
 * every few seconds).
 */
export class DisplayGate {
  private pool: Pool | null = null;
  private readonly limits: Record<'pairing' | 'screen', RateLimiterAbstract>;

  constructor(private readonly s: DisplaySettings) {
    this.limits = { pairing: this.limiter('p', s.pairingsPerMin), screen: this.limiter('s', s.callsPerMin) };
  }

  private limiter(prefix: string, points: number): RateLimiterAbstract {
    const memory = new RateLimiterMemory({ points, duration: 60, keyPrefix: `rld${prefix}` });
    if (!this.s.redis) return memory;
    return new RateLimiterRedis({ storeClient: this.s.redis, points, duration: 60, keyPrefix: `bop:gateway:rld:${prefix}`, rejectIfRedisNotReady: true, insuranceLimiter: memory });
  }

  /** the answers being streamed (live streams), ended when the gateway closes */
  private readonly streaming = new Set<Response>();

  /** Ends the live streams passing through (the gateway is closing: pages reconnect elsewhere or once it is back). */
  endStreams(): void {
    for (const res of this.streaming) res.end();
    this.streaming.clear();
  }

  close(): void {
    this.endStreams();
    void this.pool?.destroy();
    this.pool = null;
  }

  router(): Router {
    const router = express.Router();
    router.use('/api', express.json({ limit: '4kb' }));
    router.all('/api/{*rest}', (req, res) => this.forward(req, res));
    router.use(
      express.static(DISPLAY_PAGE_DIR, {
        index: 'index.html',
        redirect: true,
        setHeaders: (res) => {
          res.setHeader('Cache-Control', 'no-cache');
          res.setHeader('Content-Security-Policy', "default-src 'self'; connect-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; frame-ancestors 'none'");
          res.setHeader('X-Content-Type-Options', 'nosniff');
        },
      }),
    );
    return router;
  }

  private async forward(req: Request, res: Response): Promise<void> {
    const call = CALLS[`${req.method} ${req.path.slice('/api'.length)}`];
    if (!call || !this.s.communicationUrl) throw new NotFound('endpoint');
    if (!this.s.features.isOn(['displays'])) throw new ApiError('feature_disabled', 'The feature displays is switched off.');
    await this.consume(call.limit, req as unknown as GatewayRequest);
    const pool = (this.pool ??= new Pool(this.s.communicationUrl, { connections: 64, headersTimeout: this.s.headersTimeoutMs, bodyTimeout: 0 }));
    const headers: Record<string, string> = {
      [INTERNAL_TOKEN_HEADER]: await this.s.systemToken.get(),
      'x-request-id': String((req as unknown as GatewayRequest).id ?? ''),
      'x-forwarded-for': clientIp(req as unknown as GatewayRequest, this.s.trustProxy),
    };
    const screenToken = req.headers['x-screen-token'];
    if (typeof screenToken === 'string') headers['x-screen-token'] = screenToken;
    let body: string | undefined;
    if (call.method === 'POST') {
      body = JSON.stringify(req.body ?? {});
      headers['content-type'] = 'application/json';
    }
    const abort = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) abort.abort();
    });
    let answer;
    try {
      answer = await pool.request({ path: call.path, method: call.method as 'GET' | 'POST', headers, body, signal: abort.signal });
    } catch (err) {
      if (abort.signal.aborted) return;
      this.s.log.warn({ err: (err as Error).message }, 'display: communication did not answer');
      throw new ServiceUnavailable('The communication service did not answer; retry with backoff.');
    }
    res.status(answer.statusCode);
    for (const h of PASSED_BACK) {
      const v = answer.headers[h];
      if (v !== undefined) res.setHeader(h, v);
    }
    res.flushHeaders();
    this.streaming.add(res);
    try {
      await pipeline(answer.body, res);
    } catch {
      res.destroy();
    } finally {
      this.streaming.delete(res);
    }
  }

  private async consume(kind: 'pairing' | 'screen', req: GatewayRequest): Promise<void> {
    try {
      await this.limits[kind].consume(`ip:${clientIp(req, this.s.trustProxy)}`, 1);
    } catch (rej) {
      if (!(rej instanceof RateLimiterRes)) return; // the store failed: let the screen through rather than blank it
      const retryAfter = Math.max(1, Math.ceil(rej.msBeforeNext / 1000));
      throw new ApiError('rate_limited', `Too many display calls from this address; retry after ${retryAfter} s.`, undefined, undefined, { 'Retry-After': String(retryAfter) });
    }
  }
}

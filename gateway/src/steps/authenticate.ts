import { createHash } from 'node:crypto';
import { errorCodes, type ErrorCode } from '@bop/contracts';
import { ApiError, requestTraceContext, ServiceUnavailable, Unauthorized, type Logger, type Principal, type TraceContext } from '@bop/shared';
import type { AuthEntry, GatewayRequest } from '../context';
import { callService, type CachedToken } from '../internal';

const MAX_ENTRIES = 50_000;
const PROBLEM_MEMBERS = new Set(['type', 'title', 'status', 'code', 'detail', 'requestId', 'errors']);

/** The rate-limit bucket of a principal: its key, else its session, else the principal itself. */
export function bucketOf(p: Principal): string {
  if (p.keyId) return `key:${p.keyId}`;
  if (p.sessionId) return `ses:${p.sessionId}`;
  return `${p.kind}:${p.id}`;
}

/**
 * Who presents a token, as identity says (`POST /internal/authenticate`), remembered for
 * min(cacheSeconds, AUTH_CACHE_SECONDS) under the token's sha256. Kept in this process's memory
 * (also with REDIS_URL); `clear()` drops everything after this gateway passes a change to identity.
 */
export class Authenticator {
  private readonly cache = new Map<string, AuthEntry>();
  private readonly inflight = new Map<string, Promise<AuthEntry>>();
  /** bumped by clear(): an answer asked for before a clear is used once but not kept */
  private generation = 0;

  constructor(
    private readonly identityUrl: string | undefined,
    private readonly token: CachedToken,
    private readonly maxCacheSeconds: number,
    private readonly log: Logger,
  ) {}

  clear(): void {
    this.cache.clear();
    this.inflight.clear();
    this.generation++;
  }

  get size(): number {
    return this.cache.size;
  }

  /** `trace`: the request's trace context (requestTraceContext), which a lookup at identity continues */
  async authenticate(presented: string, requestId: string, trace?: TraceContext): Promise<AuthEntry> {
    const hash = createHash('sha256').update(presented).digest('base64url');
    const hit = this.cache.get(hash);
    if (hit) {
      if (hit.expiresAt > Date.now()) return hit;
      this.cache.delete(hash);
    }
    let pending = this.inflight.get(hash);
    if (!pending) {
      pending = this.ask(hash, presented, requestId, trace).finally(() => {
        if (this.inflight.get(hash) === pending) this.inflight.delete(hash);
      });
      this.inflight.set(hash, pending);
    }
    return pending;
  }

  private async ask(hash: string, presented: string, requestId: string, trace?: TraceContext): Promise<AuthEntry> {
    if (!this.identityUrl) throw new ServiceUnavailable('Authentication is not available in this deployment.');
    const generation = this.generation;
    let r;
    try {
      r = await callService(this.identityUrl, 'POST', '/internal/authenticate', { token: await this.token.get(), body: { token: presented }, requestId, trace });
    } catch (err) {
      this.log.warn({ err: (err as Error).message, requestId }, 'identity unreachable for authentication');
      throw new ServiceUnavailable('Authentication is unavailable right now; retry with backoff.');
    }
    if (r.status === 200 && r.body?.principal) {
      const principal = r.body.principal as Principal;
      const seconds = Math.min(Number(r.body.cacheSeconds ?? 0), this.maxCacheSeconds);
      const entry: AuthEntry = {
        principal,
        mfaEnrollmentRequired: r.body.mfaEnrollmentRequired === true,
        expiresAt: Date.now() + seconds * 1000,
        bucket: bucketOf(principal),
      };
      if (seconds > 0 && generation === this.generation) {
        if (this.cache.size >= MAX_ENTRIES) this.cache.delete(this.cache.keys().next().value!);
        this.cache.set(hash, entry);
      }
      return entry;
    }
    if (r.status >= 400 && r.status < 500) throw passThrough(r.body, r.status);
    this.log.warn({ status: r.status, requestId }, 'identity failed to authenticate');
    throw new ServiceUnavailable('Authentication is unavailable right now; retry with backoff.');
  }
}

/** Identity's problem, as it said it (the kit re-renders it with this request's id). */
function passThrough(body: any, status: number): ApiError {
  const code = typeof body?.code === 'string' && body.code in errorCodes ? (body.code as ErrorCode) : null;
  if (!code || errorCodes[code].status !== status) return new Unauthorized();
  const extra: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) if (!PROBLEM_MEMBERS.has(k)) extra[k] = v;
  return new ApiError(code, typeof body.detail === 'string' ? body.detail : undefined, Array.isArray(body.errors) ? body.errors : undefined, Object.keys(extra).length ? extra : undefined);
}

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/** Step 4: `Authorization: Bearer <key or session token>` → principal (public rows skip it). */
export function authenticate(auth: Authenticator) {
  return async (req: GatewayRequest): Promise<void> => {
    if (req.gw.route!.isPublic) return;
    const header = req.headers.authorization;
    const m = header ? BEARER.exec(header) : null;
    if (!m) throw new Unauthorized(header ? 'The Authorization header must be `Bearer <key or session token>`.' : 'Send `Authorization: Bearer <key or session token>`.');
    req.gw.auth = await auth.authenticate(m[1], req.id, requestTraceContext(req));
  };
}

import type { ServerResponse } from 'node:http';
import { Pool, type Dispatcher } from 'undici';
import { requestTraceContext, startClientSpan, INTERNAL_TOKEN_HEADER, ServiceUnavailable, InternalTokenSigner, renderError, type Logger } from '@bop/shared';
import type { GatewayRequest } from '../context';
import { TOKEN_REUSE_MS, type CachedToken } from '../internal';
import { clientIp } from './rate-limit';

/** Hop-by-hop headers (RFC 9110 §7.6.1), never passed on in either direction; `host` is the upstream's own. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'proxy-connection', 'upgrade', 'trailer', 'te', 'expect', 'host']);

export interface ProxySettings {
  signer: InternalTokenSigner;
  anonymousToken: CachedToken;
  timeoutMs: number;
  maxSockets: number;
  trustProxy: boolean | number | string;
  errorsBaseUrl: string;
  log: Logger;
  /** after a 2xx from upstream, before the caller sees it */
  onSuccess(req: GatewayRequest): void;
}

/**
 * Step 8: passes the request to the owning service with a 60-second internal token carrying the
 * principal, over keep-alive connections (an undici pool per service). Streams both ways, except for
 * idempotent POSTs, whose answer is buffered so it can be stored before it is sent.
 *
 * undici rather than http-proxy-middleware over `http.request`: the runtime's CPU per request through
 * the gateway on GET /locations fell by a tenth with it (A/B of two runtimes, interleaved rounds,
 * `npm run bench` shape), the proxy and node's HTTP client having been a quarter of the gateway's CPU
 * (node --cpu-prof).
 */
export class Proxy {
  private readonly pools = new Map<string, Pool>();

  constructor(private readonly s: ProxySettings) {}

  close(): void {
    for (const pool of this.pools.values()) void pool.destroy();
    this.pools.clear();
  }

  private pool(target: string): Pool {
    let pool = this.pools.get(target);
    if (!pool) {
      pool = new Pool(target, { connections: this.s.maxSockets, headersTimeout: this.s.timeoutMs, bodyTimeout: this.s.timeoutMs, keepAliveTimeout: 30_000 });
      this.pools.set(target, pool);
    }
    return pool;
  }

  /** The internal token of the request's principal, signed once per cached authentication. */
  private async internalToken(req: GatewayRequest): Promise<string> {
    const auth = req.gw.auth;
    if (!auth) return this.s.anonymousToken.get();
    const now = Date.now();
    if (auth.internalToken && now < auth.internalTokenUntil!) return auth.internalToken;
    const token = await this.s.signer.sign(auth.principal);
    auth.internalToken = token;
    auth.internalTokenUntil = now + TOKEN_REUSE_MS;
    return token;
  }

  async forward(req: GatewayRequest, res: ServerResponse, target: string): Promise<void> {
    const headers: Record<string, string | string[]> = {};
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined && !HOP_BY_HOP.has(k)) headers[k] = v;
    headers[INTERNAL_TOKEN_HEADER] = await this.internalToken(req);
    delete headers.authorization;
    headers['x-request-id'] = req.id;
    const ip = clientIp(req, this.s.trustProxy);
    const prior = req.headers['x-forwarded-for'];
    headers['x-forwarded-for'] = this.s.trustProxy !== false && prior ? `${String(prior)}, ${req.socket.remoteAddress}` : ip;
    // the gateway already read the body of an idempotent POST (to hash it): those bytes; else the request streams on
    let body: Dispatcher.DispatchOptions['body'] = null;
    if (req.gw.body) {
      body = req.gw.body;
      headers['content-length'] = String(req.gw.body.length);
    } else if (req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined) {
      body = req.gw.bodyTap ? req.pipe(req.gw.bodyTap) : req;
    }
    // a caller that goes away stops the upstream request
    const abort = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) abort.abort();
    });
    // a traced request: the call in a client span, whose trace context the service continues (the caller's own goes)
    const span = startClientSpan(req.method ?? 'GET', `${target}${req.url ?? '/'}`, headers, requestTraceContext(req));
    const options: Dispatcher.RequestOptions = { path: req.url ?? '/', method: req.method as Dispatcher.HttpMethod, headers, body, signal: abort.signal };
    const pool = this.pool(target);
    let status: number | null = null;
    try {
      if (req.gw.onAnswer) status = await this.buffered(pool, options, req, res);
      else
        await pool.stream(options, ({ statusCode, headers: answer }) => {
          status = statusCode;
          if (statusCode >= 200 && statusCode < 300) this.s.onSuccess(req);
          copyHeaders(answer, res);
          closeIfBodyLeft(req, res);
          res.statusCode = statusCode;
          return res;
        });
      span?.end(status);
    } catch (err) {
      span?.end(status, err);
      this.failed(err as Error, req, res);
    }
  }

  /** An idempotent POST: the whole answer is read and handed to `onAnswer` (stored) before the caller gets it. Answers the upstream's status. */
  private async buffered(pool: Pool, options: Dispatcher.RequestOptions, req: GatewayRequest, res: ServerResponse): Promise<number> {
    const answer = await pool.request(options);
    const body = Buffer.from(await answer.body.arrayBuffer());
    const onAnswer = req.gw.onAnswer;
    req.gw.onAnswer = undefined;
    req.gw.onNoAnswer = undefined;
    if (onAnswer) await onAnswer(answer.statusCode, answer.headers, body);
    if (answer.statusCode >= 200 && answer.statusCode < 300) this.s.onSuccess(req);
    if (res.headersSent) return answer.statusCode;
    copyHeaders(answer.headers, res);
    closeIfBodyLeft(req, res);
    res.setHeader('content-length', String(body.length));
    res.statusCode = answer.statusCode;
    res.end(body);
    return answer.statusCode;
  }

  private failed(err: Error, req: GatewayRequest, res: ServerResponse): void {
    const release = req.gw.onNoAnswer;
    req.gw.onAnswer = undefined;
    req.gw.onNoAnswer = undefined;
    const respond = () => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      if (res.destroyed) return; // the caller went away (and the upstream request was aborted for it)
      this.s.log.warn({ err: err.message, requestId: req.id, service: req.gw.route?.row.service }, 'upstream failed');
      const service = req.gw.route?.row.service ?? 'upstream';
      renderError(new ServiceUnavailable(`The ${service} service did not answer; retry with backoff.`), req, res, this.s.errorsBaseUrl, this.s.log);
    };
    if (release) void release().finally(respond);
    else respond();
  }
}

/**
 * The service answered before the whole request body arrived (an upload over its limit): the rest is
 * never read, so this connection cannot carry another request and closes after the answer.
 */
function closeIfBodyLeft(req: GatewayRequest, res: ServerResponse): void {
  if (req.complete) return;
  res.setHeader('Connection', 'close');
  req.unpipe();
}

function copyHeaders(headers: Record<string, string | string[] | undefined>, res: ServerResponse): void {
  for (const [k, v] of Object.entries(headers)) if (v !== undefined && !HOP_BY_HOP.has(k)) res.setHeader(k, v);
}

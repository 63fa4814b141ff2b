import http from 'node:http';
import type { Writable } from 'node:stream';
import type { Response } from 'express';
import { createProxyMiddleware, proxyEventsPlugin, type RequestHandler } from 'http-proxy-middleware';
import { INTERNAL_TOKEN_HEADER, ServiceUnavailable, InternalTokenSigner, renderError, type Logger } from '@bop/shared';
import type { GatewayRequest } from '../context';
import { TOKEN_REUSE_MS, type CachedToken } from '../internal';
import { clientIp } from './rate-limit';

/** Hop-by-hop headers, never copied from a buffered upstream answer. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'proxy-connection', 'upgrade', 'trailer', 'te']);

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
 * principal (http-proxy-middleware over keep-alive sockets). Streams both ways, except for idempotent
 * POSTs, whose answer is buffered so it can be stored before it is sent.
 */
export class Proxy {
  readonly agent: http.Agent;
  private readonly streaming = new Map<string, RequestHandler>();
  private readonly buffered = new Map<string, RequestHandler>();

  constructor(private readonly s: ProxySettings) {
    this.agent = new http.Agent({ keepAlive: true, maxSockets: s.maxSockets, maxFreeSockets: s.maxSockets, keepAliveMsecs: 1000, scheduling: 'lifo' });
  }

  close(): void {
    this.agent.destroy();
  }

  private handler(target: string, buffer: boolean): RequestHandler {
    const cache = buffer ? this.buffered : this.streaming;
    let h = cache.get(target);
    if (!h) {
      h = createProxyMiddleware({
        target,
        changeOrigin: true,
        agent: this.agent,
        proxyTimeout: this.s.timeoutMs,
        selfHandleResponse: buffer,
        ejectPlugins: true,
        plugins: [proxyEventsPlugin],
        on: {
          proxyRes: (proxyRes, req, res) => (buffer ? this.bufferAnswer(proxyRes, req as GatewayRequest, res as Response) : this.passAnswer(proxyRes, req as GatewayRequest)),
          error: (err, req, res) => this.failed(err, req as GatewayRequest, res as Response),
        },
      });
      cache.set(target, h);
    }
    return h;
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

  async forward(req: GatewayRequest, res: Response, target: string): Promise<void> {
    const h = req.headers;
    h[INTERNAL_TOKEN_HEADER] = await this.internalToken(req);
    delete h.authorization;
    h['x-request-id'] = req.id;
    const ip = clientIp(req, this.s.trustProxy);
    const prior = h['x-forwarded-for'];
    h['x-forwarded-for'] = this.s.trustProxy !== false && prior ? `${prior}, ${req.socket.remoteAddress}` : ip;
    const body = req.gw.body;
    if (body) {
      // the gateway already read the body (to hash it): http-proxy pipes the request, so the pipe sends these bytes
      h['content-length'] = String(body.length);
      delete h['transfer-encoding'];
      delete h.expect;
      (req as unknown as { pipe: (dest: Writable) => Writable }).pipe = (dest: Writable) => {
        dest.end(body);
        return dest;
      };
    }
    await this.handler(target, !!req.gw.onAnswer)(req, res, (err?: unknown) => {
      if (err) this.failed(err as Error, req, res);
    });
  }

  private passAnswer(proxyRes: http.IncomingMessage, req: GatewayRequest): void {
    const status = proxyRes.statusCode ?? 502;
    if (status >= 200 && status < 300) this.s.onSuccess(req);
  }

  private bufferAnswer(proxyRes: http.IncomingMessage, req: GatewayRequest, res: Response): void {
    const chunks: Buffer[] = [];
    proxyRes.on('data', (c: Buffer) => chunks.push(c));
    proxyRes.on('error', (err) => this.failed(err, req, res));
    proxyRes.on('end', () => {
      const status = proxyRes.statusCode ?? 502;
      const body = Buffer.concat(chunks);
      const answer = req.gw.onAnswer;
      req.gw.onAnswer = undefined;
      req.gw.onNoAnswer = undefined;
      void (async () => {
        if (answer) await answer(status, proxyRes.headers, body);
        if (status >= 200 && status < 300) this.s.onSuccess(req);
        if (res.headersSent) return;
        for (const [k, v] of Object.entries(proxyRes.headers)) if (v !== undefined && !HOP_BY_HOP.has(k)) res.setHeader(k, v);
        res.setHeader('content-length', String(body.length));
        res.status(status).end(body);
      })().catch((err) => this.failed(err, req, res));
    });
  }

  private failed(err: Error, req: GatewayRequest, res: Response): void {
    const release = req.gw.onNoAnswer;
    req.gw.onAnswer = undefined;
    req.gw.onNoAnswer = undefined;
    const respond = () => {
      if (!res || typeof (res as Partial<Response>).setHeader !== 'function') return;
      if (res.headersSent) {
        res.destroy();
        return;
      }
      this.s.log.warn({ err: (err as Error).message, requestId: req.id, service: req.gw.route?.row.service }, 'upstream failed');
      const service = req.gw.route?.row.service ?? 'upstream';
      renderError(new ServiceUnavailable(`The ${service} service did not answer; retry with backoff.`), req, res, this.s.errorsBaseUrl, this.s.log);
    };
    if (release) release().finally(respond);
    else respond();
  }
}

import fs from 'node:fs';
import http, { type IncomingMessage, type RequestListener } from 'node:http';
import querystring from 'node:querystring';
import net, { type AddressInfo, type Socket } from 'node:net';
import { errorCodes } from '@bop/contracts';
import { newId } from './ids';
import { PROBLEM_CONTENT_TYPE } from './problem';

export interface HttpListener {
  server: http.Server;
  port: number;
  /** stops accepting, lets in-flight requests finish, destroys what is left after `graceMs` */
  close(graceMs: number): Promise<void>;
}

export interface ListenOptions {
  /** the `type` base of problem bodies (ERRORS_BASE_URL) */
  errorsBaseUrl?: string;
}

/**
 * What Node's parser refused before any handler ran (request line or headers over 16 KB, malformed
 * HTTP), as an RFC 9457 problem instead of Node's bare status line: 431 for headers/URL too large,
 * 408 for a request that did not arrive in time, else 400 — code `bad_request`.
 */
export function answerClientError(err: Error & { code?: string }, socket: net.Socket | import('node:stream').Duplex, errorsBaseUrl: string): void {
  if (err.code === 'ECONNRESET' || !socket.writable || (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent) {
    socket.destroy();
    return;
  }
  const [status, reason, detail] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', 'The request line (URL) or headers are larger than the server accepts (16 KB).']
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', 'The request did not arrive in time.']
        : [400, 'Bad Request', 'The request is not valid HTTP.'];
  const requestId = newId('request');
  const body = JSON.stringify({
    type: `${errorsBaseUrl.replace(/\/$/, '')}/bad_request`,
    title: status === 400 ? errorCodes.bad_request.title : reason,
    status,
    code: 'bad_request',
    detail,
    requestId,
  });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: ${PROBLEM_CONTENT_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** Listens with keep-alive longer than typical client pools, so a reused socket is never closed under a request. */
export async function listenHttp(handler: RequestListener, port: number, host: string, opts: ListenOptions = {}): Promise<HttpListener> {
  const server = http.createServer(handler);
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  const errorsBaseUrl = opts.errorsBaseUrl ?? 'https://errors.bop.dev';
  server.on('clientError', (err: Error & { code?: string }, socket) => answerClientError(err, socket, errorsBaseUrl));
  const sockets = new Set<Socket>();
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    server,
    port: (server.address() as AddressInfo).port,
    close: (graceMs) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          for (const s of sockets) s.destroy();
        }, graceMs);
        timer.unref();
        server.close(() => {
          clearTimeout(timer);
          resolve();
        });
        server.closeIdleConnections();
      }),
  };
}

/**
 * A request on the kit's request path (the services' and the gateway's): the node request with what
 * that path reads of it set as own fields — no express prototypes. Swapping a request's and response's
 * prototypes to express's cost about 30 µs a request on this machine (Node's HTTP code slows down on
 * objects whose prototype changed) and express's `path`/`query` getters about 35 µs more: a node:http
 * server answering a fixed JSON body spent 27 µs CPU a request, with express's prototypes and getters
 * 95 µs (16 connections, 6 interleaved rounds). Host paths (health, metrics, docs) still go through express.
 */
export interface KitRequest extends IncomingMessage {
  /** always set on a server's request */
  method: string;
  url: string;
  /** the request id (X-Request-Id) */
  id?: string;
  /** the URL as it arrived */
  originalUrl: string;
  /** the path of `url`, without the query */
  path: string;
  /** the query of `url`, as express's default (`simple`) parser gives it */
  query: Record<string, string | string[] | undefined>;
  /** the parsed JSON body, once read */
  body?: unknown;
}

/** `raw` as a kit request (its URL parsed once). */
export function kitRequest<Q extends KitRequest = KitRequest>(raw: IncomingMessage): Q {
  const req = raw as Q;
  req.originalUrl = raw.url ?? '/';
  setRequestUrl(req, req.originalUrl);
  return req;
}

/** Points the request at `url` (the gateway strips its /api/v1 prefix): `url`, `path` and `query` follow. */
export function setRequestUrl(req: KitRequest, url: string): void {
  req.url = url;
  let target = url;
  if (target[0] !== '/') {
    // absolute-form (`GET http://host/path HTTP/1.1`): its path and query, as express's parseurl reads them
    try {
      const u = new URL(target);
      target = `${u.pathname}${u.search}`;
    } catch {
      /* not a URL: matched as it is (no route starts without a slash) */
    }
  }
  const q = target.indexOf('?');
  req.path = q < 0 ? target : target.slice(0, q);
  req.query = querystring.parse(q < 0 ? '' : target.slice(q + 1));
}

/**
 * A port free right now on loopback, for a server that may stop and start again on it (the embedded
 * Postgres, tests' brokers): below the kernel's ephemeral range when it can tell, so that no outgoing
 * connection takes the port while the server is down (a restart then failed to bind under load).
 */
export async function freePort(): Promise<number> {
  const low = ephemeralLow();
  for (let i = 0; low !== null && i < 50; i++) {
    const port = 10_000 + Math.floor(Math.random() * (low - 10_000));
    if ((await listenOnce(port).catch(() => null)) !== null) return port;
  }
  return listenOnce(0);
}

function ephemeralLow(): number | null {
  try {
    const low = Number(fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > 12_000 ? low : null;
  } catch {
    return null;
  }
}

function listenOnce(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(port, '127.0.0.1', () => {
      const bound = (srv.address() as AddressInfo).port;
      srv.close(() => resolve(bound));
    });
  });
}

export function urlHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

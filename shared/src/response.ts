/**
 * Writing an answer: a route's result as JSON or a stream, and anything thrown as RFC 9457 problem details.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import fresh from 'fresh';
import { type Logger } from './logger';
import { ApiError, BadRequest, ServiceUnavailable } from './errors';
import { isDatabaseUnavailable } from './db-faults';
import { PROBLEM_CONTENT_TYPE, problemBody } from './problem';
import type { RouteResult } from './routes';
import { newId } from './ids';
import { requestLogger } from './request-log';

/**
 * Writes a route's answer: its headers, `ETag` from a body's `version`, and the body as JSON — written
 * here rather than by express's `res.json`/`res.send`, which cost 5% of a plain read's CPU (node
 * --cpu-prof under `npm run bench`) for content negotiation and ETag work these answers do not use. As
 * express does, a GET or HEAD whose `If-None-Match` names the current ETag is a 304 without a body.
 */
export function send(req: IncomingMessage, res: ServerResponse, result: RouteResult, defaultStatus?: number): number {
  const status = result.status ?? defaultStatus ?? 200;
  if (result.headers) for (const [k, v] of Object.entries(result.headers)) res.setHeader(k, v);
  const body = result.body as { version?: unknown } | undefined;
  if (body && typeof body === 'object' && typeof body.version === 'number') res.setHeader('ETag', `"${body.version}"`);
  res.statusCode = status;
  if (result.stream) {
    sendStream(req, res, result.stream);
    return status;
  }
  if (status === 204 || result.body === undefined) {
    res.end();
    return status;
  }
  const head = req.method === 'HEAD';
  if ((head || req.method === 'GET') && status >= 200 && status < 300 && (req.headers['if-none-match'] || req.headers['if-modified-since'])) {
    if (fresh(req.headers, { etag: res.getHeader('ETag'), 'last-modified': res.getHeader('Last-Modified') })) {
      res.statusCode = 304;
      res.end();
      return status;
    }
  }
  const json = JSON.stringify(result.body);
  const type = res.getHeader('Content-Type');
  if (type === undefined) res.setHeader('Content-Type', 'application/json; charset=utf-8');
  else if (!/;\s*charset=/i.test(String(type))) res.setHeader('Content-Type', `${String(type)}; charset=utf-8`);
  res.setHeader('Content-Length', Buffer.byteLength(json));
  res.end(head ? undefined : json);
  return status;
}

/** Streams stored bytes as the answer; a read that fails midway ends the connection (the length already sent cannot be kept). */
function sendStream(req: IncomingMessage, res: ServerResponse, stream: Readable): void {
  if (req.method === 'HEAD') {
    stream.destroy();
    res.end();
    return;
  }
  pipeline(stream, res).catch(() => {
    stream.destroy();
    res.destroy();
  });
}

/** Maps anything thrown to RFC 9457 problem details; unknown errors are logged and become 500. */
export function renderError(err: unknown, req: IncomingMessage & { id?: string; log?: Logger }, res: ServerResponse, errorsBase: string, log: Logger): void {
  let apiError: ApiError;
  if (err instanceof ApiError) apiError = err;
  else if (isBodyParserError(err)) {
    apiError =
      err.type === 'entity.too.large'
        ? new ApiError('payload_too_large', `The request body is larger than the limit (${err.limit} bytes).`)
        : new BadRequest(err.type === 'entity.parse.failed' ? 'The body is not valid JSON.' : `The body could not be read (${err.type}).`);
  } else if (isDatabaseUnavailable(err)) {
    // an outage (Postgres restarting, unreachable, out of connections), not a fault of this request
    requestLogger(req, log).warn({ err: (err as Error).message }, 'database unavailable');
    apiError = new ServiceUnavailable('The database is not reachable right now; retry with backoff.');
  } else {
    requestLogger(req, log).error({ err }, 'unhandled error');
    apiError = new ApiError('internal_error', 'Something went wrong on our side; retry with backoff and quote the requestId.');
  }
  if (res.headersSent) {
    res.end();
    return;
  }
  const requestId = req.id ?? newId('request');
  if (apiError.headers) for (const [k, v] of Object.entries(apiError.headers)) res.setHeader(k, v);
  const body = JSON.stringify(problemBody(apiError, requestId, errorsBase));
  res.statusCode = apiError.status;
  res.setHeader('Content-Type', `${PROBLEM_CONTENT_TYPE}; charset=utf-8`);
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(req.method === 'HEAD' ? undefined : body);
}

export function isBodyParserError(err: unknown): err is { type: string; limit?: number } {
  return typeof err === 'object' && err !== null && typeof (err as { type?: unknown }).type === 'string' && 'expose' in err;
}

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from './logger';
import { newId } from './ids';

/** An incoming `X-Request-Id` is kept when it is this sane; else the kit makes `req_<ulid>`. */
export const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The request's id (a sane incoming `X-Request-Id` or a new `req_…`), set as `req.id` and echoed as `X-Request-Id`. */
export function startRequestId(req: IncomingMessage & { id?: string }, res: ServerResponse): string {
  const incoming = req.headers['x-request-id'];
  const id = typeof incoming === 'string' && SANE_REQUEST_ID.test(incoming) ? incoming : newId('request');
  req.id = id;
  res.setHeader('X-Request-Id', id);
  return id;
}

/** The access-log line (`request`, info) of a request, written when its answer has been sent. */
export function logRequestOnFinish(log: Logger, req: IncomingMessage & { id?: string; originalUrl?: string }, res: ServerResponse, startedAt = performance.now()): void {
  res.once('finish', () => {
    log.info({ requestId: req.id, method: req.method, url: req.originalUrl ?? req.url, status: res.statusCode, ms: Math.round((performance.now() - startedAt) * 10) / 10 }, 'request');
  });
}

/** The request's child logger (`requestId` on every line), made on first use: most requests never log but the access line. */
export function requestLogger(req: { id?: string; log?: Logger }, log: Logger): Logger {
  return (req.log ??= req.id ? log.child({ requestId: req.id }) : log);
}

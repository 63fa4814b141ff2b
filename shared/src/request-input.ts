/**
 * What a request sent, read and checked before a handler runs: the body, the kit's edge (text, depth), params, query and body against the contracts.
 */
import type { IncomingMessage } from 'node:http';
import { z } from 'zod';
import { ApiError, BadRequest, NotFound, ValidationError } from './errors';
import { zodFieldErrors } from './validation';
import { badTextInParams, scanJson } from './text-guard';
import { type KitRequest } from './http-server';
import type { Compiled } from './service-routes';

/** As body-parser (type-is) decides it: without either header there is no body to read. */
export function hasBody(req: IncomingMessage): boolean {
  return req.headers['transfer-encoding'] !== undefined || !Number.isNaN(Number(req.headers['content-length']));
}

/** What reading the body failed on, as the caller's error: a body that does not inflate or decode is a 400, not a 500. */
export function bodyReadError(err: unknown): unknown {
  if (err instanceof ApiError || typeof err !== 'object' || err === null) return err;
  const e = err as { type?: unknown; status?: unknown; message?: unknown; limit?: unknown; encoding?: unknown; charset?: unknown };
  if (e.type === 'entity.too.large') return new ApiError('payload_too_large', `The request body is larger than the limit (${e.limit} bytes).`);
  if (e.type === 'entity.parse.failed') return new BadRequest('The body is not valid JSON.');
  if (e.type === 'encoding.unsupported') return new BadRequest(`Content-Encoding ${String(e.encoding)} is not supported; send gzip, deflate, br or none.`);
  if (e.type === 'charset.unsupported') return new BadRequest(`Charset ${String(e.charset)} is not supported; send UTF-8.`);
  if (typeof e.status === 'number' && e.status >= 400 && e.status < 500) return new BadRequest(`The body could not be read (${String(e.message)}).`);
  return err;
}

/**
 * The kit's edge (see text-guard.ts): NUL or a lone surrogate in a path parameter or a query key or
 * value is a 400 naming the parameter; JSON nested deeper than JSON_MAX_DEPTH a 400; bad text in a
 * body string or key a 422 naming the field — except inside a batch's records, which the handler
 * judges one by one (a bad record is `rejected`, the rest are stored).
 */
export function guardInput(req: KitRequest, compiled: Compiled, rawParams: Record<string, string>, maxDepth: number): void {
  const inPath = badTextInParams(rawParams);
  if (inPath.length > 0) throw new BadRequest('A path parameter holds text that cannot be accepted.', inPath);
  const query = req.query as Record<string, unknown> | undefined;
  if (query) {
    const inQuery = badTextInParams(query);
    if (inQuery.length > 0) throw new BadRequest('A query parameter holds text that cannot be accepted.', inQuery);
  }
  if (req.body !== null && typeof req.body === 'object') {
    const scan = scanJson(req.body, { maxDepth, skipTextUnder: compiled.recordFields });
    if (scan.tooDeepAt !== null) {
      throw new BadRequest(`The body nests deeper than ${maxDepth} levels (JSON_MAX_DEPTH).`, [{ path: scan.tooDeepAt, message: `Nested deeper than ${maxDepth} levels.` }]);
    }
    if (scan.errors.length > 0) throw new ValidationError(scan.errors, 'The body holds text that cannot be accepted.');
  }
}

export function parseOrThrow(schema: z.ZodType, value: unknown, part: 'params' | 'query' | 'body'): any {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const errors = zodFieldErrors(parsed.error);
  if (part === 'body') throw new ValidationError(errors);
  if (part === 'params') {
    // a typed segment that is malformed (a date such as 2026-13-45) is a bad request naming it; an id that matches nothing stays 404
    const malformed = parsed.error.issues.filter(isMalformedTypedValue);
    if (malformed.length > 0) throw new BadRequest('A path parameter is malformed.', zodFieldErrors(new z.ZodError(malformed)));
    throw new NotFound('record');
  }
  throw new BadRequest('The query parameters are not valid.', errors);
}

const TYPED_FORMATS = new Set(['date', 'datetime', 'time', 'duration']);

function isMalformedTypedValue(issue: z.core.$ZodIssue): boolean {
  if (issue.code === 'invalid_format') return TYPED_FORMATS.has(issue.format);
  return issue.code === 'invalid_type' && (issue.expected === 'number' || issue.expected === 'int');
}

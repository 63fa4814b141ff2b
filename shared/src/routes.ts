import type { z } from 'zod';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { EndpointRow, Operations } from '@bop/contracts';
import type { Logger } from './logger';
import type { Principal, ReachSet } from './auth';
import type { ApiError } from './errors';
import type { Work } from './work';

type Field<K, F extends string> = K extends keyof Operations
  ? Operations[K] extends { [P in F]: infer S extends z.ZodType }
    ? z.output<S>
    : undefined
  : unknown;

/**
 * A request's unit of work (work.ts) and what the request sent. For a row other than GET the kit has
 * opened the transaction `em` is in and commits it (with what was emitted) after the handler answered;
 * a route declared `{ transaction: false }` opens its own with `ctx.transaction(…)`.
 */
export interface RouteContext<B = unknown, Q = unknown, P = unknown> extends Work {
  requestId: string;
  principal: Principal;
  /** the catalogue row (null for internal routes) */
  row: EndpointRow | null;
  body: B;
  query: Q;
  params: P;
  /** the request's entity manager: in the kit's transaction for writes */
  em: EntityManager;
  log: Logger;
  /**
   * For a route declared `{ transaction: false }` (it streams or calls out before it writes): runs
   * `fn` in a transaction of its own with a unit bound to it (emit, race retry as for other writes).
   */
  transaction<T>(fn: (work: Work) => Promise<T>): Promise<T>;
  headers: IncomingHttpHeaders;
  /**
   * the request itself, for an upload row (`form` in its contracts): the kit reads no body of a type
   * other than JSON, so the handler streams it (never whole in memory)
   */
  request: IncomingMessage;
  /** the reaches of the row's permission for a person; `{ everyone: true }` for integrations and system */
  reach(): ReachSet;
  /** throws 409 `version_mismatch` when an If-Match header names another version */
  checkVersion(current: number): void;
}

export interface RouteResult {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** bytes to stream as the answer instead of a JSON `body` (headers name their type and length) */
  stream?: Readable;
}

export type RouteHandler<B = any, Q = any, P = any> = (ctx: RouteContext<B, Q, P>) => Promise<RouteResult>;

export interface RouteOptions {
  /**
   * false: the kit opens no transaction for this write; the handler calls `ctx.transaction(…)` when it
   * writes (uploads stream their bytes first; ingestion answers per record). Default: true for rows other than GET.
   */
  transaction?: boolean;
  /** the 409 a unique violation that survives the race retry becomes (the constraint's name); default: a generic conflict */
  conflict?: (constraint: string | undefined) => ApiError;
  /** runs of the write at most when it keeps losing races (default 2: once more); a batch touching many shared rows may lose more than one */
  attempts?: number;
  /**
   * The route's own row instead of the catalogue's, for a key the catalogue does not hold (the kit's
   * own tests declare rows no area serves); its method and path must be the key's. No contract: the
   * handler reads the parsed JSON on the request.
   */
  row?: EndpointRow;
}

export interface RouteDef {
  /** `"<METHOD> <path>"` exactly as in the catalogue, or an `/internal/...` path */
  key: string;
  handler: RouteHandler;
  options?: RouteOptions;
}

/** Declares the handler of a catalogue endpoint; body, query and params are typed from the contracts. */
export function route<K extends string>(
  key: K,
  handler: (ctx: RouteContext<Field<K, 'body'>, Field<K, 'query'>, Field<K, 'params'>>) => Promise<RouteResult>,
  options?: RouteOptions,
): RouteDef {
  return { key, handler: handler as RouteHandler, options };
}

/** An internal route (service-to-service or gateway-to-service), validated with the given schemas. */
export interface InternalRouteDef<S extends { body?: z.ZodType; query?: z.ZodType } = { body?: z.ZodType; query?: z.ZodType }> extends RouteDef {
  schemas: S;
}

export function internalRoute<S extends { body?: z.ZodType; query?: z.ZodType }>(
  key: string,
  schemas: S,
  handler: (
    ctx: RouteContext<S['body'] extends z.ZodType ? z.output<S['body']> : undefined, S['query'] extends z.ZodType ? z.output<S['query']> : undefined, Record<string, string>>,
  ) => Promise<RouteResult>,
  options?: RouteOptions,
): InternalRouteDef<S> {
  return { key, schemas, handler: handler as RouteHandler, options };
}

export const ok = (body: unknown, headers?: Record<string, string>): RouteResult => ({ status: 200, body, headers });
export const created = (body: unknown): RouteResult => ({ status: 201, body });
export const noContent = (): RouteResult => ({ status: 204 });

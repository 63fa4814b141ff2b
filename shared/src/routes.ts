import type { z } from 'zod';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { EndpointRow, Operations } from '@bop/contracts';
import type { Logger } from './logger';
import type { Principal, ReachSet } from './auth';

type Field<K, F extends string> = K extends keyof Operations
  ? Operations[K] extends { [P in F]: infer S extends z.ZodType }
    ? z.output<S>
    : undefined
  : unknown;

export interface RouteContext<B = unknown, Q = unknown, P = unknown> {
  requestId: string;
  principal: Principal;
  /** the catalogue row (null for internal routes) */
  row: EndpointRow | null;
  body: B;
  query: Q;
  params: P;
  /** a request-scoped entity manager */
  em: EntityManager;
  log: Logger;
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

export interface RouteDef {
  /** `"<METHOD> <path>"` exactly as in the catalogue, or an `/internal/...` path */
  key: string;
  handler: RouteHandler;
}

/** Declares the handler of a catalogue endpoint; body, query and params are typed from the contracts. */
export function route<K extends string>(
  key: K,
  handler: (ctx: RouteContext<Field<K, 'body'>, Field<K, 'query'>, Field<K, 'params'>>) => Promise<RouteResult>,
): RouteDef {
  return { key, handler: handler as RouteHandler };
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
): InternalRouteDef<S> {
  return { key, schemas, handler: handler as RouteHandler };
}

export const ok = (body: unknown, headers?: Record<string, string>): RouteResult => ({ status: 200, body, headers });
export const created = (body: unknown): RouteResult => ({ status: 201, body });
export const noContent = (): RouteResult => ({ status: 204 });

/**
 * A service's routes compiled from the endpoint catalogue and its contracts (startService's route table).
 */
import { z } from 'zod';
import { findEndpoint, operationSchemas, RouteTable, type AreaService, type EndpointRow, type HttpMethod } from '@bop/contracts';
import type { InternalRouteDef, RouteDef } from './routes';

export interface Compiled {
  def: RouteDef;
  row: EndpointRow | null;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  status?: number;
  alsoStatuses?: readonly number[];
  /** top-level body fields holding a batch's raw records (`z.array(z.unknown())`): judged record by record by the handler */
  recordFields?: ReadonlySet<string>;
}

export const undocumented = new Set<string>();

/** Success statuses this process answered that the endpoint's operation schemas do not document (`"<key> <status>"`); a test asserts none. */
export function undocumentedStatuses(): string[] {
  return [...undocumented];
}

/** The body fields whose records a batch handler parses one by one (an array of `unknown` in the contract). */
function recordFieldsOf(body: z.ZodType | undefined): ReadonlySet<string> | undefined {
  if (!(body instanceof z.ZodObject)) return undefined;
  const fields = new Set<string>();
  for (const [key, field] of Object.entries(body.shape as Record<string, z.ZodType>)) {
    if (field instanceof z.ZodArray && field.element instanceof z.ZodUnknown) fields.add(key);
  }
  return fields.size > 0 ? fields : undefined;
}

/** Host-level GETs of a service, answered through express (not access-logged). */
export const HOST_PATHS = new Set(['/health', '/ready']);

export function compileRoutes(name: AreaService, routes: RouteDef[], internal: InternalRouteDef[]): { table: RouteTable<Compiled>; served: string[] } {
  const table = new RouteTable<Compiled>();
  const served: string[] = [];
  for (const def of routes) {
    const own = def.options?.row;
    if (own && `${own.method} ${own.path}` !== def.key) throw new Error(`${name}: route ${def.key} declares the row of ${own.method} ${own.path}`);
    if (own && findEndpoint(def.key)) throw new Error(`${name}: route ${def.key} is in the endpoint catalogue; it takes the catalogue's row`);
    const row = own ?? findEndpoint(def.key);
    if (!row) throw new Error(`${name}: route ${def.key} is not in the endpoint catalogue`);
    if (row.service !== name) throw new Error(`${name}: route ${def.key} belongs to ${row.service}`);
    const schemas = operationSchemas(def.key) ?? {};
    table.add(row.method, row.path, { def, row, ...schemas, recordFields: recordFieldsOf(schemas.body) });
    served.push(def.key);
  }
  for (const def of internal) {
    const [method, path] = def.key.split(' ');
    if (!path.startsWith('/internal/')) throw new Error(`${name}: internal route ${def.key} must live under /internal/`);
    table.add(method as HttpMethod, path, { def, row: null, body: def.schemas.body, query: def.schemas.query });
  }
  return { table, served };
}

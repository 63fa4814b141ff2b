import { OpenAPIRegistry, OpenApiGeneratorV31, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import { z } from './zod';
import { endpoints } from './catalogue/endpoints';
import type { EndpointRow } from './catalogue/types';
import { features } from './catalogue/features';
import { endpointKey } from './catalogue-lookup';
import { operationSchemas, type OperationSchemas } from './operations';
import { successStatuses } from './operation-types';
import { Problem } from './common';
import { errorCodes } from './errors';
import { addResponseExamples } from './openapi-examples';

export interface BuildOpenApiOptions {
  /** catalogue keys (`"GET /locations"`) that a running service answers; others are left out */
  served: ReadonlySet<string>;
  /** effective state of a feature switch (ancestors included); rows of disabled features are left out */
  enabledFeature: (key: string) => boolean;
  /** e.g. `https://api.example.com/api/v1` */
  serverUrl: string;
  /** base of problem `type` addresses, for the error-code descriptions */
  errorsBaseUrl?: string;
  title?: string;
  version?: string;
}

/** Tag (one per business area) for each owning service. */
const areaTags: Record<string, { name: string; description: string }> = {
  gateway: { name: 'Operational', description: 'Health, readiness and this description' },
  identity: { name: 'Identity and keys', description: 'Sign-in, sessions, users, roles, API keys, feature switches, company settings' },
  organization: { name: 'Organization', description: 'Locations, org units, departments' },
  people: { name: 'People and HR', description: 'Employees, pay rates, documents, certifications' },
  time: { name: 'Time and attendance', description: 'Punches, timesheets, pay periods, time off' },
  scheduling: { name: 'Scheduling and forecasting', description: 'Availability, shifts, schedules, swaps, forecasts' },
  sales: { name: 'Ingestion and sales', description: 'Sales transactions, summaries, online orders, invoices' },
  inventory: { name: 'Inventory', description: 'Items, stock, counts, waste, transfers, recipes' },
  purchasing: { name: 'Purchasing and ordering', description: 'Suppliers, catalogs, purchase orders, invoices' },
  cash: { name: 'Cash management', description: 'Tenders, settlements, counts, deposits, business days' },
  operations: { name: 'Forms, checklists and compliance', description: 'Forms, submissions, corrective actions, audits, sensors' },
  equipment: { name: 'Equipment', description: 'Assets, maintenance plans, work orders' },
  communication: { name: 'Team displays and communication', description: 'Announcements, recognitions, displays, notifications' },
  insights: { name: 'Reports and insights', description: 'KPIs, reports, alert rules, recommendations' },
  files: { name: 'Attachments', description: 'Files and their storage' },
  integrations: { name: 'Integrations', description: 'Integrations, manifests, config, logs, batches' },
  webhooks: { name: 'Webhook endpoints', description: 'Webhook endpoints and deliveries' },
};

const planned = new Set(features.filter((f) => f.planned).map((f) => f.key));

function operationId(row: Pick<EndpointRow, 'method' | 'path'>): string {
  const words = row.path
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1));
  return row.method.toLowerCase() + words.join('');
}

function templateParams(path: string): string[] {
  return [...path.matchAll(/\{([A-Za-z0-9_]+)\}/g)].map((m) => m[1]);
}

function isObjectSchema(s: unknown): s is z.ZodObject {
  return s instanceof z.ZodObject;
}

/** Path parameters: the operation's schema, completed with plain strings for any template parameter it lacks. */
function paramsSchema(path: string, ops: OperationSchemas | undefined): z.ZodObject | undefined {
  const names = templateParams(path);
  if (names.length === 0) return undefined;
  const given = isObjectSchema(ops?.params) ? ops.params : undefined;
  const missing = names.filter((n) => !given || !(n in given.shape));
  const extra = Object.fromEntries(missing.map((n) => [n, z.string()]));
  if (!given) return z.object(extra);
  if (missing.length === 0) return given;
  try {
    return given.extend(extra);
  } catch {
    return z.object(Object.fromEntries(names.map((n) => [n, z.string()])));
  }
}

function extensions(row: EndpointRow): Record<`x-${string}`, unknown> {
  const scope = typeof row.key === 'object' ? row.key.scope : row.key === 'not_allowed' ? 'not_allowed' : null;
  const permission = typeof row.people === 'object' ? row.people.permission : row.people;
  return {
    'x-required-scope': scope,
    'x-required-permission': permission,
    ...(typeof row.people === 'object' && row.people.orSelf ? { 'x-or-self': true } : {}),
    'x-feature': row.feature,
  };
}

function describeAccess(row: EndpointRow): string {
  const key =
    row.key === 'not_allowed' ? 'integration keys: not allowed' : row.key === 'any' ? 'integration keys: any key' : `integration keys: scope \`${row.key.scope}\``;
  const people =
    typeof row.people === 'object'
      ? `people: permission \`${row.people.permission}\`${row.people.orSelf ? ' (or own data)' : ''}`
      : row.people === 'integration_only'
        ? 'people: not allowed (integration keys only)'
        : row.people === 'public'
          ? 'no authentication'
          : `people: ${row.people}`;
  return `${key}; ${people}${row.feature ? `; feature \`${row.feature}\`` : ''}.`;
}

const problemRef = { $ref: '#/components/responses/Problem' } as const;

const successDescriptions: Record<number, string> = { 200: 'Success', 201: 'Created', 202: 'Accepted', 204: 'No content' };

const successDescriptions206 = 'Partial content: the byte range asked for with `Range`';
const binary = { type: 'string' as const, format: 'binary' };

function successResponse(status: number, ops: OperationSchemas | undefined) {
  if (ops?.binaryResponse) {
    const description = status === 206 ? successDescriptions206 : "The file's bytes, in its stored content type, with `Content-Disposition`, `ETag` (its SHA-256) and `Accept-Ranges: bytes`";
    return { description, content: { 'application/octet-stream': { schema: binary } } };
  }
  const description = (ops?.alsoStatuses?.length ? successDescriptions[status] : undefined) ?? 'Success';
  if (status === 204 || (!ops?.response && status !== 200)) return { description };
  if (ops?.response) return { description, content: { 'application/json': { schema: ops.response } } };
  return { description, content: { 'application/json': { schema: { type: 'object' as const } } } };
}

function routeConfig(row: EndpointRow, withSchemas: boolean): RouteConfig {
  const ops = withSchemas ? operationSchemas(endpointKey(row)) : undefined;
  const isPublic = row.people === 'public';
  const request: NonNullable<RouteConfig['request']> = {};
  const params = paramsSchema(row.path, ops);
  if (params) request.params = params;
  if (isObjectSchema(ops?.query)) request.query = ops.query;
  if (ops?.body && row.method !== 'GET' && row.method !== 'DELETE') {
    request.body = { required: true, content: { 'application/json': { schema: ops.body } } };
  }
  if (ops?.form && ops.formFile && ops.form instanceof z.ZodObject) {
    const fields = ops.form.extend({ [ops.formFile]: z.string().openapi({ ...binary, description: 'the file (exactly one part)' }) });
    request.body = { required: true, content: { 'multipart/form-data': { schema: fields } } };
  }
  if (row.method === 'POST') {
    request.headers = z.object({
      'Idempotency-Key': z
        .string()
        .min(1)
        .max(255)
        .optional()
        .openapi({ description: 'Replays the original response for 24 hours; the same key with another body answers 409 `conflict`.' }),
    });
  }
  const responses: RouteConfig['responses'] = {};
  for (const status of successStatuses(ops)) responses[String(status)] = successResponse(status, ops);
  responses['400'] = problemRef;
  // a public row still answers 401 to credentials it refuses (signing in with a wrong password)
  responses['401'] = problemRef;
  if (!isPublic) responses['403'] = problemRef;
  responses['404'] = problemRef;
  if (row.method !== 'GET') responses['409'] = problemRef;
  // a body, a query or a path value that breaks a rule is refused whole
  if (request.body || request.query || request.params) responses['422'] = problemRef;
  // every body has the gateway's size limit
  if (ops?.form || request.body) responses['413'] = problemRef;
  if (ops?.binaryResponse) responses['416'] = problemRef;
  responses['429'] = problemRef;
  for (const status of ops?.errorStatuses ?? []) responses[String(status)] = problemRef;
  responses.default = problemRef;
  const tag = areaTags[row.service]?.name ?? row.service;
  return {
    method: row.method.toLowerCase() as RouteConfig['method'],
    path: row.path,
    operationId: operationId(row),
    summary: row.summary.length > 120 ? `${row.summary.slice(0, 117)}…` : row.summary,
    description: `${row.summary}\n\nAccess — ${describeAccess(row)}`,
    tags: [tag],
    ...(isPublic ? { security: [] } : {}),
    ...(Object.keys(request).length > 0 ? { request } : {}),
    responses,
    ...extensions(row),
  };
}

function baseRegistry(errorsBaseUrl: string | undefined): OpenAPIRegistry {
  const registry = new OpenAPIRegistry();
  registry.register('Problem', Problem);
  registry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    description: 'An integration key, a personal key (`pk_live_…`) or a session token from `POST /auth/sign-in`.',
  });
  const codes = Object.entries(errorCodes)
    .map(([code, e]) => `\`${code}\` (${e.status})`)
    .join(', ');
  registry.registerComponent('responses', 'Problem', {
    description: `RFC 9457 problem details; branch on \`code\`: ${codes}.${errorsBaseUrl ? ` Each \`type\` is ${errorsBaseUrl}/<code>.` : ''}`,
    headers: {
      'X-Request-Id': { description: 'equals `requestId` in the body', schema: { type: 'string' } },
      'Retry-After': { description: 'seconds to wait (429 only)', schema: { type: 'integer' } },
    },
    content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
  });
  return registry;
}

function rowsFor(opts: BuildOpenApiOptions): EndpointRow[] {
  return endpoints.filter((row) => {
    if (row.service === 'gateway' && row.path.startsWith('/api/')) return false; // host-level, outside {base_url}
    if (!opts.served.has(endpointKey(row))) return false;
    if (row.feature && (planned.has(row.feature) || !opts.enabledFeature(row.feature))) return false;
    return true;
  });
}

/** Whether a route's zod schemas convert; a row whose schemas do not is described without them. */
function converts(row: EndpointRow): boolean {
  try {
    const registry = baseRegistry(undefined);
    registry.registerPath(routeConfig(row, true));
    new OpenApiGeneratorV31(registry.definitions).generateDocument({ openapi: '3.1.0', info: { title: 't', version: '0' } });
    return true;
  } catch {
    return false;
  }
}

/**
 * The OpenAPI 3.1 description of the API as deployed: served endpoints of enabled features only
 * (spec: "The description contains only endpoints of enabled features").
 */
export function buildOpenApi(opts: BuildOpenApiOptions): Record<string, any> {
  const rows = rowsFor(opts);
  const generate = (schemasFor: (row: EndpointRow) => boolean) => {
    const registry = baseRegistry(opts.errorsBaseUrl);
    for (const row of rows) registry.registerPath(routeConfig(row, schemasFor(row)));
    const usedTags = [...new Set(rows.map((r) => areaTags[r.service]?.name ?? r.service))];
    const tags = Object.values(areaTags).filter((t) => usedTags.includes(t.name));
    return new OpenApiGeneratorV31(registry.definitions).generateDocument({
      openapi: '3.1.0',
      info: {
        title: opts.title ?? 'Business operations platform API',
        version: opts.version ?? '1.0.0',
        description:
          'REST API for multi-location restaurants and shops. Authenticate with `Authorization: Bearer <key or session token>`. ' +
          'Every response carries `X-Request-Id` and `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset`; over the limit the answer is 429 `rate_limited` with `Retry-After`. ' +
          'Errors are RFC 9457 problem details with a stable `code`.',
      },
      servers: [{ url: opts.serverUrl }],
      security: [{ bearerAuth: [] }],
      tags,
    });
  };
  let doc: Record<string, any>;
  try {
    doc = generate(() => true);
  } catch {
    const ok = new Set(rows.filter(converts).map(endpointKey));
    doc = generate((row) => ok.has(endpointKey(row)));
  }
  addResponseExamples(doc, opts.errorsBaseUrl ?? DEFAULT_ERRORS_BASE_URL);
  return doc;
}

/** The kit's default `ERRORS_BASE_URL` (shared/src/config.ts), for the problem examples when none is given. */
const DEFAULT_ERRORS_BASE_URL = 'https://errors.bop.dev';

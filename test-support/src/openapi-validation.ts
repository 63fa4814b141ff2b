/**
 * Every response the suites see through the gateway is checked against the OpenAPI document (issue 41,
 * item 5): `http()` calls `checkApiResponse` for each `/api/v1/…` answer; its status must be documented
 * for the operation, and a JSON or problem body must validate (ajv, JSON Schema 2020-12 — the
 * OpenAPI 3.1 dialect) against the schema the document gives that status and content type. A mismatch
 * throws in the test that made the call (set `OPENAPI_RESPONSE_CHECK=off` to turn it off while
 * debugging something else). The document is the one the gateway serves, built in-process by the
 * runtime's builder with every feature on (the served one is a subset of it: the same schemas, fewer
 * rows); validators are compiled once per operation, status and content type, per process.
 */
import fs from 'node:fs';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { RouteTable, isRouteMatch, type HttpMethod } from '@bop/contracts';

const DOC_ID = 'https://bop.test/openapi.json';
const API_PREFIX = '/api/v1';

interface Loaded {
  doc: Record<string, any>;
  ajv: Ajv2020;
  routes: RouteTable<string>;
  validators: Map<string, ValidateFunction>;
}

let loaded: Loaded | null = null;

function load(): Loaded {
  if (loaded) return loaded;
  // built once per run by the jest set-up (BOP_OPENAPI_DOC_FILE); else here, loading every service's code
  const file = process.env.BOP_OPENAPI_DOC_FILE;
  const doc =
    file && fs.existsSync(file)
      ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, any>)
      : (require('@bop/runtime') as typeof import('@bop/runtime')).openApiDocument();
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false, discriminator: false });
  addFormats(ajv);
  ajv.addSchema({ ...doc, $id: DOC_ID });
  const routes = new RouteTable<string>();
  for (const [path, item] of Object.entries<Record<string, unknown>>(doc.paths)) {
    for (const method of Object.keys(item)) {
      if (['get', 'post', 'put', 'patch', 'delete'].includes(method)) routes.add(method.toUpperCase() as HttpMethod, path, path);
    }
  }
  loaded = { doc, ajv, routes, validators: new Map() };
  return loaded;
}

/** The served document as the checks see it (the examples test validates it the same way). */
export function openApiForTests(): Record<string, any> {
  return load().doc;
}

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/** A validator for the schema at a JSON pointer of the document (`/paths/~1locations/get/…/schema`), compiled once. */
export function schemaValidator(at: string): ValidateFunction {
  const l = load();
  let v = l.validators.get(at);
  if (!v) {
    v = l.ajv.compile({ $ref: `${DOC_ID}#${at}` });
    l.validators.set(at, v);
  }
  return v;
}

export function formatAjvErrors(v: ValidateFunction): string {
  return (v.errors ?? [])
    .slice(0, 8)
    .map((e) => `${e.instancePath || '(body)'} ${e.message}${e.params && Object.keys(e.params).length ? ` ${JSON.stringify(e.params)}` : ''}`)
    .join('; ');
}

/** Undocumented statuses and schema mismatches seen so far (a suite may assert it stays empty). */
export const openApiMismatches: string[] = [];
/** How many answers were checked in this process. */
export const openApiChecks = { count: 0 };

/**
 * Checks one gateway answer; `path` is what was requested (`/api/v1/locations?limit=2`). Paths outside
 * `/api/v1`, or that match no documented operation (404 for an unknown address), are not checked.
 */
export function checkApiResponse(method: string, path: string, status: number, contentType: string | null, body: unknown): void {
  if (process.env.OPENAPI_RESPONSE_CHECK === 'off') return;
  const url = new URL(path, 'http://x');
  if (!url.pathname.startsWith(`${API_PREFIX}/`)) return;
  check(method, url.pathname.slice(API_PREFIX.length), status, contentType, body, fail);
}

/**
 * Checks one answer of a service called directly (`TestService.call`, no gateway) the same way: a
 * mismatch fails the test that made the call. Internal paths match no operation and are not checked.
 */
export function checkServiceResponse(method: string, path: string, status: number, contentType: string | null, body: unknown): void {
  if (process.env.OPENAPI_RESPONSE_CHECK === 'off') return;
  const url = new URL(path, 'http://x');
  if (url.pathname.startsWith('/internal/')) return;
  check(method, url.pathname, status, contentType, body, fail);
}

class Recorded extends Error {}

function check(method: string, pathname: string, status: number, contentType: string | null, body: unknown, fail: (message: string) => never): void {
  try {
    checkOne(method, pathname, status, contentType, body, fail);
  } catch (err) {
    if (!(err instanceof Recorded)) throw err;
  }
}

function checkOne(method: string, pathname: string, status: number, contentType: string | null, body: unknown, fail: (message: string) => never): void {
  const l = load();
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return; // a malformed address (the fuzz suite sends them) names no operation
  }
  const m = l.routes.match(method.toUpperCase(), decoded);
  if (!isRouteMatch(m)) return;
  openApiChecks.count++;
  const template = m.value;
  const op = l.doc.paths[template][method.toLowerCase()];
  const where = `${method.toUpperCase()} ${template} → ${status}`;
  const key = String(status) in op.responses ? String(status) : 'default';
  if (!(key in op.responses) || (key === 'default' && status < 500)) {
    fail(`${where}: status not documented (documented: ${Object.keys(op.responses).join(', ')}); body ${JSON.stringify(body)?.slice(0, 300)}`);
  }
  let response = op.responses[key];
  let at = pointer('', 'paths', template, method.toLowerCase(), 'responses', key);
  if (response.$ref) {
    at = String(response.$ref).slice(1);
    response = l.doc.components.responses[at.split('/').pop()!];
  }
  const media = (contentType ?? '').split(';')[0].trim().toLowerCase();
  if (!response.content) {
    if (body !== undefined && body !== '') fail(`${where}: documented without a body, answered ${media || 'a body'}`);
    return;
  }
  if (!media.endsWith('json')) {
    if (!response.content[media] && !response.content['application/octet-stream']) fail(`${where}: content type ${media || '(none)'} not documented (${Object.keys(response.content).join(', ')})`);
    return;
  }
  if (!response.content[media]) fail(`${where}: content type ${media} not documented (${Object.keys(response.content).join(', ')})`);
  const v = schemaValidator(`${at}/content/${pointer(media)}/schema`);
  if (!v(body)) fail(`${where}: body does not match the document: ${formatAjvErrors(v)}; body ${JSON.stringify(body)?.slice(0, 400)}`);
}

function fail(message: string): never {
  openApiMismatches.push(message);
  throw new Error(`OpenAPI response check: ${message}`);
}

/**
 * Bad input never gets a 5xx (issue 13): driven by the served OpenAPI document, through the gateway of
 * the all-in-one runtime, with a fixed seed. Every operation gets requests with NUL and lone
 * surrogates in strings, keys, path ids and query values, 10,000-level nesting, huge strings and
 * arrays, wrong types, bad ids and cursors, malformed JSON and wrong content types. Every answer must
 * be below 500, and every 4xx an RFC 9457 problem with a `code`; the runtime stays up throughout.
 */
import net from 'node:net';
import { endpoints, endpointKey, features, operationSchemas, scopes, type EndpointRow } from '@bop/contracts';
import { z } from 'zod';
import * as contracts from '@bop/contracts';
import { http, startTestRuntime, type TestRuntime } from '@bop/test-support';

const SEED = 0x5eed13;
const TOTAL = 10_000;
const CONCURRENCY = 8;

/** mulberry32: a small seeded PRNG, so a failure reproduces with the same requests */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)],
    chance: (p: number) => next() < p,
  };
}
type Rng = ReturnType<typeof prng>;

type Schema = Record<string, any>;
interface Operation {
  method: string;
  path: string;
  row: EndpointRow;
  pathParams: string[];
  query: Array<{ name: string; schema: Schema }>;
  body: Schema | null;
}
interface FuzzRequest {
  method: string;
  path: string;
  cause: string;
  headers: Record<string, string>;
  body?: string;
}
interface Offence {
  method: string;
  path: string;
  cause: string;
  status: number;
  body: string;
}

let t: TestRuntime;
let base: string;
let owner: Record<string, string>;
let key: Record<string, string>;
let doc: { paths: Record<string, Record<string, any>>; components?: { schemas?: Record<string, Schema> } };
let operations: Operation[];
/** the catalogue keys the runtime serves */
const served = new Set<string>();
/** ids of real records, by the field or path segment that names them, so requests get past lookups */
const ids: Record<string, string> = {};

/** Operations that would end the test's own session or key, whatever the input. */
const SPARED = new Set(['POST /auth/sign-out', 'DELETE /auth/session', 'DELETE /auth/sessions']);

beforeAll(async () => {
  t = await startTestRuntime({ API_RATE_LIMIT_PER_MIN: '1000000', API_INGEST_RATE_LIMIT_PER_MIN: '1000000', ACCESS_LOG: 'false' });
  base = t.rt.url;
  owner = t.owner;
  // every feature on, so each operation reaches its validation
  for (const f of features) {
    const r = await http(base, 'POST', `/api/v1/features/${f.key}:enable`, { headers: owner });
    expect(r.status).toBeLessThan(300);
  }
  const reg = await http(base, 'POST', '/api/v1/integrations', {
    headers: owner,
    body: { manifest: { name: 'Fuzz', version: '1.0.0', description: 'fuzz test', scopes, webhooks: [] } },
  });
  expect(reg.status).toBe(201);
  key = { authorization: `Bearer ${reg.body.apiKey}` };
  const made = async (path: string, body: unknown, name: string) => {
    const r = await http(base, 'POST', `/api/v1${path}`, { headers: owner, body });
    expect([path, r.status]).toEqual([path, 201]);
    ids[name] = r.body.id;
  };
  await made('/org-units', { name: 'Fuzz region' }, 'orgUnit');
  await made('/locations', { name: 'Fuzz store', timezone: 'Europe/Berlin', orgUnitId: ids.orgUnit }, 'location');
  await made('/departments', { name: 'Fuzz kitchen', locationId: ids.location }, 'department');
  await made('/items', { name: 'Fuzz milk', baseUnit: 'ml' }, 'item');
  await made('/suppliers', { name: 'Fuzz supplies' }, 'supplier'); // (no locationIds: purchasing learns of the new location by event)
  await made('/roles', { name: 'Fuzz role', permissions: ['recognition.give'] }, 'role');
  for (const svc of t.rt.services) for (const k of svc.served) served.add(k);
  const openapi = await http(base, 'GET', '/api/v1/openapi.json', { headers: owner });
  expect(openapi.status).toBe(200);
  doc = openapi.body;
  const rows = new Map(endpoints.map((e) => [endpointKey(e), e]));
  operations = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [m, op] of Object.entries(item)) {
      const method = m.toUpperCase();
      if (!['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(method)) continue;
      const row = rows.get(`${method} ${path}`);
      if (!row || SPARED.has(`${method} ${path}`)) continue;
      const params: Array<{ name: string; in: string; schema?: Schema }> = (op.parameters ?? []).map((p: Schema) => resolve(p));
      const body = op.requestBody ? withRecordSchemas(resolve(resolve(op.requestBody).content?.['application/json']?.schema ?? null)) : null;
      operations.push({
        method,
        path,
        row,
        pathParams: [...path.matchAll(/\{(\w+)\}/g)].map((x) => x[1]),
        query: params.filter((p) => p.in === 'query').map((p) => ({ name: p.name, schema: p.schema ?? {} })),
        body,
      });
    }
  }
}, 180_000);

afterAll(async () => {
  await t?.close();
});

/**
 * A batch's records are `unknown` in the document ("SalesTransactionInput records; …"): give them the
 * JSON Schema of the named record contract, so records are generated (and spoiled) field by field.
 */
const recordSchemas = new Set<string>();
function withRecordSchemas(body: Schema): Schema {
  if (!body.properties) return body;
  const properties: Record<string, Schema> = {};
  for (const [k, v] of Object.entries<Schema>(body.properties)) {
    const name = /^(\w+Input) records/.exec(v.description ?? '')?.[1];
    const record = name ? (contracts as unknown as Record<string, unknown>)[name] : undefined;
    if (record instanceof z.ZodType) recordSchemas.add(name!);
    properties[k] = record instanceof z.ZodType ? { ...v, items: z.toJSONSchema(record, { io: 'input', unrepresentable: 'any' }) } : v;
  }
  return { ...body, properties };
}

function resolve(s: Schema | null): Schema {
  if (!s) return {};
  let cur = s;
  for (let i = 0; i < 20 && cur && typeof cur.$ref === 'string'; i++) {
    const name = cur.$ref.split('/').pop()!;
    cur = doc.components?.schemas?.[name] ?? (cur.$ref.includes('/parameters/') ? (doc.components as any)?.parameters?.[name] : undefined) ?? (cur.$ref.includes('/requestBodies/') ? (doc.components as any)?.requestBodies?.[name] : undefined) ?? {};
  }
  return cur ?? {};
}

/** Values that fit the contracts' usual patterns (decimals, currencies, times, dates, tags, ids …) */
const PATTERN_CANDIDATES = ['1', '1.00', 'EUR', 'en', '04:00', '2026-01-15', '2026-01-15T10:00:00Z', 'emp_x', 'x', 'X1', 'a@b.co', 'Europe/Berlin', 'DE', '#ff0000', 'x-y', 'P1D'];

/** The real record a field or path parameter names, if the test made one of its kind. */
function idFor(name: string): string | undefined {
  const n = name.replace(/Ids?$/, '').replace(/s$/, '').toLowerCase();
  const kind = n === 'parent' ? 'orgUnit' : n === 'fromlocation' || n === 'tolocation' ? 'location' : n === 'category' ? undefined : Object.keys(ids).find((k) => k.toLowerCase() === n);
  return kind ? ids[kind] : undefined;
}

/**
 * A plausible value for a schema (the skeleton a mutation spoils). `long`: every free-text string at
 * its longest valid length (the contract's maxLength, else 5,000), to find values that pass the
 * contract but not the column they land in.
 */
function sample(schema: Schema, rng: Rng, depth = 0, long = false, name = ''): unknown {
  const s = resolve(schema);
  if (depth > 6) return null;
  const known = name ? idFor(name) : undefined;
  if (known && (s.type === 'string' || (Array.isArray(s.type) && s.type.includes('string')) || s.anyOf || s.oneOf)) return known;
  if (known && s.type === 'array') return [known];
  if (s.const !== undefined) return s.const;
  if (Array.isArray(s.enum) && s.enum.length > 0) return rng.pick(s.enum);
  const alts = s.anyOf ?? s.oneOf;
  if (Array.isArray(alts) && alts.length > 0) {
    const nonNull = alts.filter((a: Schema) => resolve(a).type !== 'null');
    return sample(rng.pick(nonNull.length > 0 ? nonNull : alts), rng, depth + 1, long, name);
  }
  if (Array.isArray(s.allOf) && s.allOf.length > 0) {
    const merged: Schema = { type: 'object', properties: {}, required: [] };
    for (const part of s.allOf.map(resolve)) {
      Object.assign(merged.properties, part.properties ?? {});
      merged.required.push(...(part.required ?? []));
    }
    return sample(merged, rng, depth + 1, long, name);
  }
  const type = Array.isArray(s.type) ? (s.type.find((x: string) => x !== 'null') ?? 'null') : s.type;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      const required = new Set<string>(s.required ?? []);
      for (const [k, v] of Object.entries<Schema>(s.properties ?? {})) if (required.has(k) || rng.chance(long ? 0.9 : 0.5)) out[k] = sample(v, rng, depth + 1, long, k);
      return out;
    }
    case 'array': {
      const n = Math.max(s.minItems ?? 0, 1);
      return Array.from({ length: Math.min(n, 3) }, () => sample(s.items ?? {}, rng, depth + 1, long, name));
    }
    case 'integer':
      return s.minimum ?? 1;
    case 'number':
      return s.minimum ?? 1.5;
    case 'boolean':
      return false;
    case 'null':
      return null;
    case 'string':
      if (s.format === 'date-time') return '2026-01-15T10:00:00Z';
      if (s.format === 'date') return '2026-01-15';
      if (s.format === 'email') return 'someone@example.com';
      if (s.format === 'uri' || s.format === 'url') return 'https://example.com/x';
      if (s.pattern) {
        const re = new RegExp(s.pattern);
        const fit = PATTERN_CANDIDATES.find((c) => re.test(c));
        if (fit) return fit;
      }
      if (long && !s.pattern && !s.format) return 'x'.repeat(s.maxLength ?? 5_000);
      return 'x'.repeat(Math.max(s.minLength ?? 1, 1));
    default:
      return 'x';
  }
}

// ---- the bad things ----
const NUL = '\u0000';
const badStrings = [`abc${NUL}def`, NUL, `x\udfffy`, '\ud800', `a\ud83d`, `\udc00\ud800`, `POS${NUL}REL`];
const deep = (n: number): string => '['.repeat(n) + ']'.repeat(n);
const deepObj = (n: number): string => '{"a":'.repeat(n) + '1' + '}'.repeat(n);
const wrongTypes: unknown[] = [null, true, 0, -1, 1e308, -1e308, 1.5, 2 ** 53 + 2, [], {}, [null], 'not-a-number', '', ' ', '2026-13-45', '1e999', '-0', 'NaN', { $gt: '' }];

/** Every place a value sits in a sampled body: a path of keys and indexes. */
function slots(value: unknown, prefix: Array<string | number> = [], out: Array<Array<string | number>> = []): Array<Array<string | number>> {
  if (prefix.length > 0) out.push(prefix);
  if (Array.isArray(value)) value.forEach((v, i) => slots(v, [...prefix, i], out));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) slots(v, [...prefix, k], out);
  return out;
}

function setAt(root: any, path: Array<string | number>, v: unknown): void {
  let cur = root;
  for (let i = 0; i < path.length - 1; i++) cur = cur[path[i]];
  cur[path[path.length - 1]] = v;
}

const RAW = '\u0001RAW\u0001';
/** JSON text of `value` where a string RAW:<n> is replaced by raw JSON text `raws[n]` (for deep nesting). */
function toJson(value: unknown, raws: string[]): string {
  return JSON.stringify(value).replace(/"\\u0001RAW\\u0001(\d+)"/g, (_m, n: string) => raws[Number(n)]);
}

function pathFor(op: Operation, rng: Rng, badParam: string | null, badValue: string): string {
  return op.path.replace(/\{(\w+)\}/g, (_m, p: string) => {
    if (p === badParam) return badValue;
    if (p === 'date') return '2026-01-15';
    if (p === 'key') return rng.pick(features).key;
    if (p === 'id' && rng.chance(0.5)) {
      const known = idFor(op.path.split('/')[1].replace(/-(\w)/g, (_x, c: string) => c.toUpperCase()));
      if (known) return known;
    }
    return idFor(p) ?? `x_${p}`;
  });
}

/** Percent-encodes, a lone surrogate as the UTF-8 bytes of one (which do not decode: a malformed query) */
const enc = (s: string) => encodeURIComponent(s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD')).replace(/%EF%BF%BD/g, '%ED%B0%80');

const badPathValues = ['abc%00def', '%00', 'a%ED%B0%80b', '%E0%A4%A', '%', 'x'.repeat(5000), '..%2F..%2Fetc', "1'%20or%20'1'='1", '%F0%9F%92%A9', '-1', '0', '9'.repeat(40), 'null', '%20', 'a%2Fb', 'x%0Ay'];
const badQueryValues = ['%00', 'a%00b', '%E0%A4%A', '%ED%B0%80', 'x'.repeat(5000), '-1', '0', '1e999', 'abc', '2026-13-45', '!!!', 'eyJ4IjoxfQ', enc(Buffer.from('{"id":"\u0000"}').toString('base64')), 'true', '[]', '%7B%7D'];

function generate(op: Operation, rng: Rng, auth: Record<string, string>): FuzzRequest {
  const headers: Record<string, string> = { ...auth };
  const kinds = ['path', 'query', 'body', 'body', 'body', 'body', 'long', 'json', 'content-type', 'headers'];
  let kind = rng.pick(kinds);
  if (kind === 'path' && op.pathParams.length === 0) kind = 'query';
  if (kind === 'query' && op.query.length === 0 && rng.chance(0.5)) kind = 'body';
  let path = pathFor(op, rng, null, '');
  let cause = kind;
  let body: string | undefined;
  const hasBody = op.method !== 'GET' && op.method !== 'DELETE';
  if (kind === 'long' && !op.body) kind = 'body';
  const skeleton = op.body ? sample(op.body, rng, 0, kind === 'long') : {};
  if (hasBody) {
    body = JSON.stringify(skeleton);
    headers['content-type'] = 'application/json';
  }
  if (kind === 'path') {
    const p = rng.pick(op.pathParams);
    const v = rng.pick(badPathValues);
    path = pathFor(op, rng, p, v);
    cause = `path ${p}=${v.slice(0, 40)}`;
  } else if (kind === 'query') {
    const q = op.query.length > 0 && rng.chance(0.85) ? rng.pick(op.query).name : rng.pick(['cursor', 'limit', 'x', `k${NUL}`]);
    const v = q === 'cursor' && rng.chance(0.5) ? rng.pick(['!!!', 'AAAA', enc('\u0000'), enc(Buffer.from('not json').toString('base64url')), 'eyJhIjpbW1tbXV1dXX0', '%ED%B0%80']) : rng.pick(badQueryValues);
    const sep = rng.chance(0.2) ? `${enc(q)}=ok&` : '';
    path += `?${sep}${enc(q)}=${v}${rng.chance(0.2) ? `&${enc(q)}=${v}` : ''}`;
    cause = `query ${q}=${v.slice(0, 40)}`;
  } else if (kind === 'long') {
    cause = 'long valid strings';
  } else if (kind === 'body' || (kind === 'json' && !hasBody)) {
    // a body even where the operation takes none: it must be ignored or refused, never crash
    const root: any = hasBody && skeleton && typeof skeleton === 'object' ? skeleton : {};
    const places = slots(root);
    const raws: string[] = [];
    const m = rng.int(8);
    let what: string;
    let value: unknown;
    if (m === 0) {
      value = rng.pick(badStrings);
      what = `bad text ${JSON.stringify(value)}`;
    } else if (m === 1) {
      raws.push(rng.chance(0.5) ? deep(10_000) : deepObj(10_000));
      value = `${RAW}0`;
      what = 'nesting 10,000';
    } else if (m === 2) {
      value = rng.pick(['x'.repeat(rng.pick([300, 2_100, 70_000, 1_000_000])), `${'y'.repeat(5_000)}${NUL}`]);
      what = `huge string ${(value as string).length}`;
    } else if (m === 3) {
      value = Array.from({ length: rng.pick([1_001, 20_000]) }, (_, i) => (rng.chance(0.5) ? `v${i}` : { a: i }));
      what = `huge array ${(value as unknown[]).length}`;
    } else if (m === 4) {
      value = rng.pick(wrongTypes);
      what = `wrong type ${JSON.stringify(value)}`;
    } else if (m === 5) {
      // a bad key
      const k = rng.pick([`k${NUL}`, 'k\udfff', '__proto__', 'constructor', '']);
      const target = places.length > 0 && rng.chance(0.6) ? places.filter((p) => { let c: any = root; for (const s of p) c = c[s]; return c && typeof c === 'object' && !Array.isArray(c); }) : [];
      const host: any = target.length > 0 ? target.reduce((_a, p) => p, target[0]).reduce((c: any, s) => c[s], root) : root;
      host[k] = 'v';
      what = `bad key ${JSON.stringify(k)}`;
      value = undefined;
    } else if (m === 6) {
      value = rng.pick(['not-an-id', `itm_${NUL}`, 'x'.repeat(65), 'itm_01JD3Y7Q0ZK8M4N2P5R6S7T8V9', 'loc_\udfff']);
      what = `bad id ${JSON.stringify(value).slice(0, 40)}`;
    } else {
      value = rng.pick([-1, 0, 1e21, 2 ** 31, 2 ** 53, -(2 ** 63), 0.000001, 123456789.1234567, `${RAW}0`, `${RAW}0`]);
      if (value === `${RAW}0`) raws.push(rng.pick(['1e999', '-1e999', '-0.0e-999', '123456789012345678901234567890']));
      what = `number ${value === `${RAW}0` ? raws[0] : value}`;
    }
    if (value !== undefined) {
      if (places.length > 0 && rng.chance(0.9)) {
        const at = rng.pick(places);
        setAt(root, at, value);
        what += ` at ${at.join('.')}`;
      } else root[rng.pick(['extra', 'name', 'source', 'message'])] = value;
    }
    body = toJson(root, raws);
    headers['content-type'] = 'application/json';
    cause = `body ${what}`;
  } else if (kind === 'json') {
    body = rng.pick(['{', '{"a":', '[1,2', 'nul', '{"a":1}}', '"\\ud800"', '{"a":"\\u0000"}', '{"a":"\\x00"}', '\u0000', '{"a":1e99999}', '[]', '"text"', '123', 'null', '{"a":"\\udfff"}', '\ufeff{}']);
    headers['content-type'] = 'application/json';
    cause = `json ${JSON.stringify(body)}`;
  } else if (kind === 'content-type') {
    const ct = rng.pick(['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json; charset=latin1', 'application/json; charset=utf-16', 'application/xml', '', 'application/merge-patch+json']);
    if (ct) headers['content-type'] = ct;
    else delete headers['content-type'];
    body = rng.pick(['a=1&b=2', '<x/>', body ?? '{}', '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--']);
    cause = `content-type ${JSON.stringify(ct)}`;
  } else {
    const h = rng.pick(['if-match', 'idempotency-key', 'x-request-id', 'accept', 'content-encoding', 'x-forwarded-for']);
    const v = rng.pick(['"abc"', 'W/"-1"', '*', 'x'.repeat(8000), '\u00ff\u00fe', 'gzip', 'br', ' ', '"99999999999999999999999"', '1, 2', '::1, ::1']);
    if (h === 'content-encoding' && !hasBody) body = '{}';
    headers[h] = v;
    cause = `header ${h}=${v.slice(0, 30)}`;
  }
  if (!hasBody && body !== undefined && op.method === 'GET') {
    // fetch refuses a GET with a body: put the spoiled value in the query instead
    body = undefined;
    path += `${path.includes('?') ? '&' : '?'}q=${enc(rng.pick(badStrings))}`;
  }
  return { method: op.method, path: `/api/v1${path}`, cause, headers, body };
}

async function send(r: FuzzRequest): Promise<{ status: number; contentType: string; text: string }> {
  const res = await fetch(`${base}${r.path}`, { method: r.method, headers: r.headers, body: r.body });
  const text = await res.text();
  return { status: res.status, contentType: res.headers.get('content-type') ?? '', text };
}

function offence(r: FuzzRequest, status: number, contentType: string, text: string): Offence | null {
  if (status >= 500) return { method: r.method, path: r.path.slice(0, 200), cause: r.cause, status, body: text.slice(0, 300) };
  // the kit's backstop (db-values.ts) answered: the contract let through a value its column cannot hold
  if (status === 422 && text.includes('The database refused to store it')) return { method: r.method, path: r.path.slice(0, 200), cause: `${r.cause} (passed the contract, refused by Postgres)`, status, body: text.slice(0, 300) };
  if (status >= 400) {
    let code: unknown;
    try {
      code = JSON.parse(text).code;
    } catch {
      code = undefined;
    }
    if (!contentType.startsWith('application/problem+json') || typeof code !== 'string') {
      return { method: r.method, path: r.path.slice(0, 200), cause: `${r.cause} (not a problem: ${contentType})`, status, body: text.slice(0, 300) };
    }
  }
  return null;
}

/** One raw HTTP/1.1 exchange (for what fetch refuses to send: oversized URLs, NUL in headers). */
function rawExchange(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.write(request);
  });
}

function parseRaw(text: string): { status: number; headers: string; body: string } {
  const [head, ...rest] = text.split('\r\n\r\n');
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), headers: head.toLowerCase(), body: rest.join('\r\n\r\n') };
}

describe('the examples of issue 13', () => {
  it('answers 400 naming the parameter for a NUL in a path id, 404 for an id merely unknown', async () => {
    const nul = await http(base, 'GET', '/api/v1/items/abc%00def', { headers: owner });
    expect(nul.status).toBe(400);
    expect(nul.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(nul.body.code).toBe('bad_request');
    expect(nul.body.errors).toEqual([{ path: 'id', message: expect.stringContaining('NUL') }]);
    const unknown = await http(base, 'GET', '/api/v1/items/abcdef', { headers: owner });
    expect(unknown.status).toBe(404);
  });

  it('answers 400 naming the query parameter for a NUL in a query value', async () => {
    const r = await http(base, 'GET', '/api/v1/locations?orgUnitId=%00', { headers: owner });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('bad_request');
    expect(r.body.errors).toEqual([{ path: 'orgUnitId', message: expect.stringContaining('NUL') }]);
  });

  it('answers 400 for malformed percent-encoding in the path or the query', async () => {
    for (const path of ['/api/v1/items/%E0%A4%A', '/api/v1/locations?orgUnitId=%E0%A4%A', '/api/v1/items/a%ED%B0%80b', '/docs/%E0%A4%A', '/%E0%A4%A', '/api/health?x=%E0%A4%A']) {
      const r = await http(base, 'GET', path, { headers: owner });
      expect([path, r.status, r.body.code]).toEqual([path, 400, 'bad_request']);
    }
  });

  it('answers 422 naming the field for a lone surrogate in a body string', async () => {
    const r = await http(base, 'POST', '/api/v1/suppliers', { headers: owner, rawBody: '{"name":"Acme","locationIds":["x\\udfffy"]}' });
    expect(r.status).toBe(422);
    expect(r.body.code).toBe('validation_error');
    expect(r.body.errors).toEqual([{ path: 'locationIds[0]', message: expect.stringContaining('surrogate') }]);
  });

  it('answers 400 for a 10,000-level nested value, and keeps answering', async () => {
    const r = await http(base, 'POST', '/api/v1/integrations/self/logs', { headers: key, rawBody: `{"level":"info","message":"m","data":${deep(10_000)}}` });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('bad_request');
    expect((await http(base, 'GET', '/api/health')).status).toBe(200);
  });

  it('rejects only the record with a NUL in a sales batch; the other is stored', async () => {
    const loc = await http(base, 'POST', '/api/v1/locations', { headers: owner, body: { name: 'Fuzz Street', timezone: 'Europe/Berlin', externalId: 'POS-REL' } });
    expect(loc.status).toBe(201);
    const record = (externalId: string, locationExternalId: string) => ({
      externalId,
      locationExternalId,
      occurredAt: '2026-01-15T10:00:00Z',
      lines: [{ name: 'Coffee', quantity: '1', unitPrice: '3.00' }],
      tenders: [{ type: 'cash', amount: '3.00' }],
      subtotal: '3.00',
      tax: '0',
      total: '3.00',
      currency: 'EUR',
    });
    // the sales service learns of the new location from organization's event
    for (let i = 0; i < 100; i++) {
      const probe = await http(base, 'POST', '/api/v1/sales/transactions:batch', { headers: key, body: { source: 'pos', transactions: [record('t-0', 'POS-REL')] } });
      expect(probe.status).toBe(202);
      if (probe.body.results[0].status !== 'rejected') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const body = JSON.stringify({ source: 'pos', transactions: [record('t-1', 'POS-REL'), record('t-2', `POS${NUL}REL`)] });
    expect(body).toContain('POS\\u0000REL');
    const r = await http(base, 'POST', '/api/v1/sales/transactions:batch', { headers: key, rawBody: body });
    expect(r.status).toBe(202);
    expect(r.body.results[0]).toMatchObject({ index: 0, status: 'created' });
    expect(r.body.results[1]).toMatchObject({ index: 1, externalId: 't-2', status: 'rejected', errors: [{ path: 'locationExternalId', message: expect.stringContaining('NUL') }] });
    // a NUL in a batch-level field refuses the whole batch
    const whole = await http(base, 'POST', '/api/v1/sales/transactions:batch', { headers: key, rawBody: JSON.stringify({ source: `p${NUL}s`, transactions: [record('t-3', 'POS-REL')] }) });
    expect(whole.status).toBe(422);
    expect(whole.body.errors).toEqual([{ path: 'source', message: expect.stringContaining('NUL') }]);
  });

  it('judges bad text per record on every batch endpoint, and refuses a bad batch-level field whole', async () => {
    // a 202 with a body is a batch, except a report export: one background job, not records
    const notBatches = new Set(['POST /report-exports', 'POST /webhook-endpoints/{id}:replay']);
    const batches = endpoints.filter((e) => operationSchemas(endpointKey(e))?.status === 202 && operationSchemas(endpointKey(e))?.body && served.has(endpointKey(e)) && !notBatches.has(endpointKey(e)));
    expect(batches.map(endpointKey).sort()).toEqual(['POST /cash/bank-transactions', 'POST /cash/settlements', 'POST /cash/tenders', 'POST /demand-drivers', 'POST /sales-summaries', 'POST /sales/transactions:batch', 'POST /sensor-readings', 'POST /time/punches:batch']);
    const fields: Record<string, string> = { '/demand-drivers': 'drivers', '/cash/tenders': 'tenders', '/cash/settlements': 'settlements', '/sales-summaries': 'summaries', '/time/punches:batch': 'punches', '/sensor-readings': 'readings' };
    const field = (e: EndpointRow) => fields[e.path] ?? 'transactions';
    for (const e of batches) {
      const records = [{ externalId: 'ok-1' }, { externalId: `bad${NUL}`, note: 'x\udfffy' }, { externalId: 'bad-2', ['k\ud800']: 1 }];
      const r = await http(base, e.method, `/api/v1${e.path}`, { headers: key, rawBody: JSON.stringify({ source: 'pos', [field(e)]: records }) });
      expect([endpointKey(e), r.status]).toEqual([endpointKey(e), 202]);
      expect(r.body.results[1]).toMatchObject({ index: 1, externalId: null, status: 'rejected' });
      expect(r.body.results[1].errors.map((x: { path: string }) => x.path).sort()).toEqual(['externalId', 'note']);
      expect(r.body.results[2]).toMatchObject({ index: 2, externalId: 'bad-2', status: 'rejected', errors: [{ path: 'k\ufffd', message: expect.stringMatching(/surrogate/) }] });
      // issue 13 item 2: a NUL source refuses the batch before anything is stored or published
      const whole = await http(base, e.method, `/api/v1${e.path}`, { headers: key, rawBody: `{"source":"\\u0000","${field(e)}":[null]}` });
      expect([endpointKey(e), whole.status, whole.body.code, whole.body.errors]).toEqual([endpointKey(e), 422, 'validation_error', [{ path: 'source', message: expect.stringMatching(/NUL/) }]]);
    }
  });

  it('answers an oversized URL or header and a NUL in a header with a problem body', async () => {
    const port = Number(new URL(base).port);
    for (const request of [
      `GET /api/v1/items?x=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
      `GET /api/v1/items HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      `GET /api/v1/items HTTP/1.1\r\nHost: x\r\nX-Nul: a\u0000b\r\n\r\n`,
    ]) {
      const r = parseRaw(await rawExchange(port, request));
      expect(r.status).toBeGreaterThanOrEqual(400);
      expect(r.status).toBeLessThan(500);
      expect(r.headers).toContain('content-type: application/problem+json');
      expect(JSON.parse(r.body)).toMatchObject({ code: 'bad_request', status: r.status });
    }
    // and the services' listeners answer the same way
    const svc = t.rt.services[0];
    const r = parseRaw(await rawExchange(svc.port, `GET /health?x=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`));
    expect(r.status).toBe(431);
    expect(JSON.parse(r.body).code).toBe('bad_request');
  });
});

describe('fuzzing every operation of the OpenAPI document', () => {
  it(`answers ${TOTAL} generated bad requests without a 5xx, each 4xx a problem`, async () => {
    expect(operations.length).toBeGreaterThan(100);
    expect([...recordSchemas].sort()).toEqual(['BankTransactionInput', 'DemandDriverInput', 'PunchInput', 'SalesSummaryInput', 'SalesTransactionInput', 'SensorReadingInput', 'SettlementInput', 'TenderTotalInput']);
    const rng = prng(SEED);
    const requests: FuzzRequest[] = [];
    for (let i = 0; i < TOTAL; i++) {
      const op = operations[i % operations.length];
      const auth = op.row.people === 'integration_only' ? key : op.row.people === 'public' ? (rng.chance(0.5) ? {} : owner) : rng.chance(0.15) && op.row.key !== 'not_allowed' ? key : owner;
      requests.push(generate(op, rng, auth));
    }
    const offences: Offence[] = [];
    const statuses = new Map<number, number>();
    const byKind = new Map<string, Map<number, number>>();
    let sent = 0;
    let next = 0;
    const worker = async () => {
      while (next < requests.length) {
        const r = requests[next++];
        try {
          const res = await send(r);
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          const kind = r.cause.split(' ')[0];
          const byStatus = byKind.get(kind) ?? new Map<number, number>();
          byStatus.set(res.status, (byStatus.get(res.status) ?? 0) + 1);
          byKind.set(kind, byStatus);
          const o = offence(r, res.status, res.contentType, res.text);
          if (o) offences.push(o);
        } catch (err) {
          offences.push({ method: r.method, path: r.path.slice(0, 200), cause: `${r.cause} (no answer: ${(err as Error).message})`, status: 0, body: '' });
        }
        sent++;
        if (sent % 1000 === 0) {
          // up throughout, not only at the end
          const health = await fetch(`${base}/api/health`).then((res) => res.status, (err: Error) => err.message);
          if (health !== 200) offences.push({ method: 'GET', path: '/api/health', cause: `after ${sent} requests`, status: typeof health === 'number' ? health : 0, body: String(health) });
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    expect(sent).toBe(TOTAL);
    // what the requests met (a fuzz run that only meets 401/404 would prove little)
    console.log(`fuzz: ${sent} requests over ${operations.length} operations; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))}; by kind ${JSON.stringify(Object.fromEntries([...byKind].map(([k, m]) => [k, Object.fromEntries(m)])))}`);
    if (offences.length > 0) {
      const distinct = new Map<string, Offence>();
      for (const o of offences) distinct.set(`${o.method} ${o.path.split('?')[0]} ${o.cause.split(' at ')[0]}`, o);
      console.error(`${offences.length} offending answers (${distinct.size} distinct); the first ones:\n${[...distinct.values()].slice(0, 40).map((o) => JSON.stringify(o)).join('\n')}`);
    }
    expect(offences.slice(0, 20)).toEqual([]);
    const health = await http(base, 'GET', '/api/health');
    expect(health.status).toBe(200);
    const ready = await http(base, 'GET', '/api/ready');
    expect(ready.status).toBe(200);
  }, 600_000);
});

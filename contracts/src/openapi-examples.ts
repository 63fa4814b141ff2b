/**
 * Examples of the OpenAPI document's responses, composed from the schemas: a schema's own `example`
 * (attached once in the contracts, e.g. `Timestamp`, `IsoDate`, ids) wins; otherwise a value is derived
 * from its type, format, enum and bounds, and for plain strings from the field's name (ids get their
 * real prefix — `locationId` → `loc_…`, an object's own `id` the prefix of its component or resource —
 * money and quantities are decimal strings, dates ISO dates). List envelopes so wrap an item example.
 * Problem responses get one RFC 9457 example per status (a response component each: `NotFound`, …).
 */
import { errorCodes, type ErrorCode } from './errors';
import { idPrefixes, type IdKind } from './ids';

type Schema = Record<string, any>;

const ULID = '01JD3Y7Q0ZK8M4N2P5R6S7T8V9';
const TIMESTAMP = '2026-11-21T09:30:00Z';
const DATE = '2026-11-21';

const camel = (words: string[]) => words.map((w, i) => (i === 0 ? w : w[0].toUpperCase() + w.slice(1))).join('');
const singular = (w: string) => (w.endsWith('ies') ? `${w.slice(0, -3)}y` : w.endsWith('sses') ? w.slice(0, -2) : w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w);

function prefixOf(kind: string | undefined): string | undefined {
  if (!kind) return undefined;
  const k = kind[0].toLowerCase() + kind.slice(1);
  return (idPrefixes as Record<string, string>)[k] ?? (idPrefixes as Record<string, string>)[singular(k)];
}

/** The id kind a path's records have: `/employees/{id}/pay-rates` → payRate, `/sales/transactions:batch` → salesTransaction. */
export function resourceKind(path: string): IdKind | undefined {
  const words = path
    .split('/')
    .filter((s) => s && !s.startsWith('{'))
    .map((s) => s.replace(/:.*$/, ''))
    .filter(Boolean);
  for (let i = words.length - 1; i >= 0; i--) {
    const last = singular(words[i]).split('-');
    const candidates = [camel(last), ...(i > 0 ? [camel([...singular(words[i - 1]).split('-'), ...last]), camel([...words[i - 1].split('-'), ...last])] : [])];
    for (const c of candidates) if (c in idPrefixes) return c as IdKind;
  }
  return undefined;
}

const idOf = (prefix: string) => `${prefix}_${ULID}`;

/** A plain string's example by the field's name (first match wins). */
const byName: Array<[RegExp, string | ((name: string) => string | undefined)]> = [
  [/^externalId$|ExternalId$/, 'POS-1042'],
  [/^(id|ids)$/, () => undefined],
  [/Ids?$/, (n) => (prefixOf(n.replace(/Ids?$/, '')) ? idOf(prefixOf(n.replace(/Ids?$/, ''))!) : undefined)],
  [/At$/, TIMESTAMP],
  [/(Cutoff|Time)$/, '05:00'],
  [/^path$/, 'lines[0].quantity'],
  [/(Date|Day|Days|^date|From|Until|^periodStart|^periodEnd)$/, DATE],
  [/^nextCursor$/, 'eyJpZCI6ImxvY18wMUpEM1k3UTBaIn0'],
  [/^email$|Email$/, 'ada@example.com'],
  [/phone/i, '+1 555 0100 123'],
  [/^timezone$/, 'America/New_York'],
  [/^currency$/, 'USD'],
  [/^country$/, 'US'],
  [/^line1$/, '12 Main Street'],
  [/^line2$/, 'Suite 4'],
  [/^city$/, 'Springfield'],
  [/^region$/, 'IL'],
  [/^postalCode$/, '62701'],
  [/^(url|.*Url)$/, 'https://shop.example.com/webhooks/bop'],
  [/^positions?$/, 'Cook'],
  [/^unit$/, 'kg'],
  [/^(quantity|.*Quantity|onHand|reserved|available|parLevel|packSize|expected|difference|baseQuantity.*)$/i, '12'],
  [/hours$|^overtime$/i, '7.5'],
  [/percent|weight|points|threshold|^min$|^max$/i, '2.5'],
  [/amount|total|price|cost|value|tax|discount|gross|sales|overShort|balance|^change$|^subtotal$/i, '12.50'],
  [/^(name|.*Name)$/, (n) => (/first/i.test(n) ? 'Ada' : /last/i.test(n) ? 'Lovelace' : /item/i.test(n) ? 'Whole milk 1 l' : 'Main Street')],
  [/^(title|label)$/, 'Opening checklist'],
  [/reason$/i, 'Damaged on delivery'],
  [/^(note|notes|comment|description|message|text|body|help|explanation|resolution|approvalNote)$/, 'Checked by the morning shift'],
  [/^(source|platform|channel)$/, 'pos'],
  [/^(reference|number|code|.*Number|.*Code|.*Sku|.*Barcode)$/, 'A-1042'],
  [/^requestId$/, idOf('req')],
];

function stringExample(s: Schema, name: string, kind: string | undefined): string {
  const candidates: Array<string | undefined> = [];
  switch (s.format) {
    case 'date-time':
      candidates.push(TIMESTAMP);
      break;
    case 'date':
      candidates.push(DATE);
      break;
    case 'time':
      candidates.push('09:00:00');
      break;
    case 'email':
      candidates.push('ada@example.com');
      break;
    case 'uri':
    case 'url':
      candidates.push('https://shop.example.com/webhooks/bop');
      break;
    case 'uuid':
      candidates.push('3f2b8c1e-6d4a-4f7b-9a2e-5c1d7e8f9a0b');
      break;
    case 'binary':
      candidates.push('(bytes)');
      break;
  }
  if (name === 'id' && prefixOf(kind)) candidates.push(idOf(prefixOf(kind)!));
  for (const [re, v] of byName) {
    if (!re.test(name)) continue;
    const value = typeof v === 'function' ? v(name) : v;
    if (value !== undefined) {
      candidates.push(value);
      break;
    }
  }
  if (s.pattern) candidates.push('12.50', '12', '0.5', '09:00', '01-01', 'USD', 'en-US', '123456', 'net_sales', '1.4.0', DATE, idOf('emp'), idOf('bat'));
  candidates.push(name === 'id' ? idOf('id') : name);
  const fits = (c: string) =>
    (!s.pattern || new RegExp(s.pattern, 'u').test(c)) && (s.minLength === undefined || c.length >= s.minLength) && (s.maxLength === undefined || c.length <= s.maxLength);
  return candidates.find((c): c is string => c !== undefined && fits(c)) ?? candidates.find((c): c is string => c !== undefined)!;
}

function numberExample(s: Schema, name: string): number {
  const batch: Record<string, number> = { received: 3, created: 2, updated: 0, unchanged: 0, duplicate: 0, rejected: 1, held: 0 };
  let v = name in batch ? batch[name] : /count/i.test(name) ? 3 : /percent|rate/i.test(name) ? 12.5 : 1;
  if (s.type === 'integer' || (Array.isArray(s.type) && s.type.includes('integer'))) v = Math.round(v);
  if (typeof s.minimum === 'number' && v < s.minimum) v = s.minimum;
  if (typeof s.exclusiveMinimum === 'number' && v <= s.exclusiveMinimum) v = s.exclusiveMinimum + 1;
  if (typeof s.maximum === 'number' && v > s.maximum) v = s.maximum;
  if (typeof s.exclusiveMaximum === 'number' && v >= s.exclusiveMaximum) v = s.exclusiveMaximum - 1;
  return v;
}

export class ExampleComposer {
  private readonly stack: string[] = [];

  constructor(private readonly schemas: Record<string, Schema>) {}

  /** An example of `schema`; `name` is the field's name, `kind` the id kind of the enclosing record. */
  compose(schema: Schema | undefined, name = '', kind?: string): unknown {
    if (!schema || typeof schema !== 'object') return null;
    if (schema.$ref) {
      const ref = String(schema.$ref).replace('#/components/schemas/', '');
      const target = this.schemas[ref];
      if (!target || this.stack.includes(ref)) return undefined;
      this.stack.push(ref);
      try {
        return this.compose(target, name, prefixOf(ref) ? ref : kind);
      } finally {
        this.stack.pop();
      }
    }
    if (schema.example !== undefined) return schema.example;
    if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
    if (schema.const !== undefined) return schema.const;
    if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum.find((v: unknown) => v !== null) ?? schema.enum[0];
    if (schema.default !== undefined && schema.default !== null) return schema.default;
    for (const key of ['oneOf', 'anyOf'] as const) {
      if (!Array.isArray(schema[key])) continue;
      const options = schema[key] as Schema[];
      const pick = options.find((o) => o.type !== 'null') ?? options[0];
      return this.compose(pick, name, kind);
    }
    if (Array.isArray(schema.allOf)) {
      const parts = schema.allOf.map((p: Schema) => this.compose(p, name, kind));
      return parts.every((p: unknown) => p && typeof p === 'object' && !Array.isArray(p)) ? Object.assign({}, ...parts) : parts[0];
    }
    const types: string[] = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : schema.properties ? ['object'] : [];
    const type = types.find((t) => t !== 'null') ?? types[0];
    switch (type) {
      case 'object': {
        const out: Record<string, unknown> = {};
        for (const [prop, sub] of Object.entries<Schema>(schema.properties ?? {})) {
          const v = this.compose(sub, prop, kind);
          if (v !== undefined) out[prop] = v;
        }
        return out;
      }
      case 'array': {
        const item = this.compose(schema.items, singular(name), kind);
        if (item === undefined) return [];
        const n = Math.max(1, schema.minItems ?? 1);
        return schema.maxItems === 0 ? [] : Array.from({ length: n }, () => item);
      }
      case 'string':
        return stringExample(schema, name, kind);
      case 'integer':
      case 'number':
        return numberExample(schema, name);
      case 'boolean':
        return true;
      case 'null':
        return null;
      default:
        return {};
    }
  }
}

/** The code each problem status is exemplified with, and the response component's name. */
const problemStatuses: Record<string, { name: string; code: ErrorCode; detail: string; errors?: Array<{ path: string; message: string }> }> = {
  '400': { name: 'BadRequest', code: 'bad_request', detail: 'Malformed JSON in the request body.' },
  '401': { name: 'Unauthorized', code: 'unauthorized', detail: 'Missing, invalid, expired or revoked key.' },
  '403': { name: 'Forbidden', code: 'forbidden', detail: 'The key lacks the scope, or the person lacks the permission.' },
  '404': { name: 'NotFound', code: 'not_found', detail: 'No such record.' },
  '409': { name: 'Conflict', code: 'conflict', detail: 'Idempotency-Key reused with a different body.' },
  '412': { name: 'PreconditionFailed', code: 'version_mismatch', detail: 'If-Match does not match the current version.' },
  '413': { name: 'PayloadTooLarge', code: 'payload_too_large', detail: 'The upload is larger than the limit.' },
  '416': { name: 'RangeNotSatisfiable', code: 'range_not_satisfiable', detail: 'The byte range lies outside the file.' },
  '422': { name: 'ValidationError', code: 'validation_error', detail: 'One or more fields are invalid.', errors: [{ path: 'lines[0].quantity', message: 'Must be a decimal string such as "12.50".' }] },
  '429': { name: 'TooManyRequests', code: 'rate_limited', detail: 'Over the rate limit; retry after the Retry-After seconds.' },
  '503': { name: 'ServiceUnavailable', code: 'service_unavailable', detail: 'A part of the service is not reachable right now.' },
};

export function problemExample(code: ErrorCode, errorsBase: string, detail?: string, errors?: Array<{ path: string; message: string }>) {
  return {
    type: `${errorsBase.replace(/\/$/, '')}/${code}`,
    title: errorCodes[code].title,
    status: errorCodes[code].status,
    code,
    ...(detail ? { detail } : {}),
    requestId: idOf('req'),
    ...(errors ? { errors } : {}),
  };
}

/**
 * Adds an example to every JSON response of `doc` (in place) and splits the shared `Problem` response
 * into one component per status, each with its RFC 9457 example (`default`: 500 and 503).
 */
export function addResponseExamples(doc: Record<string, any>, errorsBase: string): void {
  const schemas: Record<string, Schema> = doc.components?.schemas ?? {};
  const composer = new ExampleComposer(schemas);
  const shared = doc.components?.responses?.Problem;
  const used = new Set<string>();
  for (const [path, item] of Object.entries<Record<string, any>>(doc.paths ?? {})) {
    const kind = resourceKind(path);
    for (const op of Object.values<Record<string, any>>(item)) {
      if (!op || typeof op !== 'object' || !op.responses) continue;
      for (const [status, response] of Object.entries<Record<string, any>>(op.responses)) {
        if (response.$ref === '#/components/responses/Problem') {
          const p = problemStatuses[status];
          if (p) {
            op.responses[status] = { $ref: `#/components/responses/${p.name}` };
            used.add(status);
          }
          continue;
        }
        for (const [type, media] of Object.entries<Record<string, any>>(response.content ?? {})) {
          if (type === 'application/octet-stream' || media.example !== undefined || media.examples !== undefined) continue;
          media.example = composer.compose(media.schema, '', kind);
        }
      }
    }
  }
  if (!shared) return;
  const codesOf = (status: number) =>
    (Object.keys(errorCodes) as ErrorCode[])
      .filter((c) => errorCodes[c].status === status)
      .map((c) => `\`${c}\``)
      .join(', ');
  for (const status of [...used].sort()) {
    const p = problemStatuses[status];
    doc.components.responses[p.name] = {
      description: `${status} ${errorCodes[p.code].title}: RFC 9457 problem details with \`code\` ${codesOf(Number(status))}`,
      headers: shared.headers,
      content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' }, example: problemExample(p.code, errorsBase, p.detail, p.errors) } },
    };
  }
  shared.content['application/problem+json'].examples = {
    internal_error: { summary: '500', value: problemExample('internal_error', errorsBase, 'Something failed on the server; retry with backoff and quote requestId.') },
    service_unavailable: { summary: '503', value: problemExample('service_unavailable', errorsBase, problemStatuses['503'].detail) },
  };
}

/**
 * Every response of every operation in the document has an example, and each example validates
 * against its own schema (ajv, JSON Schema 2020-12: the OpenAPI 3.1 dialect) — issue 41, item 5.
 * The document is the gateway's builder's with every served row and every feature on (the
 * served document is a subset of it).
 */
import { checkApiResponse, formatAjvErrors, openApiForTests, openApiMismatches, schemaValidator } from '@bop/test-support';

const doc = openApiForTests();
const esc = (p: string) => p.replace(/~/g, '~0').replace(/\//g, '~1');

interface Case {
  where: string;
  at: string;
  examples: unknown[];
}

/** Each media type of each response (a `$ref`'d problem response once per component). */
function cases(): Case[] {
  const out: Case[] = [];
  const add = (where: string, at: string, content: Record<string, any>) => {
    for (const [type, media] of Object.entries<Record<string, any>>(content)) {
      const examples = media.example !== undefined ? [media.example] : Object.values<Record<string, any>>(media.examples ?? {}).map((e) => e.value);
      out.push({ where: `${where} ${type}`, at: `${at}/content/${esc(type)}/schema`, examples });
    }
  };
  for (const [path, item] of Object.entries<Record<string, any>>(doc.paths)) {
    for (const [method, op] of Object.entries<Record<string, any>>(item)) {
      for (const [status, response] of Object.entries<Record<string, any>>(op.responses)) {
        if (response.$ref) continue;
        add(`${method.toUpperCase()} ${path} ${status}`, `/paths/${esc(path)}/${method}/responses/${status}`, response.content ?? {});
      }
    }
  }
  for (const [name, response] of Object.entries<Record<string, any>>(doc.components.responses)) add(`response ${name}`, `/components/responses/${name}`, response.content ?? {});
  return out;
}

describe('OpenAPI response examples', () => {
  const all = cases();

  it('covers every operation and every problem status', () => {
    expect(all.length).toBeGreaterThan(300);
    expect(Object.keys(doc.components.responses).sort()).toEqual(
      expect.arrayContaining(['BadRequest', 'Conflict', 'Forbidden', 'NotFound', 'Problem', 'TooManyRequests', 'Unauthorized', 'ValidationError']),
    );
    // every problem response of an operation points to the component of its status (with its example)
    for (const item of Object.values<Record<string, any>>(doc.paths))
      for (const op of Object.values<Record<string, any>>(item))
        for (const [status, r] of Object.entries<Record<string, any>>(op.responses))
          if (r.$ref) expect([status, r.$ref]).toEqual([status, status === 'default' ? '#/components/responses/Problem' : expect.not.stringMatching(/\/Problem$/)]);
  });

  it('every JSON response has an example (file downloads, application/octet-stream, are bytes: no example)', () => {
    const missing = all.filter((c) => c.examples.length === 0 && !c.where.endsWith('application/octet-stream')).map((c) => c.where);
    expect(missing).toEqual([]);
  });

  it('every example validates against its own schema', () => {
    const wrong: string[] = [];
    for (const c of all) {
      const v = schemaValidator(c.at);
      for (const e of c.examples) if (!v(e)) wrong.push(`${c.where}: ${formatAjvErrors(v)} — ${JSON.stringify(e).slice(0, 300)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('examples are realistic: prefixed ids, decimal strings, ISO dates, list envelopes around an item', () => {
    const list = doc.paths['/locations'].get.responses['200'].content['application/json'].example;
    expect(list).toEqual({ data: [expect.objectContaining({ id: expect.stringMatching(/^loc_/), timezone: 'America/New_York' })], nextCursor: expect.any(String), hasMore: true });
    const problem = doc.components.responses.ValidationError.content['application/problem+json'].example;
    expect(problem).toMatchObject({ status: 422, code: 'validation_error', requestId: expect.stringMatching(/^req_/), errors: [{ path: 'lines[0].quantity' }] });
  });
});

describe('nullable references', () => {
  // zod-to-openapi 9.1 renders `X.nullable()` of a registered schema X as a plain `$ref` and marks the
  // component X itself nullable (or, inside `.extend`, as an allOf that null can never satisfy:
  // asteasolutions/zod-to-openapi#387); contracts write `z.union([X, z.null()])` instead (anyOf with null)
  it('no component accepts null on its own, and no allOf pairs a reference with a null type', () => {
    const wrong: string[] = [];
    for (const [name, schema] of Object.entries<Record<string, any>>(doc.components.schemas))
      if (Array.isArray(schema.type) && schema.type.includes('null')) wrong.push(`component ${name} is nullable`);
    const walk = (o: unknown, at: string) => {
      if (!o || typeof o !== 'object') return;
      const allOf = (o as Record<string, any>).allOf;
      if (Array.isArray(allOf) && allOf.some((x) => x?.$ref) && allOf.some((x) => x?.type === 'null' || (Array.isArray(x?.type) && x.type.includes('null')))) wrong.push(at);
      for (const [k, v] of Object.entries(o)) walk(v, `${at}/${k}`);
    };
    walk(doc, '#');
    expect(wrong).toEqual([]);
  });
});

describe('the response check of test-support (every /api/v1 answer the suites see through http())', () => {
  const problem = { type: 'https://errors.bop.dev/not_found', title: 'Not found', status: 404, code: 'not_found', requestId: 'req_1' };

  it('accepts a documented status and body', () => {
    expect(() => checkApiResponse('GET', '/api/v1/locations?limit=1', 200, 'application/json', { data: [], nextCursor: null, hasMore: false })).not.toThrow();
    expect(() => checkApiResponse('GET', '/api/v1/locations/loc_1', 404, 'application/problem+json', problem)).not.toThrow();
    expect(() => checkApiResponse('GET', '/health', 200, 'application/json', { anything: 1 })).not.toThrow(); // outside /api/v1
  });

  it('fails on a body that does not match, an undocumented status or content type', () => {
    expect(() => checkApiResponse('GET', '/api/v1/locations', 200, 'application/json', { data: 'x' })).toThrow(/GET \/locations → 200: body does not match the document: .*\/data must be array/);
    expect(() => checkApiResponse('GET', '/api/v1/locations', 418, 'application/problem+json', problem)).toThrow(/status not documented/);
    expect(() => checkApiResponse('GET', '/api/v1/locations/loc_1', 404, 'application/json', problem)).toThrow(/content type application\/json not documented/);
    expect(() => checkApiResponse('GET', '/api/v1/locations/loc_1', 404, 'application/problem+json', { ...problem, code: 'nope' })).toThrow(/\/code must be equal to one of the allowed values/);
    expect(openApiMismatches.length).toBe(4);
  });
});

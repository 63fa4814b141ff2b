/**
 * The documents' examples are what the API accepts (issue 13, item 9: the README's sales example was
 * rejected because its tenders did not add up; issue 37, item 5: the areas' pages moved to docs/).
 *
 * - Every `curl … -d '…'` of README.md, docs/*.md and bench/README.md names a catalogue endpoint, and
 *   its JSON body passes that endpoint's request-body contract (the schema the service parses it with
 *   before any handler: a body that fails it is a 422). The records of a batch (`transactions`,
 *   `punches`, …), which the handler judges one by one, pass the record schema the contract names.
 *   The path parameters of every curl pass the endpoint's parameter schema.
 * - Some examples are also sent as written through a running runtime.
 */
import { getOpenApiMetadata } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import * as contracts from '@bop/contracts';
import { apiRouteTable, endpointKey, isRouteMatch, operationSchemas } from '@bop/contracts';
import { eventually, http, startTestRuntime, type TestRuntime } from '@bop/test-support';
import { codeBlocks, curlCalls, documentFiles, readDocument, section, type CurlCall } from './markdown';

/** The JSON body (`-d '…'`) of the first curl with one in the first shell block of a page, or of its `## <heading>` section. */
function exampleBody(file: string, heading?: string): any {
  const text = readDocument(file);
  const part = heading === undefined ? text : section(text, heading);
  if (part === undefined) throw new Error(`${file} has no section "${heading}"`);
  const block = codeBlocks(part).find((b) => b.lang === 'sh');
  const data = block && curlCalls(block.text).find((c) => c.data !== undefined)?.data;
  if (data === undefined) throw new Error(`${file}${heading ? ` section "${heading}"` : ''} has no curl -d '…' example`);
  return JSON.parse(data);
}

interface Example extends CurlCall {
  where: string;
}

const examples: Example[] = documentFiles().flatMap((file) =>
  codeBlocks(readDocument(file))
    .filter((b) => b.lang === 'sh')
    .flatMap((b) => curlCalls(b.text).map((c) => ({ ...c, where: `${file}:${b.line}` }))),
);
const withBody = examples.filter((e) => e.data !== undefined);
const routes = apiRouteTable();

function issues(error: z.ZodError): string[] {
  return error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
}

/** The record schema a batch field's contract names ("PunchInput records; …"), from the contracts package. */
function recordSchemaOf(field: z.ZodType): z.ZodType | undefined {
  const name = /^(\w+) records\b/.exec(getOpenApiMetadata(field)?.description ?? '')?.[1];
  const schema = name ? (contracts as Record<string, unknown>)[name] : undefined;
  return schema instanceof z.ZodType ? schema : undefined;
}

/** What the API would refuse before any handler runs (empty: the example passes its contract). */
function refusals(e: Example): string[] {
  if (e.path === null) return [`${e.url}: not under the API's base ($BASE or …/api/v1)`];
  const match = routes.match(e.method, e.path);
  if (!isRouteMatch(match)) return [`${e.method} ${e.path}: not an endpoint of the catalogue`];
  const key = endpointKey(match.value);
  const ops = operationSchemas(key);
  if (!ops) return [`${key}: no operation schemas (not served)`];
  const out: string[] = [];
  if (ops.params) {
    const params = ops.params.safeParse(match.params);
    if (!params.success) out.push(...issues(params.error).map((m) => `${key} path: ${m}`));
  }
  if (e.data === undefined) return out;
  if (!ops.body) return [...out, `${key}: takes no JSON body, yet the example sends one`];
  let body: unknown;
  try {
    body = JSON.parse(e.data);
  } catch (err) {
    return [...out, `${key}: the -d text is not JSON (${(err as Error).message})`];
  }
  const parsed = ops.body.safeParse(body);
  if (!parsed.success) return [...out, ...issues(parsed.error).map((m) => `${key} body: ${m}`)];
  if (ops.body instanceof z.ZodObject && body && typeof body === 'object') {
    for (const [field, schema] of Object.entries(ops.body.shape as Record<string, z.ZodType>)) {
      if (!(schema instanceof z.ZodArray && schema.element instanceof z.ZodUnknown)) continue;
      const record = recordSchemaOf(schema);
      if (!record) {
        out.push(`${key}: the contract names no record schema for ${field}`);
        continue;
      }
      ((body as Record<string, unknown>)[field] as unknown[]).forEach((r, i) => {
        const res = record.safeParse(r);
        if (!res.success) out.push(...issues(res.error).map((m) => `${key} body ${field}[${i}].${m}`));
      });
    }
  }
  return out;
}

describe('curl examples of README.md, docs/*.md and bench/README.md', () => {
  it('there are examples with bodies on the README and on the docs pages', () => {
    expect(withBody.some((e) => e.where.startsWith('README.md'))).toBe(true);
    expect(new Set(withBody.filter((e) => e.where.startsWith('docs/')).map((e) => e.where.split(':')[0])).size).toBeGreaterThanOrEqual(8);
  });

  it.each(examples.filter((e) => e.path !== null).map((e) => [`${e.where} ${e.method} ${e.url}`, e] as const))('%s passes its endpoint contract', (_name, e) => {
    expect(refusals(e)).toEqual([]);
  });

  it('every example with a body calls the API', () => {
    expect(withBody.filter((e) => e.path === null).map((e) => `${e.where} ${e.url}`)).toEqual([]);
  });
});

describe('examples sent as written', () => {
  let t: TestRuntime;
  beforeAll(async () => {
    t = await startTestRuntime();
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('docs/sales.md: the batch is accepted and its transaction created', async () => {
    const batch = exampleBody('docs/sales.md');
    const sale = batch.transactions[0];
    const api = (method: string, p: string, body: unknown, headers = t.owner) => http(t.rt.url, method, `/api/v1${p}`, { body, headers });
    expect((await api('PUT', `/locations/external/${sale.locationExternalId}`, { name: 'Downtown', timezone: 'America/New_York' })).status).toBe(201);
    const reg = await api('POST', '/integrations', { manifest: { name: 'POS', version: '1.0.0', description: 'README example', scopes: ['sales:write'], webhooks: [] } });
    expect(reg.status).toBe(201);
    const pos = { authorization: `Bearer ${reg.body.apiKey}` };

    // sales learns of the new location from organization's events; a rejected record is not stored, so it is sent again
    const result = await eventually(async () => {
      const r = await api('POST', '/sales/transactions:batch', batch, pos);
      expect(r.status).toBe(202);
      return r.body.results[0].status === 'rejected' && /location/i.test(JSON.stringify(r.body.results[0].errors)) ? undefined : r.body.results[0];
    });
    expect(result).toMatchObject({ externalId: sale.externalId, status: 'created' });
    expect(result.errors ?? []).toEqual([]);
  });

  it('docs/scheduling.md "Demand drivers and forecasts": the drivers are stored as written, through the gateway, with a scheduling key', async () => {
    const batch = exampleBody('docs/scheduling.md', 'Demand drivers and forecasts');
    const d = batch.drivers[0];
    const api = (method: string, p: string, body: unknown, headers = t.owner) => http(t.rt.url, method, `/api/v1${p}`, { body, headers });
    expect((await api('PUT', `/locations/external/${d.locationExternalId}`, { name: 'Store 12', timezone: 'America/New_York' })).status).toBe(201);
    const reg = await api('POST', '/integrations', { manifest: { name: 'Reservations', version: '1.0.0', description: 'README example', scopes: ['scheduling:write'], webhooks: [] } });
    expect(reg.status).toBe(201);
    const key = { authorization: `Bearer ${reg.body.apiKey}` };
    // a key without the scope is refused by the gateway
    const other = await api('POST', '/integrations', { manifest: { name: 'Till', version: '1.0.0', description: 'README example', scopes: ['sales:write'], webhooks: [] } });
    expect((await api('POST', '/demand-drivers', batch, { authorization: `Bearer ${other.body.apiKey}` })).status).toBe(403);
    const r = await api('POST', '/demand-drivers', batch, key);
    expect(r.status).toBe(202);
    expect(r.body.results[0]).toMatchObject({ externalId: d.externalId, status: 'created' });
  });

  it('docs/operations.md "Forms": the form is created as written', async () => {
    const r = await http(t.rt.url, 'POST', '/api/v1/forms', { body: exampleBody('docs/operations.md', 'Forms'), headers: t.owner });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ version: 1 });
  });

  it('docs/equipment.md "Assets": the asset is created as written (at a real location)', async () => {
    const loc = await http(t.rt.url, 'POST', '/api/v1/locations', { body: { name: 'README kitchen', timezone: 'America/New_York' }, headers: t.owner });
    expect(loc.status).toBe(201);
    const r = await http(t.rt.url, 'POST', '/api/v1/assets', { body: { ...exampleBody('docs/equipment.md', 'Assets'), locationId: loc.body.id }, headers: t.owner });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ locationId: loc.body.id, status: 'active' });
  });
});

/**
 * The README's examples are sent as written (issue 13, item 9: its sales example was rejected because
 * its tenders did not add up), so the document cannot drift from what the API accepts.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { eventually, http, startTestRuntime, type TestRuntime } from '@bop/test-support';

const readme = readFileSync(path.join(__dirname, '..', 'README.md'), 'utf8');

/** The JSON body (`-d '…'`) of the first shell block of a README section. */
function exampleBody(heading: string): any {
  const section = readme.split(/^## /m).find((s) => s.startsWith(`${heading}\n`));
  if (!section) throw new Error(`README has no section "${heading}"`);
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  const body = block && /-d '([\s\S]*?)'\s*$/.exec(block.trim())?.[1];
  if (!body) throw new Error(`README section "${heading}" has no curl -d '…' example`);
  return JSON.parse(body);
}

let t: TestRuntime;
beforeAll(async () => {
  t = await startTestRuntime();
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('README examples', () => {
  it('"Sending sales": the batch is accepted and its transaction created', async () => {
    const batch = exampleBody('Sending sales');
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

  it('"Scheduling": the demand drivers are stored as written, through the gateway, with a scheduling key', async () => {
    const batch = exampleBody('Scheduling');
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

  it('"Forms, checklists and audits": the form is created as written', async () => {
    const r = await http(t.rt.url, 'POST', '/api/v1/forms', { body: exampleBody('Forms, checklists and audits'), headers: t.owner });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ version: 1 });
  });

  it('"Equipment and maintenance": the asset is created as written (at a real location)', async () => {
    const loc = await http(t.rt.url, 'POST', '/api/v1/locations', { body: { name: 'README kitchen', timezone: 'America/New_York' }, headers: t.owner });
    expect(loc.status).toBe(201);
    const r = await http(t.rt.url, 'POST', '/api/v1/assets', { body: { ...exampleBody('Equipment and maintenance'), locationId: loc.body.id }, headers: t.owner });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ locationId: loc.body.id, status: 'active' });
  });
});

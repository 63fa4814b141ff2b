/**
 * Credentials stop working at once through the real gateway: pausing an integration refuses its
 * key on the next request, and a revocation made elsewhere (straight at identity, as another gateway
 * replica or an internal command would) reaches this gateway's auth cache through identity's events.
 */
import type { Runtime } from '../runtime/src';
import { eventually, http, startTestRuntime, type TestRuntime } from '@bop/test-support';

let t: TestRuntime;
let rt: Runtime;
let owner: Record<string, string>;

beforeAll(async () => {
  t = await startTestRuntime({ AUTH_CACHE_SECONDS: '60' });
  rt = t.rt;
  owner = t.owner;
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('credentials through the gateway', () => {
  it('refuses a paused integration’s key on the very next request, and accepts it again on resume', async () => {
    const reg = await http(rt.url, 'POST', '/api/v1/integrations', {
      headers: owner,
      body: { manifest: { name: 'POS bridge', version: '1.0.0', description: 'test', scopes: ['organization:read'], webhooks: [] } },
    });
    expect(reg.status).toBe(201);
    const key = { authorization: `Bearer ${reg.body.apiKey}` };
    expect((await http(rt.url, 'GET', '/api/v1/locations', { headers: key })).status).toBe(200);

    expect((await http(rt.url, 'POST', `/api/v1/integrations/${reg.body.integration.id}:pause`, { headers: owner })).status).toBe(200);
    const refused = await http(rt.url, 'GET', '/api/v1/locations', { headers: key });
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe('unauthorized');

    expect((await http(rt.url, 'POST', `/api/v1/integrations/${reg.body.integration.id}:resume`, { headers: owner })).status).toBe(200);
    expect((await http(rt.url, 'GET', '/api/v1/locations', { headers: key })).status).toBe(200);
  });

  it('drops a key revoked elsewhere from its cache within moments (AUTH_CACHE_SECONDS is 60 here)', async () => {
    const created = await http(rt.url, 'POST', '/api/v1/auth/api-keys', { headers: owner, body: { name: 'to revoke elsewhere' } });
    const key = { authorization: `Bearer ${created.body.key}` };
    expect((await http(rt.url, 'GET', '/api/v1/locations', { headers: key })).status).toBe(200); // now cached
    const me = await http(rt.url, 'GET', '/api/v1/me', { headers: key });
    const identity = rt.services.find((s) => s.name === 'identity')!;
    const token = await t.signer.sign({ kind: 'user', via: 'session', id: me.body.user.id, userId: me.body.user.id, permissions: {} });
    const revoked = await http(identity.url, 'DELETE', `/auth/api-keys/${created.body.id}`, { headers: { 'x-internal-token': token } });
    expect(revoked.status).toBe(204);
    const refused = await eventually(async () => {
      const r = await http(rt.url, 'GET', '/api/v1/locations', { headers: key });
      return r.status === 401 ? r : undefined;
    }, 5_000);
    expect(refused.body.code).toBe('unauthorized');
  });
});

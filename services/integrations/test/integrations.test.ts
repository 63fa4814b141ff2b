import { identityService } from '@svc/identity';
import { webhooksService } from '@svc/webhooks';
import { integrationsService } from '../src';
import { integrationsAdmin } from '../src/integrations/admin';
import { integration, outboxEvents, person, quietIdentity, sql, startTestServices, type TestService, type TestServices } from '@bop/test-support';
import { authenticate, manifestBody, principalOf, register, stored } from './fixtures';

let stack: TestServices;
let t: TestService;
beforeAll(async () => {
  stack = await startTestServices([identityService, webhooksService, integrationsService], quietIdentity);
  t = stack.services.integrations;
});
afterAll(async () => {
  await stack?.close();
});

const secretConfig = [
  { key: 'apiToken', label: 'API token', secret: true, required: true },
  { key: 'storeCode', secret: false },
  { key: 'pin', secret: true },
];

describe('POST /integrations', () => {
  it('registers: the key authenticates with the manifest scopes, returned once; config secrets masked; event without secrets', async () => {
    const res = await t.call('POST', '/integrations', {
      body: { manifest: manifestBody({ name: 'Till sync', config: secretConfig }), config: { apiToken: 'sk_live_1234567890abcd', storeCode: 'S-1', pin: '4321' } },
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(`/api/v1/integrations/${res.body.integration.id}`);
    const { integration: created, apiKey, webhookSecret } = res.body;
    expect(created.id).toMatch(/^int_[0-9A-Z]{26}$/);
    expect(apiKey).toMatch(/^pk_live_/);
    expect(webhookSecret).toBeNull();
    expect(created).toMatchObject({
      name: 'Till sync',
      status: 'active',
      health: 'unknown',
      lastHeartbeatAt: null,
      heartbeatIntervalSeconds: 300,
      config: { apiToken: '••••abcd', storeCode: 'S-1', pin: '••••' },
      missingConfig: [],
      version: 1,
      webhookEndpoints: [],
      manifest: { version: '1.0.0', scopes: ['sales:write', 'organization:read'], webhooks: [] },
    });
    expect(created.keys).toEqual([expect.objectContaining({ prefix: apiKey.slice(0, 12), status: 'current', revokedAt: null })]);

    const principal = await principalOf(stack, apiKey);
    expect(principal).toMatchObject({ kind: 'integration', integrationId: created.id, scopes: ['sales:write', 'organization:read'] });

    const got = await t.call('GET', `/integrations/${created.id}`);
    expect(got.status).toBe(200);
    expect(got.headers.get('etag')).toBe('"1"');
    expect(got.body.config).toEqual({ apiToken: '••••abcd', storeCode: 'S-1', pin: '••••' });
    expect(JSON.stringify(got.body)).not.toContain(apiKey);
    expect(JSON.stringify(got.body)).not.toContain('1234567890abcd');

    const events = await outboxEvents(stack, 'integrations', { aggregateId: created.id });
    expect(events.map((e) => e.type)).toEqual(['integrations.integration.registered']);
    expect(events[0].payload).toMatchObject({ apiVersion: 'v1', actor: { type: 'user', id: 'usr_test' }, locationId: null, data: { object: { id: created.id, config: { apiToken: '••••abcd' } } } });
    expect(JSON.stringify(events)).not.toContain('1234567890abcd');
    expect(JSON.stringify(events)).not.toContain(apiKey);
  });

  it('reports manifest and config errors with their paths and stores nothing (no key at identity either)', async () => {
    const keysBefore = await sql(stack, `select count(*)::int as n from identity.api_keys where kind = 'integration'`);
    const res = await t.call('POST', '/integrations', {
      body: {
        manifest: manifestBody({
          scopes: ['sales:write', 'payroll:read'],
          webhooks: [{ url: 'https://pos.example.com/hooks', events: ['sales_order.created', 'employee.created'] }],
          config: secretConfig,
        }),
        config: { colour: 'red' },
      },
    });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('validation_error');
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(['manifest.scopes[1]', 'manifest.webhooks[0].events[1]', 'config.colour', 'config.apiToken']);

    const shape = await t.call('POST', '/integrations', { body: { manifest: { name: '', version: 'latest', scopes: [] }, extra: 1 } });
    expect(shape.status).toBe(422);
    expect(shape.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['extra', 'manifest.description', 'manifest.name', 'manifest.version']);

    expect(await sql(stack, `select count(*)::int as n from identity.api_keys where kind = 'integration'`)).toEqual(keysBefore);
  });

  it('needs integrations.manage at reach Everyone; integration keys may not manage integrations', async () => {
    const located = person({ 'integrations.manage': [{ type: 'locations', ids: ['loc_1'] }] });
    const outOfReach = await t.call('POST', '/integrations', { as: located, body: { manifest: manifestBody() } });
    expect(outOfReach.status).toBe(403);
    expect(outOfReach.body.code).toBe('out_of_reach');
    expect((await t.call('GET', '/integrations', { as: located })).body.code).toBe('out_of_reach');

    const without = await t.call('GET', '/integrations', { as: person({ 'sales.read': [{ type: 'everyone' }] }) });
    expect(without.status).toBe(403);
    expect(without.body.code).toBe('forbidden');

    const key = await t.call('GET', '/integrations', { as: integration(['sales:write']) });
    expect(key.status).toBe(403);
    expect(key.body.code).toBe('forbidden');
  });
});

describe('GET /integrations', () => {
  it('lists with the status filter and cursor paging', async () => {
    const a = await register(t);
    const b = await register(t);
    expect((await t.call('POST', `/integrations/${b.integration.id}:pause`)).status).toBe(200);

    const paused = await t.call('GET', '/integrations?status=paused');
    expect(paused.status).toBe(200);
    expect(paused.body.data.map((i: { id: string }) => i.id)).toContain(b.integration.id);
    expect(paused.body.data.every((i: { status: string }) => i.status === 'paused')).toBe(true);
    const active = await t.call('GET', '/integrations?status=active');
    expect(active.body.data.map((i: { id: string }) => i.id)).toContain(a.integration.id);
    expect(active.body.data.map((i: { id: string }) => i.id)).not.toContain(b.integration.id);

    const first = await t.call('GET', '/integrations?limit=1');
    expect(first.body).toMatchObject({ hasMore: true, nextCursor: expect.any(String) });
    const second = await t.call('GET', `/integrations?limit=1&cursor=${first.body.nextCursor}`);
    expect(second.body.data[0].id > first.body.data[0].id).toBe(true);

    expect((await t.call('GET', '/integrations?status=broken')).status).toBe(400);
    expect((await t.call('GET', '/integrations/int_nope')).status).toBe(404);
  });

  it('the ops CLI lists them too', async () => {
    const r = await register(t);
    const list = await t.svc.runtime.read((w) => integrationsAdmin.listIntegrations(w));
    expect(list.find((i) => i.id === r.integration.id)).toMatchObject({ status: 'active', health: 'unknown' });
  });
});

describe('PATCH /integrations/{id}/config', () => {
  it('merges, null removes a key, secrets stay masked, If-Match guards the version', async () => {
    const r = await register(t, { config: secretConfig }, { apiToken: 'sk_live_1234567890abcd', storeCode: 'S-1', pin: '4321' });
    const id = r.integration.id;
    const res = await t.call('PATCH', `/integrations/${id}/config`, { body: { storeCode: null, pin: '98765432109876' }, headers: { 'if-match': '"1"' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBe('"2"');
    expect(res.body.config).toEqual({ apiToken: '••••abcd', pin: '••••9876' });

    // sending back what was read leaves the secret as it is
    const back = await t.call('PATCH', `/integrations/${id}/config`, { body: { apiToken: '••••abcd' } });
    expect(back.body.version).toBe(2);
    const [row] = await sql(stack, 'select config from integrations.integrations where id = $1', [id]);
    expect(row.config).toEqual({ apiToken: 'sk_live_1234567890abcd', pin: '98765432109876' });

    const stale = await t.call('PATCH', `/integrations/${id}/config`, { body: { storeCode: 'S-2' }, headers: { 'if-match': '"1"' } });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('version_mismatch');

    const bad = await t.call('PATCH', `/integrations/${id}/config`, { body: { apiToken: null, colour: 'red' } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { path: string }) => e.path)).toEqual(['apiToken', 'colour']);

    const events = await outboxEvents(stack, 'integrations', { aggregateId: id });
    expect(events.map((e) => e.type)).toEqual(['integrations.integration.registered', 'integrations.integration.updated']);
    expect(events[1].payload.data.previous).toEqual({ config: { apiToken: '••••abcd', storeCode: 'S-1', pin: '••••' } });
    expect(JSON.stringify(events)).not.toContain('98765432109876');
  });
});

describe('pause and resume', () => {
  it('pausing refuses the keys at once; resuming accepts them again; both are idempotent', async () => {
    const r = await register(t);
    const id = r.integration.id;
    const paused = await t.call('POST', `/integrations/${id}:pause`);
    expect(paused.status).toBe(200);
    expect(paused.body).toMatchObject({ status: 'paused', version: 2, pausedAt: expect.any(String) });
    const refused = await authenticate(stack, r.apiKey);
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe('unauthorized');

    const again = await t.call('POST', `/integrations/${id}:pause`);
    expect(again.status).toBe(200);
    expect(again.body.version).toBe(2);

    const resumed = await t.call('POST', `/integrations/${id}:resume`);
    expect(resumed.body).toMatchObject({ status: 'active', version: 3, pausedAt: null });
    expect((await authenticate(stack, r.apiKey)).status).toBe(200);
    expect((await t.call('POST', `/integrations/${id}:resume`)).body.version).toBe(3);

    expect((await outboxEvents(stack, 'integrations', { aggregateId: id })).map((e) => e.type)).toEqual([
      'integrations.integration.registered',
      'integrations.integration.paused',
      'integrations.integration.resumed',
    ]);
    expect((await t.call('POST', '/integrations/int_nope:pause')).status).toBe(404);
  });
});

describe('POST /integrations/{id}:rotate-key', () => {
  it('graceMinutes 0: the old key stops at once and the new one works', async () => {
    const r = await register(t);
    const res = await t.call('POST', `/integrations/${r.integration.id}:rotate-key`, { body: { graceMinutes: 0 } });
    expect(res.status).toBe(200);
    expect(res.body.apiKey).toMatch(/^pk_live_/);
    expect(res.body.apiKey).not.toBe(r.apiKey);
    expect((await authenticate(stack, r.apiKey)).status).toBe(401);
    expect(await principalOf(stack, res.body.apiKey)).toMatchObject({ integrationId: r.integration.id, scopes: ['sales:write', 'organization:read'] });
    expect(res.body.keys.map((k: { status: string }) => k.status)).toEqual(['revoked', 'current']);
    const events = await outboxEvents(stack, 'integrations', { aggregateId: r.integration.id });
    expect(events.map((e) => e.type)).toContain('integrations.integration.key_rotated');
    expect(JSON.stringify(events)).not.toContain(res.body.apiKey);
  });

  it('graceMinutes 60 (the default): the old key keeps working until the grace ends', async () => {
    const r = await register(t);
    const res = await t.call('POST', `/integrations/${r.integration.id}:rotate-key`);
    expect(res.status).toBe(200);
    expect((await authenticate(stack, r.apiKey)).status).toBe(200);
    expect((await authenticate(stack, res.body.apiKey)).status).toBe(200);
    const old = res.body.keys.find((k: { id: string }) => k.id !== res.body.key.id);
    expect(old.status).toBe('grace');
    const minutes = (Date.parse(old.revokedAt) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(58);
    expect(minutes).toBeLessThanOrEqual(60);

    const got = await t.call('GET', `/integrations/${r.integration.id}`);
    expect(got.body.keys.map((k: { status: string }) => k.status)).toEqual(['grace', 'current']);
  });

  it('refuses a grace outside 0–10080 minutes', async () => {
    const r = await register(t);
    const res = await t.call('POST', `/integrations/${r.integration.id}:rotate-key`, { body: { graceMinutes: 20_000 } });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].path).toBe('graceMinutes');
  });
});

describe('PUT /integrations/{id}/manifest', () => {
  it('same scopes: version stored, the key is kept, values of keys no longer declared are dropped', async () => {
    const r = await register(t, { config: secretConfig }, { apiToken: 'sk_live_1234567890abcd', storeCode: 'S-1' });
    const id = r.integration.id;
    const next = manifestBody({ name: 'Till sync 2', version: '2.0.0', config: [{ key: 'apiToken', secret: true, required: true }, { key: 'region', secret: false, required: true }] });
    const res = await t.call('PUT', `/integrations/${id}/manifest`, { body: next, headers: { 'if-match': '"1"' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBe('"2"');
    expect(res.body.apiKey).toBeNull();
    expect(res.body.webhookSecret).toBeNull();
    expect(res.body.integration).toMatchObject({ name: 'Till sync 2', version: 2, manifest: { version: '2.0.0' }, config: { apiToken: '••••abcd' }, missingConfig: ['region'] });
    expect((await authenticate(stack, r.apiKey)).status).toBe(200);

    const stale = await t.call('PUT', `/integrations/${id}/manifest`, { body: next, headers: { 'if-match': '"1"' } });
    expect(stale.body.code).toBe('version_mismatch');
    const filled = await t.call('PATCH', `/integrations/${id}/config`, { body: { region: 'eu' } });
    expect(filled.body.missingConfig).toEqual([]);
  });

  it('narrowed scopes: a new key with the new scopes (returned once); the old key stops at once', async () => {
    const r = await register(t);
    const res = await t.call('PUT', `/integrations/${r.integration.id}/manifest`, { body: manifestBody({ scopes: ['sales:write'] }) });
    expect(res.status).toBe(200);
    expect(res.body.apiKey).toMatch(/^pk_live_/);
    expect((await authenticate(stack, r.apiKey)).status).toBe(401);
    expect((await principalOf(stack, res.body.apiKey)).scopes).toEqual(['sales:write']);
    expect(res.body.integration.keys.map((k: { status: string }) => k.status)).toEqual(['revoked', 'current']);
  });

  it('widened scopes: the old key keeps working for the grace with its old scopes', async () => {
    const r = await register(t);
    const res = await t.call('PUT', `/integrations/${r.integration.id}/manifest`, { body: manifestBody({ scopes: ['sales:write', 'organization:read', 'inventory:read'] }) });
    expect((await principalOf(stack, r.apiKey)).scopes).toEqual(['sales:write', 'organization:read']);
    expect((await principalOf(stack, res.body.apiKey)).scopes).toEqual(['sales:write', 'organization:read', 'inventory:read']);
    expect(res.body.integration.keys.map((k: { status: string }) => k.status)).toEqual(['grace', 'current']);
  });

  it('validates the manifest with paths relative to the body', async () => {
    const r = await register(t);
    const res = await t.call('PUT', `/integrations/${r.integration.id}/manifest`, { body: manifestBody({ scopes: ['nope:read'] }) });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([{ path: 'scopes[0]', message: 'Not a known scope.' }]);
  });
});

describe('DELETE /integrations/{id}', () => {
  it('revokes every key and removes config, keys, logs and batches', async () => {
    const r = await register(t);
    const id = r.integration.id;
    const rotated = await t.call('POST', `/integrations/${id}:rotate-key`, { body: { graceMinutes: 600 } });
    const as = await principalOf(stack, r.apiKey);
    expect((await t.call('POST', '/integrations/self/logs', { as, body: { level: 'info', message: 'hello' } })).status).toBe(201);
    expect(await stored(stack, id)).toMatchObject({ integrations: 1, keys: 2, logs: 1 });

    const res = await t.call('DELETE', `/integrations/${id}`);
    expect(res.status).toBe(204);
    expect((await authenticate(stack, r.apiKey)).status).toBe(401);
    expect((await authenticate(stack, rotated.body.apiKey)).status).toBe(401);
    expect((await t.call('GET', `/integrations/${id}`)).status).toBe(404);
    expect(await stored(stack, id)).toEqual({ integrations: 0, keys: 0, logs: 0, batches: 0 });
    const events = await outboxEvents(stack, 'integrations', { aggregateId: id });
    expect(events[events.length - 1].type).toBe('integrations.integration.deleted');
    expect((await t.call('DELETE', `/integrations/${id}`)).status).toBe(404);
  });
});

import { webhooksService } from '../src';
import { integration, person, Receiver, sql, startTestService, system, type TestService } from '@bop/test-support';
import { newEndpoint } from './fixtures';

let t: TestService;
let receiver: Receiver;
beforeAll(async () => {
  // routes only: no worker loop sends what they queue
  t = await startTestService(webhooksService, { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' }, { workers: false });
  receiver = await Receiver.start();
});
afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

describe('POST /webhook-endpoints', () => {
  it('creates an endpoint and returns its signing secret once', async () => {
    const res = await t.call('POST', '/webhook-endpoints', { body: { url: receiver.url, events: ['location.created', 'location.updated'], description: 'ERP sync' } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      url: receiver.url,
      events: ['location.created', 'location.updated'],
      description: 'ERP sync',
      status: 'active',
      disabledReason: null,
      integrationId: null,
      pendingDeliveries: 0,
      failedDeliveries: 0,
      version: 1,
    });
    expect(res.body.id).toMatch(/^whe_[0-9A-Z]{26}$/);
    expect(res.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(res.headers.get('etag')).toBe('"1"');
    const list = await t.call('GET', '/webhook-endpoints');
    const listed = list.body.data.find((e: { id: string }) => e.id === res.body.id);
    expect(listed).toBeDefined();
    expect(JSON.stringify(list.body)).not.toContain(res.body.secret);
    expect(listed).not.toHaveProperty('secret');
  });

  it('reports every invalid field with its path', async () => {
    const res = await t.call('POST', '/webhook-endpoints', {
      body: { url: 'not a url', events: ['location.created', 'no.such_event', 'webhook.ping', 'document.expiring'], colour: 'red' },
    });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('validation_error');
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(['colour']);
    const res2 = await t.call('POST', '/webhook-endpoints', { body: { url: 'not a url', events: ['location.created'] } });
    expect(res2.body.errors).toEqual([{ path: 'url', message: expect.stringContaining('absolute URL') }]);
    const res3 = await t.call('POST', '/webhook-endpoints', { body: { url: receiver.url, events: ['location.created', 'no.such_event', 'webhook.ping', 'document.expiring'] } });
    expect(res3.status).toBe(422);
    expect(res3.body.errors.map((e: { path: string }) => e.path)).toEqual(['events[1]', 'events[2]', 'events[3]']);
    const res4 = await t.call('POST', '/webhook-endpoints', { body: { url: receiver.url, events: ['*', 'location.created'] } });
    expect(res4.body.errors).toEqual([{ path: 'events', message: expect.any(String) }]);
    const res5 = await t.call('POST', '/webhook-endpoints', { body: { url: receiver.url, events: [] } });
    expect(res5.status).toBe(422);
    expect(res5.body.errors[0].path).toBe('events');
  });

  it('refuses a person without webhooks.manage', async () => {
    const res = await t.call('POST', '/webhook-endpoints', { body: { url: receiver.url, events: ['*'] }, as: person({}) });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('forbidden');
  });
});

describe('PATCH /webhook-endpoints/{id}', () => {
  it('changes fields with If-Match and bumps the version', async () => {
    const e = await newEndpoint(t, receiver.url, ['location.created']);
    const res = await t.call('PATCH', `/webhook-endpoints/${e.id}`, { body: { events: ['*'], description: 'all' }, headers: { 'if-match': '"1"' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ events: ['*'], description: 'all', version: 2 });
    const stale = await t.call('PATCH', `/webhook-endpoints/${e.id}`, { body: { description: 'x' }, headers: { 'if-match': '"1"' } });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('version_mismatch');
    const bad = await t.call('PATCH', `/webhook-endpoints/${e.id}`, { body: { url: 'ftp://x' } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].path).toBe('url');
  });

  it('disables by hand and re-enables with status active', async () => {
    const e = await newEndpoint(t, receiver.url);
    const off = await t.call('PATCH', `/webhook-endpoints/${e.id}`, { body: { status: 'disabled' } });
    expect(off.body).toMatchObject({ status: 'disabled', disabledReason: 'manual' });
    const filtered = await t.call('GET', '/webhook-endpoints?status=disabled');
    expect(filtered.body.data.map((x: { id: string }) => x.id)).toContain(e.id);
    const on = await t.call('PATCH', `/webhook-endpoints/${e.id}`, { body: { status: 'active' } });
    expect(on.body).toMatchObject({ status: 'active', disabledReason: null, consecutiveFailures: 0 });
  });

  it('answers 404 for an unknown endpoint', async () => {
    const res = await t.call('PATCH', '/webhook-endpoints/whe_nope', { body: { description: 'x' } });
    expect(res.status).toBe(404);
  });
});

describe('secrets, delete, paging', () => {
  it('rotates the secret: a new one is shown once, the previous keeps signing 24 h', async () => {
    const e = await newEndpoint(t, receiver.url);
    const res = await t.call('POST', `/webhook-endpoints/${e.id}:rotate-secret`);
    expect(res.status).toBe(200);
    expect(res.body.secret).toMatch(/^whsec_/);
    expect(res.body.secret).not.toBe(e.secret);
    const until = new Date(res.body.previousSecretExpiresAt).getTime();
    expect(Math.abs(until - Date.now() - 24 * 3_600_000)).toBeLessThan(60_000);
  });

  it('deletes a standalone endpoint with its deliveries', async () => {
    const e = await newEndpoint(t, receiver.url);
    await t.call('PATCH', `/webhook-endpoints/${e.id}`, { body: { status: 'disabled' } });
    const ping = await t.call('POST', `/webhook-endpoints/${e.id}:ping`);
    expect(ping.status).toBe(202);
    expect(ping.body).toMatchObject({ endpointId: e.id, eventType: 'webhook.ping', status: 'pending', attempts: 0 });
    expect((await sql(t, `select 1 from webhooks.deliveries where endpoint_id = $1`, [e.id])).length).toBe(1);
    const res = await t.call('DELETE', `/webhook-endpoints/${e.id}`);
    expect(res.status).toBe(204);
    expect((await sql(t, `select 1 from webhooks.deliveries where endpoint_id = $1`, [e.id])).length).toBe(0);
    expect((await t.call('DELETE', `/webhook-endpoints/${e.id}`)).status).toBe(404);
  });

  it('pages the list with opaque cursors', async () => {
    for (let i = 0; i < 3; i++) await newEndpoint(t, receiver.url);
    const first = await t.call('GET', '/webhook-endpoints?limit=2');
    expect(first.body.data).toHaveLength(2);
    expect(first.body.hasMore).toBe(true);
    const second = await t.call('GET', `/webhook-endpoints?limit=2&cursor=${first.body.nextCursor}`);
    expect(second.body.data[0].id > first.body.data[1].id).toBe(true);
    expect((await t.call('GET', '/webhook-endpoints?cursor=zzz')).status).toBe(400);
  });
});

describe("an integration's endpoints", () => {
  it('are changed only with the manifest: url/events 409, delete 409, status allowed', async () => {
    const put = await t.call('PUT', '/internal/integrations/int_crud/endpoints', {
      as: system,
      body: { webhooks: [{ url: receiver.url, events: ['location.created'] }], scopes: ['organization:read'], secret: 'whsec_' + Buffer.alloc(32, 7).toString('base64') },
    });
    expect(put.status).toBe(200);
    const id = put.body.endpoints[0].id;
    expect((await t.call('PATCH', `/webhook-endpoints/${id}`, { body: { events: ['*'] } })).status).toBe(409);
    expect((await t.call('PATCH', `/webhook-endpoints/${id}`, { body: { url: receiver.url + '/x' } })).body.code).toBe('conflict');
    expect((await t.call('DELETE', `/webhook-endpoints/${id}`)).status).toBe(409);
    expect((await t.call('POST', `/webhook-endpoints/${id}:rotate-secret`)).status).toBe(409);
    const off = await t.call('PATCH', `/webhook-endpoints/${id}`, { body: { status: 'disabled', description: 'paused by ops' } });
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ status: 'disabled', integrationId: 'int_crud', description: 'paused by ops' });
  });

  it('internal routes refuse anyone but the platform', async () => {
    const res = await t.call('GET', '/internal/integrations/int_crud/endpoints', { as: person() });
    expect(res.status).toBe(403);
    const res2 = await t.call('POST', '/internal/integrations/int_crud:pause', { as: integration(['organization:read']) });
    expect(res2.status).toBe(403);
  });
});

describe('GET /event-types', () => {
  it('lists the catalogue with feature, scopes and whether it can be subscribed', async () => {
    const res = await t.call('GET', '/event-types?limit=200');
    expect(res.status).toBe(200);
    expect(res.body.hasMore).toBe(false);
    const byType = Object.fromEntries(res.body.data.map((e: { type: string }) => [e.type, e]));
    expect(byType['location.created']).toEqual({ type: 'location.created', area: 'organization', planned: false, feature: null, scopes: ['organization:read'], enabled: true, subscribable: true });
    expect(byType['document.expiring']).toMatchObject({ planned: true, subscribable: false, feature: 'people.documents' });
    expect(byType['webhook.ping']).toMatchObject({ subscribable: false });
    const page = await t.call('GET', '/event-types?limit=5&area=people');
    expect(page.body.data.every((e: { area: string }) => e.area === 'people')).toBe(true);
    const next = await t.call('GET', `/event-types?limit=5&area=people&cursor=${page.body.nextCursor}`);
    expect(next.body.data[0].type).not.toBe(page.body.data[4].type);
  });

  it('is open to any signed-in person', async () => {
    expect((await t.call('GET', '/event-types', { as: person({}) })).status).toBe(200);
  });
});

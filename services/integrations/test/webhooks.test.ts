import { identityService } from '@svc/identity';
import { webhooksService } from '@svc/webhooks';
import { integrationsService } from '../src';
import { eventually, publishEvent, quietIdentity, Receiver, sql, startTestServices, type TestService, type TestServices } from '@bop/test-support';
import { authenticate, manifestBody, register, signatureValid, stored } from './fixtures';

let stack: TestServices;
let t: TestService;
let receiver: Receiver;
beforeAll(async () => {
  receiver = await Receiver.start();
  stack = await startTestServices([identityService, webhooksService, integrationsService], { ...quietIdentity, WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_POLL_MS: '100' });
  t = stack.services.integrations;
});
afterAll(async () => {
  await stack?.close();
  await receiver?.close();
});

const hooks = (path: string, events = ['location.created']) => [{ url: `${receiver.base}${path}`, events }];
const webhooksRow = async (integrationId: string) =>
  (await sql(stack, 'select paused, secret, scopes from webhooks.integrations where integration_id = $1', [integrationId]))[0];
const endpointsAt = (integrationId: string) => sql(stack, 'select url, events from webhooks.endpoints where integration_id = $1 order by id', [integrationId]);

describe('an integration with webhooks', () => {
  it('registers its endpoints at the webhooks service; the signing secret is returned once', async () => {
    const r = await register(t, { webhooks: hooks('/a', ['location.created', 'location.updated']) });
    expect(r.webhookSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(r.integration.webhookEndpoints).toEqual([{ id: expect.any(String), url: `${receiver.base}/a`, events: ['location.created', 'location.updated'], status: 'active' }]);
    expect(await webhooksRow(r.integration.id)).toEqual({ paused: false, secret: r.webhookSecret, scopes: ['sales:write', 'organization:read'] });

    const got = await t.call('GET', `/integrations/${r.integration.id}`);
    expect(got.body.webhookEndpoints).toEqual([expect.objectContaining({ url: `${receiver.base}/a`, status: 'active', pendingDeliveries: 0, failedDeliveries: 0 })]);
    expect(JSON.stringify(got.body)).not.toContain(r.webhookSecret!);
  });

  it('pausing holds its webhooks (and refuses its key); resuming sends the queued events, signed', async () => {
    const r = await register(t, { webhooks: hooks('/paused') });
    const id = r.integration.id;
    expect((await t.call('POST', `/integrations/${id}:pause`)).status).toBe(200);
    expect((await webhooksRow(id)).paused).toBe(true);
    expect((await authenticate(stack, r.apiKey)).status).toBe(401);

    const event = await publishEvent(stack, 'organization', 'location.created', { id: 'loc_paused1', name: 'Harbour' }, { locationId: 'loc_paused1' });
    await eventually(async () => (await t.call('GET', `/integrations/${id}`)).body.webhookEndpoints[0].pendingDeliveries === 1);
    expect(receiver.received.filter((x) => x.path === '/paused')).toHaveLength(0);

    expect((await t.call('POST', `/integrations/${id}:resume`)).status).toBe(200);
    expect((await webhooksRow(id)).paused).toBe(false);
    const delivered = await eventually(async () => receiver.received.find((x) => x.path === '/paused'));
    expect(JSON.parse(delivered.raw)).toMatchObject({ id: event.id, type: 'location.created', data: { object: { id: 'loc_paused1' } } });
    expect(signatureValid(r.webhookSecret!, String(delivered.headers['service-signature']), delivered.raw)).toBe(true);
  });

  it('a manifest change replaces the endpoints and keeps the secret; a first declaration returns one', async () => {
    const r = await register(t, { webhooks: hooks('/one') });
    const id = r.integration.id;
    const changed = await t.call('PUT', `/integrations/${id}/manifest`, { body: manifestBody({ webhooks: hooks('/two', ['department.created']) }) });
    expect(changed.status).toBe(200);
    expect(changed.body.webhookSecret).toBeNull();
    expect(changed.body.integration.webhookEndpoints).toEqual([expect.objectContaining({ url: `${receiver.base}/two`, events: ['department.created'] })]);
    expect(await endpointsAt(id)).toEqual([{ url: `${receiver.base}/two`, events: ['department.created'] }]);

    const none = await t.call('PUT', `/integrations/${id}/manifest`, { body: manifestBody({ webhooks: [] }) });
    expect(none.body.integration.webhookEndpoints).toEqual([]);
    expect(await endpointsAt(id)).toEqual([]);
    expect((await webhooksRow(id)).secret).toBe(r.webhookSecret);

    // declared for the first time (while paused): a secret is issued and the endpoints wait too
    const plain = await register(t);
    await t.call('POST', `/integrations/${plain.integration.id}:pause`);
    const first = await t.call('PUT', `/integrations/${plain.integration.id}/manifest`, { body: manifestBody({ webhooks: hooks('/late') }) });
    expect(first.body.webhookSecret).toMatch(/^whsec_/);
    expect(await webhooksRow(plain.integration.id)).toMatchObject({ paused: true, secret: first.body.webhookSecret });
  });

  it('scopes narrowed below the events: refused with the event’s path, nothing changes', async () => {
    const r = await register(t, { webhooks: hooks('/scoped') });
    const res = await t.call('PUT', `/integrations/${r.integration.id}/manifest`, { body: manifestBody({ scopes: ['sales:write'], webhooks: hooks('/scoped') }) });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([{ path: 'webhooks[0].events[0]', message: expect.stringContaining('organization:read') }]);
    expect((await authenticate(stack, r.apiKey)).status).toBe(200);
  });

  it('a URL the webhooks service refuses: 422 at its manifest path; the minted key is revoked and nothing is stored', async () => {
    const live = () => sql(stack, `select count(*)::int as n from identity.api_keys where kind = 'integration' and (revoked_at is null or revoked_at > now())`);
    const before = await live();
    const count = await sql(stack, 'select count(*)::int as n from integrations.integrations');
    const res = await t.call('POST', '/integrations', { body: { manifest: manifestBody({ webhooks: [{ url: 'http://user:pw@127.0.0.1:9/x', events: ['location.created'] }] }) } });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([{ path: 'manifest.webhooks[0].url', message: expect.stringContaining('credentials') }]);
    expect(await live()).toEqual(before);
    expect(await sql(stack, 'select count(*)::int as n from integrations.integrations')).toEqual(count);
  });

  it('deleting removes its endpoints (with their queue) at the webhooks service', async () => {
    const r = await register(t, { webhooks: hooks('/deleted') });
    const id = r.integration.id;
    expect(await endpointsAt(id)).toHaveLength(1);
    expect((await t.call('DELETE', `/integrations/${id}`)).status).toBe(204);
    expect(await endpointsAt(id)).toEqual([]);
    expect(await webhooksRow(id)).toBeUndefined();
    expect(await stored(stack, id)).toEqual({ integrations: 0, keys: 0, logs: 0, batches: 0 });
  });
});

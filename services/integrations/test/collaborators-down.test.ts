import { identityService } from '@svc/identity';
import { webhooksService } from '@svc/webhooks';
import { integrationsService } from '../src';
import { quietIdentity, Receiver, sql, startTestServices, type TestService, type TestServices } from '@bop/test-support';
import { authenticate, manifestBody, register } from './fixtures';

/** Services are stopped one after another here, so this file runs its own stack. */
let stack: TestServices;
let t: TestService;
let receiver: Receiver;
beforeAll(async () => {
  receiver = await Receiver.start();
  stack = await startTestServices([identityService, webhooksService, integrationsService], { ...quietIdentity, WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
  t = stack.services.integrations;
});
afterAll(async () => {
  await stack?.close();
  await receiver?.close();
});

const liveKeys = async () => (await sql(stack, `select count(*)::int as n from identity.api_keys where kind = 'integration' and (revoked_at is null or revoked_at > now())`))[0].n;
const integrationCount = async () => (await sql(stack, 'select count(*)::int as n from integrations.integrations'))[0].n;

describe('a collaborator that does not answer', () => {
  it('webhooks down: register answers 503, the minted key is revoked, nothing is stored; pause is undone; GET still answers', async () => {
    const existing = await register(t, { webhooks: [{ url: `${receiver.base}/x`, events: ['location.created'] }] });
    await stack.services.webhooks.close();

    const [keysBefore, countBefore] = [await liveKeys(), await integrationCount()];
    const res = await t.call('POST', '/integrations', { body: { manifest: manifestBody({ webhooks: [{ url: `${receiver.base}/y`, events: ['location.created'] }] }) } });
    expect(res.status).toBe(503);
    expect(res.body.code).toBe('service_unavailable');
    expect(await liveKeys()).toBe(keysBefore);
    expect(await integrationCount()).toBe(countBefore);

    const pause = await t.call('POST', `/integrations/${existing.integration.id}:pause`);
    expect(pause.status).toBe(503);
    // identity's pause was undone: the key still works and the record is unchanged
    expect((await authenticate(stack, existing.apiKey)).status).toBe(200);
    const got = await t.call('GET', `/integrations/${existing.integration.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ status: 'active', version: 1, webhookEndpoints: null });

    const del = await t.call('DELETE', `/integrations/${existing.integration.id}`);
    expect(del.status).toBe(503);
    expect(await integrationCount()).toBe(countBefore);
    // the keys were revoked before the webhooks call failed: the record says so, and a retry finishes
    expect((await authenticate(stack, existing.apiKey)).status).toBe(401);
    expect((await t.call('GET', `/integrations/${existing.integration.id}`)).body.keys.map((k: { status: string }) => k.status)).toEqual(['revoked']);
  });

  it('identity down: register answers 503 and stores nothing', async () => {
    await stack.services.identity.close();
    const countBefore = await integrationCount();
    const res = await t.call('POST', '/integrations', { body: { manifest: manifestBody() } });
    expect(res.status).toBe(503);
    expect(res.body.code).toBe('service_unavailable');
    expect(await integrationCount()).toBe(countBefore);
  });
});

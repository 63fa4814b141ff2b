import { organizationService } from '@svc/organization';
import { webhooksService } from '../src';
import { eventually, Receiver, sql, startTestServices, system, verifySignature, type TestService, type TestServices } from '@bop/test-support';

let stack: TestServices;
let wh: TestService;
let org: TestService;
let receiver: Receiver;
const secret1 = 'whsec_' + Buffer.alloc(32, 1).toString('base64');
const secret2 = 'whsec_' + Buffer.alloc(32, 2).toString('base64');

beforeAll(async () => {
  // no worker loop: the tests run the delivery worker's rounds (deliver) instead of waiting for it
  stack = await startTestServices([organizationService, webhooksService], { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', RELAY_POLL_MS: '50', BUS_POLL_MS: '50', DB_POOL_MAX: '10' }, { workers: false });
  wh = stack.services.webhooks;
  org = stack.services.organization;
  receiver = await Receiver.start();
});
afterAll(async () => {
  await stack?.close();
  await receiver?.close();
});

/** The delivery worker's rounds until nothing due is left. */
async function deliver(): Promise<void> {
  while (await wh.svc.worker('delivery').runOnce());
}

/** What `check` finds once the fan-out has queued it and the worker's rounds sent it. */
const delivered = <T>(check: () => T | undefined | false) =>
  eventually(async () => {
    await deliver();
    return check();
  });

const put = (id: string, body: unknown) => wh.call('PUT', `/internal/integrations/${id}/endpoints`, { as: system, body });
const newLocation = async (name: string) => (await org.call('POST', '/locations', { body: { name, timezone: 'UTC' } })).body as { id: string };

describe('internal commands for the integrations service', () => {
  it('declares, replaces and removes an integration’s endpoints', async () => {
    const first = await put('int_a', { webhooks: [{ url: `${receiver.url}/a`, events: ['location.created'] }], scopes: ['organization:read'], secret: secret1 });
    expect(first.status).toBe(200);
    expect(first.body.endpoints).toEqual([{ id: expect.stringMatching(/^whe_/), url: `${receiver.url}/a`, events: ['location.created'], status: 'active' }]);
    const keptId = first.body.endpoints[0].id;

    const second = await put('int_a', {
      webhooks: [
        { url: `${receiver.url}/a`, events: ['location.created', 'location.updated'] },
        { url: `${receiver.url}/b`, events: ['*'] },
      ],
      scopes: ['organization:read'],
    });
    expect(second.status).toBe(200);
    expect(second.body.endpoints[0]).toMatchObject({ id: keptId, events: ['location.created', 'location.updated'] });
    const third = await put('int_a', { webhooks: [{ url: `${receiver.url}/b`, events: ['*'] }], scopes: ['organization:read'] });
    expect(third.body.endpoints.map((e: { url: string }) => e.url)).toEqual([`${receiver.url}/b`]);
    const listed = await wh.call('GET', '/internal/integrations/int_a/endpoints', { as: system });
    expect(listed.body).toEqual({ endpoints: [{ ...third.body.endpoints[0], pendingDeliveries: 0, failedDeliveries: 0 }] });
    expect((await sql(wh, `select 1 from webhooks.endpoints where id = $1`, [keptId])).length).toBe(0);

    const del = await wh.call('DELETE', '/internal/integrations/int_a/endpoints', { as: system });
    expect(del.status).toBe(204);
    expect((await wh.call('GET', '/internal/integrations/int_a/endpoints', { as: system })).body).toEqual({ endpoints: [] });
  });

  it('validates the set: secret the first time, urls, events the scopes cover, never the ping', async () => {
    const res = await put('int_v', {
      webhooks: [
        { url: 'ftp://nope', events: ['employee.created'] },
        { url: `${receiver.url}/v`, events: ['webhook.ping', 'location.created'] },
        { url: `${receiver.url}/v`, events: ['location.created'] },
      ],
      scopes: ['organization:read'],
    });
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(['secret', 'webhooks[0].url', 'webhooks[0].events[0]', 'webhooks[1].events[0]', 'webhooks[2].url']);
    const bad = await put('int_v', { webhooks: [], scopes: [], secret: 'not-a-secret' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].path).toBe('secret');
  });

  it('delivers only events the scopes cover, signed with the integration secret; a new secret signs alongside the old for 24 h', async () => {
    await put('int_s', {
      webhooks: [{ url: `${receiver.url}/s`, events: ['*'] }],
      scopes: ['people:read', 'organization:read'],
      secret: secret1,
    });
    await put('int_p', { webhooks: [{ url: `${receiver.url}/p`, events: ['*'] }], scopes: ['people:read'], secret: secret1 });
    const loc = await newLocation('Scoped');
    const got = await delivered(() => receiver.received.find((r) => r.json?.data?.object?.id === loc.id));
    expect(verifySignature(got.headers['service-signature'] as string, got.raw, secret1)).toMatchObject({ valid: 1, total: 1 });
    await put('int_s', { webhooks: [{ url: `${receiver.url}/s`, events: ['*'] }], scopes: ['people:read', 'organization:read'], secret: secret2 });
    const loc2 = await newLocation('Scoped 2');
    const got2 = await delivered(() => receiver.received.find((r) => r.json?.data?.object?.id === loc2.id));
    const sig = got2.headers['service-signature'] as string;
    expect(verifySignature(sig, got2.raw, secret2)).toMatchObject({ valid: 1, total: 2 });
    expect(verifySignature(sig, got2.raw, secret1)).toMatchObject({ valid: 1, total: 2 });
    // the people-only integration received no organization event (a round finds nothing more to send)
    expect(await wh.svc.worker('delivery').runOnce()).toBe(false);
    expect(receiver.received.filter((r) => [loc.id, loc2.id].includes(r.json?.data?.object?.id))).toHaveLength(2);
    expect(await sql(wh, `select d.id from webhooks.deliveries d join webhooks.endpoints e on e.id = d.endpoint_id where e.integration_id = 'int_p'`)).toEqual([]);
    await wh.call('DELETE', '/internal/integrations/int_s/endpoints', { as: system });
    await wh.call('DELETE', '/internal/integrations/int_p/endpoints', { as: system });
  });

  it('holds deliveries while the integration is paused and sends them in order on resume', async () => {
    const put1 = await put('int_q', { webhooks: [{ url: `${receiver.url}/q`, events: ['location.created', 'location.updated'] }], scopes: ['organization:read'], secret: secret1 });
    const endpointId = put1.body.endpoints[0].id;
    const paused = await wh.call('POST', '/internal/integrations/int_q:pause', { as: system });
    expect(paused.body).toEqual({ integrationId: 'int_q', paused: true });
    const loc = await newLocation('Paused');
    for (let v = 1; v <= 3; v++) await org.call('PATCH', `/locations/${loc.id}`, { body: { name: `Paused v${v}` } });
    await eventually(async () => (await wh.call('GET', '/internal/integrations/int_q/endpoints', { as: system })).body.endpoints[0].pendingDeliveries === 4);
    // a round while paused sends none of them
    await wh.svc.worker('delivery').runOnce();
    const forQ = () => receiver.received.filter((r) => r.json?.data?.object?.id === loc.id);
    expect(forQ()).toHaveLength(0);

    const resumed = await wh.call('POST', '/internal/integrations/int_q:resume', { as: system });
    expect(resumed.body).toEqual({ integrationId: 'int_q', paused: false });
    await deliver();
    expect(forQ()).toHaveLength(4);
    expect(forQ().map((r) => r.json.data.object.version)).toEqual([1, 2, 3, 4]);
    expect(forQ().map((r) => r.json.type)).toEqual(['location.created', 'location.updated', 'location.updated', 'location.updated']);
    // the rounds recorded every attempt
    const endpoint = async () => (await wh.call('GET', '/webhook-endpoints?limit=200')).body.data.find((e: { id: string }) => e.id === endpointId);
    expect(await endpoint()).toMatchObject({ integrationId: 'int_q', pendingDeliveries: 0 });
  });
});

import { newId } from '@bop/shared';
import { webhooksService } from '../src';
import { envelope, eventually, Receiver, sql, startTestServices, type TestService, type TestServices } from '@bop/test-support';

let stack: TestServices;
let wh: TestService;
let receiver: Receiver;

beforeAll(async () => {
  // the default: private networks refused
  // no worker loop: the test runs the delivery worker's rounds instead of waiting for it
  stack = await startTestServices([webhooksService], { BUS_POLL_MS: '50' }, { workers: false });
  wh = stack.services.webhooks;
  receiver = await Receiver.start();
});
afterAll(async () => {
  await stack?.close();
  await receiver?.close();
});

describe('SSRF guard (WEBHOOK_ALLOW_PRIVATE_NETWORKS off)', () => {
  it.each([
    ['http://hooks.example.com/x', 'https URL'],
    ['https://127.0.0.1/x', 'loopback'],
    ['https://10.0.0.7/x', 'private'],
    ['https://169.254.169.254/latest/meta-data', 'link-local'],
    ['https://[::1]/x', 'loopback'],
    ['https://[::ffff:127.0.0.1]/x', 'loopback'],
    ['https://localhost/x', 'loopback'],
  ])('refuses %s at creation', async (url, why) => {
    const res = await wh.call('POST', '/webhook-endpoints', { body: { url, events: ['*'] } });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([{ path: 'url', message: expect.stringContaining(why) }]);
  });

  it('refuses at send time too (checked after DNS resolution, e.g. after a DNS change), without connecting', async () => {
    const now = new Date();
    const rows = [`http://127.0.0.1:${receiver.port}/direct`, `http://localhost:${receiver.port}/resolved`].map((url) => ({ id: newId('webhookEndpoint'), url }));
    // stored as if they had passed the check when they were created
    for (const r of rows) {
      await sql(wh, `insert into webhooks.endpoints (id, url, events, status, secret, created_at, updated_at) values ($1, $2, '["*"]', 'active', $3, $4, $4)`, [r.id, r.url, 'whsec_' + Buffer.alloc(32, 3).toString('base64'), now]);
    }
    const ev = envelope('location.created', { id: 'loc_ssrf' });
    await stack.bus.publish([{ topic: 'organization', key: 'loc_ssrf', eventId: ev.id, type: ev.type, payload: ev }]);
    for (const r of rows) {
      const d = await eventually(async () => {
        while (await wh.svc.worker('delivery').runOnce());
        return (await wh.call('GET', `/webhook-endpoints/${r.id}/deliveries`)).body.data.find((x: { attempts: number }) => x.attempts >= 1);
      });
      expect(d).toMatchObject({ status: 'pending', lastStatus: null });
      expect(d.lastError).toMatch(/^refused: .*loopback/);
    }
    expect(receiver.received).toHaveLength(0);
  });
});

import http from 'node:http';
import { createHmac, timingSafeEqual } from 'node:crypto';
import Stripe from 'stripe';
import { Webhook } from 'standardwebhooks';
import { webhooksService } from '../src';
import { envelope, eventually, FakeClock, startTestServices, type TestService, type TestServices } from '@bop/test-support';
import { newEndpoint } from './fixtures';

/**
 * Real deliveries verified the way receivers verify them (issue 13 item 8): the plain-Node snippet of
 * docs/webhooks.md (spec: Events, Signature), Stripe's `webhooks.constructEvent` on `Service-Signature`, and
 * the `standardwebhooks` package on the Standard Webhooks headers, all with the secret as issued.
 */

// The receiver snippet of docs/webhooks.md, verbatim but for the types.
function verifyServiceSignature(rawBody: Buffer | string, header: string, secret: string): boolean {
  const parts = header.split(',').map((p) => p.split('='));
  const t = Number(parts.find(([k]) => k === 't')?.[1]);
  if (!Number.isInteger(t) || Math.abs(Date.now() / 1000 - t) > 300) return false; // 5 minutes
  const expected = createHmac('sha256', secret).update(`${t}.${rawBody}`).digest();
  return parts.some(([k, v]) => {
    if (k !== 'v1') return false;
    const got = Buffer.from(v ?? '', 'hex');
    return got.length === expected.length && timingSafeEqual(got, expected);
  });
}

interface Verdict {
  /** the docs/webhooks.md snippet */
  spec: boolean;
  /** Stripe's constructEvent: the event id it returned, or its error message */
  stripe: string;
  /** standardwebhooks' verify: the event id it returned, or its error message */
  standard: string;
}

interface Got {
  eventId: string;
  type: string;
  raw: Buffer;
  /** per secret the receiver was told to check */
  verdicts: Verdict[];
}

const stripe = new Stripe('sk_test_offline_only');

/** A real receiver on 127.0.0.1: raw body first, the three checks for each secret, 200 only when the spec check passes for all. */
class VerifyingReceiver {
  readonly got: Got[] = [];
  secrets: string[] = [];
  private server!: http.Server;
  url = '';

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks);
        const header = String(req.headers['service-signature'] ?? '');
        const verdicts = this.secrets.map((secret): Verdict => {
          let viaStripe: string;
          try {
            // Stripe reads its own header, Stripe-Signature; ours has the same `t=…,v1=…` form
            viaStripe = stripe.webhooks.constructEvent(raw, header, secret).id;
          } catch (err) {
            viaStripe = (err as Error).message;
          }
          let viaStandard: string;
          try {
            viaStandard = (new Webhook(secret).verify(raw, req.headers as Record<string, string>) as { id: string }).id;
          } catch (err) {
            viaStandard = (err as Error).message;
          }
          return { spec: verifyServiceSignature(raw, header, secret), stripe: viaStripe, standard: viaStandard };
        });
        this.got.push({ eventId: String(req.headers['service-event-id']), type: String(req.headers['service-event-type']), raw, verdicts });
        const ok = verdicts.length > 0 && verdicts.every((v) => v.spec);
        res.writeHead(ok ? 200 : 400).end(ok ? 'ok' : 'bad signature');
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as { port: number }).port}/hooks`;
    return this;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

const clock = new FakeClock();
let stack: TestServices;
let wh: TestService;
let receiver: VerifyingReceiver;

beforeAll(async () => {
  // no worker loop: the tests run the delivery worker's rounds (delivered) instead of waiting for it
  stack = await startTestServices([webhooksService], { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', BUS_POLL_MS: '50' }, { clock, workers: false });
  wh = stack.services.webhooks;
  receiver = await new VerifyingReceiver().start();
});
afterAll(async () => {
  await stack?.close();
  await receiver?.close();
});
const cleanup: string[] = [];
afterEach(async () => {
  for (const id of cleanup.splice(0)) await wh.call('DELETE', `/webhook-endpoints/${id}`);
  receiver.got.length = 0;
});

async function endpoint(events: string[]) {
  const e = await newEndpoint(wh, receiver.url, events);
  cleanup.push(e.id);
  return e;
}

/** What `check` finds once the fan-out has queued it and the worker's rounds (until nothing is due) sent it. */
const delivered = <T>(check: () => Promise<T | undefined | false>) =>
  eventually(async () => {
    while (await wh.svc.worker('delivery').runOnce());
    return check();
  });

interface DeliveryView {
  eventId: string;
  status: string;
  attempts: number;
  lastStatus: number | null;
}

/** The endpoint's delivery of the event, once `ready` holds for it. */
async function deliveryWhen(endpointId: string, eventId: string, ready: (d: DeliveryView) => boolean): Promise<DeliveryView> {
  return delivered(async () => {
    const res = await wh.call('GET', `/webhook-endpoints/${endpointId}/deliveries?limit=200`);
    const d = (res.body.data as DeliveryView[]).find((x) => x.eventId === eventId);
    return d && ready(d) ? d : undefined;
  });
}

describe('signatures checked by the receivers’ own libraries', () => {
  it('a delivery verifies with the spec snippet, Stripe constructEvent and standardwebhooks, using the secret as issued', async () => {
    const e = await endpoint(['location.created']);
    expect(e.secret).toMatch(/^whsec_/);
    receiver.secrets = [e.secret];
    // non-ASCII text: the HMAC is over the exact body bytes
    const ev = envelope('location.created', { id: 'loc_sig', name: 'Zoë’s café ✓ 東京', note: 'line\nbreak "quoted"' });
    await stack.bus.publish([{ topic: 'organization', key: 'loc_sig', eventId: ev.id, type: ev.type, payload: ev }]);
    const got = await delivered(async () => receiver.got.find((g) => g.eventId === ev.id));
    expect(got.verdicts).toEqual([{ spec: true, stripe: ev.id, standard: ev.id }]);
    expect(JSON.parse(got.raw.toString('utf8')).data.object.name).toBe('Zoë’s café ✓ 東京');
    expect(await deliveryWhen(e.id, ev.id, (d) => d.status === 'succeeded')).toMatchObject({ attempts: 1, lastStatus: 200 });

    // another endpoint's secret verifies nothing, in any of the three
    const other = await endpoint(['location.updated']);
    receiver.secrets = [other.secret];
    const ping = await wh.call('POST', `/webhook-endpoints/${e.id}:ping`);
    const refused = await delivered(async () => receiver.got.find((g) => g.eventId === ping.body.eventId));
    expect(refused.verdicts[0].spec).toBe(false);
    expect(refused.verdicts[0].stripe).toMatch(/No signatures found matching the expected signature/);
    expect(refused.verdicts[0].standard).toBe('No matching signature found');
  });

  it('after a rotation both secrets verify, with each library, for the grace period', async () => {
    const e = await endpoint(['location.created']);
    const rotated = (await wh.call('POST', `/webhook-endpoints/${e.id}:rotate-secret`)).body as { secret: string };
    expect(rotated.secret).not.toBe(e.secret);
    receiver.secrets = [rotated.secret, e.secret];
    const ping = await wh.call('POST', `/webhook-endpoints/${e.id}:ping`);
    const got = await delivered(async () => receiver.got.find((g) => g.eventId === ping.body.eventId));
    const id = ping.body.eventId;
    expect(got.verdicts).toEqual([
      { spec: true, stripe: id, standard: id },
      { spec: true, stripe: id, standard: id },
    ]);
  });

  it('a timestamp more than 5 minutes old is refused by the snippet and both libraries; the retry, signed afresh, passes', async () => {
    const e = await endpoint(['location.created']);
    receiver.secrets = [e.secret];
    // the service's clock 6 minutes behind the receiver's: every signature it makes is that old
    clock.advance(-6 * 60_000);
    let ping: { eventId: string };
    try {
      ping = (await wh.call('POST', `/webhook-endpoints/${e.id}:ping`)).body;
      const old = await delivered(async () => receiver.got.find((g) => g.eventId === ping.eventId));
      expect(old.verdicts[0].spec).toBe(false);
      expect(old.verdicts[0].stripe).toMatch(/Timestamp outside the tolerance zone/);
      expect(old.verdicts[0].standard).toBe('Message timestamp too old');
      expect(await deliveryWhen(e.id, ping.eventId, (d) => d.attempts === 1)).toMatchObject({ status: 'pending', lastStatus: 400 });
    } finally {
      clock.advance(6 * 60_000);
    }
    // the retry falls due on the restored clock and carries a fresh timestamp
    clock.advance(60_000);
    const fresh = await delivered(async () => receiver.got.filter((g) => g.eventId === ping.eventId)[1]);
    expect(fresh.verdicts).toEqual([{ spec: true, stripe: ping.eventId, standard: ping.eventId }]);
    expect(await deliveryWhen(e.id, ping.eventId, (d) => d.status === 'succeeded')).toMatchObject({ attempts: 2, lastStatus: 200 });
  });
});

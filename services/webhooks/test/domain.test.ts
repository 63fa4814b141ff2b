import { createHmac, timingSafeEqual } from 'node:crypto';
import { eventTypes } from '@bop/contracts';
import { deliveryHeaders, generateSecret, standardKey, signingSecrets } from '../src/deliveries/signature';
import { JITTER, nextAttemptAt, nominalDelayMs, parseRetryAfter, retryDelayMs, scheduleTable } from '../src/deliveries/schedule';
import { blockedAddressReason, parseV6 } from '../src/endpoints/addresses';
import { checkEvents, featureOn, isDeliverableType, subscribes } from '../src/event-types/subscriptions';
import { readableTypes, typesOfFilter } from '../src/events/readable-types';
import { checkUrl } from '../src/endpoints/urls';

const def = (type: string) => eventTypes.find((e) => e.type === type)!;

/** An independent receiver-side check as the spec reads: HMAC "<t>.<body>" keyed with the secret as issued, compared in constant time. */
function verifyServiceSignature(header: string, body: string, secret: string): { t: number; matches: number } {
  const parts = header.split(',').map((p) => p.split('='));
  const t = Number(parts.find(([k]) => k === 't')![1]);
  const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest();
  const matches = parts.filter(([k]) => k === 'v1').filter(([, v]) => {
    const got = Buffer.from(v, 'hex');
    return got.length === expected.length && timingSafeEqual(got, expected);
  }).length;
  return { t, matches };
}

describe('signature', () => {
  const body = '{"id":"evt_1","type":"location.created","data":{"object":{"name":"Zoë ✓"}}}';

  it('generates whsec_ secrets of 32 random bytes', () => {
    const s = generateSecret();
    expect(s).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(standardKey(s)).toHaveLength(32);
    expect(generateSecret()).not.toBe(s);
  });

  it('signs "<t>.<raw body>" so an independent HMAC verifies it, and sends every spec header', () => {
    const secret = generateSecret();
    const h = deliveryHeaders({ eventId: 'evt_1', eventType: 'location.created', body, t: 1_790_000_000, secrets: [secret] });
    expect(h['user-agent']).toBe('Service-Webhooks/1');
    expect(h['service-event-id']).toBe('evt_1');
    expect(h['service-event-type']).toBe('location.created');
    expect(h['service-signature']).toMatch(/^t=1790000000,v1=[0-9a-f]{64}$/);
    expect(verifyServiceSignature(h['service-signature'], body, secret)).toEqual({ t: 1_790_000_000, matches: 1 });
    expect(verifyServiceSignature(h['service-signature'], body + ' ', secret).matches).toBe(0);
    expect(verifyServiceSignature(h['service-signature'], body, generateSecret()).matches).toBe(0);
  });

  it('keys Service-Signature with the secret text as issued, not with the bytes the base64 after whsec_ encodes', () => {
    const secret = generateSecret();
    const h = deliveryHeaders({ eventId: 'evt_1', eventType: 'location.created', body, t: 1_790_000_000, secrets: [secret] });
    const v1 = h['service-signature'].split('v1=')[1];
    expect(v1).toBe(createHmac('sha256', Buffer.from(secret, 'utf8')).update(`1790000000.${body}`, 'utf8').digest('hex'));
    expect(v1).not.toBe(createHmac('sha256', standardKey(secret)).update(`1790000000.${body}`, 'utf8').digest('hex'));
  });

  it('sends the Standard Webhooks headers, signed over "<id>.<t>.<body>" in base64', () => {
    const secret = generateSecret();
    const h = deliveryHeaders({ eventId: 'evt_1', eventType: 'location.created', body, t: 1_790_000_000, secrets: [secret] });
    expect(h['webhook-id']).toBe('evt_1');
    expect(h['webhook-timestamp']).toBe('1790000000');
    const expected = createHmac('sha256', Buffer.from(secret.slice(6), 'base64')).update(`evt_1.1790000000.${body}`).digest('base64');
    expect(h['webhook-signature']).toBe(`v1,${expected}`);
  });

  it('signs with the previous secret as well until it expires (two v1= values)', () => {
    const now = new Date('2026-11-21T10:00:00Z');
    const [current, previous] = [generateSecret(), generateSecret()];
    const within = signingSecrets(current, previous, new Date(now.getTime() + 1000), now);
    const h = deliveryHeaders({ eventId: 'evt_2', eventType: 'location.updated', body, t: 1, secrets: within });
    expect(h['service-signature'].split(',').filter((p) => p.startsWith('v1='))).toHaveLength(2);
    expect(verifyServiceSignature(h['service-signature'], body, current).matches).toBe(1);
    expect(verifyServiceSignature(h['service-signature'], body, previous).matches).toBe(1);
    expect(h['webhook-signature'].split(' ')).toHaveLength(2);
    expect(signingSecrets(current, previous, new Date(now.getTime() - 1), now)).toHaveLength(1);
  });
});

describe('retry schedule', () => {
  it('makes about 15 attempts over about 3 days', () => {
    const waits = scheduleTable(15);
    expect(waits).toHaveLength(14);
    expect(waits[0]).toBe(16_000);
    for (let i = 1; i < waits.length; i++) expect(waits[i]).toBe(waits[i - 1] * 2);
    const totalHours = waits.reduce((a, b) => a + b, 0) / 3_600_000;
    expect(totalHours).toBeGreaterThan(60);
    expect(totalHours).toBeLessThan(84);
  });

  it('keeps jitter within ±15 % of the nominal wait', () => {
    for (let n = 1; n <= 14; n++) {
      expect(retryDelayMs(n, () => 0)).toBe(Math.round(nominalDelayMs(n) * (1 - JITTER)));
      expect(retryDelayMs(n, () => 0.999999)).toBeLessThanOrEqual(Math.round(nominalDelayMs(n) * (1 + JITTER)));
      const d = retryDelayMs(n);
      expect(d).toBeGreaterThanOrEqual(nominalDelayMs(n) * (1 - JITTER) - 1);
      expect(d).toBeLessThanOrEqual(nominalDelayMs(n) * (1 + JITTER) + 1);
    }
  });

  it('ends the schedule after the last attempt', () => {
    const now = new Date('2026-11-21T00:00:00Z');
    expect(nextAttemptAt({ step: 14, maxAttempts: 15, now, random: () => 0.5 })!.getTime() - now.getTime()).toBe(nominalDelayMs(14));
    expect(nextAttemptAt({ step: 15, maxAttempts: 15, now })).toBeNull();
  });

  it('lets Retry-After (seconds or HTTP date) raise the wait, never lower it', () => {
    const now = new Date('2026-11-21T00:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('Sat, 21 Nov 2026 00:05:00 GMT', now)).toBe(300_000);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(undefined, now)).toBeNull();
    const raised = nextAttemptAt({ step: 1, maxAttempts: 15, now, retryAfterMs: 600_000, random: () => 0.5 })!;
    expect(raised.getTime() - now.getTime()).toBe(600_000);
    const kept = nextAttemptAt({ step: 1, maxAttempts: 15, now, retryAfterMs: 1_000, random: () => 0.5 })!;
    expect(kept.getTime() - now.getTime()).toBe(16_000);
  });
});

describe('SSRF address classifier', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['100.64.0.1', 'shared address space (carrier-grade NAT)'],
    ['0.0.0.0', 'unspecified ("this network")'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['fd12:3456::1', 'private (unique local)'],
    ['fc00::1', 'private (unique local)'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['64:ff9b::a9fe:a9fe', 'link-local'],
    ['2002:c0a8:0101::1', 'private'],
    ['::127.0.0.1', 'loopback'],
  ])('refuses %s (%s)', (address, reason) => {
    expect(blockedAddressReason(address)).toBe(reason);
  });

  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '192.169.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '2002:0808:0808::1', '64:ff9b::808:808'])(
    'allows public %s',
    (address) => {
      expect(blockedAddressReason(address)).toBeNull();
    },
  );

  it('parses IPv6 forms', () => {
    expect(parseV6('::1')).toEqual([...Array(15).fill(0), 1]);
    expect(parseV6('1::')).toEqual([0, 1, ...Array(14).fill(0)]);
    expect(parseV6('::ffff:1.2.3.4')!.slice(10)).toEqual([0xff, 0xff, 1, 2, 3, 4]);
    expect(parseV6('1:2:3:4:5:6:7:8:9')).toBeNull();
    expect(parseV6('1::2::3')).toBeNull();
    expect(blockedAddressReason('not-an-ip')).toBe('not an IP address');
  });
});

describe('subscriptions', () => {
  const standalone = (events: string[]) => ({ events, scopes: null });

  it('delivers public available types only', () => {
    expect(isDeliverableType('location.created')).toBe(true);
    expect(isDeliverableType('webhook.ping')).toBe(false);
    expect(isDeliverableType('document.expiring')).toBe(false);
    expect(isDeliverableType('identity.user.created')).toBe(false);
    expect(isDeliverableType('sales.transaction.recorded')).toBe(false);
  });

  it('matches listed types and the wildcard, never the ping', () => {
    expect(subscribes(standalone(['*']), def('employee.created'))).toBe(true);
    expect(subscribes(standalone(['location.created']), def('location.created'))).toBe(true);
    expect(subscribes(standalone(['location.created']), def('location.updated'))).toBe(false);
    expect(subscribes(standalone(['*']), def('webhook.ping'))).toBe(false);
  });

  it('lets an integration receive only events its scopes cover', () => {
    const integ = (scopes: string[], events = ['*']) => ({ events, scopes });
    expect(subscribes(integ(['organization:read']), def('location.created'))).toBe(true);
    expect(subscribes(integ(['organization:write']), def('location.created'))).toBe(false);
    expect(subscribes(integ(['sales:write']), def('sales_order.created'))).toBe(true);
    expect(subscribes(integ(['sales:read']), def('employee.created'))).toBe(false);
    expect(subscribes(integ(['notifications:deliver']), def('announcement.published'))).toBe(true);
    expect(subscribes(integ(['communication:write']), def('recognition.posted'))).toBe(true);
    expect(subscribes(integ(['attachments:read']), def('attachment.uploaded'))).toBe(true);
    expect(subscribes(integ(['people:read'], ['location.created']), def('location.created'))).toBe(false);
  });

  it('lets the event log show a reader the types a ["*"] subscription of theirs would be sent', () => {
    const on = new Map<string, boolean>();
    const all = readableTypes({ scopes: null, features: on });
    expect(all).toEqual(eventTypes.map((t) => t.type).filter(isDeliverableType));
    expect(all).not.toContain('webhook.ping');
    expect(all).not.toContain('document.expiring');
    const org = readableTypes({ scopes: ['organization:read'], features: on });
    expect(org).toContain('location.created');
    expect(org).not.toContain('punch.received');
    expect(readableTypes({ scopes: [], features: on })).toEqual([]);
    const salesOff = readableTypes({ scopes: null, features: new Map([['sales', false]]) });
    expect(salesOff).not.toContain('sales_order.created');
    expect(salesOff).toContain('punch.received');
  });

  it('reads the type filter: exact types, prefix.* patterns, * and field errors', () => {
    const person = { scopes: null, features: new Map<string, boolean>() };
    expect(typesOfFilter('sales_order.*,invoice.paid', person)).toEqual({ types: ['sales_order.created', 'sales_order.shipped', 'sales_order.cancelled', 'invoice.paid'], errors: [] });
    expect(typesOfFilter('*', person).types).toEqual(readableTypes(person));
    expect(typesOfFilter('sale.*', person).errors).toEqual([{ path: 'type', message: expect.stringContaining('sale.* matches no event type') }]);
    expect(typesOfFilter('nope,location.created,', person).errors.map((e) => e.message)).toEqual([expect.stringContaining('nope is not an event type'), expect.stringContaining('An empty entry')]);
    expect(typesOfFilter('webhook.ping', person).errors).toHaveLength(1);
    const integ = { scopes: ['organization:read'], features: new Map<string, boolean>() };
    expect(typesOfFilter('employee.created', integ).errors).toEqual([{ path: 'type', message: 'employee.created needs one of the scopes people:read, people:write.' }]);
    expect(typesOfFilter('employee.*', integ)).toMatchObject({ errors: [] });
  });

  it('turns an event off with its feature or any ancestor feature', () => {
    expect(featureOn(null, new Map([['people', false]]))).toBe(true);
    expect(featureOn('sales.online_orders', new Map())).toBe(true);
    expect(featureOn('sales.online_orders', new Map([['sales', false]]))).toBe(false);
    expect(featureOn('sales.online_orders', new Map([['sales.online_orders', false]]))).toBe(false);
    expect(featureOn('sales', new Map([['sales.online_orders', false]]))).toBe(true);
  });

  it('checks subscription lists with field paths', () => {
    const r = checkEvents(['location.created', 'nope', 'webhook.ping', 'document.expiring', 'employee.created', 'location.created'], {
      path: 'events',
      allowPlanned: false,
      featureStates: new Map([['people', false]]),
    });
    expect(r.events).toEqual(['location.created', 'nope', 'webhook.ping', 'document.expiring', 'employee.created']);
    expect(r.errors.map((e) => e.path)).toEqual(['events[1]', 'events[2]', 'events[3]', 'events[4]']);
    expect(checkEvents(['*', 'location.created'], { path: 'events', allowPlanned: false }).errors).toEqual([{ path: 'events', message: expect.any(String) }]);
    expect(checkEvents(['*'], { path: 'events', allowPlanned: false })).toEqual({ events: ['*'], errors: [] });
    const integ = checkEvents(['location.created', 'employee.created', 'document.expiring'], { path: 'webhooks[0].events', allowPlanned: true, scopes: ['organization:read', 'people:read'] });
    expect(integ.errors).toEqual([]);
    const uncovered = checkEvents(['employee.created'], { path: 'webhooks[0].events', allowPlanned: true, scopes: ['organization:read'] });
    expect(uncovered.errors).toEqual([{ path: 'webhooks[0].events[0]', message: expect.stringContaining('people:read') }]);
  });
});

describe('target URLs', () => {
  it('wants https unless http is allowed, and no credentials', () => {
    expect('url' in checkUrl('https://hooks.example.com/x#frag', { allowHttp: false })).toBe(true);
    expect(checkUrl('http://hooks.example.com/x', { allowHttp: false })).toEqual({ error: 'Must be an https URL.' });
    expect('url' in checkUrl('http://hooks.example.com/x', { allowHttp: true })).toBe(true);
    expect(checkUrl('https://user:pw@hooks.example.com/', { allowHttp: false })).toHaveProperty('error');
    expect(checkUrl('ftp://hooks.example.com/', { allowHttp: true })).toHaveProperty('error');
    expect(checkUrl('/relative', { allowHttp: true })).toHaveProperty('error');
  });
});

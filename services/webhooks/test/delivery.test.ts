import { organizationService } from '@svc/organization';
import { webhooksService } from '../src';
import { insertDeliveries } from '../src/deliveries/store';
import { createLogger, startService, type RunningService } from '@bop/shared';
import { envelope, eventually, FakeClock, Receiver, sql, startTestServices, testKeys, verifySignature, type TestService, type TestServices } from '@bop/test-support';
import { newEndpoint } from './fixtures';

const clock = new FakeClock();
let stack: TestServices;
let wh: TestService;
let org: TestService;
let receiver: Receiver;

beforeAll(async () => {
  // no worker loop here: the tests run the delivery worker's rounds (delivered) instead of waiting for it
  stack = await startTestServices([organizationService, webhooksService], { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', RELAY_POLL_MS: '50', BUS_POLL_MS: '50', DB_POOL_MAX: '10', WEBHOOK_TIMEOUT_MS: '1000' }, { clock, workers: false });
  wh = stack.services.webhooks;
  org = stack.services.organization;
  receiver = await Receiver.start();
});
afterAll(async () => {
  await stack?.close();
  await receiver?.close();
});

/** Each test gets its own receiver path and removes its endpoint afterwards, so tests do not see each other's events. */
const cleanup: string[] = [];
let cleanupReplica: RunningService | null = null;
afterEach(async () => {
  await cleanupReplica?.close();
  cleanupReplica = null;
  for (const id of cleanup.splice(0)) await wh.call('DELETE', `/webhook-endpoints/${id}`);
  receiver.respond = () => 200;
  receiver.received.length = 0;
});

/** One round of the delivery worker: the due deliveries claimed, sent and recorded. */
const round = () => wh.svc.worker('delivery').runOnce();

/** What `check` finds once the fan-out has queued it and the worker's rounds (until nothing is due) sent it. */
const delivered = <T>(check: () => Promise<T | undefined | false>, ms?: number) =>
  eventually(async () => {
    while (await round());
    return check();
  }, ms);

async function endpointFor(events: string[] = ['*']) {
  const e = await newEndpoint(wh, receiver.url, events);
  cleanup.push(e.id);
  return e;
}

async function newLocation(name: string) {
  const res = await org.call('POST', '/locations', { body: { name, timezone: 'Europe/Berlin' } });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  return res.body as { id: string; version: number };
}

async function deliveriesOf(endpointId: string, query = '') {
  const res = await wh.call('GET', `/webhook-endpoints/${endpointId}/deliveries?limit=200${query}`);
  return res.body.data as Array<{ id: string; eventId: string; eventType: string; status: string; attempts: number; nextAttemptAt: string | null; lastStatus: number | null; lastError: string | null }>;
}

async function deliveryOf(endpointId: string, eventType: string) {
  return eventually(async () => (await deliveriesOf(endpointId)).find((d) => d.eventType === eventType));
}

describe('GET /webhook-endpoints/{id}/deliveries?updatedSince', () => {
  it('pages in change order: an attempt brings a delivery again after the page that showed it, a lease does not', async () => {
    receiver.respond = () => 503;
    const e = await endpointFor(['location.created']);
    await newLocation('Since 1');
    await newLocation('Since 2');
    const queued = await eventually(async () => {
      const ds = await deliveriesOf(e.id);
      return ds.length === 2 ? ds : undefined;
    });
    const [d1, d2] = queued.map((d) => d.id);
    const poll = async (cursor?: string) => {
      const r = await wh.call('GET', `/webhook-endpoints/${e.id}/deliveries?updatedSince=2000-01-01T00:00:00Z&limit=1${cursor ? `&cursor=${cursor}` : ''}`);
      expect(r.status).toBe(200);
      return r.body as { data: Array<{ id: string; attempts: number; status: string }>; nextCursor: string; hasMore: boolean };
    };
    const first = await poll();
    expect(first.data.map((d) => d.id)).toEqual([d1]);
    expect(first.data[0]).not.toHaveProperty('body');

    // a worker's lease is bookkeeping, not a change the list shows: the row keeps its change
    const changeOf = async (id: string) => (await sql<{ x: string }>(stack.db.url, `select change_xid::text as x from webhooks.deliveries where id = $1`, [id]))[0].x;
    const before = await changeOf(d1);
    await sql(stack.db.url, `update webhooks.deliveries set locked_until = now() + interval '1 minute', lease = 'lease_test' where id = $1`, [d1]);
    expect(await changeOf(d1)).toBe(before);
    await sql(stack.db.url, `update webhooks.deliveries set locked_until = null, lease = null where id = $1`, [d1]);

    // both are attempted (503: pending, retried later): the poller, going on from its cursor, gets d1 again
    await round();
    const seen = [...first.data];
    let cursor = first.nextCursor;
    // until a poll answers nothing: rows past the horizon (a transaction still running anywhere on the
    // server) come again until it ends
    await eventually(async () => {
      const page = await poll(cursor);
      seen.push(...page.data);
      cursor = page.nextCursor;
      return page.data.length === 0 && !page.hasMore;
    }, 30_000);
    expect([...new Set(seen.map((d) => d.id))]).toEqual([d1, d2]);
    expect(seen.filter((d) => d.id === d1).length).toBeGreaterThanOrEqual(2);
    expect(seen.at(-1)).toMatchObject({ attempts: 1, status: 'pending' });
    expect(seen.filter((d) => d.attempts === 1).map((d) => d.id).sort()).toEqual(expect.arrayContaining([d1, d2].sort()));
  });
});

describe('fan-out and delivery', () => {
  it('delivers a location created through organization with the envelope, headers and a verifiable signature', async () => {
    const e = await endpointFor(['location.created']);
    const loc = await newLocation('Harbour');
    const got = await delivered(async () => receiver.received.find((r) => r.json?.data?.object?.id === loc.id));
    expect(Object.keys(got.json)).toEqual(['id', 'type', 'createdAt', 'apiVersion', 'actor', 'locationId', 'data']);
    expect(got.json).toMatchObject({ type: 'location.created', apiVersion: 'v1', actor: { type: 'user', id: 'usr_test' }, locationId: loc.id, data: { object: { id: loc.id, name: 'Harbour' } } });
    expect(got.json.id).toMatch(/^evt_/);
    expect(got.headers['service-event-id']).toBe(got.json.id);
    expect(got.headers['service-event-type']).toBe('location.created');
    expect(got.headers['user-agent']).toBe('Service-Webhooks/1');
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['webhook-id']).toBe(got.json.id);
    const sig = verifySignature(got.headers['service-signature'] as string, got.raw, e.secret);
    expect(sig).toMatchObject({ valid: 1, total: 1 });
    expect(Math.abs(sig.t - clock.now().getTime() / 1000)).toBeLessThan(300);
    expect(got.headers['webhook-timestamp']).toBe(String(sig.t));
    const d = await delivered(async () => (await deliveriesOf(e.id)).find((x) => x.status === 'succeeded'));
    const detail = await wh.call('GET', `/webhook-deliveries/${d.id}`);
    expect(detail.body).toMatchObject({ id: d.id, eventId: got.json.id, eventType: 'location.created', status: 'succeeded', attempts: 1, lastStatus: 200, nextAttemptAt: null });
    expect(detail.body.body).toBe(got.raw);
    // only subscribed types: no location.updated delivery
    await org.call('PATCH', `/locations/${loc.id}`, { body: { name: 'Harbour 2' } });
    await newLocation('Probe');
    await delivered(async () => receiver.received.find((r) => r.json?.data?.object?.name === 'Probe'));
    expect(receiver.ofType('location.updated')).toHaveLength(0);
  });

  it("delivers organization's org_unit.* and department.* events end to end", async () => {
    await endpointFor(['org_unit.created', 'org_unit.updated', 'department.created', 'department.archived']);
    const unit = (await org.call('POST', '/org-units', { body: { name: 'North' } })).body;
    await org.call('PATCH', `/org-units/${unit.id}`, { body: { name: 'North region' } });
    const dep = (await org.call('POST', '/departments', { body: { name: 'Kitchen' } })).body;
    await org.call('DELETE', `/departments/${dep.id}`);
    const got = await delivered(async () => (receiver.received.length >= 4 ? receiver.received : undefined));
    expect(got.map((r) => `${r.json.type} ${r.json.data.object.id}`)).toEqual(
      expect.arrayContaining([`org_unit.created ${unit.id}`, `org_unit.updated ${unit.id}`, `department.created ${dep.id}`, `department.archived ${dep.id}`]),
    );
    expect(got.find((r) => r.json.type === 'org_unit.updated')!.json.data.previous).toEqual({ name: 'North' });
  });

  it('sends a signed webhook.ping with data.object.endpointId', async () => {
    const e = await endpointFor(['location.created']);
    const res = await wh.call('POST', `/webhook-endpoints/${e.id}:ping`);
    expect(res.status).toBe(202);
    const got = await delivered(async () => receiver.ofType('webhook.ping')[0]);
    expect(got.json).toMatchObject({ type: 'webhook.ping', data: { object: { endpointId: e.id } }, apiVersion: 'v1' });
    expect(got.json.id).toBe(res.body.eventId);
    expect(verifySignature(got.headers['service-signature'] as string, got.raw, e.secret).valid).toBe(1);
  });

  it('keeps the events of one record in order under concurrency, with a second replica sharing the queue', async () => {
    const { keys } = await testKeys();
    const replica = await startService(webhooksService, {
      databaseUrl: stack.db.url,
      internalPublicKeyPem: keys.publicKeyPem,
      bus: stack.bus,
      clock,
      port: 0,
      host: '127.0.0.1',
      env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_POLL_MS: '50', RELAY_POLL_MS: '50', DB_POOL_MAX: '10' },
      logger: createLogger('webhooks-replica', 'silent'),
    });
    cleanupReplica = replica;
    const e = await endpointFor(['location.created', 'location.updated']);
    receiver.respond = () => ({ status: 200, delayMs: Math.floor(Math.random() * 15) });
    const locs = await Promise.all([1, 2, 3, 4, 5].map((i) => newLocation(`Ordered ${i}`)));
    await Promise.all(
      locs.map(async (l) => {
        for (let v = 1; v <= 12; v++) {
          const r = await org.call('PATCH', `/locations/${l.id}`, { body: { name: `Ordered ${l.id} v${v}` } });
          expect(r.status).toBe(200);
        }
      }),
    );

    await delivered(async () => receiver.received.length >= 5 * 13, 20_000);
    for (const l of locs) {
      const seen: number[] = [];
      for (const r of receiver.received) if (r.json.data.object.id === l.id && !seen.includes(r.json.data.object.version)) seen.push(r.json.data.object.version);
      expect(seen).toEqual(Array.from({ length: 13 }, (_, i) => i + 1));
    }
    await delivered(async () => (await deliveriesOf(e.id)).every((d) => d.status === 'succeeded'));
    await replica.close();
  });

  it('keeps order for many events of one record arriving in one consumer batch', async () => {
    await endpointFor(['location.updated']);
    receiver.respond = () => ({ status: 200, delayMs: Math.floor(Math.random() * 5) });
    const events = Array.from({ length: 40 }, (_, i) => envelope('location.updated', { id: 'loc_batch', version: i + 1 }));
    await stack.bus.publish(events.map((ev) => ({ topic: 'organization', key: 'loc_batch', eventId: ev.id, type: ev.type, payload: ev })));
    await delivered(async () => receiver.received.length >= 40);
    expect(receiver.received.map((r) => r.json.data.object.version)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
  });

  it('queues more deliveries than one statement takes, all of them, in the order given', async () => {
    const e = await endpointFor(['location.updated']);
    const rows = Array.from({ length: 2_100 }, (_, i) => ({ id: `whd_chunk${String(i).padStart(5, '0')}`, endpointId: e.id, eventId: `evt_chunk${i}`, eventType: 'location.updated', recordKey: 'loc_chunk', body: '{}' }));
    await wh.svc.runtime.write((w) => insertDeliveries(w, rows, false));
    const stored = await sql(wh, `select id from webhooks.deliveries where endpoint_id = $1 order by seq`, [e.id]);
    expect(stored.map((r) => r.id)).toEqual(rows.map((r) => r.id));
    await sql(wh, `delete from webhooks.deliveries where endpoint_id = $1`, [e.id]);
  });

  it('retries on the exponential schedule (fake clock) until it is exhausted, then retry-failed and retry keep the event id', async () => {
    const e = await endpointFor(['location.created']);
    receiver.respond = () => 500;
    const loc = await newLocation('Failing');
    const waits: number[] = [];
    for (let attempt = 1; attempt <= 15; attempt++) {
      const d = await delivered(async () => (await deliveriesOf(e.id)).find((x) => x.attempts === attempt));
      expect(d.lastStatus).toBe(500);
      expect(d.lastError).toContain('HTTP 500');
      if (attempt < 15) {
        expect(d.status).toBe('pending');
        const wait = new Date(d.nextAttemptAt!).getTime() - clock.now().getTime();
        waits.push(wait);
        const nominal = 16_000 * 2 ** (attempt - 1);
        expect(wait).toBeGreaterThan(nominal * 0.85 - 2_000);
        expect(wait).toBeLessThan(nominal * 1.15 + 1);
        // nothing is sent before the wait is over
        expect(receiver.received.length).toBe(attempt);
        clock.advanceTo(d.nextAttemptAt!);
      } else {
        expect(d.status).toBe('failed');
        expect(d.nextAttemptAt).toBeNull();
      }
    }
    const totalHours = waits.reduce((a, b) => a + b, 0) / 3_600_000;
    expect(totalHours).toBeGreaterThan(60);
    expect(totalHours).toBeLessThan(84);
    const ids = new Set(receiver.received.map((r) => r.json.id));
    expect(ids.size).toBe(1);
    const [eventId] = [...ids];
    expect(receiver.received[0].json.data.object.id).toBe(loc.id);
    expect((await wh.call('GET', '/webhook-endpoints?limit=200')).body.data.find((x: { id: string }) => x.id === e.id)).toMatchObject({ failedDeliveries: 1, pendingDeliveries: 0 });
    expect((await deliveriesOf(e.id, '&status=failed')).length).toBe(1);
    expect((await deliveriesOf(e.id, `&from=${encodeURIComponent(new Date(clock.now().getTime() + 60_000).toISOString())}`)).length).toBe(0);

    receiver.respond = () => 200;
    const rf = await wh.call('POST', `/webhook-endpoints/${e.id}:retry-failed`);
    expect(rf.body).toEqual({ endpointId: e.id, queued: 1 });
    const ok = await delivered(async () => (await deliveriesOf(e.id)).find((x) => x.status === 'succeeded'));
    expect(ok.attempts).toBe(16);
    expect(ok.eventId).toBe(eventId);
    expect(receiver.received.at(-1)!.json.id).toBe(eventId);

    const again = await wh.call('POST', `/webhook-deliveries/${ok.id}:retry`);
    expect(again.status).toBe(202);
    expect(again.body).toMatchObject({ id: ok.id, status: 'pending', eventId });
    await delivered(async () => (await deliveriesOf(e.id)).find((x) => x.attempts === 17 && x.status === 'succeeded'));
    expect(receiver.received).toHaveLength(17);
    expect(receiver.received.at(-1)!.json.id).toBe(eventId);
  }, 60_000);

  it('disables an endpoint after 25 consecutive failures; events queue, and PATCH active sends them in order', async () => {
    const e = await endpointFor(['location.created', 'location.updated']);
    receiver.respond = () => 503;
    const locs = [];
    for (let i = 0; i < 25; i++) locs.push(await newLocation(`Down ${i}`));
    const off = await delivered(async () => {
      const x = (await wh.call('GET', '/webhook-endpoints?status=disabled&limit=200')).body.data.find((y: { id: string }) => y.id === e.id);
      return x ?? undefined;
    }, 20_000);
    expect(off).toMatchObject({ status: 'disabled', disabledReason: 'failures' });
    // attempts already in flight when the 25th failed may still land
    expect(off.consecutiveFailures).toBeGreaterThanOrEqual(25);
    const sentWhileActive = receiver.received.length;
    expect(sentWhileActive).toBeGreaterThanOrEqual(25);
    // while disabled: new events queue, due ones are not sent either
    for (const l of locs.slice(0, 3)) for (let v = 1; v <= 2; v++) await org.call('PATCH', `/locations/${l.id}`, { body: { name: `Down ${l.id} v${v}` } });
    await eventually(async () => (await deliveriesOf(e.id)).length === 31);
    clock.advance(3_600_000);
    expect(await round()).toBe(false);
    expect(receiver.received.length).toBe(sentWhileActive);

    receiver.respond = () => 200;
    const on = await wh.call('PATCH', `/webhook-endpoints/${e.id}`, { body: { status: 'active' } });
    expect(on.body).toMatchObject({ status: 'active', consecutiveFailures: 0, pendingDeliveries: 31 });
    await delivered(async () => (await deliveriesOf(e.id)).every((d) => d.status === 'succeeded'), 20_000);
    for (const l of locs.slice(0, 3)) {
      const versions = receiver.received.slice(sentWhileActive).filter((r) => r.json.data.object.id === l.id).map((r) => r.json.data.object.version);
      expect(versions).toEqual([1, 2, 3]);
    }
  }, 60_000);

  it('disables an endpoint at once when the receiver answers 410', async () => {
    const e = await endpointFor(['location.created']);
    receiver.respond = () => 410;
    await newLocation('Gone');
    const d = await deliveryOf(e.id, 'location.created');
    await delivered(async () => (await deliveriesOf(e.id))[0].attempts === 1);
    const list = (await wh.call('GET', '/webhook-endpoints?limit=200')).body.data.find((x: { id: string }) => x.id === e.id);
    expect(list).toMatchObject({ status: 'disabled', disabledReason: 'gone', pendingDeliveries: 1 });
    expect((await wh.call('GET', `/webhook-deliveries/${d.id}`)).body).toMatchObject({ status: 'pending', lastStatus: 410 });
  });

  it("honours the receiver's Retry-After", async () => {
    const e = await endpointFor(['location.created']);
    receiver.respond = () => ({ status: 429, headers: { 'retry-after': '7200' } });
    await newLocation('Busy');
    const d = await delivered(async () => (await deliveriesOf(e.id)).find((x) => x.attempts === 1));
    const wait = new Date(d.nextAttemptAt!).getTime() - clock.now().getTime();
    expect(wait).toBeGreaterThan(7_200_000 - 5_000);
    expect(wait).toBeLessThanOrEqual(7_200_000);
    clock.advance(3_600_000);
    expect(await round()).toBe(false);
    expect(receiver.received).toHaveLength(1);
    receiver.respond = () => 200;
    clock.advance(3_600_000);
    await delivered(async () => (await deliveriesOf(e.id)).find((x) => x.status === 'succeeded'));
  });

  it('never follows redirects and gives up on a receiver slower than the time limit', async () => {
    const e = await endpointFor(['location.created']);
    receiver.respond = (r) => (r.headers['x-probe'] ? 200 : { status: 302, headers: { location: `${receiver.url}/elsewhere` } });
    await newLocation('Redirected');
    const d = await delivered(async () => (await deliveriesOf(e.id)).find((x) => x.attempts === 1));
    expect(d).toMatchObject({ status: 'pending', lastStatus: 302 });
    expect(receiver.received).toHaveLength(1);

    receiver.respond = () => ({ status: 200, delayMs: 1_500 });
    clock.advanceTo(d.nextAttemptAt!);
    const slow = await delivered(async () => (await deliveriesOf(e.id)).find((x) => x.attempts === 2));
    expect(slow).toMatchObject({ status: 'pending', lastStatus: null, lastError: 'no answer within 1000 ms' });
  });

  it('signs with both secrets for 24 h after a rotation', async () => {
    const e = await endpointFor(['location.created']);
    const rotated = (await wh.call('POST', `/webhook-endpoints/${e.id}:rotate-secret`)).body;
    await newLocation('Rotated');
    const got = await delivered(async () => receiver.ofType('location.created')[0]);
    const header = got.headers['service-signature'] as string;
    expect(verifySignature(header, got.raw, rotated.secret)).toMatchObject({ valid: 1, total: 2 });
    expect(verifySignature(header, got.raw, e.secret)).toMatchObject({ valid: 1, total: 2 });
    clock.advance(24 * 3_600_000 + 1000);
    await newLocation('Rotated later');
    const later = await delivered(async () => receiver.ofType('location.created')[1]);
    const h2 = later.headers['service-signature'] as string;
    expect(verifySignature(h2, later.raw, rotated.secret)).toMatchObject({ valid: 1, total: 1 });
  });

  it('reads every public type for the event log, and delivers only the subscribed ones; a type subscribed later counts from then on', async () => {
    const e = await endpointFor(['location.created']);
    const publish = (env: ReturnType<typeof envelope>, key: string) => stack.bus.publish([{ topic: 'organization', key, eventId: env.id, type: env.type, payload: env }]);
    const unsubscribed = envelope('location.updated', { id: 'loc_types1' });
    await publish(unsubscribed, 'loc_types1');
    await publish(envelope('location.created', { id: 'loc_types1' }), 'loc_types1');
    await delivered(async () => receiver.ofType('location.created').find((r) => r.json.data.object.id === 'loc_types1'));
    // logged (GET /events), never delivered
    expect(await sql(wh, `select event_id from webhooks.event_log where event_id = $1`, [unsubscribed.id])).toEqual([{ event_id: unsubscribed.id }]);
    expect(await sql(wh, `select 1 from webhooks.deliveries where event_id = $1`, [unsubscribed.id])).toEqual([]);

    expect((await wh.call('PATCH', `/webhook-endpoints/${e.id}`, { body: { events: ['location.created', 'location.updated'] } })).status).toBe(200);
    await publish(envelope('location.updated', { id: 'loc_types2' }), 'loc_types2');
    await delivered(async () => receiver.ofType('location.updated').find((r) => r.json.data.object.id === 'loc_types2'));
    expect(receiver.ofType('location.updated').map((r) => r.json.data.object.id)).toEqual(['loc_types2']);
  });

  it('delivers nothing of a switched-off feature, nor internal events', async () => {
    const e = await endpointFor(['*']);
    const publish = (topic: string, key: string, env: ReturnType<typeof envelope>) => stack.bus.publish([{ topic, key, eventId: env.id, type: env.type, payload: env }]);
    await publish('identity', 'people', envelope('identity.feature.disabled', { key: 'people', enabled: false, effective: false }));
    await publish('identity', 'people.documents', envelope('identity.feature.disabled', { key: 'people.documents', enabled: true, effective: false }));
    await publish('people', 'emp_1', envelope('employee.created', { id: 'emp_1' }));
    await publish('identity', 'usr_1', envelope('identity.user.created', { id: 'usr_1' }));
    await publish('organization', 'loc_probe', envelope('location.created', { id: 'loc_probe' }));
    await delivered(async () => receiver.ofType('location.created').find((r) => r.json.data.object.id === 'loc_probe'));
    expect(receiver.ofType('employee.created')).toHaveLength(0);
    expect(receiver.received.filter((r) => r.json.type.startsWith('identity.'))).toHaveLength(0);
    const types = (await wh.call('GET', '/event-types?area=people&limit=200')).body.data;
    expect(types.find((x: { type: string }) => x.type === 'employee.created').enabled).toBe(false);
    const refused = await wh.call('PATCH', `/webhook-endpoints/${e.id}`, { body: { events: ['employee.created'] } });
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0].path).toBe('events[0]');

    await publish('identity', 'people', envelope('identity.feature.enabled', { key: 'people', enabled: true, effective: true }));
    await publish('people', 'emp_2', envelope('employee.created', { id: 'emp_2' }));
    await delivered(async () => receiver.ofType('employee.created').find((r) => r.json.data.object.id === 'emp_2'));
    expect(receiver.ofType('employee.created').map((r) => r.json.data.object.id)).toEqual(['emp_2']);
    expect((await sql(wh, `select count(*)::int as n from webhooks.deliveries where event_type like 'identity.%'`))[0].n).toBe(0);
  });
});

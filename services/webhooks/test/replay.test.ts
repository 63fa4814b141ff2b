import { webhooksService } from '../src';
import { replayBatch } from '../src/replays/store';
import { envelope, eventually, FakeClock, person, Receiver, sql, startTestServices, system, type TestService, type TestServices } from '@bop/test-support';
import type { Principal } from '@bop/shared';
import { newEndpoint, topicOf } from './fixtures';

type Envelope = ReturnType<typeof envelope>;

const clock = new FakeClock();
let stack: TestServices;
let wh: TestService;
let receiver: Receiver;
const BATCH = 2;

beforeAll(async () => {
  // no worker loops: the tests run the replay worker's rounds (a batch of 2 events each) and the delivery worker's
  stack = await startTestServices(
    [webhooksService],
    { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', BUS_POLL_MS: '50', DB_POOL_MAX: '20', WEBHOOK_TIMEOUT_MS: '1000', WEBHOOK_REPLAY_BATCH: String(BATCH) },
    { clock, workers: false },
  );
  wh = stack.services.webhooks;
  receiver = await Receiver.start();
});
afterAll(async () => {
  await stack?.close();
  await receiver?.close();
});


async function publish(...events: Envelope[]) {
  await stack.bus.publish(events.map((e) => ({ topic: topicOf(e.type), key: String(e.data.object.id), eventId: e.id, type: e.type, payload: e })));
}

/** The events once the fan-out logged them all and the sequencer made them visible. */
async function logged(...events: Envelope[]) {
  await eventually(async () => (await sql(wh, `select count(*)::int as n from webhooks.event_log where event_id = any($1)`, [events.map((e) => e.id)]))[0].n === events.length);
  await wh.svc.worker('event-log-sequencer').runOnce();
}

const replayRound = () => wh.svc.worker('webhook-replay').runOnce();
async function replayAll() {
  while (await replayRound());
}
async function deliverAll() {
  while (await wh.svc.worker('delivery').runOnce());
}

const replay = (endpointId: string, body: unknown, as?: Principal) =>
  wh.call('POST', `/webhook-endpoints/${endpointId}:replay`, as ? { body, as } : { body });

/** The event ids of a replay's deliveries in queue order (seq). */
async function queuedIds(replayId: string): Promise<string[]> {
  return (await sql(wh, `select event_id from webhooks.deliveries where replay_id = $1 order by seq`, [replayId])).map((r: { event_id: string }) => r.event_id);
}

const minutesAgo = (min: number) => new Date(clock.now().getTime() - min * 60_000).toISOString();

describe('POST /webhook-endpoints/{id}:replay', () => {
  // one record (loc_r1) has three events; other areas' events between them
  let events: Envelope[];
  let from: string;
  let to: string;

  beforeAll(async () => {
    from = minutesAgo(120);
    to = minutesAgo(60);
    events = [
      envelope('location.created', { id: 'loc_r1', name: 'R1' }, { locationId: 'loc_r1', createdAt: minutesAgo(110) }),
      envelope('sales_order.created', { id: 'so_r1' }, { locationId: 'loc_r1', createdAt: minutesAgo(100) }),
      envelope('location.updated', { id: 'loc_r1', name: 'R1b' }, { locationId: 'loc_r1', createdAt: minutesAgo(90), data: { object: { id: 'loc_r1', name: 'R1b' }, previous: { name: 'R1' } } }),
      envelope('employee.created', { id: 'emp_r1', name: 'Ann \u00e9 \u{1F600}' }, { createdAt: minutesAgo(80) }),
      envelope('location.updated', { id: 'loc_r1', name: 'R1c' }, { locationId: 'loc_r1', createdAt: minutesAgo(70) }),
    ];
    // outside the range on both sides
    const before = envelope('location.created', { id: 'loc_r0' }, { createdAt: minutesAgo(130) });
    const after = envelope('location.created', { id: 'loc_r2' }, { createdAt: minutesAgo(50) });
    await publish(before, ...events, after);
    await logged(before, ...events, after);
  });

  it('queues the range for the endpoint in the original order, with the original ids and bytes, visible in its deliveries', async () => {
    // subscribed after the events happened: everything it gets comes from the replay
    const endpoint = await newEndpoint(wh, `${receiver.url}/all`, ['*']);
    const res = await replay(endpoint.id, { from, to });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^whr_/),
      endpointId: endpoint.id,
      from: new Date(from).toISOString(),
      to: new Date(to).toISOString(),
      types: null,
      status: 'queued',
      matched: 5,
      queued: 0,
      error: null,
      createdAt: expect.any(String),
      completedAt: null,
    });
    const id = res.body.id as string;

    // a batch of 2 a round: running, then completed on the round that finds fewer than a batch
    expect(await replayRound()).toBe(true);
    const listed = await wh.call('GET', `/webhook-endpoints/${endpoint.id}/replays`);
    expect(listed.body.data).toEqual([expect.objectContaining({ id, status: 'running', matched: 5, queued: 2 })]);
    await replayAll();
    const done = (await wh.call('GET', `/webhook-endpoints/${endpoint.id}/replays`)).body.data[0];
    expect(done).toMatchObject({ id, status: 'completed', matched: 5, queued: 5, completedAt: expect.any(String) });

    expect(await queuedIds(id)).toEqual(events.map((e) => e.id));
    const deliveries = await wh.call('GET', `/webhook-endpoints/${endpoint.id}/deliveries?limit=200`);
    expect(deliveries.body.data).toHaveLength(5);
    for (const d of deliveries.body.data) expect(d).toMatchObject({ replayId: id, status: 'pending', attempts: 0 });

    receiver.received.length = 0;
    await deliverAll();
    const got = receiver.received.filter((r) => r.path === '/hooks/all');
    expect(got.map((r) => r.json.id).sort()).toEqual(events.map((e) => e.id).sort());
    // one record's events arrive in their original order
    expect(got.filter((r) => r.json.data.object.id === 'loc_r1').map((r) => r.json.id)).toEqual([events[0].id, events[2].id, events[4].id]);
    // the bytes of the log (GET /events), which are those of the original deliveries
    const log = await wh.call('GET', `/events?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}&limit=200`);
    const bodies = new Map<string, string>(log.body.data.map((e: Envelope) => [e.id, JSON.stringify(e)]));
    for (const r of got) {
      expect(r.raw).toBe(bodies.get(r.json.id));
      expect(r.headers['service-event-id']).toBe(r.json.id);
    }
  });

  it('keeps to the types asked for, and to those the endpoint subscribes to', async () => {
    const endpoint = await newEndpoint(wh, `${receiver.url}/loc`, ['location.created', 'location.updated', 'employee.created']);
    const res = await replay(endpoint.id, { from, to, types: ['location.*'] });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ types: ['location.*'], matched: 3 });
    await replayAll();
    expect(await queuedIds(res.body.id)).toEqual([events[0].id, events[2].id, events[4].id]);

    // no types: what it subscribes to (not the sales order)
    const all = await replay(endpoint.id, { from, to });
    expect(all.body.matched).toBe(4);
    await replayAll();
    expect(await queuedIds(all.body.id)).toEqual([events[0].id, events[2].id, events[3].id, events[4].id]);

    const refused = await replay(endpoint.id, { from, to, types: ['location.*', 'sales_order.*', 'nothing.here'] });
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('validation_error');
    expect(refused.body.errors.map((e: { path: string }) => e.path)).toEqual(['types[1]', 'types[2]']);
  });

  it("replays to an integration's endpoint only the events its scopes cover", async () => {
    const put = await wh.call('PUT', '/internal/integrations/int_replay/endpoints', {
      as: system,
      body: { webhooks: [{ url: `${receiver.url}/int`, events: ['*'] }], scopes: ['organization:read'], secret: 'whsec_' + Buffer.alloc(32, 3).toString('base64') },
    });
    expect(put.status).toBe(200);
    const endpointId = put.body.endpoints[0].id as string;
    const res = await replay(endpointId, { from, to });
    expect(res.body.matched).toBe(3);
    await replayAll();
    expect(await queuedIds(res.body.id)).toEqual([events[0].id, events[2].id, events[4].id]);
    const refused = await replay(endpointId, { from, to, types: ['employee.created'] });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual([{ path: 'types[0]', message: 'employee.created needs one of the scopes people:read, people:write.' }]);
  });

  it('needs webhooks.manage at reach Everyone', async () => {
    const endpoint = await newEndpoint(wh, `${receiver.url}/access`, ['*']);
    const noPermission = await replay(endpoint.id, { from, to }, person({ 'locations.read': [{ type: 'everyone' }] }));
    expect([noPermission.status, noPermission.body.code]).toEqual([403, 'forbidden']);
    const narrow = await replay(endpoint.id, { from, to }, person({ 'webhooks.manage': [{ type: 'locations', ids: ['loc_r1'] }] }));
    expect([narrow.status, narrow.body.code]).toEqual([403, 'out_of_reach']);
    // integration keys: the gateway refuses them (catalogue rows key not_allowed; test/access.test.ts walks both rows)
    expect((await replay('whe_nope', { from, to })).status).toBe(404);
    expect((await wh.call('GET', '/webhook-endpoints/whe_nope/replays')).status).toBe(404);
    expect((await wh.call('GET', `/webhook-endpoints/${endpoint.id}/replays`)).body.data).toEqual([]);
  });

  it('refuses a bad range with 422 and the field paths', async () => {
    const endpoint = await newEndpoint(wh, `${receiver.url}/bad`, ['*']);
    const cases: Array<[unknown, string]> = [
      [{}, 'from'],
      [{ from: 'yesterday' }, 'from'],
      [{ from, to: from }, 'to'],
      [{ from: to, to: from }, 'to'],
      [{ from: new Date(clock.now().getTime() + 60_000).toISOString() }, 'from'],
      [{ from: new Date(clock.now().getTime() - 31 * 86_400_000).toISOString() }, 'from'],
      [{ from, types: [] }, 'types'],
      [{ from, types: ['webhook.ping'] }, 'types[0]'],
      [{ from, extra: 1 }, ''],
    ];
    for (const [body, path] of cases) {
      const res = await replay(endpoint.id, body);
      expect({ body, status: res.status, code: res.body.code }).toEqual({ body, status: 422, code: 'validation_error' });
      if (path) expect({ body, paths: res.body.errors.map((e: { path: string }) => e.path) }).toEqual({ body, paths: expect.arrayContaining([path]) });
    }
    const old = await replay(endpoint.id, { from: new Date(clock.now().getTime() - 31 * 86_400_000).toISOString() });
    expect(old.body.errors[0].message).toMatch(/^The event log keeps 30 days of events: from must be at or after /);
    expect((await wh.call('GET', `/webhook-endpoints/${endpoint.id}/replays`)).body.data).toEqual([]);
  });

  it('refuses more than 100,000 matching events (422 with the count), and a second replay while one is queued (409)', async () => {
    const endpoint = await newEndpoint(wh, `${receiver.url}/bounds`, ['*']);
    // 100,001 punches 20 days ago, straight into the log
    const at = new Date(clock.now().getTime() - 20 * 86_400_000);
    await sql(
      wh,
      `insert into webhooks.event_log (event_id, type, location_id, object_id, created_at, body, logged_at)
       select 'evt_bulk_' || g, 'punch.received', null, 'pun_bulk_' || g, $1::timestamptz + g * interval '1 ms', '{}', now() from generate_series(1, 100001) g`,
      [at],
    );
    await wh.svc.worker('event-log-sequencer').runOnce();
    const range = { from: at.toISOString(), to: new Date(at.getTime() + 3_600_000).toISOString() };
    const tooMany = await replay(endpoint.id, range);
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.errors).toEqual([{ path: 'to', message: '100,001 events match; a replay queues at most 100,000: narrow from/to or types, and replay the rest in further requests.' }]);
    const half = await replay(endpoint.id, { from: range.from, to: new Date(at.getTime() + 3).toISOString() });
    expect(half.body).toMatchObject({ status: 'queued', matched: 2 });

    const second = await replay(endpoint.id, { from, to });
    expect(second.status).toBe(409);
    expect(second.body.code).toBe('conflict');
    expect(second.body.detail).toBe(`Replay ${half.body.id} is still queued for endpoint ${endpoint.id}; one replay runs at a time per endpoint. Follow it with GET /webhook-endpoints/${endpoint.id}/replays.`);
    // another endpoint is not held up
    const other = await newEndpoint(wh, `${receiver.url}/other`, ['*']);
    expect((await replay(other.id, { from, to })).status).toBe(202);
    await replayAll();
    expect((await replay(endpoint.id, { from, to })).status).toBe(202);
    await replayAll();
    await sql(wh, `delete from webhooks.event_log where event_id like 'evt_bulk_%'`);
  });

  it('resumes after a crash mid-replay: each event queued once, in order', async () => {
    const endpoint = await newEndpoint(wh, `${receiver.url}/crash`, ['*']);
    const res = await replay(endpoint.id, { from, to });
    expect(await replayRound()).toBe(true);
    expect(await queuedIds(res.body.id)).toEqual(events.slice(0, 2).map((e) => e.id));
    // the next batch is written, then the process dies before it commits
    await expect(
      wh.svc.runtime.write(async (w) => {
        await replayBatch(w, BATCH);
        throw new Error('killed');
      }),
    ).rejects.toThrow('killed');
    expect(await queuedIds(res.body.id)).toEqual(events.slice(0, 2).map((e) => e.id));
    expect((await sql(wh, `select status, queued from webhooks.replays where id = $1`, [res.body.id]))[0]).toEqual({ status: 'running', queued: 2 });
    await replayAll();
    expect(await queuedIds(res.body.id)).toEqual(events.map((e) => e.id));
    expect((await wh.call('GET', `/webhook-endpoints/${endpoint.id}/replays`)).body.data[0]).toMatchObject({ status: 'completed', queued: 5 });
  });

  it('queues for a disabled endpoint and sends when it is enabled again; an empty range completes at once', async () => {
    const endpoint = await newEndpoint(wh, `${receiver.url}/disabled`, ['*']);
    expect((await wh.call('PATCH', `/webhook-endpoints/${endpoint.id}`, { body: { status: 'disabled' } })).status).toBe(200);
    const res = await replay(endpoint.id, { from, to });
    expect(res.status).toBe(202);
    await replayAll();
    receiver.received.length = 0;
    await deliverAll();
    expect(receiver.received.filter((r) => r.path === '/hooks/disabled')).toEqual([]);
    expect((await wh.call('PATCH', `/webhook-endpoints/${endpoint.id}`, { body: { status: 'active' } })).status).toBe(200);
    await deliverAll();
    expect(receiver.received.filter((r) => r.path === '/hooks/disabled').map((r) => r.json.id).sort()).toEqual(events.map((e) => e.id).sort());

    const empty = await replay(endpoint.id, { from: minutesAgo(200), to: minutesAgo(190) });
    expect(empty.body).toMatchObject({ status: 'completed', matched: 0, queued: 0, completedAt: expect.any(String) });
  });
});

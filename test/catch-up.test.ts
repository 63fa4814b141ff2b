/**
 * The catch-up scenario of issue 41 (all-in-one runtime, through the gateway): an integration's
 * receiver is down while a stretch of activity happens across several areas (locations, employees,
 * items, shifts and a published schedule, time-off types; the harness has no movable clock, so a
 * "day" is many writes). Its endpoint fails, is disabled after WEBHOOK_DISABLE_AFTER_FAILURES in a
 * row, and its events queue. Then
 *   (a) store A catches up through `GET /events`, paging from the time it went down, and
 *   (b) store B, behind a receiver that is up, catches up through `:replay` of that range.
 * Both end with exactly the set of event ids the log recorded, which is the set of public events the
 * services' outboxes recorded in that range, each once in its store, counting raw receipts. The only
 * duplicates are legitimate and asserted apart: store A's endpoint, re-enabled, sends its queued
 * originals (ids store A already has from the log).
 */
import { eventTypes } from '@bop/contracts';
import { eventually, ownerApi, Receiver, sql, startTestRuntime, type TestRuntime } from '@bop/test-support';

let t: TestRuntime;
let receiverA: Receiver;
let receiverB: Receiver;

beforeAll(async () => {
  t = await startTestRuntime({ STORAGE_S3_BUCKET: '', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_DISABLE_AFTER_FAILURES: '3', WEBHOOK_REPLAY_POLL_MS: '100', WEBHOOK_REPLAY_BATCH: '7' });
  receiverA = await Receiver.start();
  receiverB = await Receiver.start();
}, 120_000);
afterAll(async () => {
  await t?.close();
  await receiverA?.close();
  await receiverB?.close();
});

const { ok } = ownerApi(() => t);
const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

const deliverable = new Set(eventTypes.filter((e) => !e.planned && e.type !== 'webhook.ping').map((e) => e.type));

/** The public events every service's outbox recorded with createdAt in [from, to): id → type. */
async function outboxPublic(from: Date, to: Date): Promise<Map<string, string>> {
  const schemas = (await sql(t.db.url, `select table_schema from information_schema.tables where table_name = 'outbox' order by 1`)).map((r: { table_schema: string }) => r.table_schema);
  const out = new Map<string, string>();
  for (const schema of schemas) {
    const rows = await sql(t.db.url, `select payload from "${schema}".outbox`);
    for (const { payload } of rows) {
      const e = typeof payload === 'string' ? JSON.parse(payload) : payload;
      const at = Date.parse(e.createdAt);
      if (deliverable.has(e.type) && at >= from.getTime() && at < to.getTime()) out.set(e.id, e.type);
    }
  }
  return out;
}

/** Receipts per event id (createdAt in [from, to)), 2xx-answered ones only: what a store took in. */
function accepted(receiver: Receiver, path: string, from: Date, to: Date, since = 0): Map<string, number> {
  const counts = new Map<string, number>();
  receiver.received.slice(since).forEach((r) => {
    if (r.path !== path || !r.json || (r as { answered?: number }).answered === 500) return;
    const at = Date.parse(r.json.createdAt);
    if (at >= from.getTime() && at < to.getTime()) counts.set(r.json.id, (counts.get(r.json.id) ?? 0) + 1);
  });
  return counts;
}

it('a receiver down through a stretch of activity catches up through GET /events and through :replay, with exactly the logged ids, none twice', async () => {
  // store A's integration: subscribed to everything; its receiver goes down
  const endpointA = (await ok('POST', '/webhook-endpoints', { url: `${receiverA.url}/a`, events: ['*'], description: 'store A' })).id as string;
  let aUp = false;
  receiverA.respond = (r) => {
    const status = aUp ? 200 : 500;
    (r as { answered?: number }).answered = status;
    return status;
  };
  // t0 one millisecond on: strictly after the set-up's events (ms resolution), before the day's first write (an HTTP round trip later)
  const t0 = new Date(Date.now() + 1);

  // the day: organization, people, inventory, scheduling, time
  await ok('PATCH', '/company-settings', { positions: ['Cook', 'Server'] }, 200);
  const locations: string[] = [];
  for (const name of ['Harbour', 'Market', 'Station']) locations.push((await ok('POST', '/locations', { name, timezone: 'UTC' })).id);
  await ok('PATCH', `/locations/${locations[0]}`, { name: 'Harbour kitchen' }, 200);
  const staff: string[] = [];
  for (const [i, first] of ['Ana', 'Ben', 'Cara', 'Dev', 'Eli', 'Fay'].entries()) {
    staff.push((await ok('POST', '/employees', { legalFirstName: first, legalLastName: 'Day', homeLocationId: locations[i % 3], hireDate: '2026-01-05', positions: ['Cook'], email: `${first.toLowerCase()}@example.com` })).id);
  }
  for (const name of ['Milk', 'Beans', 'Cups', 'Lids']) await ok('POST', '/items', { name, baseUnit: 'each' });
  for (const [i, employeeId] of staff.entries()) {
    await ok('POST', '/shifts', { locationId: locations[i % 3], position: 'Cook', employeeId, start: `${day(3 + (i % 2))}T09:00:00Z`, end: `${day(3 + (i % 2))}T17:00:00Z` });
  }
  for (const loc of locations) await ok('POST', '/schedules:publish', { locationId: loc, from: day(3), to: day(4) }, 200);
  await ok('POST', '/time-off/types', { name: 'Vacation', paid: true, allowNegativeBalance: true });

  // every public event of the day reached the log (the fan-out logs what the outboxes recorded)
  const t1 = new Date();
  const recorded = await outboxPublic(t0, t1);
  const areas = new Set([...recorded.values()].map((type) => type.split('.')[0]));
  expect(areas.size).toBeGreaterThanOrEqual(4);
  expect(recorded.size).toBeGreaterThan(20);
  await eventually(async () => {
    const n = (await sql(t.db.url, `select count(*)::int as n from webhooks.event_log where created_at >= $1 and created_at < $2 and visible_round is not null`, [t0, t1]))[0].n;
    return n >= recorded.size;
  }, 60_000);
  const logIds = new Set<string>((await sql(t.db.url, `select event_id from webhooks.event_log where created_at >= $1 and created_at < $2`, [t0, t1])).map((r: { event_id: string }) => r.event_id));
  expect([...logIds].sort()).toEqual([...recorded.keys()].sort());

  // while it was down: nothing accepted, and its endpoint disabled after 3 failures in a row, the rest queued
  await eventually(async () => (await ok('GET', '/webhook-endpoints?limit=200', undefined, 200)).data.find((e: { id: string }) => e.id === endpointA)?.status === 'disabled', 30_000);
  expect(accepted(receiverA, '/hooks/a', t0, t1).size).toBe(0);

  // (a) store A pages GET /events from when it went down, keeping its cursor, storing by event id
  const storeA = new Map<string, number>();
  let cursor: string | null = null;
  for (;;) {
    const page = await ok('GET', `/events?from=${encodeURIComponent(t0.toISOString())}&to=${encodeURIComponent(t1.toISOString())}&limit=9${cursor ? `&cursor=${cursor}` : ''}`, undefined, 200);
    for (const e of page.data) storeA.set(e.id, (storeA.get(e.id) ?? 0) + 1);
    cursor = page.nextCursor ?? cursor;
    if (!page.hasMore) break;
  }
  expect([...storeA.keys()].sort()).toEqual([...logIds].sort());
  expect([...storeA.values()].filter((n) => n !== 1)).toEqual([]);

  // (b) store B: a receiver that is up, a new endpoint, and :replay of the range
  const endpointB = (await ok('POST', '/webhook-endpoints', { url: `${receiverB.url}/b`, events: ['*'], description: 'store B' })).id as string;
  const replay = await ok('POST', `/webhook-endpoints/${endpointB}:replay`, { from: t0.toISOString(), to: t1.toISOString() }, 202);
  expect(replay).toMatchObject({ status: 'queued', matched: logIds.size });
  await eventually(async () => (await ok('GET', `/webhook-endpoints/${endpointB}/replays`, undefined, 200)).data[0].status === 'completed', 30_000);
  const storeB = await eventually(async () => {
    const got = accepted(receiverB, '/hooks/b', t0, t1);
    return got.size >= logIds.size ? got : undefined;
  }, 60_000);
  expect([...storeB.keys()].sort()).toEqual([...logIds].sort());
  // raw receipts: each id once, no de-duplication needed
  expect([...storeB.values()].filter((n) => n !== 1)).toEqual([]);
  // the receiver has answered each; the worker records each success once its answer is in
  const replayed = await eventually(async () => {
    const rows = await sql(t.db.url, `select event_id, status from webhooks.deliveries where endpoint_id = $1 and replay_id = $2`, [endpointB, replay.id]);
    return rows.every((d: { status: string }) => d.status === 'succeeded') ? rows : undefined;
  }, 30_000);
  expect(replayed.length).toBe(logIds.size);
  // the endpoint existed after t1 only: the fan-out sent it nothing of the range
  expect((await sql(t.db.url, `select count(*)::int as n from webhooks.deliveries where endpoint_id = $1 and replay_id is null and event_id = any($2)`, [endpointB, [...logIds]]))[0].n).toBe(0);

  // the legitimate duplicates, apart: store A's receiver is back and its endpoint re-enabled, so the
  // originals queued while it was disabled go out — ids store A already holds from the log, each once
  aUp = true;
  const since = receiverA.received.length;
  await ok('PATCH', `/webhook-endpoints/${endpointA}`, { status: 'active' }, 200);
  const originals = await eventually(async () => {
    const got = accepted(receiverA, '/hooks/a', t0, t1, since);
    return got.size >= logIds.size ? got : undefined;
  }, 60_000);
  expect([...originals.keys()].sort()).toEqual([...logIds].sort());
  expect([...originals.values()].filter((n) => n !== 1)).toEqual([]);
});

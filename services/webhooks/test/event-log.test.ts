import { webhooksService } from '../src';
import { envelopeBody } from '../src/deliveries/consumers';
import { logEvents } from '../src/events/store';
import { PRUNE_BATCH } from '../src/events/workers';
import { envelope, eventually, FakeClock, gate, integration, person, Receiver, sql, startTestServices, type TestService, type TestServices } from '@bop/test-support';
import type { Principal } from '@bop/shared';
import { newEndpoint, topicOf } from './fixtures';

type Envelope = ReturnType<typeof envelope>;

const clock = new FakeClock();
let stack: TestServices;
let wh: TestService;
let receiver: Receiver;

beforeAll(async () => {
  // no worker loops: the tests run the sequencer's, the retention's and the delivery worker's rounds
  stack = await startTestServices([webhooksService], { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', BUS_POLL_MS: '50', DB_POOL_MAX: '20', WEBHOOK_TIMEOUT_MS: '1000' }, { clock, workers: false });
  wh = stack.services.webhooks;
  receiver = await Receiver.start();
});
afterAll(async () => {
  await stack?.close();
  await receiver?.close();
});


/** Publishes events as other services' relays would (the bus is real). */
async function publish(...events: Envelope[]) {
  await stack.bus.publish(events.map((e) => ({ topic: topicOf(e.type), key: String(e.data.object.id), eventId: e.id, type: e.type, payload: e })));
}

const sequence = () => wh.svc.worker('event-log-sequencer').runOnce();

/** The events once the fan-out logged them all and the sequencer made them visible. */
async function logged(...events: Envelope[]) {
  await eventually(async () => {
    const rows = await sql(wh, `select count(*)::int as n from webhooks.event_log where event_id = any($1)`, [events.map((e) => e.id)]);
    return rows[0].n === events.length;
  });
  await sequence();
}

async function list(query: string, as?: Principal) {
  return wh.call('GET', `/events${query}`, as ? { as } : {});
}

/** Every page of a query, following nextCursor. */
async function allPages(query: string, as?: Principal) {
  const ids: string[] = [];
  let cursor: string | null = null;
  for (;;) {
    const res = await list(`${query}${query.includes('?') ? '&' : '?'}limit=2${cursor ? `&cursor=${cursor}` : ''}`, as);
    expect(res.status).toBe(200);
    ids.push(...res.body.data.map((e: Envelope) => e.id));
    cursor = res.body.nextCursor;
    if (!res.body.hasMore) return ids;
  }
}

const ids = (res: { body: { data: Envelope[] } }) => res.body.data.map((e) => e.id);

describe('GET /events', () => {
  let a: Envelope, b: Envelope, c: Envelope, d: Envelope, e: Envelope;
  const objectId = 'loc_log_a';

  beforeAll(async () => {
    const at = (min: number) => new Date(Date.UTC(2026, 10, 28, 10, min)).toISOString();
    a = envelope('location.created', { id: objectId, name: 'A' }, { locationId: objectId, createdAt: at(0) });
    b = envelope('location.updated', { id: objectId, name: 'A2' }, { locationId: objectId, createdAt: at(1), data: { object: { id: objectId, name: 'A2' }, previous: { name: 'A' } } });
    c = envelope('sales_order.created', { id: 'so_1' }, { locationId: 'loc_log_b', createdAt: at(2) });
    d = envelope('employee.created', { id: 'emp_log_1' }, { createdAt: at(3) });
    e = envelope('invoice.paid', { id: 'inv_1' }, { locationId: 'loc_log_b', createdAt: at(4) });
    await publish(a, b, c, d, e);
    await logged(a, b, c, d, e);
  });

  it('answers the logged events oldest first, each the envelope its webhook delivery carries', async () => {
    const res = await list('?limit=200');
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual([a.id, b.id, c.id, d.id, e.id]);
    expect(res.body.data[1]).toEqual(b);
    expect(JSON.stringify(res.body.data[1])).toBe(envelopeBody(b as never));
    expect(res.body.hasMore).toBe(false);
    // oldest first, the cursor stays after the end: asked again, it answers what arrived since (nothing yet)
    const after = await list(`?cursor=${res.body.nextCursor}`);
    expect(after.body).toEqual({ data: [], nextCursor: res.body.nextCursor, hasMore: false });
    expect((await list('?order=desc&limit=200')).body.nextCursor).toBeNull();
  });

  it('pages with the cursor both ways', async () => {
    expect(await allPages('')).toEqual([a.id, b.id, c.id, d.id, e.id]);
    expect(await allPages('?order=desc')).toEqual([e.id, d.id, c.id, b.id, a.id]);
  });

  it('filters by type (lists and patterns), createdAt period and data.object.id', async () => {
    expect(ids(await list('?type=location.*'))).toEqual([a.id, b.id]);
    expect(ids(await list('?type=sales_order.*,invoice.paid'))).toEqual([c.id, e.id]);
    expect(ids(await list('?type=*'))).toEqual([a.id, b.id, c.id, d.id, e.id]);
    expect(ids(await list('?from=2026-11-28T10:01:00Z&to=2026-11-28T10:04:00Z'))).toEqual([b.id, c.id, d.id]);
    expect(ids(await list('?from=2026-11-28T11:01:00%2B01:00'))).toEqual([b.id, c.id, d.id, e.id]);
    expect(ids(await list(`?objectId=${objectId}&order=desc`))).toEqual([b.id, a.id]);
    expect(ids(await list(`?objectId=${objectId}&type=location.created`))).toEqual([a.id]);
  });

  it('shows an integration only the events its scopes cover, as its webhooks', async () => {
    expect(ids(await list('', integration(['organization:read'])))).toEqual([a.id, b.id]);
    expect(ids(await list('', integration(['sales:write', 'people:read'])))).toEqual([c.id, d.id, e.id]);
    expect(ids(await list('', integration(['cash:read'])))).toEqual([]);
    expect(ids(await list('?type=*', integration(['organization:read'])))).toEqual([a.id, b.id]);
    const refused = await list('?type=employee.created', integration(['organization:read']));
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'bad_request', errors: [{ path: 'type', message: 'employee.created needs one of the scopes people:read, people:write.' }] });
  });

  it('needs webhooks.manage of a person, and shows the events of the locations in reach and of none', async () => {
    const res = await list('', person({ 'locations.read': [{ type: 'everyone' }] }));
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('forbidden');
    expect(ids(await list('', person({ 'webhooks.manage': [{ type: 'locations', ids: [objectId] }] })))).toEqual([a.id, b.id, d.id]);
    expect(ids(await list('', person({ 'webhooks.manage': [{ type: 'locations', ids: ['loc_log_b'] }] })))).toEqual([c.id, d.id, e.id]);
    const byUnit = await list('', person({ 'webhooks.manage': [{ type: 'org_units', ids: ['ou_1'] }] }));
    expect(byUnit.status).toBe(403);
    expect(byUnit.body.code).toBe('out_of_reach');
  });

  it('refuses bad parameters with 400 and the field paths', async () => {
    const cases: Array<[string, string]> = [
      ['?order=sideways', 'order'],
      ['?from=yesterday', 'from'],
      ['?to=2026-13-01T00:00:00Z', 'to'],
      ['?from=2026-11-28T10:00:00Z&to=2026-11-28T09:00:00Z', 'to'],
      ['?cursor=nonsense', 'cursor'],
      [`?cursor=${Buffer.from(JSON.stringify({ a: 'evt_1' })).toString('base64url')}`, 'cursor'],
      ['?type=sale.*', 'type'],
      ['?type=location.created,,', 'type'],
      ['?type=webhook.ping', 'type'],
      ['?limit=0', 'limit'],
      ['?limit=201', 'limit'],
    ];
    for (const [query, path] of cases) {
      const res = await list(query);
      expect({ query, status: res.status, code: res.body.code }).toEqual({ query, status: 400, code: 'bad_request' });
      expect(res.body.errors.map((x: { path: string }) => x.path)).toContain(path);
    }
  });

  it('leaves out the events of a switched-off feature, and logs none while it is off', async () => {
    const feature = (on: boolean) => envelope(on ? 'identity.feature.enabled' : 'identity.feature.disabled', { id: 'sales.invoices', key: 'sales.invoices', enabled: on, effective: on });
    const off = feature(false);
    await stack.bus.publish([{ topic: 'identity', key: 'sales.invoices', eventId: off.id, type: off.type, payload: off }]);
    const whileOff = envelope('invoice.paid', { id: 'inv_2' });
    const probe = envelope('location.archived', { id: 'loc_log_probe' });
    await publish(whileOff, probe);
    await logged(probe);
    expect(ids(await list('?type=invoice.*'))).toEqual([]);
    expect(await sql(wh, `select 1 from webhooks.event_log where event_id = $1`, [whileOff.id])).toEqual([]);
    const on = feature(true);
    await stack.bus.publish([{ topic: 'identity', key: 'sales.invoices', eventId: on.id, type: on.type, payload: on }]);
    await eventually(async () => (await list('?type=invoice.*')).body.data.length === 1);
    expect(ids(await list('?type=invoice.*'))).toEqual([e.id]);
  });
});

/** The cursor after the last visible event (asc pages keep it after the end). */
async function tailCursor() {
  let cursor: string | null = null;
  for (;;) {
    const res = await list(`?limit=200${cursor ? `&cursor=${cursor}` : ''}`);
    cursor = res.body.nextCursor ?? cursor;
    if (!res.body.hasMore) return cursor;
  }
}

describe('the event log', () => {
  it('logs an event delivered twice once (by its id)', async () => {
    const ev = envelope('location.created', { id: 'loc_twice' }, { locationId: 'loc_twice' });
    await publish(ev);
    await publish(ev);
    const probe = envelope('location.created', { id: 'loc_twice_probe' });
    await publish(probe);
    await logged(ev, probe);
    await wh.svc.runtime.write((w) => logEvents(w, [{ event: ev as never, body: envelopeBody(ev as never), recordKey: null }]));
    await sequence();
    expect(ids(await list('?objectId=loc_twice'))).toEqual([ev.id]);
    expect(await sql(wh, `select count(*)::int as n from webhooks.event_log where event_id = $1`, [ev.id])).toEqual([{ n: 1 }]);
  });

  it("logs a producer's odd event as its webhooks get it: no object id, a bad createdAt, a NUL in the object id", async () => {
    const odd = envelope('location.updated', { name: 'no id' }, { createdAt: 'not a time' });
    const nul = envelope('location.updated', { id: 'loc_\u0000nul' });
    await publish(odd);
    await stack.bus.publish([{ topic: 'organization', key: 'loc_nul', eventId: nul.id, type: nul.type, payload: nul }]);
    await logged(odd, nul);
    const res = await list(`?type=location.updated&order=desc&limit=2`);
    expect(ids(res).sort()).toEqual([odd.id, nul.id].sort());
    expect(res.body.data.find((x: Envelope) => x.id === odd.id)).toEqual(odd);
    expect(ids(await list(`?objectId=${encodeURIComponent('loc_\uFFFDnul')}`))).toEqual([nul.id]);
  });

  it(`keeps events for EVENT_LOG_RETENTION_DAYS (30) by their createdAt`, async () => {
    const day = 86_400_000;
    const old = envelope('punch.received', { id: 'pun_old' }, { createdAt: new Date(clock.now().getTime() - 31 * day).toISOString() });
    const kept = envelope('punch.received', { id: 'pun_kept' }, { createdAt: new Date(clock.now().getTime() - 29 * day).toISOString() });
    await publish(old, kept);
    await logged(old, kept);
    expect(ids(await list('?type=punch.received'))).toEqual([old.id, kept.id]);
    expect(await wh.svc.worker('event-log-retention').runOnce()).toBe(false);
    expect(ids(await list('?type=punch.received'))).toEqual([kept.id]);
    clock.advance(2 * day);
    await wh.svc.worker('event-log-retention').runOnce();
    expect(ids(await list('?type=punch.received'))).toEqual([]);
    clock.reset();

    // a backlog goes in bounded rounds: a full one answers true (the kit runs the next at once)
    const backlog = Array.from({ length: PRUNE_BATCH + 5 }, (_, i) => envelope('punch.corrected', { id: `pun_b${i}` }, { createdAt: new Date(clock.now().getTime() - 40 * day).toISOString() }));
    await wh.svc.runtime.write((w) => logEvents(w, backlog.map((ev) => ({ event: ev as never, body: envelopeBody(ev as never), recordKey: null }))));
    const count = async () => (await sql(wh, `select count(*)::int as n from webhooks.event_log where type = 'punch.corrected'`))[0].n;
    expect(await wh.svc.worker('event-log-retention').runOnce()).toBe(true);
    expect(await count()).toBe(5);
    expect(await wh.svc.worker('event-log-retention').runOnce()).toBe(false);
    expect(await count()).toBe(0);
  });

  it('never lets a pager skip an event committed later with an earlier position', async () => {
    // writers log in one order and commit in the reverse: a log ordered by insertion would hand the
    // pager the last writer's events first and then place the others behind its cursor
    const writers = Array.from({ length: 5 }, (_, i) => ({ events: [0, 1, 2].map((k) => envelope('location.updated', { id: `loc_race_${i}_${k}` })), gate: gate(), logged: gate() }));
    const commits = writers.map((wr) =>
      wh.svc.runtime.write(async (w) => {
        await logEvents(w, wr.events.map((ev) => ({ event: ev as never, body: envelopeBody(ev as never), recordKey: null })));
        wr.logged.open();
        await wr.gate.opened;
      }),
    );
    for (const wr of writers) await wr.logged.opened;
    const seen: string[] = [];
    let cursor: string | null = null;
    // a reader that keeps the cursor (asc: it stays after the end) and reads on whenever asked
    const readOn = async () => {
      for (;;) {
        const res = await list(`?type=location.updated&limit=2${cursor ? `&cursor=${cursor}` : ''}`);
        seen.push(...ids(res).filter((id) => writers.some((wr) => wr.events.some((ev) => ev.id === id))));
        cursor = res.body.nextCursor ?? cursor;
        if (!res.body.hasMore) return;
      }
    };
    await sequence();
    await readOn();
    for (const wr of [...writers].reverse()) {
      wr.gate.open();
      await commits[writers.indexOf(wr)];
      await sequence();
      await readOn();
    }
    const all = writers.flatMap((wr) => wr.events.map((ev) => ev.id));
    expect([...seen].sort()).toEqual([...all].sort());
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('holds exactly the events a subscribed receiver got, in the same bytes, while writers publish and a reader pages', async () => {
    const endpoint = await newEndpoint(wh, receiver.url, ['*']);
    receiver.received.length = 0;
    const deliver = () => wh.svc.worker('delivery').runOnce();
    // the reader starts after what earlier tests logged: the cursor after the last event now
    let cursor: string | null = (await list('?order=desc&limit=1')).body.data.length > 0 ? await tailCursor() : null;
    const published: string[] = [];
    const writer = async (w: number) => {
      for (let i = 0; i < 8; i++) {
        const batch = [envelope('location.created', { id: `loc_w${w}_${i}` }, { locationId: `loc_w${w}_${i}` }), envelope('punch.received', { id: `pun_w${w}_${i}` })];
        published.push(...batch.map((x) => x.id));
        await publish(...batch);
      }
    };
    const seen: string[] = [];
    const bodies = new Map<string, string>();
    let done = false;
    const until = Date.now() + 30_000;
    const reader = async () => {
      while (!done || seen.length < published.length) {
        if (Date.now() > until) throw new Error(`the reader has ${seen.length} of ${published.length} events`);
        await sequence();
        const res = await list(`?limit=7${cursor ? `&cursor=${cursor}` : ''}`);
        expect(res.status).toBe(200);
        for (const ev of res.body.data) {
          seen.push(ev.id);
          bodies.set(ev.id, JSON.stringify(ev));
        }
        cursor = res.body.nextCursor ?? cursor;
        await deliver();
      }
    };
    const reading = reader();
    await Promise.all([0, 1, 2, 3].map(writer));
    done = true;
    await reading;
    expect(new Set(seen).size).toBe(seen.length);
    expect([...seen].sort()).toEqual([...published].sort());
    const got = await eventually(async () => {
      while (await deliver());
      return receiver.received.length >= published.length ? receiver.received : undefined;
    }, 30_000);
    expect(new Set(got.map((r) => r.json.id))).toEqual(new Set(seen));
    for (const r of got) expect(bodies.get(r.json.id)).toBe(r.raw);
    await wh.call('DELETE', `/webhook-endpoints/${endpoint.id}`);
  });
});

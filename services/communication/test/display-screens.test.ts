import { FakeClock, integration, outboxPayloads, person, sql, startTestService, system, testKeys, type TestService } from '@bop/test-support';
import { createLogger, startService, type Principal } from '@bop/shared';
import { communicationService } from '../src';
import { rankLeaderboard } from '../src/display-screens/leaderboard';
import { displayStreams } from '../src/display-screens/stream-worker';
import { newDraft, paths, replicaEmployee, replicaLocation } from './fixtures';

const clock = new FakeClock();
let t: TestService;
beforeAll(async () => {
  t = await startTestService(communicationService, { RELAY_POLL_MS: '200', BUS_POLL_MS: '200' }, { clock });
});
afterAll(async () => {
  await t?.close();
});

const manager = (...ids: string[]): Principal => person({ 'displays.manage': [{ type: 'locations', ids }] });
const pos = integration(['reports:write'], { integrationId: 'int_pos', id: 'int_pos' });

/** What the page does first: a pairing code and the secret it polls with (the gateway passes it on as the platform). */
async function newPairing(): Promise<{ code: string; secret: string; expiresAt: string }> {
  const r = await t.call('POST', '/internal/display/pairings', { as: system });
  expect(r.status).toBe(201);
  return r.body;
}
const claim = (secret: string) => t.call('POST', '/internal/display/pairings/claim', { as: system, body: { secret } });
const snapshot = (token: string) => t.call('GET', '/internal/display/snapshot', { as: system, headers: { 'x-screen-token': token } });

/** A screen paired at `locationId` that picked up its token. */
async function pairedScreen(locationId: string, body: Record<string, unknown> = {}): Promise<{ id: string; token: string }> {
  const p = await newPairing();
  const r = await t.call('POST', '/display-screens', { body: { pairingCode: p.code, locationId, ...body } });
  if (r.status !== 201) throw new Error(`pairing: ${r.status} ${JSON.stringify(r.body)}`);
  const c = await claim(p.secret);
  return { id: r.body.id, token: c.body.token };
}

/** The live stream of a screen, read as the page reads it: frames as they arrive (from the service at `url`: default the test's). */
async function openStream(token: string, url = t.svc.url) {
  const { signer } = await testKeys();
  const abort = new AbortController();
  const res = await fetch(`${url}/internal/display/stream`, { headers: { 'x-internal-token': await signer.sign(system), 'x-screen-token': token }, signal: abort.signal });
  const frames: Array<{ event: string; data: any }> = [];
  let ended = false;
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  /** reads until a frame matches (the read is the wait; a test timeout ends a stream that never sends it) */
  const next = async (match: (f: { event: string; data: any }) => boolean) => {
    for (;;) {
      const found = frames.find(match);
      if (found) {
        frames.splice(frames.indexOf(found), 1);
        return found;
      }
      if (ended) throw new Error(`stream ended; frames: ${JSON.stringify(frames)}`);
      const { done, value } = await reader.read();
      if (done) ended = true;
      else buffer += decoder.decode(value, { stream: true });
      let cut: number;
      while ((cut = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (event) frames.push({ event, data: data ? JSON.parse(data) : null });
      }
    }
  };
  const untilEnd = async () => {
    while (!ended) {
      const { done } = await reader.read();
      if (done) ended = true;
    }
  };
  return { status: res.status, contentType: res.headers.get('content-type'), next, untilEnd, close: () => abort.abort() };
}

describe('pairing a screen', () => {
  it('a code the screen shows pairs it with a location; the screen picks up its token once', async () => {
    const a = await replicaLocation(t);
    const p = await newPairing();
    expect(p.code).toMatch(/^[A-HJKMNP-Z2-9]{4}-[A-HJKMNP-Z2-9]{4}$/);
    expect(p.secret).toMatch(/^dps_/);
    // stored hashed: neither the code nor the secret is in the table
    const stored = await sql(t, `select code_hash, secret_hash from communication.display_pairings`);
    expect(JSON.stringify(stored)).not.toContain(p.code.replace('-', ''));
    expect(JSON.stringify(stored)).not.toContain(p.secret);
    expect((await claim(p.secret)).body).toEqual({ status: 'waiting', expiresAt: p.expiresAt });

    const typed = p.code.toLowerCase().replace('-', ' ');
    const r = await t.call('POST', '/display-screens', { body: { pairingCode: typed, locationId: a, name: 'Kitchen pass' }, as: manager(a) });
    expect(r.status).toBe(201);
    expect(r.headers.get('location')).toBe(`/api/v1/display-screens/${r.body.id}/config`);
    expect(r.body).toEqual({
      id: expect.stringMatching(/^dsp_/),
      name: 'Kitchen pass',
      locationId: a,
      status: 'paired',
      pairedAt: expect.any(String),
      pairedBy: { type: 'user', id: 'usr_test' },
      tokenIssuedAt: null,
      lastSeenAt: null,
      archivedAt: null,
      config: { metrics: [], leaderboard: { enabled: true, periodDays: 7, size: 5 }, announcements: { enabled: true, limit: 5 }, rotationSeconds: 15 },
      version: 1,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const [event] = await outboxPayloads(t, 'communication', { type: 'communication.display_screen.paired', aggregateId: r.body.id });
    expect(event).toMatchObject({ locationId: a, data: { object: { id: r.body.id, locationId: a } } });
    // its public twin (the project's type): the screen as the API returned it
    const [paired] = await outboxPayloads(t, 'communication', { type: 'display_screen.paired', aggregateId: r.body.id });
    expect(paired).toMatchObject({ locationId: a, data: { object: r.body } });

    const picked = await claim(p.secret);
    expect(picked.body).toEqual({ status: 'paired', token: expect.stringMatching(/^dst_/), screenId: r.body.id, locationId: a });
    expect((await sql(t, `select token_hash from communication.display_screens where id = $1`, [r.body.id]))[0].token_hash).not.toContain(picked.body.token);
    // once only: the secret does not hand out a second token
    expect((await claim(p.secret)).body).toEqual({ status: 'expired' });
    // the code paired one screen
    const again = await t.call('POST', '/display-screens', { body: { pairingCode: p.code, locationId: a } });
    expect([again.status, paths(again.body)]).toEqual([422, ['pairingCode']]);

    const list = await t.call('GET', `/display-screens?locationId=${a}`, { as: manager(a) });
    expect(list.body.data).toEqual([expect.objectContaining({ id: r.body.id, tokenIssuedAt: expect.any(String) })]);
  });

  it('a code lasts 10 minutes (fixed clock): pairing and picking up refuse it after', async () => {
    const a = await replicaLocation(t);
    const p = await newPairing();
    const late = await newPairing();
    expect(new Date(p.expiresAt).getTime() - Date.now()).toBeGreaterThan(9 * 60_000);
    clock.advance(10 * 60_000 + 1000);
    try {
      expect((await claim(p.secret)).body).toEqual({ status: 'expired' });
      const r = await t.call('POST', '/display-screens', { body: { pairingCode: late.code, locationId: a } });
      expect([r.status, paths(r.body)]).toEqual([422, ['pairingCode']]);
      expect(r.body.errors[0].message).toMatch(/10 minutes/);
    } finally {
      clock.reset();
    }
    // paired just in time: the screen still picks up its token after the code ran out
    const inTime = await newPairing();
    const paired = await t.call('POST', '/display-screens', { body: { pairingCode: inTime.code, locationId: a } });
    expect(paired.status).toBe(201);
    clock.advance(11 * 60_000);
    try {
      expect((await claim(inTime.secret)).body).toMatchObject({ status: 'paired', screenId: paired.body.id });
    } finally {
      clock.reset();
    }
  });

  it('bad input: codes, locations and layouts, with field paths; nothing stored', async () => {
    const a = await replicaLocation(t);
    const closed = await replicaLocation(t, { status: 'archived' });
    const p = await newPairing();
    const cases: Array<[unknown, string[]]> = [
      [{ pairingCode: 'NOPE-NOPE', locationId: a }, ['pairingCode']],
      [{ pairingCode: '0000-1111', locationId: a }, ['pairingCode']],
      [{ pairingCode: p.code, locationId: 'loc_nope' }, ['locationId']],
      [{ pairingCode: p.code, locationId: closed }, ['locationId']],
      [{ locationId: a, extra: 1 }, ['extra', 'pairingCode']],
      [{ pairingCode: p.code, locationId: a, config: { rotationSeconds: 2, metrics: ['covers', 'covers', 'Bad Name'], leaderboard: { size: 11 } } }, ['config.leaderboard.size', 'config.metrics[1]', 'config.metrics[2]', 'config.rotationSeconds']],
    ];
    for (const [body, expected] of cases) {
      const r = await t.call('POST', '/display-screens', { body });
      expect([r.status, paths(r.body)]).toEqual([422, expected]);
    }
    expect(await sql(t, `select id from communication.display_screens where location_id in ($1, $2)`, [a, closed])).toEqual([]);
    // the code still pairs after the refusals
    expect((await t.call('POST', '/display-screens', { body: { pairingCode: p.code, locationId: a } })).status).toBe(201);
  });
});

describe('screens: permission and reach', () => {
  it('displays.manage within reach for every row; integrations by scope (gateway) reach everything', async () => {
    const a = await replicaLocation(t);
    const b = await replicaLocation(t);
    const screen = await pairedScreen(a);
    const p = await newPairing();
    const atB = manager(b);
    const noPermission = person({ 'announcements.manage': [{ type: 'everyone' }] });
    const calls: Array<[string, string, unknown?]> = [
      ['GET', `/display-screens?locationId=${a}`],
      ['POST', '/display-screens', { pairingCode: p.code, locationId: a }],
      ['DELETE', `/display-screens/${screen.id}`],
      ['GET', `/display-screens/${screen.id}/config`],
      ['PUT', `/display-screens/${screen.id}/config`, { rotationSeconds: 20 }],
    ];
    for (const [method, path, body] of calls) {
      const out = await t.call(method, path, { body, as: atB });
      expect([method, path, out.status, out.body.code]).toEqual([method, path, 403, 'out_of_reach']);
      const none = await t.call(method, path, { body, as: noPermission });
      expect([method, path, none.status, none.body.code]).toEqual([method, path, 403, 'forbidden']);
    }
    // a list without a location shows only the screens within reach
    expect((await t.call('GET', '/display-screens', { as: atB })).body.data).toEqual([]);
    expect((await t.call('GET', '/display-screens', { as: manager(a) })).body.data.map((s: { id: string }) => s.id)).toContain(screen.id);
    const key = await t.call('GET', `/display-screens/${screen.id}/config`, { as: integration(['communication:read']) });
    expect(key.status).toBe(200);
    expect((await t.call('GET', '/display-screens/dsp_nope/config')).status).toBe(404);
    // nothing changed by the refusals
    expect((await t.call('GET', `/display-screens/${screen.id}/config`)).body).toMatchObject({ rotationSeconds: 15, version: 1 });
  });
});

describe('layout', () => {
  it('GET/PUT config replaces the layout (If-Match honoured); an unpaired screen keeps its last one', async () => {
    const a = await replicaLocation(t);
    const screen = await pairedScreen(a);
    const got = await t.call('GET', `/display-screens/${screen.id}/config`, { as: manager(a) });
    expect(got.body).toEqual({ screenId: screen.id, metrics: [], leaderboard: { enabled: true, periodDays: 7, size: 5 }, announcements: { enabled: true, limit: 5 }, rotationSeconds: 15, version: 1, updatedAt: expect.any(String) });
    expect(got.headers.get('etag')).toBe('"1"');
    const layout = { metrics: ['sales_today', 'covers'], leaderboard: { enabled: false }, rotationSeconds: 30 };
    const put = await t.call('PUT', `/display-screens/${screen.id}/config`, { body: layout, as: manager(a), headers: { 'if-match': '"1"' } });
    expect(put.body).toEqual({ screenId: screen.id, metrics: ['sales_today', 'covers'], leaderboard: { enabled: false, periodDays: 7, size: 5 }, announcements: { enabled: true, limit: 5 }, rotationSeconds: 30, version: 2, updatedAt: expect.any(String) });
    const [event] = await outboxPayloads(t, 'communication', { type: 'communication.display_screen.configured', aggregateId: screen.id });
    expect(event.data.object.config.rotationSeconds).toBe(30);
    const stale = await t.call('PUT', `/display-screens/${screen.id}/config`, { body: {}, headers: { 'if-match': '"1"' } });
    expect([stale.status, stale.body.code]).toEqual([409, 'version_mismatch']);
    const bad = await t.call('PUT', `/display-screens/${screen.id}/config`, { body: { rotationSeconds: '30', announcements: { limit: 0 }, colour: 'red' } });
    expect([bad.status, paths(bad.body)]).toEqual([422, ['announcements.limit', 'colour', 'rotationSeconds']]);

    const unpaired = await t.call('DELETE', `/display-screens/${screen.id}`);
    expect(unpaired.body).toMatchObject({ status: 'archived', archivedAt: expect.any(String), version: 3 });
    const after = await t.call('PUT', `/display-screens/${screen.id}/config`, { body: {} });
    expect([after.status, after.body.code]).toEqual([409, 'conflict']);
    // the public types (the project's own): data.object the screen with its layout; unpairing again records nothing
    expect((await t.call('DELETE', `/display-screens/${screen.id}`)).body.version).toBe(3);
    const published = (await outboxPayloads(t, 'communication', { aggregateId: screen.id })).filter((e) => e.type.startsWith('display_screen.'));
    expect(published.map((e) => [e.type, e.data.object.id, e.data.object.version])).toEqual([
      ['display_screen.paired', screen.id, 1],
      ['display_screen.configured', screen.id, 2],
      ['display_screen.unpaired', screen.id, 3],
    ]);
    expect(published[1].data.object.config).toMatchObject({ metrics: ['sales_today', 'covers'], rotationSeconds: 30 });
    expect(published[2]).toMatchObject({ locationId: a, data: { object: unpaired.body } });
    expect((await t.call('GET', `/display-screens/${screen.id}/config`)).body.rotationSeconds).toBe(30);
  });
});

describe('the screen token', () => {
  it('reads only its own location\'s display data: metrics, leaderboard, today\'s announcements', async () => {
    const a = await replicaLocation(t);
    const b = await replicaLocation(t);
    const screen = await pairedScreen(a, { config: { metrics: ['sales_today', 'covers'], leaderboard: { periodDays: 7, size: 2 } } });
    await t.call('POST', '/display-metrics', { as: pos, body: { locationId: a, metrics: [{ name: 'covers', value: '84' }, { name: 'sales_today', value: '1310.00', unit: 'USD' }, { name: 'waste', value: '3' }] } });
    await t.call('POST', '/display-metrics', { as: pos, body: { locationId: b, metrics: [{ name: 'covers', value: '999' }] } });
    const maya = await replicaEmployee(t, { home: a, locations: [b], firstName: 'Maya' });
    const sam = await replicaEmployee(t, { home: a, firstName: 'Sam' });
    for (const [employeeId, locationId] of [[maya, a], [maya, a], [sam, a], [maya, b], [maya, b], [maya, b]]) {
      expect((await t.call('POST', '/recognitions', { body: { employeeId, locationId, message: 'Great shift.' } })).status).toBe(201);
    }
    const forA = await newDraft(t, { title: 'Allergens at A', audience: { locationIds: [a] } });
    const forB = await newDraft(t, { title: 'Only B', audience: { locationIds: [b] } });
    const everyone = await newDraft(t, { title: 'Holiday hours', audience: {} });
    const cooks = await newDraft(t, { title: 'Cooks only', audience: { locationIds: [a], positions: ['cook'] } });
    for (const d of [forA, forB, everyone, cooks]) expect((await t.call('POST', `/announcements/${d.id}:publish`)).status).toBe(200);

    const r = await snapshot(screen.token);
    expect(r.status).toBe(200);
    expect(r.body.screen).toEqual({ id: screen.id, name: null, locationId: a });
    expect(r.body.metrics.map((m: { name: string; value: string }) => [m.name, m.value])).toEqual([['sales_today', '1310.00'], ['covers', '84']]);
    expect(r.body.leaderboard).toEqual({ periodDays: 7, since: expect.any(String), entries: [{ rank: 1, employeeId: maya, employeeName: 'Maya Cook', count: 2 }, { rank: 2, employeeId: sam, employeeName: 'Sam Cook', count: 1 }] });
    expect(r.body.announcements.map((x: { title: string }) => x.title).sort()).toEqual(['Allergens at A', 'Holiday hours']);
    // it names no location: a screen cannot ask for another one's data
    const other = await t.call('GET', `/internal/display/snapshot?locationId=${b}`, { as: system, headers: { 'x-screen-token': screen.token } });
    expect(other.body.screen.locationId).toBe(a);
    expect((await sql(t, `select last_seen_at from communication.display_screens where id = $1`, [screen.id]))[0].last_seen_at).not.toBeNull();

    // an archived announcement leaves the screen; one published over a day ago without a pending deadline too
    await t.call('DELETE', `/announcements/${forA.id}`);
    clock.advance(25 * 3600_000);
    try {
      expect((await snapshot(screen.token)).body.announcements).toEqual([]);
    } finally {
      clock.reset();
    }
  });

  it('an unknown or revoked token reads nothing (401); only the platform reaches the display routes', async () => {
    const a = await replicaLocation(t);
    const screen = await pairedScreen(a);
    expect((await snapshot('dst_nope')).status).toBe(401);
    expect((await t.call('GET', '/internal/display/snapshot', { as: system })).status).toBe(401);
    expect((await snapshot(screen.token)).status).toBe(200);
    // a person or key calling the service directly is refused
    expect((await t.call('POST', '/internal/display/pairings')).status).toBe(403);
    await t.call('DELETE', `/display-screens/${screen.id}`);
    const revoked = await snapshot(screen.token);
    expect([revoked.status, revoked.body.code]).toEqual([401, 'unauthorized']);
    expect((await t.call('GET', '/display-screens')).body.data.map((s: { id: string }) => s.id)).not.toContain(screen.id);
    expect((await t.call('GET', '/display-screens?status=archived')).body.data.map((s: { id: string }) => s.id)).toContain(screen.id);
  });
});

describe('the live stream', () => {
  it('starts with a snapshot, then sends updates driven by the service\'s events; unpairing closes it at once', async () => {
    const a = await replicaLocation(t);
    const b = await replicaLocation(t);
    const screen = await pairedScreen(a);
    const stream = await openStream(screen.token);
    try {
      expect([stream.status, stream.contentType]).toEqual([200, 'text/event-stream; charset=utf-8']);
      const first = await stream.next((f) => f.event === 'snapshot');
      expect(first.data).toMatchObject({ screen: { id: screen.id, locationId: a }, metrics: [], leaderboard: { entries: [] } });

      // another location's numbers are not sent; this location's are
      await t.call('POST', '/display-metrics', { as: pos, body: { locationId: b, metrics: [{ name: 'covers', value: '999' }] } });
      await t.call('POST', '/display-metrics', { as: pos, body: { locationId: a, metrics: [{ name: 'covers', value: '85' }] } });
      const pushed = await stream.next((f) => f.event === 'update' && f.data.metrics.some((m: { value: string }) => m.value === '85'));
      expect(pushed.data.metrics).toEqual([expect.objectContaining({ locationId: a, name: 'covers', value: '85' })]);

      const star = await replicaEmployee(t, { home: a, firstName: 'Ana' });
      await t.call('POST', '/recognitions', { body: { employeeId: star, message: 'Saved the rush.' } });
      await stream.next((f) => f.event === 'update' && f.data.leaderboard.entries.some((e: { employeeId: string }) => e.employeeId === star));

      const ann = await newDraft(t, { title: 'Fire drill at 3', audience: { locationIds: [a] } });
      await t.call('POST', `/announcements/${ann.id}:publish`);
      await stream.next((f) => f.event === 'update' && f.data.announcements.some((x: { id: string }) => x.id === ann.id));

      await t.call('PUT', `/display-screens/${screen.id}/config`, { body: { rotationSeconds: 45 } });
      await stream.next((f) => f.event === 'update' && f.data.config.rotationSeconds === 45);

      await t.call('DELETE', `/display-screens/${screen.id}`);
      expect((await stream.next((f) => f.event === 'unpaired')).data).toEqual({ screenId: screen.id });
      await stream.untilEnd();
    } finally {
      stream.close();
    }
    const reopened = await openStream(screen.token);
    expect(reopened.status).toBe(401);
    reopened.close();
  });

  it('a revoked token is caught at the next heartbeat even without its event', async () => {
    const a = await replicaLocation(t);
    const screen = await pairedScreen(a);
    const stream = await openStream(screen.token);
    try {
      await stream.next((f) => f.event === 'snapshot');
      // as if the unpairing's event never reached this process
      await sql(t, `update communication.display_screens set token_hash = null where id = $1`, [screen.id]);
      await displayStreams(t.svc.runtime).heartbeat();
      await stream.next((f) => f.event === 'unpaired');
    } finally {
      stream.close();
    }
  });
});

describe('several replicas', () => {
  it('a stream open on one replica gets the changes made through another (each replica listens to the bus itself)', async () => {
    const { keys } = await testKeys();
    const other = await startService(communicationService, {
      databaseUrl: t.db.url,
      internalPublicKeyPem: keys.publicKeyPem,
      port: 0,
      host: '127.0.0.1',
      env: { LOG_LEVEL: 'silent', RELAY_POLL_MS: '200', BUS_POLL_MS: '200' },
      logger: createLogger('communication', 'silent'),
    });
    try {
      const a = await replicaLocation(t);
      const screen = await pairedScreen(a);
      const stream = await openStream(screen.token, other.url);
      try {
        await stream.next((f) => f.event === 'snapshot');
        await t.call('POST', '/display-metrics', { as: pos, body: { locationId: a, metrics: [{ name: 'covers', value: '12' }] } });
        await stream.next((f) => f.event === 'update' && f.data.metrics.some((m: { value: string }) => m.value === '12'));
        await t.call('DELETE', `/display-screens/${screen.id}`);
        await stream.next((f) => f.event === 'unpaired');
      } finally {
        stream.close();
      }
    } finally {
      await other.close();
    }
  });
});

describe('leaderboard rule', () => {
  it('counts per person, most first, ties to the latest recognised, shared ranks, latest name', () => {
    const at = (m: number) => new Date(Date.UTC(2026, 11, 1, 12, m));
    const rows = [
      { employeeId: 'emp_a', employeeName: 'Ana', createdAt: at(1) },
      { employeeId: 'emp_b', employeeName: 'Bo', createdAt: at(2) },
      { employeeId: 'emp_a', employeeName: 'Ana S.', createdAt: at(3) },
      { employeeId: 'emp_c', employeeName: 'Cy', createdAt: at(4) },
      { employeeId: 'emp_b', employeeName: 'Bo', createdAt: at(5) },
      { employeeId: 'emp_d', employeeName: 'Di', createdAt: at(0) },
    ];
    expect(rankLeaderboard(rows, 3)).toEqual([
      { rank: 1, employeeId: 'emp_b', employeeName: 'Bo', count: 2 },
      { rank: 1, employeeId: 'emp_a', employeeName: 'Ana S.', count: 2 },
      { rank: 3, employeeId: 'emp_c', employeeName: 'Cy', count: 1 },
    ]);
    expect(rankLeaderboard([], 5)).toEqual([]);
  });
});

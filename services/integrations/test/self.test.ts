import { newIdWithPrefix, type Principal } from '@bop/shared';
import { identityService } from '@svc/identity';
import { integrationsService } from '../src';
import { eventually, FakeClock, person, quietIdentity, sql, startTestServices, type TestService, type TestServices } from '@bop/test-support';
import { principalOf, register } from './fixtures';

const clock = new FakeClock();
let stack: TestServices;
let t: TestService;
beforeAll(async () => {
  stack = await startTestServices([identityService, integrationsService], quietIdentity, { clock });
  t = stack.services.integrations;
});
afterAll(async () => {
  await stack?.close();
});
afterEach(() => clock.reset());

async function registered(manifest: Record<string, unknown> = {}) {
  const r = await register(t, manifest);
  return { id: r.integration.id, as: await principalOf(stack, r.apiKey) };
}

describe('POST /integrations/self/logs and GET /integrations/{id}/logs', () => {
  it('stores a note from the calling integration (its id from the key)', async () => {
    const { id, as } = await registered();
    const res = await t.call('POST', '/integrations/self/logs', { as, body: { level: 'warning', message: 'Till 3 offline', context: { till: 3 } } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ integrationId: id, level: 'warning', message: 'Till 3 offline', context: { till: 3 } });
    expect(res.body.id).toMatch(/^ilg_/);
  });

  it('is for integration keys only, and validates level and message', async () => {
    const { as } = await registered();
    const byPerson = await t.call('POST', '/integrations/self/logs', { as: person(), body: { level: 'info', message: 'x' } });
    expect(byPerson.status).toBe(403);
    expect(byPerson.body.code).toBe('forbidden');
    const bad = await t.call('POST', '/integrations/self/logs', { as, body: { level: 'loud', message: '' } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['level', 'message']);
  });

  it('lists one integration’s entries: `level` = that level and above, `from`, cursor paging', async () => {
    const { id, as } = await registered();
    const other = await registered();
    await t.call('POST', '/integrations/self/logs', { as: other.as, body: { level: 'error', message: 'not mine' } });
    for (const level of ['debug', 'info', 'warning', 'error'] as const) {
      const r = await t.call('POST', '/integrations/self/logs', { as, body: { level, message: `a ${level}` } });
      expect(r.status).toBe(201);
    }
    clock.advance(3600_000);
    const later = await t.call('POST', '/integrations/self/logs', { as, body: { level: 'info', message: 'an hour later' } });

    const all = await t.call('GET', `/integrations/${id}/logs`);
    expect(all.body.data.map((l: { message: string }) => l.message)).toEqual(['a debug', 'a info', 'a warning', 'a error', 'an hour later']);
    const warnings = await t.call('GET', `/integrations/${id}/logs?level=warning`);
    expect(warnings.body.data.map((l: { level: string }) => l.level)).toEqual(['warning', 'error']);
    const fromLater = await t.call('GET', `/integrations/${id}/logs?from=${encodeURIComponent(later.body.createdAt)}`);
    expect(fromLater.body.data.map((l: { message: string }) => l.message)).toEqual(['an hour later']);
    const page1 = await t.call('GET', `/integrations/${id}/logs?limit=2`);
    const page2 = await t.call('GET', `/integrations/${id}/logs?limit=2&cursor=${page1.body.nextCursor}`);
    expect(page2.body.data.map((l: { message: string }) => l.message)).toEqual(['a warning', 'a error']);

    expect((await t.call('GET', `/integrations/${id}/logs?level=loud`)).status).toBe(400);
    expect((await t.call('GET', '/integrations/int_nope/logs')).status).toBe(404);
    expect((await t.call('GET', `/integrations/${id}/logs`, { as })).body.code).toBe('forbidden');
  });
});

describe('POST /integrations/self/heartbeat', () => {
  it('reports health; silent after three intervals without one (clock moved); unknown before any', async () => {
    const { id, as } = await registered({ heartbeatIntervalSeconds: 60 });
    expect((await t.call('GET', `/integrations/${id}`)).body.health).toBe('unknown');

    const beat = await t.call('POST', '/integrations/self/heartbeat', { as, body: { health: 'warning', message: 'queue backing up' } });
    expect(beat.status).toBe(200);
    expect(beat.body).toMatchObject({ integrationId: id, health: 'warning', healthMessage: 'queue backing up', heartbeatIntervalSeconds: 60 });
    expect(Date.parse(beat.body.silentAfter) - Date.parse(beat.body.lastHeartbeatAt)).toBe(180_000);

    const got = await t.call('GET', `/integrations/${id}`);
    expect(got.body).toMatchObject({ health: 'warning', healthMessage: 'queue backing up', lastHeartbeatAt: beat.body.lastHeartbeatAt, version: 1 });

    clock.advance(170_000);
    expect((await t.call('GET', `/integrations/${id}`)).body.health).toBe('warning');
    clock.advance(20_000);
    expect((await t.call('GET', `/integrations/${id}`)).body.health).toBe('silent');
    const listed = await t.call('GET', '/integrations?limit=200');
    expect(listed.body.data.find((i: { id: string }) => i.id === id).health).toBe('silent');

    const back = await t.call('POST', '/integrations/self/heartbeat', { as, body: { health: 'ok' } });
    expect(back.body).toMatchObject({ health: 'ok', healthMessage: null });
  });

  it('uses the service default interval (300 s) when the manifest names none; validates health', async () => {
    const { as } = await registered();
    const beat = await t.call('POST', '/integrations/self/heartbeat', { as, body: { health: 'ok' } });
    expect(beat.body.heartbeatIntervalSeconds).toBe(300);
    const bad = await t.call('POST', '/integrations/self/heartbeat', { as, body: { health: 'fine' } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].path).toBe('health');
    expect((await t.call('POST', '/integrations/self/heartbeat', { body: { health: 'ok' } })).status).toBe(403);
  });
});

describe('GET /integrations/{id}/batches', () => {
  const envelope = (object: Record<string, unknown>, actor: Principal | null, createdAt = new Date().toISOString()) => ({
    id: newIdWithPrefix('evt'),
    type: 'sales.batch.completed',
    createdAt,
    apiVersion: 'v1',
    actor: actor ? { type: 'integration', id: actor.integrationId } : { type: 'user', id: 'usr_x' },
    locationId: null,
    data: { object },
  });
  const batch = (over: Record<string, unknown> = {}) => ({
    batchId: newIdWithPrefix('bat'),
    source: 'till',
    endpoint: 'POST /sales/transactions:batch',
    received: 3,
    created: 2,
    updated: 0,
    unchanged: 0,
    duplicate: 0,
    rejected: 1,
    rejectedRecords: [{ index: 2, externalId: 'T-3', errors: [{ path: 'tenders', message: 'Tender total does not match.' }] }],
    createdAt: new Date().toISOString(),
    ...over,
  });

  async function publish(...events: Array<ReturnType<typeof envelope>>) {
    await stack.bus.publish(events.map((e) => ({ topic: 'sales', key: (e.data.object as { batchId: string }).batchId, eventId: e.id, type: e.type, payload: e })));
  }

  it('keeps the batches the areas report for the integration; filters rejectedOnly and from', async () => {
    const { id, as } = await registered();
    const withRejects = batch({ integrationId: id });
    const clean = batch({ rejected: 0, rejectedRecords: [], received: 2, unchanged: 1, created: 1 });
    const later = batch({ integrationId: id, rejected: 0, rejectedRecords: undefined, createdAt: new Date(Date.now() + 3_600_000).toISOString() });
    const byPerson = batch();
    const unknownIntegration = batch({ integrationId: 'int_gone' });
    const ev = envelope(withRejects, as);
    // the actor names the integration when the object does not; a replayed event is kept once
    await publish(ev, envelope(clean, as), envelope(later, as), envelope(byPerson, null), envelope(unknownIntegration, null), ev);

    const all = await eventually(async () => {
      const r = await t.call('GET', `/integrations/${id}/batches`);
      return r.body.data.length === 3 ? r : undefined;
    });
    expect(all.body.data.map((b: { batchId: string }) => b.batchId)).toEqual([withRejects.batchId, clean.batchId, later.batchId]);
    expect(all.body.data[0]).toEqual({ ...withRejects, unchanged: 0, duplicate: 0 });
    expect(all.body.data[1]).toMatchObject({ integrationId: id, received: 2, created: 1, unchanged: 1, rejected: 0, rejectedRecords: [] });

    const rejected = await t.call('GET', `/integrations/${id}/batches?rejectedOnly=true`);
    expect(rejected.body.data.map((b: { batchId: string }) => b.batchId)).toEqual([withRejects.batchId]);
    const notOnly = await t.call('GET', `/integrations/${id}/batches?rejectedOnly=false`);
    expect(notOnly.body.data).toHaveLength(3);
    const from = await t.call('GET', `/integrations/${id}/batches?from=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`);
    expect(from.body.data.map((b: { batchId: string }) => b.batchId)).toEqual([later.batchId]);
    expect((await t.call('GET', `/integrations/${id}/batches?rejectedOnly=maybe`)).status).toBe(400);

    const rows = await sql(stack, `select count(*)::int as n from integrations.ingestion_batches where id = any($1)`, [[byPerson.batchId, unknownIntegration.batchId]]);
    expect(rows[0].n).toBe(0);
  });

  it('parks a malformed batch event in dead_letters instead of dropping it', async () => {
    const { as } = await registered();
    const ev = envelope({ batchId: 'not-a-batch', received: 'many' }, as);
    await stack.bus.publish([{ topic: 'sales', key: 'x', eventId: ev.id, type: ev.type, payload: ev }]);
    const parked = await eventually(async () => {
      const rows = await sql(stack, 'select error from integrations.dead_letters where event_id = $1', [ev.id]);
      return rows.length > 0 ? rows[0] : undefined;
    }, 30_000);
    expect(parked.error).toMatch(/not a BatchCompletedEvent/);
  });
});

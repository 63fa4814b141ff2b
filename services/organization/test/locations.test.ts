import { request } from 'node:http';
import { anonymousPrincipal } from '@bop/shared';
import { organizationService } from '../src';
import { http, integration, outboxEvents, person, startTestService, testKeys, type TestService } from '@bop/test-support';
import { newLocation, newLocationBody, newOrgUnit } from './fixtures';

let t: TestService;
beforeAll(async () => {
  t = await startTestService(organizationService);
});
afterAll(async () => {
  await t?.close();
});

describe('POST /locations', () => {
  it('creates a location and records location.created in the same transaction', async () => {
    const res = await t.call('POST', '/locations', { body: newLocationBody({ name: 'Downtown', externalId: 'POS-1', timezone: 'Europe/Berlin' }) });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: 'Downtown', externalId: 'POS-1', timezone: 'Europe/Berlin', businessDayCutoff: '04:00', status: 'active', version: 1 });
    expect(res.body.id).toMatch(/^loc_[0-9A-Z]{26}$/);
    expect(res.headers.get('etag')).toBe('"1"');
    const events = (await outboxEvents(t, 'organization')).filter((e) => e.aggregate_id === res.body.id);
    expect(events).toHaveLength(1);
    expect(events[0].type).toBe('location.created');
    expect(events[0].payload).toMatchObject({
      type: 'location.created',
      apiVersion: 'v1',
      actor: { type: 'user', id: 'usr_test' },
      locationId: res.body.id,
      data: { object: { id: res.body.id, name: 'Downtown' } },
    });
    expect(events[0].payload.id).toMatch(/^evt_/);
  });

  it('reports every invalid field with its path and stores nothing', async () => {
    const before = (await outboxEvents(t, 'organization')).length;
    const res = await t.call('POST', '/locations', {
      body: { name: '', timezone: 'Mars/Olympus', businessDayCutoff: '25:00', address: { country: 'usa' }, colour: 'red' },
    });
    expect(res.status).toBe(422);
    expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(res.body.code).toBe('validation_error');
    const paths = res.body.errors.map((e: { path: string }) => e.path).sort();
    expect(paths).toEqual(['address.country', 'businessDayCutoff', 'colour', 'name', 'timezone']);
    expect((await outboxEvents(t, 'organization')).length).toBe(before);
  });

  it('refuses a duplicate externalId with 409 conflict and records no event', async () => {
    await newLocation(t, { externalId: 'DUP-1' });
    const before = (await outboxEvents(t, 'organization')).length;
    const res = await t.call('POST', '/locations', { body: newLocationBody({ externalId: 'DUP-1' }) });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'conflict', errors: [{ path: 'externalId' }] });
    expect((await outboxEvents(t, 'organization')).length).toBe(before);
  });

  it('refuses an unknown org unit with a field error', async () => {
    const res = await t.call('POST', '/locations', { body: newLocationBody({ orgUnitId: 'ou_nope' }) });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([{ path: 'orgUnitId', message: expect.any(String) }]);
  });

  it('answers 400 bad_request for malformed JSON', async () => {
    const { signer } = await testKeys();
    const res = await http(t.svc.url, 'POST', '/locations', { rawBody: '{"name": ', headers: { 'x-internal-token': await signer.sign(person()) } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('bad_request');
    expect(res.body.requestId).toBe(res.headers.get('x-request-id'));
  });

  it('refuses an anonymous caller (the principal of public rows) on a row that needs someone', async () => {
    const res = await t.call('GET', '/locations', { as: anonymousPrincipal });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('unauthorized');
  });

  it('refuses requests without a valid internal token', async () => {
    const res = await http(t.svc.url, 'GET', '/locations');
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('unauthorized');
  });
});

describe('GET /locations', () => {
  it('pages with a cursor over more than one page with no duplicates and no gaps', async () => {
    const unit = await newOrgUnit(t, 'Paging region');
    const created: string[] = [];
    for (let i = 0; i < 7; i++) created.push((await newLocation(t, { orgUnitId: unit.id })).id);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const q: string = `/locations?limit=3&orgUnitId=${unit.id}${cursor ? `&cursor=${cursor}` : ''}`;
      const res = await t.call('GET', q);
      expect(res.status).toBe(200);
      expect(res.body.data.length).toBeLessThanOrEqual(3);
      seen.push(...res.body.data.map((l: { id: string }) => l.id));
      cursor = res.body.nextCursor;
      expect(res.body.hasMore).toBe(cursor !== null);
      pages += 1;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual(created);
  });

  it('refuses a bad limit or cursor with 400 and the parameter path', async () => {
    const bad = await t.call('GET', '/locations?limit=500');
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].path).toBe('limit');
    const cur = await t.call('GET', '/locations?cursor=garbage');
    expect(cur.status).toBe(400);
    expect(cur.body.errors[0].path).toBe('cursor');
  });

  it('filters by updatedSince', async () => {
    const mark = new Date().toISOString();
    const fresh = await newLocation(t);
    const res = await t.call('GET', `/locations?updatedSince=${encodeURIComponent(mark)}`);
    expect(res.body.data.map((l: { id: string }) => l.id)).toContain(fresh.id);
    expect(res.body.data.every((l: { updatedAt: string }) => l.updatedAt >= mark)).toBe(true);
  });
});

describe('GET /locations/{id}', () => {
  let signer: Awaited<ReturnType<typeof testKeys>>['signer'];
  beforeAll(async () => {
    signer = (await testKeys()).signer;
  });

  it('answers JSON with its length and ETag; the current ETag in If-None-Match is a 304 without a body', async () => {
    const loc = await newLocation(t, { name: 'Conditional' });
    const res = await t.call('GET', `/locations/${loc.id}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(Number(res.headers.get('content-length'))).toBe(Buffer.byteLength(JSON.stringify(res.body)));
    expect(res.headers.get('etag')).toBe('"1"');
    // fetch sends Cache-Control: no-cache with a conditional header (Fetch standard), which asks for the full answer: node:http here
    const conditional = (etag: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        void signer.sign(person()).then((token) => {
          const req = request(`${t.svc.url}/locations/${loc.id}`, { headers: { 'x-internal-token': token, 'if-none-match': etag } }, (r) => {
            let body = '';
            r.on('data', (c) => (body += c));
            r.on('end', () => resolve({ status: r.statusCode ?? 0, body }));
          });
          req.on('error', reject);
          req.end();
        });
      });
    expect(await conditional('"1"')).toEqual({ status: 304, body: '' });
    expect(await conditional('W/"1", "7"')).toEqual({ status: 304, body: '' });
    const changed = await conditional('"0"');
    expect(changed.status).toBe(200);
    expect(JSON.parse(changed.body).name).toBe('Conditional');
  });
});

describe('PATCH and DELETE /locations/{id}', () => {
  it('updates with If-Match, records previous values, and refuses a stale version', async () => {
    const loc = await newLocation(t, { name: 'Old name' });
    const ok = await t.call('PATCH', `/locations/${loc.id}`, { body: { name: 'New name', businessDayCutoff: '05:30' }, headers: { 'If-Match': '"1"' } });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ name: 'New name', businessDayCutoff: '05:30', version: 2 });
    const stale = await t.call('PATCH', `/locations/${loc.id}`, { body: { name: 'Again' }, headers: { 'If-Match': '"1"' } });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('version_mismatch');
    const ev = (await outboxEvents(t, 'organization')).filter((e) => e.aggregate_id === loc.id && e.type === 'location.updated');
    expect(ev).toHaveLength(1);
    expect(ev[0].payload.data.previous).toEqual({ name: 'Old name', businessDayCutoff: '04:00' });
  });

  it('serves more concurrent changes than the pool has connections (each request uses one)', async () => {
    const locs = await Promise.all(Array.from({ length: 12 }, () => newLocation(t)));
    const res = await Promise.all(locs.map((l, i) => t.call('PATCH', `/locations/${l.id}`, { body: { name: `Busy ${i}` } })));
    expect(res.map((r) => r.status)).toEqual(locs.map(() => 200));
  });

  it('records no event when nothing changes', async () => {
    const loc = await newLocation(t, { name: 'Same' });
    const res = await t.call('PATCH', `/locations/${loc.id}`, { body: { name: 'Same' } });
    expect(res.status).toBe(200);
    expect(res.body.version).toBe(1);
    expect((await outboxEvents(t, 'organization')).filter((e) => e.aggregate_id === loc.id)).toHaveLength(1);
  });

  it('archives, keeps history, refuses changes until reactivated', async () => {
    const loc = await newLocation(t);
    const del = await t.call('DELETE', `/locations/${loc.id}`);
    expect(del.status).toBe(200);
    expect(del.body).toMatchObject({ status: 'archived', version: 2 });
    expect(del.body.archivedAt).toEqual(expect.any(String));
    const get = await t.call('GET', `/locations/${loc.id}`);
    expect(get.body.status).toBe('archived');
    const patch = await t.call('PATCH', `/locations/${loc.id}`, { body: { name: 'x' } });
    expect(patch.status).toBe(409);
    const back = await t.call('PATCH', `/locations/${loc.id}`, { body: { status: 'active' } });
    expect(back.body).toMatchObject({ status: 'active', archivedAt: null });
    const types = (await outboxEvents(t, 'organization')).filter((e) => e.aggregate_id === loc.id).map((e) => e.type);
    expect(types).toEqual(['location.created', 'location.archived', 'location.updated']);
  });

  it('answers 404 not_found for an unknown id', async () => {
    const res = await t.call('GET', '/locations/loc_unknown');
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
  });
});

describe('PUT /locations/external/{externalId}', () => {
  it('creates, then updates, then leaves unchanged', async () => {
    const body = { name: 'Airport', timezone: 'Europe/London', businessDayCutoff: '03:00' };
    const first = await t.call('PUT', '/locations/external/STORE-77', { body, as: integration(['organization:write']) });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ externalId: 'STORE-77', name: 'Airport' });
    const second = await t.call('PUT', '/locations/external/STORE-77', { body: { ...body, name: 'Airport T2' }, as: integration(['organization:write']) });
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ id: first.body.id, name: 'Airport T2', version: 2 });
    const third = await t.call('PUT', '/locations/external/STORE-77', { body: { ...body, name: 'Airport T2' }, as: integration(['organization:write']) });
    expect(third.body.version).toBe(2);
    const events = (await outboxEvents(t, 'organization')).filter((e) => e.aggregate_id === first.body.id);
    expect(events.map((e) => e.type)).toEqual(['location.created', 'location.updated']);
    expect(events[0].payload.actor).toEqual({ type: 'integration', id: 'int_test' });
    const get = await t.call('GET', '/locations/external/STORE-77');
    expect(get.body.id).toBe(first.body.id);
  });

  it('creates once when two first PUTs race', async () => {
    const body = { name: 'Race', timezone: 'UTC' };
    const [a, b] = await Promise.all([
      t.call('PUT', '/locations/external/RACE-1', { body }),
      t.call('PUT', '/locations/external/RACE-1', { body }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 201]);
    expect(a.body.id).toBe(b.body.id);
  });
});

describe('reach', () => {
  it('lists only reachable locations and answers out_of_reach for the others', async () => {
    const region = await newOrgUnit(t, 'Reach region');
    const area = await newOrgUnit(t, 'Reach area', region.id);
    const inArea = await newLocation(t, { orgUnitId: area.id });
    const direct = await newLocation(t);
    const other = await newLocation(t);
    const manager = person({
      'organization.read': [{ type: 'org_units', ids: [region.id] }, { type: 'locations', ids: [direct.id] }],
      'locations.manage': [{ type: 'locations', ids: [direct.id] }],
    });
    const list = await t.call('GET', '/locations?limit=200', { as: manager });
    expect(list.status).toBe(200);
    expect(list.body.data.map((l: { id: string }) => l.id).sort()).toEqual([inArea.id, direct.id].sort());
    expect((await t.call('GET', `/locations/${inArea.id}`, { as: manager })).status).toBe(200);
    const out = await t.call('GET', `/locations/${other.id}`, { as: manager });
    expect(out.status).toBe(403);
    expect(out.body.code).toBe('out_of_reach');
    expect((await t.call('PATCH', `/locations/${direct.id}`, { as: manager, body: { name: 'Mine' } })).status).toBe(200);
    const patchOther = await t.call('PATCH', `/locations/${inArea.id}`, { as: manager, body: { name: 'Not mine' } });
    expect(patchOther.status).toBe(403);
    expect(patchOther.body.code).toBe('out_of_reach');
    const create = await t.call('POST', '/locations', { as: manager, body: newLocationBody() });
    expect(create.status).toBe(403);
    expect(create.body.code).toBe('out_of_reach');
  });

  it('refuses a person without the permission with 403 forbidden', async () => {
    const res = await t.call('GET', '/locations', { as: person({}) });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('forbidden');
  });
});

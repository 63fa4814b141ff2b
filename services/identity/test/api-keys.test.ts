import { outboxEvents, person, sql, startTestService, system, type TestService } from '@bop/test-support';
import { authenticate, identityService, newUser, ownerEnv, session } from './fixtures';

let t: TestService;
beforeAll(async () => {
  t = await startTestService(identityService, ownerEnv);
});
afterAll(() => t?.close());

describe('personal keys', () => {
  test('create → shown once, authenticates as the person; revoke → 401 unauthorized; events recorded', async () => {
    const u = await newUser(t, { role: 'manager' });
    const { principal } = await session(t, u.email);
    const r = await t.call('POST', '/auth/api-keys', { as: principal, body: { name: 'reporting script' } });
    expect(r.status).toBe(201);
    expect(r.body.key).toMatch(/^pk_live_/);
    expect(r.body.prefix).toBe(r.body.key.slice(0, 12));
    expect(r.body).toMatchObject({ name: 'reporting script', userId: u.id, expiresAt: null, lastUsedAt: null });
    const stored = await sql(t, 'select * from identity.api_keys where id = $1', [r.body.id]);
    expect(JSON.stringify(stored)).not.toContain(r.body.key);

    const auth = await authenticate(t, r.body.key);
    expect(auth.status).toBe(200);
    expect(auth.body.principal).toMatchObject({ kind: 'user', via: 'personal_key', id: u.id, userId: u.id, keyId: r.body.id });
    expect(auth.body.principal.permissions['sales.read']).toEqual([{ type: 'everyone' }]);
    const [{ last_used_at }] = await sql<{ last_used_at: Date | null }>(t, 'select last_used_at from identity.api_keys where id = $1', [r.body.id]);
    expect(last_used_at).not.toBeNull();

    const me = await t.call('GET', '/me', { as: auth.body.principal });
    expect(me.body).toMatchObject({ kind: 'user', via: 'personal_key', key: { id: r.body.id, prefix: r.body.prefix, name: 'reporting script' }, session: null });

    const list = await t.call('GET', '/auth/api-keys', { as: principal });
    expect(list.body.data).toHaveLength(1);
    expect(list.body.data[0]).not.toHaveProperty('key');

    expect((await t.call('DELETE', `/auth/api-keys/${r.body.id}`, { as: principal })).status).toBe(204);
    const after = await authenticate(t, r.body.key);
    expect(after.status).toBe(401);
    expect(after.body.code).toBe('unauthorized');
    expect((await t.call('GET', '/auth/api-keys', { as: principal })).body.data).toHaveLength(0);

    const events = await outboxEvents(t, 'identity', { type: 'identity.api_key.revoked' });
    expect(events.map((e) => e.aggregate_id)).toContain(r.body.id);
    const revoked = events.find((e) => e.aggregate_id === r.body.id)!;
    expect(revoked.payload).toMatchObject({ type: 'identity.api_key.revoked', apiVersion: 'v1', actor: { type: 'user', id: u.id }, data: { object: { id: r.body.id } } });
  });

  test('an expired key is refused; expiresAt must lie in the future', async () => {
    const u = await newUser(t, { role: 'manager' });
    const { principal } = await session(t, u.email);
    const past = await t.call('POST', '/auth/api-keys', { as: principal, body: { name: 'x', expiresAt: '2020-01-01T00:00:00Z' } });
    expect(past.status).toBe(422);
    expect(past.body.errors[0].path).toBe('expiresAt');
    const r = await t.call('POST', '/auth/api-keys', { as: principal, body: { name: 'short', expiresAt: new Date(Date.now() + 3600_000).toISOString() } });
    expect((await authenticate(t, r.body.key)).status).toBe(200);
    await sql(t, `update identity.api_keys set expires_at = now() - interval '1 second' where id = $1`, [r.body.id]);
    const expired = await authenticate(t, r.body.key);
    expect(expired.status).toBe(401);
    expect(expired.body.code).toBe('unauthorized');
  });

  test('others\' keys: listed and revoked only with api_keys.manage', async () => {
    const owner = await newUser(t, { role: 'manager' });
    const other = await newUser(t, { role: 'manager' });
    const admin = await newUser(t, { role: 'owner' });
    const { principal: ownerP } = await session(t, owner.email);
    const { principal: otherP } = await session(t, other.email);
    const { principal: adminP } = await session(t, admin.email);
    const key = await t.call('POST', '/auth/api-keys', { as: ownerP, body: { name: 'mine' } });

    const peek = await t.call('GET', `/auth/api-keys?userId=${owner.id}`, { as: otherP });
    expect(peek.status).toBe(403);
    expect(peek.body.code).toBe('forbidden');
    expect((await t.call('DELETE', `/auth/api-keys/${key.body.id}`, { as: otherP })).status).toBe(404);
    expect((await authenticate(t, key.body.key)).status).toBe(200);

    const listed = await t.call('GET', `/auth/api-keys?userId=${owner.id}`, { as: adminP });
    expect(listed.body.data.map((k: { id: string }) => k.id)).toEqual([key.body.id]);
    expect((await t.call('DELETE', `/auth/api-keys/${key.body.id}`, { as: adminP })).status).toBe(204);
    expect((await authenticate(t, key.body.key)).status).toBe(401);
  });

  test('deactivating the user revokes their keys and ends their sessions', async () => {
    const u = await newUser(t, { role: 'manager' });
    const { token, principal } = await session(t, u.email);
    const key = await t.call('POST', '/auth/api-keys', { as: principal, body: { name: 'k' } });
    const before = (await outboxEvents(t, 'identity')).length;
    expect((await t.call('DELETE', `/users/${u.id}`)).body.status).toBe('deactivated');
    expect((await authenticate(t, key.body.key)).body.code).toBe('unauthorized');
    expect((await authenticate(t, token)).body.code).toBe('session_expired');
    const added = (await outboxEvents(t, 'identity')).slice(before).map((e) => e.type);
    expect(added).toEqual(expect.arrayContaining(['identity.api_key.revoked', 'identity.user.deactivated']));
    // reactivating does not bring the key back
    expect((await t.call('PATCH', `/users/${u.id}`, { body: { status: 'active' } })).body.status).toBe('active');
    expect((await authenticate(t, key.body.key)).status).toBe(401);
  });
});

describe('integration keys (internal)', () => {
  test('mint, authenticate with scopes, pause refuses, resume accepts', async () => {
    const minted = await t.call('POST', '/internal/integration-keys', { as: system, body: { integrationId: 'int_pos1', scopes: ['sales:write', 'sales:read'] } });
    expect(minted.status).toBe(201);
    expect(minted.body.key).toMatch(/^pk_live_/);
    const auth = await authenticate(t, minted.body.key);
    expect(auth.body).toMatchObject({
      principal: { kind: 'integration', via: 'integration_key', id: 'int_pos1', integrationId: 'int_pos1', keyId: minted.body.id, scopes: ['sales:write', 'sales:read'] },
      mfaEnrollmentRequired: false,
    });
    const me = await t.call('GET', '/me', { as: auth.body.principal });
    expect(me.body).toMatchObject({ kind: 'integration', integrationId: 'int_pos1', scopes: ['sales:write', 'sales:read'], user: null, key: { id: minted.body.id } });

    expect((await t.call('POST', '/internal/integrations/int_pos1:pause', { as: system })).body).toEqual({ integrationId: 'int_pos1', paused: true });
    expect((await authenticate(t, minted.body.key)).body.code).toBe('unauthorized');
    expect((await t.call('POST', '/internal/integrations/int_pos1:resume', { as: system })).body.paused).toBe(false);
    expect((await authenticate(t, minted.body.key)).status).toBe(200);
    expect((await outboxEvents(t, 'identity', { type: 'identity.integration.paused' })).map((e) => e.aggregate_id)).toEqual(['int_pos1']);
  });

  test('unknown scopes → 422 with the path', async () => {
    const r = await t.call('POST', '/internal/integration-keys', { as: system, body: { integrationId: 'int_x', scopes: ['sales:read', 'nope:write'] } });
    expect(r.status).toBe(422);
    expect(r.body.errors[0].path).toBe('scopes[1]');
  });

  test('rotation: the old key keeps working for the grace period, then is refused; revoke without grace is immediate', async () => {
    const old = await t.call('POST', '/internal/integration-keys', { as: system, body: { integrationId: 'int_rot', scopes: ['time:write'] } });
    const fresh = await t.call('POST', '/internal/integration-keys', { as: system, body: { integrationId: 'int_rot', scopes: ['time:write'] } });
    const r = await t.call('POST', '/internal/integration-keys:revoke', { as: system, body: { integrationId: 'int_rot', exceptKeyIds: [fresh.body.id], graceMinutes: 10 } });
    expect(r.status).toBe(200);
    expect(r.body.revoked.map((k: { id: string }) => k.id)).toEqual([old.body.id]);
    const during = await authenticate(t, old.body.key);
    expect(during.status).toBe(200);
    expect(during.body.cacheSeconds).toBeLessThanOrEqual(60);
    await sql(t, `update identity.api_keys set revoked_at = now() - interval '1 second' where id = $1`, [old.body.id]);
    expect((await authenticate(t, old.body.key)).status).toBe(401);
    expect((await authenticate(t, fresh.body.key)).status).toBe(200);

    await t.call('POST', '/internal/integration-keys:revoke', { as: system, body: { integrationId: 'int_rot', keyId: fresh.body.id } });
    expect((await authenticate(t, fresh.body.key)).status).toBe(401);
    expect((await t.call('POST', '/internal/integration-keys:revoke', { as: system, body: { integrationId: 'int_rot', keyId: 'key_nope' } })).status).toBe(404);
  });

  test('a person cannot use the internal key routes', async () => {
    const r = await t.call('POST', '/internal/integration-keys', { as: person(), body: { integrationId: 'int_x', scopes: [] } });
    expect(r.status).toBe(403);
  });
});

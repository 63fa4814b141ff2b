import type { Principal } from '@bop/shared';
import { integration, outboxEvents, sql, startTestService, system, type TestService } from '@bop/test-support';
import { identityAdmin } from '../src';
import { authenticate, identityService, newUser, ownerEnv, PASSWORD, principalOf, roleId, session, signIn } from './fixtures';

let t: TestService;
beforeAll(async () => {
  t = await startTestService(identityService, { ...ownerEnv, SIGN_IN_MAX_ATTEMPTS: '3' });
});
afterAll(() => t?.close());

let seq = 0;
/** Invites a new email and returns the invitation and the token from its email. */
async function invite(body: Record<string, unknown> = {}): Promise<{ id: string; email: string; token: string }> {
  const email = `invitee${++seq}-${Date.now()}@example.com`;
  const r = await t.call('POST', '/invitations', { body: { email, assignments: [], ...body } });
  if (r.status !== 201) throw new Error(`invite: ${r.status} ${JSON.stringify(r.body)}`);
  const mail = await t.call('GET', `/internal/email-log?to=${encodeURIComponent(email)}`, { as: system });
  return { id: r.body.id, email, token: /token: (\S+)/.exec(mail.body.data[0].body)![1] };
}

// the gateway calls public rows without a person; the harness signs them as the platform, as for sign-in
const accept = (body: Record<string, unknown>) => t.call('POST', '/auth/invitations:accept', { as: system, body });
const changePassword = (as: Principal, body: Record<string, unknown>) => t.call('POST', '/auth/password', { as, body });
const NEW_PASSWORD = 'a-brand-new-password';

describe('POST /auth/invitations:accept', () => {
  test('creates the user with the invited assignments and signs in', async () => {
    const inv = await invite({ name: 'Ina Vite', employeeId: 'emp_ina', assignments: [{ roleId: await roleId(t, 'manager'), reach: { type: 'locations', ids: ['loc_1'] } }] });
    const r = await accept({ token: inv.token, password: PASSWORD, name: '  Ina V. ' });
    expect(r.status).toBe(201);
    expect(r.body.token).toMatch(/^ses_/);
    expect(Date.parse(r.body.expiresAt)).toBeGreaterThan(Date.now() + 11 * 3600_000);
    expect(r.body.user).toMatchObject({ email: inv.email, name: 'Ina V.', status: 'active', employeeId: 'emp_ina', assignments: [{ roleName: 'Manager', reach: { type: 'locations', ids: ['loc_1'] } }] });
    expect(r.body.user.lastSignInAt).not.toBeNull();

    const principal = await principalOf(t, r.body.token);
    expect(principal).toMatchObject({ kind: 'user', via: 'session', id: r.body.user.id, employeeId: 'emp_ina' });
    expect(principal.permissions!['sales.read']).toEqual([{ type: 'locations', ids: ['loc_1'] }]);
    expect((await t.call('GET', '/auth/session', { as: principal })).body.assignments).toHaveLength(1);
    expect((await signIn(t, inv.email)).status).toBe(200);

    expect((await t.call('GET', '/invitations?status=accepted')).body.data.find((i: { id: string }) => i.id === inv.id)).toMatchObject({ acceptedUserId: r.body.user.id });
    const accepted = (await outboxEvents(t, 'identity', { type: 'identity.invitation.accepted' })).find((e) => e.aggregate_id === inv.id)!;
    expect(accepted.payload).toMatchObject({ actor: { type: 'system', id: null }, data: { object: { status: 'accepted', acceptedUserId: r.body.user.id }, previous: { status: 'pending' } } });
    expect((await outboxEvents(t, 'identity', { type: 'identity.user.created' })).map((e) => e.aggregate_id)).toContain(r.body.user.id);
    expect(JSON.stringify(await outboxEvents(t, 'identity'))).not.toContain(PASSWORD);
  });

  test('a used, revoked or expired invitation → 409 conflict; an unknown token → 404', async () => {
    const used = await invite();
    expect((await accept({ token: used.token, password: PASSWORD })).status).toBe(201);
    const twice = await accept({ token: used.token, password: PASSWORD });
    expect(twice.status).toBe(409);
    expect(twice.body).toMatchObject({ code: 'conflict', detail: expect.stringMatching(/already accepted/) });

    const revoked = await invite();
    expect((await t.call('DELETE', `/invitations/${revoked.id}`)).status).toBe(200);
    const r = await accept({ token: revoked.token, password: PASSWORD });
    expect(r.status).toBe(409);
    expect(r.body.detail).toMatch(/revoked/);

    const expired = await invite();
    await sql(t, `update identity.invitations set expires_at = now() - interval '1 minute' where id = $1`, [expired.id]);
    const e = await accept({ token: expired.token, password: PASSWORD });
    expect(e.status).toBe(409);
    expect(e.body.detail).toMatch(/expired/);

    const unknown = await accept({ token: 'inv_nope', password: PASSWORD });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('not_found');
    expect(await sql(t, 'select 1 from identity.users where email = any($1)', [[revoked.email, expired.email]])).toEqual([]);
  });

  test('password rules and unknown fields → 422 with paths; the invitation stays pending', async () => {
    const inv = await invite();
    const before = (await outboxEvents(t, 'identity')).length;
    const short = await accept({ token: inv.token, password: 'short' });
    expect(short.status).toBe(422);
    expect(short.body.errors).toEqual([{ path: 'password', message: expect.stringMatching(/12/) }]);
    const extra = await accept({ token: inv.token, password: PASSWORD, email: 'other@example.com' });
    expect(extra.status).toBe(422);
    expect(extra.body.errors.map((x: { path: string }) => x.path)).toEqual(['email']);
    expect((await outboxEvents(t, 'identity')).length).toBe(before);
    expect((await t.call('GET', '/invitations?status=pending')).body.data.map((i: { id: string }) => i.id)).toContain(inv.id);
    expect((await accept({ token: inv.token, password: PASSWORD })).status).toBe(201);
  });

  test('an email that meanwhile belongs to a user → 409; nothing recorded', async () => {
    const inv = await invite();
    await newUser(t, { email: inv.email });
    const before = (await outboxEvents(t, 'identity')).length;
    const r = await accept({ token: inv.token, password: PASSWORD });
    expect(r.status).toBe(409);
    expect(r.body.code).toBe('conflict');
    expect((await outboxEvents(t, 'identity')).length).toBe(before);
    expect(await sql(t, 'select status from identity.invitations where id = $1', [inv.id])).toEqual([{ status: 'pending' }]);
  });
});

describe('POST /auth/password', () => {
  test('stores the new password; other sessions end, the calling one and personal keys keep working', async () => {
    const u = await newUser(t, { role: 'employee' });
    const calling = await session(t, u.email);
    const other = await session(t, u.email);
    const { key } = await identityAdmin.createPersonalKey(t.svc.runtime, { email: u.email, name: 'script' });

    const r = await changePassword(calling.principal, { currentPassword: PASSWORD, newPassword: NEW_PASSWORD });
    expect(r.status).toBe(204);
    expect(r.body).toBeUndefined();

    expect((await signIn(t, u.email, PASSWORD)).status).toBe(401);
    expect((await signIn(t, u.email, NEW_PASSWORD)).status).toBe(200);
    const ended = await authenticate(t, other.token);
    expect(ended.status).toBe(401);
    expect(ended.body.code).toBe('session_expired');
    expect((await authenticate(t, calling.token)).status).toBe(200);
    expect((await authenticate(t, key)).status).toBe(200);
    const [stored] = await sql<{ password_hash: string }>(t, 'select password_hash from identity.users where id = $1', [u.id]);
    expect(stored.password_hash).toMatch(/^\$argon2id\$/);
    expect(await sql(t, `select end_reason from identity.sessions where user_id = $1 and ended_at is not null`, [u.id])).toEqual([{ end_reason: 'password_changed' }]);

    const events = (await outboxEvents(t, 'identity', { type: 'identity.user.password_changed' })).filter((e) => e.aggregate_id === u.id);
    expect(events).toHaveLength(1);
    expect(events[0].payload).toMatchObject({ type: 'identity.user.password_changed', actor: { type: 'user', id: u.id }, data: { object: { id: u.id, endedSessions: 1 } } });
    for (const secret of [PASSWORD, NEW_PASSWORD, '$argon2']) expect(JSON.stringify(events[0].payload)).not.toContain(secret);
  });

  test('a wrong current password → 422 at currentPassword; nothing changes, nothing recorded', async () => {
    const u = await newUser(t);
    const calling = await session(t, u.email);
    const other = await session(t, u.email);
    const before = (await outboxEvents(t, 'identity')).length;
    const r = await changePassword(calling.principal, { currentPassword: 'not-my-password', newPassword: NEW_PASSWORD });
    expect(r.status).toBe(422);
    expect(r.body.errors).toEqual([{ path: 'currentPassword', message: 'This does not match your current password.' }]);
    expect((await outboxEvents(t, 'identity')).length).toBe(before);
    expect((await authenticate(t, other.token)).status).toBe(200);
    expect((await signIn(t, u.email, PASSWORD)).status).toBe(200);
  });

  test('new password rules → 422 at newPassword: too short, blank, same as the current one; unknown fields refused', async () => {
    const u = await newUser(t);
    const { principal } = await session(t, u.email);
    const before = (await outboxEvents(t, 'identity')).length;
    for (const newPassword of ['short', ' '.repeat(14), PASSWORD]) {
      const r = await changePassword(principal, { currentPassword: PASSWORD, newPassword });
      expect(r.status).toBe(422);
      expect(r.body.errors.map((e: { path: string }) => e.path)).toEqual(['newPassword']);
    }
    const extra = await changePassword(principal, { currentPassword: PASSWORD, newPassword: NEW_PASSWORD, userId: 'usr_other' });
    expect(extra.body.errors.map((e: { path: string }) => e.path)).toEqual(['userId']);
    expect((await outboxEvents(t, 'identity')).length).toBe(before);
  });

  test('called with a personal key: every session ends; the key keeps working', async () => {
    const u = await newUser(t);
    const s = await session(t, u.email);
    const { key } = await identityAdmin.createPersonalKey(t.svc.runtime, { email: u.email, name: 'cli' });
    const viaKey = await principalOf(t, key);
    expect(viaKey.via).toBe('personal_key');
    expect((await changePassword(viaKey, { currentPassword: PASSWORD, newPassword: NEW_PASSWORD })).status).toBe(204);
    expect((await authenticate(t, s.token)).body.code).toBe('session_expired');
    expect((await authenticate(t, key)).status).toBe(200);
  });

  test('only a person: an integration or the platform → 401', async () => {
    for (const as of [integration(['hr:write']), system]) {
      const r = await changePassword(as, { currentPassword: PASSWORD, newPassword: NEW_PASSWORD });
      expect(r.status).toBe(401);
      expect(r.body.code).toBe('unauthorized');
    }
  });

  test('wrong current passwords are limited per person → 429, even with the right one afterwards', async () => {
    const u = await newUser(t);
    const { principal } = await session(t, u.email);
    for (let i = 0; i < 3; i++) expect((await changePassword(principal, { currentPassword: 'guess-number-' + i, newPassword: NEW_PASSWORD })).status).toBe(422);
    const limited = await changePassword(principal, { currentPassword: PASSWORD, newPassword: NEW_PASSWORD });
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('rate_limited');
    expect((await signIn(t, u.email, PASSWORD)).status).toBe(200);
  });
});

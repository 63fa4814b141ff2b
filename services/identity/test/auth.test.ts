import { generate } from 'otplib';
import { person, sql, startTestService, system, type TestService } from '@bop/test-support';
import { authenticate, identityService, newUser, OWNER_EMAIL, OWNER_PASSWORD, ownerEnv, PASSWORD, principalOf, session, signIn, totp } from './fixtures';

let t: TestService;
beforeAll(async () => {
  t = await startTestService(identityService, { ...ownerEnv, SIGN_IN_MAX_ATTEMPTS: '3', SIGN_IN_WINDOW_MINUTES: '15' });
});
afterAll(() => t?.close());

describe('sign-in', () => {
  test('right details give a session token, expiry and the user', async () => {
    const r = await signIn(t, OWNER_EMAIL, OWNER_PASSWORD);
    expect(r.status).toBe(200);
    expect(r.body.token).toMatch(/^ses_/);
    expect(Date.parse(r.body.expiresAt)).toBeGreaterThan(Date.now() + 11 * 3600_000);
    expect(r.body.user).toMatchObject({ email: OWNER_EMAIL, status: 'active', twoFactor: { enabled: false } });
    const stored = await sql(t, 'select token_hash from identity.sessions');
    expect(JSON.stringify(stored)).not.toContain(r.body.token);
  });

  test('email is matched case-insensitively', async () => {
    expect((await signIn(t, OWNER_EMAIL.toUpperCase(), OWNER_PASSWORD)).status).toBe(200);
  });

  test('wrong password and unknown email answer the same 401', async () => {
    const wrong = await signIn(t, OWNER_EMAIL, 'not-the-password', '198.51.100.1');
    const unknown = await signIn(t, 'nobody@example.com', 'not-the-password', '198.51.100.1');
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body.code).toBe('unauthorized');
    expect(unknown.body.code).toBe('unauthorized');
    expect(wrong.body.detail).toBe(unknown.body.detail);
  });

  test('a deactivated user is refused', async () => {
    const u = await newUser(t, { role: 'employee' });
    expect((await signIn(t, u.email)).status).toBe(200);
    expect((await t.call('DELETE', `/users/${u.id}`)).status).toBe(200);
    const r = await signIn(t, u.email);
    expect(r.status).toBe(401);
    expect(r.body.code).toBe('unauthorized');
  });

  test('malformed body → 422 with paths; unknown fields refused', async () => {
    const r = await t.call('POST', '/auth/sign-in', { as: system, body: { email: 'not-an-email', password: 'x', extra: 1 } });
    expect(r.status).toBe(422);
    expect(r.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['email', 'extra']);
  });

  test('brute force: failures per email and address are limited → 429 with Retry-After', async () => {
    const u = await newUser(t);
    for (let i = 0; i < 3; i++) expect((await signIn(t, u.email, 'wrong-password!', '192.0.2.50')).status).toBe(401);
    const limited = await signIn(t, u.email, PASSWORD, '192.0.2.50');
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // another address is not affected
    expect((await signIn(t, u.email, PASSWORD, '192.0.2.51')).status).toBe(200);
  });
});

describe('sessions', () => {
  test('authenticate gives the person principal; the session is refused once idle too long', async () => {
    const u = await newUser(t, { role: 'employee' });
    const { token, principal } = await session(t, u.email);
    expect(principal).toMatchObject({ kind: 'user', via: 'session', id: u.id, userId: u.id });
    const ok = await authenticate(t, token);
    expect(ok.body.cacheSeconds).toBeGreaterThan(0);
    expect(ok.body.mfaEnrollmentRequired).toBe(false);
    await sql(t, `update identity.sessions set last_seen_at = now() - interval '31 minutes' where user_id = $1`, [u.id]);
    const r = await authenticate(t, token);
    expect(r.status).toBe(401);
    expect(r.body.code).toBe('session_expired');
    expect((await sql(t, 'select end_reason from identity.sessions where user_id = $1', [u.id]))[0]).toEqual({ end_reason: 'idle_expired' });
  });

  test('the absolute end applies even to a busy session', async () => {
    const u = await newUser(t);
    const { token } = await session(t, u.email);
    await sql(t, `update identity.sessions set expires_at = now() - interval '1 second' where user_id = $1`, [u.id]);
    const r = await authenticate(t, token);
    expect(r.body.code).toBe('session_expired');
  });

  test('last seen is written at most once a minute', async () => {
    const u = await newUser(t);
    const { token } = await session(t, u.email);
    await sql(t, `update identity.sessions set last_seen_at = now() - interval '20 seconds' where user_id = $1`, [u.id]);
    const [before] = await sql<{ last_seen_at: Date }>(t, 'select last_seen_at from identity.sessions where user_id = $1', [u.id]);
    await authenticate(t, token);
    const [same] = await sql<{ last_seen_at: Date }>(t, 'select last_seen_at from identity.sessions where user_id = $1', [u.id]);
    expect(same.last_seen_at.getTime()).toBe(before.last_seen_at.getTime());
    await sql(t, `update identity.sessions set last_seen_at = now() - interval '2 minutes' where user_id = $1`, [u.id]);
    await authenticate(t, token);
    const [touched] = await sql<{ last_seen_at: Date }>(t, 'select last_seen_at from identity.sessions where user_id = $1', [u.id]);
    expect(Date.now() - touched.last_seen_at.getTime()).toBeLessThan(10_000);
  });

  test('unknown tokens are 401 unauthorized', async () => {
    expect((await authenticate(t, 'ses_nope')).body.code).toBe('unauthorized');
    expect((await authenticate(t, 'pk_live_nope')).body.code).toBe('unauthorized');
    expect((await authenticate(t, 'garbage')).body.code).toBe('unauthorized');
  });

  test('internal routes answer only the system principal', async () => {
    const r = await t.call('POST', '/internal/authenticate', { as: person(), body: { token: 'x' } });
    expect(r.status).toBe(403);
  });

  test('GET /me and GET /auth/session describe the caller', async () => {
    const u = await newUser(t, { role: 'manager', reach: { type: 'locations', ids: ['loc_1'] } });
    const { principal } = await session(t, u.email);
    const me = await t.call('GET', '/me', { as: principal });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ kind: 'user', via: 'session', user: { id: u.id }, key: null, integrationId: null });
    expect(Date.parse(me.body.session.idleExpiresAt)).toBeGreaterThan(Date.now());
    const s = await t.call('GET', '/auth/session', { as: principal });
    expect(s.status).toBe(200);
    expect(s.body.roles.map((r: { key: string }) => r.key)).toEqual(['manager']);
    expect(s.body.permissions['sales.read']).toEqual([{ type: 'locations', ids: ['loc_1'] }]);
    // company-level permissions need reach Everyone
    expect(s.body.permissions['items.manage']).toBeUndefined();
    expect(s.body.assignments).toHaveLength(1);
  });
});

describe('two-factor', () => {
  test('enrol, confirm, sign in with mfa_required → TOTP; a recovery code works once', async () => {
    const u = await newUser(t, { role: 'employee' });
    const { principal } = await session(t, u.email);

    expect((await t.call('POST', '/auth/mfa/enrollment:confirm', { as: principal, body: { code: '123456' } })).status).toBe(409);
    const start = await t.call('POST', '/auth/mfa/enrollment', { as: principal });
    expect(start.status).toBe(200);
    expect(start.body.otpauthUrl).toContain('otpauth://totp/');
    expect(start.body.otpauthUrl).toContain('issuer=BOP');
    const secret: string = start.body.secret;

    const bad = await t.call('POST', '/auth/mfa/enrollment:confirm', { as: principal, body: { code: '000000' } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].path).toBe('code');
    const confirm = await t.call('POST', '/auth/mfa/enrollment:confirm', { as: principal, body: { code: await generate({ secret }) } });
    expect(confirm.status).toBe(200);
    const codes: string[] = confirm.body.recoveryCodes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);

    // a second enrolment is refused until an administrator resets it
    expect((await t.call('POST', '/auth/mfa/enrollment', { as: principal })).status).toBe(409);

    const first = await signIn(t, u.email);
    expect(first.status).toBe(401);
    expect(first.body.code).toBe('mfa_required');
    const mfaToken: string = first.body.mfaToken;
    expect(mfaToken).toBeTruthy();

    const wrong = await t.call('POST', '/auth/sign-in/mfa', { as: system, body: { mfaToken, code: '000000' } });
    expect(wrong.status).toBe(401);
    const done = await t.call('POST', '/auth/sign-in/mfa', { as: system, body: { mfaToken, code: await totp(secret) } });
    expect(done.status).toBe(200);
    expect(done.body.token).toMatch(/^ses_/);
    expect(done.body.user.twoFactor.enabled).toBe(true);
    // the mfaToken is single use
    expect((await t.call('POST', '/auth/sign-in/mfa', { as: system, body: { mfaToken, code: codes[0] } })).status).toBe(401);

    const second = await signIn(t, u.email);
    const viaRecovery = await t.call('POST', '/auth/sign-in/mfa', { as: system, body: { mfaToken: second.body.mfaToken, code: codes[0].toUpperCase() } });
    expect(viaRecovery.status).toBe(200);
    const third = await signIn(t, u.email);
    const reused = await t.call('POST', '/auth/sign-in/mfa', { as: system, body: { mfaToken: third.body.mfaToken, code: codes[0] } });
    expect(reused.status).toBe(401);
    expect(reused.body.code).toBe('unauthorized');
  });

  test('an mfaToken dies after five wrong codes, or when it expires', async () => {
    const u = await newUser(t);
    const { principal } = await session(t, u.email);
    const { body } = await t.call('POST', '/auth/mfa/enrollment', { as: principal });
    await t.call('POST', '/auth/mfa/enrollment:confirm', { as: principal, body: { code: await generate({ secret: body.secret }) } });
    const a = await signIn(t, u.email);
    for (let i = 0; i < 5; i++) await t.call('POST', '/auth/sign-in/mfa', { as: system, body: { mfaToken: a.body.mfaToken, code: '000000' } });
    expect((await t.call('POST', '/auth/sign-in/mfa', { as: system, body: { mfaToken: a.body.mfaToken, code: await totp(body.secret) } })).status).toBe(401);
    const b = await signIn(t, u.email);
    await sql(t, `update identity.mfa_challenges set expires_at = now() - interval '1 second' where used_at is null`);
    expect((await t.call('POST', '/auth/sign-in/mfa', { as: system, body: { mfaToken: b.body.mfaToken, code: await totp(body.secret) } })).status).toBe(401);
  });

  test('requireTwoFactor: people without a second factor are reported as needing enrolment; reset-mfa removes the factor', async () => {
    const u = await newUser(t);
    const { token, principal } = await session(t, u.email);
    expect((await t.call('PATCH', '/company-settings', { body: { requireTwoFactor: true } })).status).toBe(200);
    try {
      const before = await authenticate(t, token);
      expect(before.body.mfaEnrollmentRequired).toBe(true);
      expect((await t.call('GET', '/auth/session', { as: principal })).body.mfaEnrollmentRequired).toBe(true);
      const { body } = await t.call('POST', '/auth/mfa/enrollment', { as: principal });
      await t.call('POST', '/auth/mfa/enrollment:confirm', { as: principal, body: { code: await generate({ secret: body.secret }) } });
      expect((await authenticate(t, token)).body.mfaEnrollmentRequired).toBe(false);

      const reset = await t.call('POST', `/users/${u.id}:reset-mfa`);
      expect(reset.status).toBe(200);
      expect(reset.body.twoFactor.enabled).toBe(false);
      expect((await authenticate(t, token)).body.mfaEnrollmentRequired).toBe(true);
      expect((await signIn(t, u.email)).status).toBe(200);
    } finally {
      await t.call('PATCH', '/company-settings', { body: { requireTwoFactor: false } });
    }
  });

  test('the principal is rebuilt from the database on each authenticate', async () => {
    const u = await newUser(t, { role: 'employee', reach: { type: 'locations', ids: ['loc_a', 'loc_b'] } });
    const { token } = await session(t, u.email);
    const p = await principalOf(t, token);
    expect(p.permissions!['checklists.complete']).toEqual([{ type: 'locations', ids: ['loc_a', 'loc_b'] }]);
    expect(p.permissions!['api_keys.personal']).toBeUndefined();
  });
});

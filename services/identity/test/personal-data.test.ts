import { generate } from 'otplib';
import { person, sql, startTestService, system, type TestService } from '@bop/test-support';
import { identityAdmin } from '../src';
import { PASSWORD, identityService, newUser, ownerEnv, principalOf, roleId } from './fixtures';

let t: TestService;
beforeAll(async () => {
  t = await startTestService(identityService, ownerEnv);
});
afterAll(() => t?.close());

const exportData = (body: Record<string, unknown>, as = system) => t.call('POST', '/internal/personal-data:export', { as, body });
const DATASETS = ['account', 'role-assignments', 'sessions', 'personal-api-keys', 'invitations', 'emails'];

/** Every field name anywhere in a JSON value. */
function fieldNames(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(fieldNames);
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => [k, ...fieldNames(v)]);
  return [];
}

let seq = 0;
/** An invited person who accepted (a session), made a personal key and enrolled a second factor; every secret they hold or identity stores. */
async function personWithSecrets() {
  const email = `export${++seq}-${Date.now()}@example.com`;
  const employeeId = `emp_export${seq}`;
  const inv = await t.call('POST', '/invitations', { body: { email, name: 'Ex Port', employeeId, assignments: [{ roleId: await roleId(t, 'manager'), reach: { type: 'locations', ids: ['loc_1'] } }] } });
  expect(inv.status).toBe(201);
  const mail = await t.call('GET', `/internal/email-log?to=${encodeURIComponent(email)}`, { as: system });
  const invitationToken = /token: (\S+)/.exec(mail.body.data[0].body)![1];
  const accepted = await t.call('POST', '/auth/invitations:accept', { as: system, body: { token: invitationToken, password: PASSWORD }, headers: { 'x-forwarded-for': '198.18.0.1, 203.0.113.9' } });
  expect(accepted.status).toBe(201);
  const sessionToken: string = accepted.body.token;
  const principal = await principalOf(t, sessionToken);
  // POST /auth/api-keys needs api_keys.personal at Everyone, which a manager at a location lacks (the kit refuses, as the gateway does): the ops CLI's way
  const key = await identityAdmin.createPersonalKey(t.svc.runtime, { email, name: 'my script' });
  const enrol = await t.call('POST', '/auth/mfa/enrollment', { as: principal });
  const totpSecret: string = enrol.body.secret;
  const confirm = await t.call('POST', '/auth/mfa/enrollment:confirm', { as: principal, body: { code: await generate({ secret: totpSecret }) } });
  expect(confirm.status).toBe(200);
  const userId: string = accepted.body.user.id;
  const [user] = await sql(t, 'select password_hash, totp_secret from identity.users where id = $1', [userId]);
  const stored = {
    sessionHashes: (await sql(t, 'select token_hash from identity.sessions where user_id = $1', [userId])).map((r) => r.token_hash as string),
    keyHashes: (await sql(t, 'select key_hash from identity.api_keys where user_id = $1', [userId])).map((r) => r.key_hash as string),
    invitationHashes: (await sql(t, 'select token_hash from identity.invitations where email = $1', [email])).map((r) => r.token_hash as string),
    recoveryHashes: (await sql(t, 'select code_hash from identity.mfa_recovery_codes where user_id = $1', [userId])).map((r) => r.code_hash as string),
  };
  const secrets = [
    PASSWORD,
    user.password_hash as string,
    user.totp_secret as string,
    totpSecret,
    invitationToken,
    sessionToken,
    key.key,
    ...(confirm.body.recoveryCodes as string[]),
    ...stored.sessionHashes,
    ...stored.keyHashes,
    ...stored.invitationHashes,
    ...stored.recoveryHashes,
  ];
  expect(stored.sessionHashes.length).toBeGreaterThan(0);
  expect(stored.recoveryHashes.length).toBeGreaterThan(0);
  return { userId, email, employeeId, invitationId: inv.body.id as string, keyId: key.id, principal, secrets };
}

describe('POST /internal/personal-data:export', () => {
  test('answers the account, assignments, sessions, personal keys, invitations and emails, without a secret', async () => {
    const p = await personWithSecrets();
    const r = await exportData({ userId: p.userId, employeeId: p.employeeId });
    expect(r.status).toBe(200);
    expect(r.body.service).toBe('identity');
    expect(r.body.datasets.map((d: { name: string }) => d.name)).toEqual(DATASETS);
    const data = Object.fromEntries(r.body.datasets.map((d: { name: string; rows: unknown[] }) => [d.name, d.rows]));

    expect(data.account).toEqual([(await t.call('GET', `/users/${p.userId}`)).body]);
    expect(data.account[0]).toMatchObject({ email: p.email, employeeId: p.employeeId, twoFactor: { enabled: true } });
    expect(data['role-assignments']).toEqual([{ id: expect.any(String), roleId: await roleId(t, 'manager'), roleName: 'Manager', reach: { type: 'locations', ids: ['loc_1'] }, createdAt: expect.any(String) }]);
    expect(data.sessions).toEqual([
      { id: p.principal.sessionId, createdAt: expect.any(String), lastSeenAt: expect.any(String), expiresAt: expect.any(String), endedAt: null, endReason: null, ip: '203.0.113.9' },
    ]);
    expect(data['personal-api-keys']).toEqual([
      { id: p.keyId, name: 'my script', prefix: expect.stringMatching(/^pk_live_/), createdAt: expect.any(String), expiresAt: null, lastUsedAt: null, revokedAt: null },
    ]);
    expect(data.invitations).toEqual([expect.objectContaining({ id: p.invitationId, email: p.email, status: 'accepted', acceptedUserId: p.userId })]);
    expect(data.emails).toEqual([{ id: expect.any(String), to: p.email, subject: expect.stringMatching(/^You are invited to /), status: expect.any(String), createdAt: expect.any(String), sentAt: null }]);

    const json = JSON.stringify(r.body);
    for (const secret of p.secrets) expect(json).not.toContain(secret);
    expect(fieldNames(r.body).filter((k) => /hash|secret|token|code|password|body/i.test(k))).toEqual([]);
  });

  test('a deactivated account, a revoked key and an ended session are still answered, with when', async () => {
    const p = await personWithSecrets();
    expect((await t.call('DELETE', `/auth/api-keys/${p.keyId}`, { as: p.principal })).status).toBe(204);
    expect((await t.call('DELETE', `/users/${p.userId}`)).status).toBe(200);
    const r = await exportData({ userId: p.userId, employeeId: null });
    const data = Object.fromEntries(r.body.datasets.map((d: { name: string; rows: unknown[] }) => [d.name, d.rows]));
    expect(data.account[0].status).toBe('deactivated');
    expect(data['personal-api-keys'][0].revokedAt).toEqual(expect.any(String));
    expect(data.sessions[0].endedAt).toEqual(expect.any(String));
  });

  test('another person’s data is not in the answer', async () => {
    const a = await newUser(t, { role: 'employee' });
    const b = await personWithSecrets();
    const r = await exportData({ userId: a.id, employeeId: null });
    const json = JSON.stringify(r.body);
    expect(json).not.toContain(b.userId);
    expect(json).not.toContain(b.email);
    expect(r.body.datasets.find((d: { name: string }) => d.name === 'account').rows[0]).toMatchObject({ id: a.id, email: a.email });
  });

  test('a null or unknown user gives empty datasets', async () => {
    for (const userId of [null, 'usr_unknown']) {
      const r = await exportData({ userId, employeeId: 'emp_nobody' });
      expect(r.status).toBe(200);
      expect(r.body.service).toBe('identity');
      expect(r.body.datasets.map((d: { name: string; rows: unknown[] }) => [d.name, d.rows])).toEqual(DATASETS.map((name) => [name, []]));
    }
  });

  test('refuses a malformed body, and any caller but the platform', async () => {
    const bad = await exportData({ userId: 'usr_1' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { path: string }) => e.path)).toEqual(['employeeId']);
    const forbidden = await exportData({ userId: null, employeeId: null }, person());
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.code).toBe('forbidden');
  });
});

import { generate } from 'otplib';
import type { Principal, Reach } from '@bop/shared';
import { system, type TestService } from '@bop/test-support';
import { identityService } from '../src';
import { insertUser } from '../src/users/store';
import { Role } from '../src/roles/entities';

export const OWNER_EMAIL = 'owner@example.com';
export const OWNER_PASSWORD = 'owner-password-123';
export const PASSWORD = 'a-good-long-password';

export { identityService };
export const ownerEnv = { BOOTSTRAP_ADMIN_EMAIL: OWNER_EMAIL, BOOTSTRAP_ADMIN_PASSWORD: OWNER_PASSWORD };

export async function roleId(t: TestService, key: 'owner' | 'manager' | 'employee'): Promise<string> {
  const em = t.svc.runtime.orm.em.fork();
  return (await em.findOneOrFail(Role, { key })).id;
}

let seq = 0;
/** A user made directly through the domain (no invitation round trip). */
export async function newUser(
  t: TestService,
  opts: { email?: string; password?: string | null; role?: 'owner' | 'manager' | 'employee'; reach?: Reach; employeeId?: string } = {},
): Promise<{ id: string; email: string }> {
  const email = opts.email ?? `user${++seq}-${Date.now()}@example.com`;
  const assignments = opts.role ? [{ roleId: await roleId(t, opts.role), reach: opts.reach ?? { type: 'everyone' as const } }] : [];
  const user = await t.svc.runtime.write((w) =>
    insertUser(w, { email, password: opts.password === null ? undefined : (opts.password ?? PASSWORD), employeeId: opts.employeeId, assignments }),
  );
  return { id: user.id, email };
}

export async function signIn(t: TestService, email: string, password = PASSWORD, ip = '203.0.113.7') {
  return t.call('POST', '/auth/sign-in', { as: system, body: { email, password }, headers: { 'x-forwarded-for': `198.18.0.1, ${ip}` } });
}

export async function authenticate(t: TestService, token: string) {
  return t.call('POST', '/internal/authenticate', { as: system, body: { token } });
}

/** The principal the gateway would sign for this token. */
export async function principalOf(t: TestService, token: string): Promise<Principal> {
  const r = await authenticate(t, token);
  if (r.status !== 200) throw new Error(`authenticate: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.principal as Principal;
}

/** Signs in and returns the session token and its principal. */
export async function session(t: TestService, email: string, password = PASSWORD): Promise<{ token: string; principal: Principal }> {
  const r = await signIn(t, email, password);
  if (r.status !== 200) throw new Error(`sign-in: ${r.status} ${JSON.stringify(r.body)}`);
  return { token: r.body.token, principal: await principalOf(t, r.body.token) };
}

/** A TOTP code of the next time step (the current one may already be spent). */
export function totp(secret: string, stepsAhead = 1): Promise<string> {
  return generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 * stepsAhead });
}

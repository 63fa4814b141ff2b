import { LockMode } from '@mikro-orm/core';
import { hash, verify } from '@node-rs/argon2';
import { ApiError, newId, Unauthorized, type Principal, type RouteContext, type Work } from '@bop/shared';
import { ApiKey, IntegrationState } from '../api-keys/entities';
import { MfaChallenge } from '../mfa/entities';
import { Session } from './entities';
import { User } from '../users/entities';
import { cacheSeconds, idleExpiresAt, sessionStatus, shouldTouch, type SessionPolicy } from './lifetime';
import { randomToken, sha256 } from './secrets';
import { permissionsOf } from '../roles/access-store';
import { mfaEnrollmentRequired } from '../company-settings/store';
import { spendSecondFactor } from '../mfa/store';
import { redeemInvitation } from '../invitations/store';
import { userViewOf } from '../users/store';
import type { UserView } from '../users/dto';
import type { SignInLimiter } from './sign-in-limiter';

export const SESSION_TOKEN_PREFIX = 'ses_';
export const KEY_PREFIX = 'pk_live_';
const MFA_TOKEN_PREFIX = 'mfa_';
const MFA_MAX_ATTEMPTS = 5;
const SESSION_CACHE_MAX_S = 30;
const KEY_CACHE_MAX_S = 60;

export interface SignInResult {
  token: string;
  expiresAt: string;
  user: UserView;
}

const WRONG_DETAILS = 'Wrong email or password.';
let dummyHash: Promise<string> | null = null;

/**
 * POST /auth/sign-in (spec: Authentication rule 8). Its route holds no transaction: the password is
 * checked first, then the session opens in a transaction of its own; a second factor's challenge
 * commits before the 401 `mfa_required` that hands out its token.
 */
export async function signIn(ctx: RouteContext, policy: SessionPolicy, limiter: SignInLimiter, input: { email: string; password: string; ip: string }): Promise<SignInResult> {
  const email = input.email.trim().toLowerCase();
  const limitKey = `${email}|${input.ip}`;
  await limiter.check(limitKey);
  const user = await ctx.em.findOne(User, { email });
  // unknown emails cost the same argon2 work as known ones
  dummyHash ??= hash(randomToken('', 16));
  const stored = user?.passwordHash ?? (await dummyHash);
  const valid = await verify(stored, input.password).catch(() => false);
  if (!user || !user.passwordHash || !valid || user.status !== 'active') {
    await limiter.failed(limitKey);
    throw new Unauthorized(WRONG_DETAILS);
  }
  await limiter.succeeded(limitKey);
  if (user.totpSecret) {
    const mfaToken = randomToken(MFA_TOKEN_PREFIX);
    const expiresAt = await ctx.transaction(async (w) => {
      const at = new Date(w.now.getTime() + policy.mfaChallengeMs);
      w.em.create(MfaChallenge, { id: newId('mfaChallenge'), userId: user.id, tokenHash: sha256(mfaToken), attempts: 0, expiresAt: at, usedAt: null, ip: input.ip, createdAt: w.now });
      return at;
    });
    throw new ApiError('mfa_required', 'Finish signing in at POST /auth/sign-in/mfa with a code from your authenticator app or a recovery code.', undefined, {
      mfaToken,
      mfaTokenExpiresAt: expiresAt.toISOString(),
    });
  }
  return ctx.transaction(async (w) => openSession(w, policy, await w.em.findOneOrFail(User, { id: user.id }), input.ip));
}

/**
 * POST /auth/sign-in/mfa: the mfaToken is single use, short-lived and allows a few wrong codes. Its
 * route holds no transaction: a wrong code commits the attempt count, then the refusal is answered.
 */
export async function completeMfaSignIn(ctx: RouteContext, policy: SessionPolicy, input: { mfaToken: string; code: string; ip: string }): Promise<SignInResult> {
  const outcome = await ctx.transaction(async (w) => {
    const em = w.em;
    const challenge = await em.findOne(MfaChallenge, { tokenHash: sha256(input.mfaToken) }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    const now = w.now;
    if (!challenge || challenge.usedAt || challenge.expiresAt <= now || challenge.attempts >= MFA_MAX_ATTEMPTS) {
      return { error: 'The sign-in expired or was already finished; sign in again.' } as const;
    }
    const user = await em.findOne(User, { id: challenge.userId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!user || user.status !== 'active' || !user.totpSecret) {
      challenge.usedAt = now;
      return { error: 'The sign-in can no longer be finished; sign in again.' } as const;
    }
    if (!(await spendSecondFactor(w, user, input.code))) {
      challenge.attempts += 1;
      if (challenge.attempts >= MFA_MAX_ATTEMPTS) challenge.usedAt = now;
      return { error: 'The code is not valid.' } as const;
    }
    challenge.usedAt = now;
    return { result: await openSession(w, policy, user, input.ip) } as const;
  });
  // a wrong code still commits the attempt count, so the refusal is thrown after the transaction
  if ('error' in outcome) throw new Unauthorized(outcome.error);
  return outcome.result;
}

/** POST /auth/invitations:accept: the web sign-up ends signed in, with a session as from POST /auth/sign-in. */
export async function acceptInvitationAndSignIn(w: Work, policy: SessionPolicy, input: { token: string; password: string; name?: string; ip: string }): Promise<SignInResult> {
  return openSession(w, policy, await redeemInvitation(w, input), input.ip);
}

async function openSession(w: Work, policy: SessionPolicy, user: User, ip: string): Promise<SignInResult> {
  const token = randomToken(SESSION_TOKEN_PREFIX);
  const now = w.now;
  const expiresAt = new Date(now.getTime() + policy.absoluteMs);
  w.em.create(Session, {
    id: newId('session'),
    userId: user.id,
    tokenHash: sha256(token),
    createdAt: now,
    lastSeenAt: now,
    expiresAt,
    endedAt: null,
    endReason: null,
    ip,
  });
  user.lastSignInAt = now;
  await w.em.flush();
  return { token, expiresAt: expiresAt.toISOString(), user: await userViewOf(w, user) };
}

export interface Authentication {
  principal: Principal;
  cacheSeconds: number;
  mfaEnrollmentRequired: boolean;
}

/**
 * POST /internal/authenticate: a session token or a `pk_live_` key → the principal the gateway signs into
 * internal tokens. Its route holds no transaction: an ended session's end and last-seen times are
 * written as they are found (each its own statement), also when the answer is a refusal.
 */
export async function authenticate(w: Work, policy: SessionPolicy, token: string): Promise<Authentication> {
  return token.startsWith(KEY_PREFIX) ? authenticateKey(w, token) : authenticateSession(w, policy, token);
}

async function authenticateSession(w: Work, policy: SessionPolicy, token: string): Promise<Authentication> {
  const em = w.em;
  const session = token.startsWith(SESSION_TOKEN_PREFIX) ? await em.findOne(Session, { tokenHash: sha256(token) }) : null;
  if (!session) throw new Unauthorized();
  const now = w.now;
  const status = sessionStatus(session, now, policy.idleMs);
  const user = status === 'active' ? await em.findOne(User, { id: session.userId }) : null;
  if (status !== 'active' || !user || user.status !== 'active') {
    if (!session.endedAt) {
      await em.nativeUpdate(Session, { id: session.id, endedAt: null }, { endedAt: now, endReason: status === 'active' ? 'user_deactivated' : status });
    }
    throw new ApiError('session_expired', 'The session ended; sign in again.');
  }
  if (shouldTouch(session.lastSeenAt, now, policy.idleMs)) {
    await em.nativeUpdate(Session, { id: session.id }, { lastSeenAt: now });
    session.lastSeenAt = now;
  }
  const { permissions } = await permissionsOf(w, user.id);
  return {
    principal: { kind: 'user', via: 'session', id: user.id, userId: user.id, employeeId: user.employeeId ?? null, sessionId: session.id, permissions },
    cacheSeconds: cacheSeconds(now, SESSION_CACHE_MAX_S, idleExpiresAt(session, policy.idleMs)),
    mfaEnrollmentRequired: await mfaEnrollmentRequired(w, user),
  };
}

async function authenticateKey(w: Work, token: string): Promise<Authentication> {
  const em = w.em;
  const key = await em.findOne(ApiKey, { keyHash: sha256(token) });
  const now = w.now;
  if (!key || (key.revokedAt && key.revokedAt <= now) || (key.expiresAt && key.expiresAt <= now)) throw new Unauthorized();
  let result: Authentication;
  if (key.kind === 'integration') {
    const state = await em.findOne(IntegrationState, { integrationId: key.integrationId! });
    if (state?.paused) throw new Unauthorized('The integration is paused; its keys are refused.');
    result = {
      principal: { kind: 'integration', via: 'integration_key', id: key.integrationId!, integrationId: key.integrationId!, keyId: key.id, scopes: key.scopes ?? [] },
      cacheSeconds: cacheSeconds(now, KEY_CACHE_MAX_S, key.expiresAt, key.revokedAt),
      mfaEnrollmentRequired: false,
    };
  } else {
    const user = await em.findOne(User, { id: key.userId! });
    if (!user || user.status !== 'active') throw new Unauthorized();
    const { permissions } = await permissionsOf(w, user.id);
    result = {
      principal: { kind: 'user', via: 'personal_key', id: user.id, userId: user.id, employeeId: user.employeeId ?? null, keyId: key.id, permissions },
      cacheSeconds: cacheSeconds(now, KEY_CACHE_MAX_S, key.expiresAt, key.revokedAt),
      mfaEnrollmentRequired: await mfaEnrollmentRequired(w, user),
    };
  }
  if (shouldTouch(key.lastUsedAt ?? null, now)) await em.nativeUpdate(ApiKey, { id: key.id }, { lastUsedAt: now });
  return result;
}

import { LockMode } from '@mikro-orm/core';
import { hash, verify } from '@node-rs/argon2';
import { Unauthorized, ValidationError, type FieldError, type Work } from '@bop/shared';
import { MfaChallenge } from '../mfa/entities';
import { Session } from './entities';
import { User } from '../users/entities';
import { newPasswordProblem } from '../users/passwords';
import { emit } from '../users/events-store';
import type { SignInLimiter } from './sign-in-limiter';

/**
 * POST /auth/password: the person proves the current password; their other sessions and unfinished
 * two-factor sign-ins end. Personal keys keep working: they are credentials of their own, listed and
 * revoked at /auth/api-keys, and a new password does not mean a key leaked.
 */
export async function changePassword(
  w: Work,
  limiter: SignInLimiter,
  userId: string,
  input: { currentPassword: string; newPassword: string },
): Promise<void> {
  // a stolen session must not become a way to guess the password without limit
  const limitKey = `password|${userId}`;
  await limiter.check(limitKey);
  const em = w.em;
  const user = await em.findOne(User, { id: userId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!user || user.status !== 'active') throw new Unauthorized('Only a signed-in person can call this.');
  const matches = user.passwordHash ? await verify(user.passwordHash, input.currentPassword).catch(() => false) : false;
  await (matches ? limiter.succeeded(limitKey) : limiter.failed(limitKey));
  const errors: FieldError[] = [];
  // 422, not 401: a wrong current password must not read as an ended session
  if (!matches) errors.push({ path: 'currentPassword', message: 'This does not match your current password.' });
  const problem = newPasswordProblem(input.currentPassword, input.newPassword);
  if (problem) errors.push({ path: 'newPassword', message: problem });
  if (errors.length > 0) throw new ValidationError(errors);

  // not a field of the user record: no version bump, so pending If-Match headers stay valid
  user.passwordHash = await hash(input.newPassword);
  const now = w.now;
  // the caller's own session stays
  const others = w.actor.sessionId ? { id: { $ne: w.actor.sessionId } } : {};
  const endedSessions = await em.nativeUpdate(Session, { userId: user.id, endedAt: null, ...others }, { endedAt: now, endReason: 'password_changed' });
  await em.nativeUpdate(MfaChallenge, { userId: user.id, usedAt: null }, { usedAt: now });
  emit(w, 'user.password_changed', { type: 'user', id: user.id }, { id: user.id, changedAt: now.toISOString(), endedSessions });
}

import { LockMode } from '@mikro-orm/core';
import { generateSecret, generateURI, verify } from 'otplib';
import { Conflict, newId, Unauthorized, ValidationError, type Work } from '@bop/shared';
import { RecoveryCode } from './entities';
import { User } from '../users/entities';
import { looksLikeTotp, normalizeRecoveryCode, RECOVERY_CODE_COUNT } from './recovery-codes';
import { newRecoveryCode, sha256 } from '../sessions/secrets';
import { emit } from '../users/events-store';

/** A TOTP code is accepted one step either side (clock drift) and never twice (replay). */
async function checkTotp(secret: string, code: string, lastStep: number | null | undefined): Promise<number | null> {
  try {
    const result = await verify({ secret, token: code, epochTolerance: 30, afterTimeStep: lastStep ?? undefined });
    return result.valid && 'timeStep' in result ? result.timeStep : null;
  } catch {
    return null;
  }
}

async function lockedUser(w: Work, userId: string): Promise<User> {
  const user = await w.em.findOne(User, { id: userId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!user || user.status !== 'active') throw new Unauthorized();
  return user;
}

/** POST /auth/mfa/enrollment: a new pending secret, returned once. */
export async function startEnrollment(w: Work, userId: string, issuer: string): Promise<{ secret: string; otpauthUrl: string }> {
  const user = await lockedUser(w, userId);
  if (user.totpSecret) throw new Conflict('A second factor is already set up; an administrator can reset it.');
  const secret = generateSecret();
  user.totpPendingSecret = secret;
  user.updatedAt = w.now;
  return { secret, otpauthUrl: generateURI({ issuer, label: user.email, secret }) };
}

/** POST /auth/mfa/enrollment:confirm: the code proves the device has the secret; recovery codes returned once. */
export async function confirmEnrollment(w: Work, userId: string, code: string): Promise<{ recoveryCodes: string[] }> {
  const user = await lockedUser(w, userId);
  if (user.totpSecret) throw new Conflict('A second factor is already set up.');
  if (!user.totpPendingSecret) throw new Conflict('Start the enrolment first (POST /auth/mfa/enrollment).');
  const step = await checkTotp(user.totpPendingSecret, code.trim(), null);
  if (step === null) throw new ValidationError([{ path: 'code', message: 'The code does not match; check the device clock and try again.' }]);
  const now = w.now;
  user.totpSecret = user.totpPendingSecret;
  user.totpPendingSecret = null;
  user.totpLastStep = step;
  user.mfaEnrolledAt = now;
  user.version += 1;
  user.updatedAt = now;
  await w.em.nativeDelete(RecoveryCode, { userId: user.id });
  const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  for (const c of recoveryCodes) {
    w.em.create(RecoveryCode, { id: newId('recoveryCode'), userId: user.id, codeHash: sha256(normalizeRecoveryCode(c)), usedAt: null, createdAt: now });
  }
  emit(w, 'user.mfa_enrolled', { type: 'user', id: user.id }, { id: user.id, enrolledAt: now.toISOString() });
  return { recoveryCodes };
}

/** Checks a TOTP code or spends an unused recovery code. Call in a write holding the user's row lock. */
export async function spendSecondFactor(w: Work, user: User, code: string): Promise<boolean> {
  if (!user.totpSecret) return false;
  if (looksLikeTotp(code)) {
    const step = await checkTotp(user.totpSecret, code.trim(), user.totpLastStep);
    if (step === null) return false;
    user.totpLastStep = step;
    return true;
  }
  const recovery = await w.em.findOne(RecoveryCode, { userId: user.id, codeHash: sha256(normalizeRecoveryCode(code)), usedAt: null });
  if (!recovery) return false;
  recovery.usedAt = w.now;
  return true;
}

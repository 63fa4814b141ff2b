import type { IdentityConfig } from '../config';

export interface SessionTimes {
  lastSeenAt: Date;
  expiresAt: Date;
  endedAt?: Date | null;
}

export type SessionStatus = 'active' | 'ended' | 'idle_expired' | 'absolute_expired';

/** Where a session stands at `now` (idle end = last seen + idle time; absolute end fixed at sign-in). */
export function sessionStatus(s: SessionTimes, now: Date, idleMs: number): SessionStatus {
  if (s.endedAt) return 'ended';
  if (now.getTime() >= s.expiresAt.getTime()) return 'absolute_expired';
  if (now.getTime() >= s.lastSeenAt.getTime() + idleMs) return 'idle_expired';
  return 'active';
}

export function idleExpiresAt(s: Pick<SessionTimes, 'lastSeenAt' | 'expiresAt'>, idleMs: number): Date {
  return new Date(Math.min(s.lastSeenAt.getTime() + idleMs, s.expiresAt.getTime()));
}

/**
 * Whether to write last-seen now: at most once a minute, or more often when the idle window is so short
 * that a minute would let the session lapse while in use.
 */
export function shouldTouch(lastSeen: Date | null, now: Date, idleMs = Infinity): boolean {
  if (!lastSeen) return true;
  return now.getTime() - lastSeen.getTime() >= Math.min(60_000, idleMs / 4);
}

/** How long the gateway may cache an authentication: capped by `max` and by the earliest moment it stops holding. */
export function cacheSeconds(now: Date, max: number, ...until: Array<Date | null | undefined>): number {
  let seconds = max;
  for (const t of until) if (t) seconds = Math.min(seconds, Math.floor((t.getTime() - now.getTime()) / 1000));
  return Math.max(0, seconds);
}

export interface SessionPolicy {
  idleMs: number;
  absoluteMs: number;
  mfaChallengeMs: number;
}

/** The session lifetimes and the second-factor window from the service's settings. */
export const sessionPolicy = (c: IdentityConfig): SessionPolicy => ({
  idleMs: c.SESSION_IDLE_MINUTES * 60_000,
  absoluteMs: c.SESSION_ABSOLUTE_HOURS * 3_600_000,
  mfaChallengeMs: c.MFA_CHALLENGE_MINUTES * 60_000,
});

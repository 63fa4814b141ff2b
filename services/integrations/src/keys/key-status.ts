export type KeyStatus = 'current' | 'grace' | 'revoked';

/** `grace`: rotated out but still accepted until `revokedAt` (spec: Authentication rule 7). */
export function keyStatus(key: { revokedAt: Date | null; expiresAt: Date | null }, now: Date): KeyStatus {
  if (key.expiresAt && key.expiresAt.getTime() <= now.getTime()) return 'revoked';
  if (!key.revokedAt) return 'current';
  return key.revokedAt.getTime() > now.getTime() ? 'grace' : 'revoked';
}

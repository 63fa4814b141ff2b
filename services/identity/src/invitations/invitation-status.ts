export type StoredInvitationStatus = 'pending' | 'accepted' | 'revoked';
export type InvitationStatus = StoredInvitationStatus | 'expired';

/** A pending invitation past its validity reads as `expired` (spec: Invitation pending → expired). */
export function invitationStatus(stored: StoredInvitationStatus, expiresAt: Date, now: Date): InvitationStatus {
  return stored === 'pending' && expiresAt.getTime() <= now.getTime() ? 'expired' : stored;
}

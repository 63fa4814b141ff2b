import type { PersonalDataset } from '@bop/contracts';
import type { Work } from '@bop/shared';
import { Assignment, User } from '../users/entities';
import { Role } from '../roles/entities';
import { Session } from '../sessions/entities';
import { ApiKey } from '../api-keys/entities';
import { Invitation } from '../invitations/entities';
import { EmailLog } from '../email/entities';
import { userViewOf } from '../users/store';
import { invitationView } from '../invitations/dto';

const iso = (d: Date) => d.toISOString();
const isoOrNull = (d: Date | null | undefined) => (d ? d.toISOString() : null);

type Rows = PersonalDataset['rows'];

function datasets(rows: { account: Rows; assignments: Rows; sessions: Rows; keys: Rows; invitations: Rows; emails: Rows }): PersonalDataset[] {
  return [
    { name: 'account', description: 'Your user account as administrators see it (no password, second-factor secret or recovery codes).', rows: rows.account },
    { name: 'role-assignments', description: 'The roles assigned to your account and where they apply.', rows: rows.assignments },
    { name: 'sessions', description: 'Your sign-in sessions: when they started, were last used and end, and the address they came from.', rows: rows.sessions },
    { name: 'personal-api-keys', description: 'Your personal API keys (their names and prefixes, never the keys).', rows: rows.keys },
    { name: 'invitations', description: 'The invitations sent to your email address or accepted as your account.', rows: rows.invitations },
    { name: 'emails', description: 'The emails sent to your address: recipient, subject, status and times (not the text: an invitation carries its acceptance token).', rows: rows.emails },
  ];
}

/**
 * What identity holds about a user account, for `GET /me/export`: every secret (password hash, token
 * and key hashes, TOTP secrets, recovery codes, email texts that carry tokens) left out. An unknown
 * or null user gives the same datasets, empty.
 */
export async function personalData(w: Work, userId: string | null): Promise<PersonalDataset[]> {
  const em = w.em;
  const user = userId ? await em.findOne(User, { id: userId }) : null;
  if (!user) return datasets({ account: [], assignments: [], sessions: [], keys: [], invitations: [], emails: [] });
  const email = user.email.toLowerCase();
  const order = { createdAt: 'asc', id: 'asc' } as const;
  const account = await userViewOf(w, user);
  const assignments = await em.find(Assignment, { userId: user.id }, { orderBy: order });
  const sessions = await em.find(Session, { userId: user.id }, { orderBy: order });
  const keys = await em.find(ApiKey, { kind: 'personal', userId: user.id }, { orderBy: order });
  const invitations = await em.find(Invitation, { $or: [{ email }, { acceptedUserId: user.id }] }, { orderBy: order });
  const emails = await em.find(EmailLog, { to: email }, { orderBy: order });
  const roles = await em.find(Role, { id: { $in: [...new Set(assignments.map((a) => a.roleId))] } });
  const roleName = new Map(roles.map((r) => [r.id, r.name]));
  const at = w.now;
  return datasets({
    account: [account],
    assignments: assignments.map((a) => ({ id: a.id, roleId: a.roleId, roleName: roleName.get(a.roleId) ?? '', reach: a.reach, createdAt: iso(a.createdAt) })),
    sessions: sessions.map((s) => ({
      id: s.id,
      createdAt: iso(s.createdAt),
      lastSeenAt: iso(s.lastSeenAt),
      expiresAt: iso(s.expiresAt),
      endedAt: isoOrNull(s.endedAt),
      endReason: s.endReason ?? null,
      ip: s.ip ?? null,
    })),
    keys: keys.map((k) => ({
      id: k.id,
      name: k.name,
      prefix: k.prefix,
      createdAt: iso(k.createdAt),
      expiresAt: isoOrNull(k.expiresAt),
      lastUsedAt: isoOrNull(k.lastUsedAt),
      revokedAt: isoOrNull(k.revokedAt),
    })),
    invitations: invitations.map((i) => invitationView(i, at)),
    emails: emails.map((m) => ({ id: m.id, to: m.to, subject: m.subject, status: m.status, createdAt: iso(m.createdAt), sentAt: isoOrNull(m.sentAt) })),
  });
}

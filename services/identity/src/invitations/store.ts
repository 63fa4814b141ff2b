import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import { Conflict, findPage, mapPage, newId, NotFound, systemPrincipal, type ListPage, type Work } from '@bop/shared';
import { Invitation } from './entities';
import { User } from '../users/entities';
import { invitationStatus } from './invitation-status';
import { randomToken, sha256 } from '../sessions/secrets';
import { invitationView, type InvitationView } from './dto';
import type { UserView } from '../users/dto';
import { emit } from '../users/events-store';
import { companySettings } from '../company-settings/store';
import { sendEmail } from '../email/store';
import { checkAssignments, insertUser, userViewOf, type AssignmentInput } from '../users/store';

export async function listInvitations(w: Work, q: { status?: InvitationView['status']; limit: number; cursor?: string; updatedSince?: string }): Promise<ListPage<InvitationView>> {
  const now = w.now;
  const status =
    q.status === 'pending' ? { status: 'pending' as const, expiresAt: { $gt: now } } : q.status === 'expired' ? { status: 'pending' as const, expiresAt: { $lte: now } } : q.status && { status: q.status };
  return mapPage(await findPage(w.em, Invitation, [status], q), (i) => invitationView(i, now));
}

/** POST /invitations: pending, with an email carrying the acceptance token (stored hashed). */
export async function createInvitation(w: Work, input: { email: string; name?: string; assignments: AssignmentInput[]; employeeId?: string }, validDays: number): Promise<InvitationView> {
  const em = w.em;
  const email = input.email.trim().toLowerCase();
  if (await em.findOne(User, { email, status: 'active' })) throw new Conflict(`An active user with email ${email} exists.`);
  const now = w.now;
  if (await em.findOne(Invitation, { email, status: 'pending', expiresAt: { $gt: now } })) {
    throw new Conflict(`A pending invitation for ${email} exists; revoke it to send a new one.`);
  }
  await checkAssignments(w, input.assignments, 'assignments');
  const token = randomToken('inv_');
  const expiresAt = new Date(now.getTime() + validDays * 86_400_000);
  const inv = em.create(Invitation, {
    id: newId('invitation'),
    email,
    name: input.name ?? null,
    assignments: input.assignments.map((a) => ({ roleId: a.roleId, reach: a.reach })),
    employeeId: input.employeeId ?? null,
    status: 'pending',
    tokenHash: sha256(token),
    expiresAt,
    invitedBy: w.actor.userId ?? w.actor.id ?? null,
    acceptedUserId: null,
    createdAt: now,
    updatedAt: now,
  });
  const company = (await companySettings(w)).name;
  sendEmail(w, {
    to: email,
    subject: `You are invited to ${company}`,
    body: [
      `Hello${input.name ? ` ${input.name}` : ''},`,
      '',
      `You have been invited to join ${company}.`,
      `Your invitation token: ${token}`,
      `It is valid until ${expiresAt.toISOString()}.`,
    ].join('\n'),
  });
  const view = invitationView(inv, now);
  emit(w, 'invitation.created', { type: 'invitation', id: inv.id }, view);
  return view;
}

/** DELETE /invitations/{id}: only a pending invitation can be revoked. */
export async function revokeInvitation(w: Work, id: string): Promise<InvitationView> {
  const inv = await w.em.findOne(Invitation, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!inv) throw new NotFound('invitation', id);
  const now = w.now;
  const status = invitationStatus(inv.status, inv.expiresAt, now);
  if (status === 'revoked') return invitationView(inv, now);
  if (status !== 'pending') throw new Conflict(`The invitation is ${status}.`);
  inv.status = 'revoked';
  inv.updatedAt = now;
  const view = invitationView(inv, now);
  emit(w, 'invitation.revoked', { type: 'invitation', id: inv.id }, view, { status: 'pending' });
  return view;
}

const NOT_ACCEPTABLE: Record<Exclude<InvitationView['status'], 'pending'>, string> = {
  accepted: 'The invitation was already accepted; sign in instead.',
  revoked: 'The invitation was revoked; ask for a new one.',
  expired: 'The invitation expired; ask for a new one.',
};

/**
 * The invitee accepts (web sign-up): the user is created active with the invited assignments.
 * Unknown token → 404; accepted, revoked or expired → 409. Recorded as the system.
 */
export async function redeemInvitation(w: Work, input: { token: string; password: string; name?: string }): Promise<User> {
  const inv = await w.em.findOne(Invitation, { tokenHash: sha256(input.token) }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!inv) throw new NotFound('invitation');
  const now = w.now;
  const status = invitationStatus(inv.status, inv.expiresAt, now);
  if (status !== 'pending') throw new Conflict(NOT_ACCEPTABLE[status]);
  let user: User;
  try {
    user = await insertUser(w, { email: inv.email, name: input.name ?? inv.name, password: input.password, employeeId: inv.employeeId, assignments: inv.assignments }, systemPrincipal);
  } catch (err) {
    // insertUser checks first; this is a user created with the same email or employee meanwhile
    if (err instanceof UniqueConstraintViolationException) throw new Conflict('The email or the employee is already linked to another user.');
    throw err;
  }
  inv.status = 'accepted';
  inv.acceptedUserId = user.id;
  inv.updatedAt = now;
  emit(w, 'invitation.accepted', { type: 'invitation', id: inv.id }, invitationView(inv, now), { status: 'pending' }, systemPrincipal);
  return user;
}

/** Accepting without signing in (ops CLI). */
export async function acceptInvitation(w: Work, input: { token: string; password: string; name?: string }): Promise<UserView> {
  return userViewOf(w, await redeemInvitation(w, input));
}

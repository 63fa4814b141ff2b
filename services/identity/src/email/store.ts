import { LockMode } from '@mikro-orm/core';
import { newId, type Work } from '@bop/shared';
import { EmailLog } from './entities';
import type { Mail } from './mailer';

/**
 * Sends an email: records it `pending` in the unit's transaction, so it goes out only when that
 * commits; the email worker sends it afterwards (no SMTP inside a request's transaction).
 */
export function sendEmail(w: Work, mail: Mail): EmailLog {
  const at = w.now;
  return w.em.create(EmailLog, { id: newId('emailLog'), to: mail.to, subject: mail.subject, body: mail.body, createdAt: at, status: 'pending', attempts: 0, nextAttemptAt: at, sentAt: null, error: null });
}

/** An email another service asked for (`communication.email.requested`, `insights.email.requested`): recorded pending for the email worker. */
export async function recordRequestedEmail(w: Work, mail: Mail): Promise<void> {
  sendEmail(w, mail);
  await w.em.flush();
}

/** An email the caller sends itself (`ops email test`), recorded as claimed so the email worker leaves it alone. */
export async function recordOwnSend(w: Work, mail: Mail, holdMs: number): Promise<EmailLog> {
  const row = sendEmail(w, mail);
  row.nextAttemptAt = new Date(row.createdAt.getTime() + holdMs);
  await w.em.flush();
  return row;
}

export async function latestEmails(w: Work, q: { limit: number; to?: string }) {
  const rows = await w.em.find(EmailLog, q.to ? { to: q.to.toLowerCase() } : {}, { orderBy: { id: 'desc' }, limit: q.limit });
  return rows.map((m) => ({
    id: m.id,
    to: m.to,
    subject: m.subject,
    body: m.body,
    createdAt: m.createdAt.toISOString(),
    status: m.status,
    attempts: m.attempts,
    sentAt: m.sentAt?.toISOString() ?? null,
    error: m.error,
  }));
}

/**
 * Claims due pending emails for one sending round: their next attempt moves `leaseMs` ahead, so
 * another worker (a replica) skips them, and a crashed worker's claims come due again.
 */
export async function claimDueEmails(w: Work, limit: number, leaseMs: number): Promise<Pick<EmailLog, 'id' | 'to' | 'subject' | 'body' | 'attempts'>[]> {
  const at = w.now;
  const rows = await w.em.find(EmailLog, { status: 'pending', nextAttemptAt: { $lte: at } }, { orderBy: { nextAttemptAt: 'asc' }, limit, lockMode: LockMode.PESSIMISTIC_PARTIAL_WRITE });
  for (const r of rows) r.nextAttemptAt = new Date(at.getTime() + leaseMs);
  return rows.map((r) => ({ id: r.id, to: r.to, subject: r.subject, body: r.body, attempts: r.attempts }));
}

/** What one attempt came to: sent (or kept as the log), to be tried again `retryInMs` after it is recorded, or failed for good. */
export type SendOutcome = { status: 'sent' | 'logged' } | { status: 'retry'; error: string; retryInMs: number } | { status: 'failed'; error: string };

export async function recordSendOutcome(w: Work, id: string, outcome: SendOutcome): Promise<void> {
  const at = w.now;
  const row = await w.em.findOneOrFail(EmailLog, { id });
  row.attempts += 1;
  if (outcome.status === 'retry') Object.assign(row, { nextAttemptAt: new Date(at.getTime() + outcome.retryInMs), error: outcome.error });
  else if (outcome.status === 'failed') Object.assign(row, { status: 'failed', nextAttemptAt: null, error: outcome.error });
  else Object.assign(row, { status: outcome.status, sentAt: outcome.status === 'sent' ? at : null, nextAttemptAt: null, error: null });
  await w.em.flush();
}

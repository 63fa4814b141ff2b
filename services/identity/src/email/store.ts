import type { EntityManager } from '@mikro-orm/postgresql';
import { LockMode } from '@mikro-orm/core';
import { newId, now } from '@bop/shared';
import { EmailLog } from './entities';
import type { Mail } from './mailer';

/**
 * Sends an email: records it `pending` in the caller's transaction, so it goes out only when that
 * commits; the email worker sends it afterwards (no SMTP inside a request's transaction).
 */
export function sendEmail(em: EntityManager, mail: Mail): EmailLog {
  const at = now();
  return em.create(EmailLog, { id: newId('emailLog'), to: mail.to, subject: mail.subject, body: mail.body, createdAt: at, status: 'pending', attempts: 0, nextAttemptAt: at, sentAt: null, error: null });
}

/** An email the caller sends itself (`ops email test`), recorded as claimed so the email worker leaves it alone. */
export async function recordOwnSend(em: EntityManager, mail: Mail, holdMs: number): Promise<EmailLog> {
  const row = sendEmail(em, mail);
  row.nextAttemptAt = new Date(row.createdAt.getTime() + holdMs);
  await em.flush();
  return row;
}

export async function latestEmails(em: EntityManager, q: { limit: number; to?: string }) {
  const rows = await em.find(EmailLog, q.to ? { to: q.to.toLowerCase() } : {}, { orderBy: { id: 'desc' }, limit: q.limit });
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
export async function claimDueEmails(em: EntityManager, limit: number, leaseMs: number): Promise<Pick<EmailLog, 'id' | 'to' | 'subject' | 'body' | 'attempts'>[]> {
  return em.transactional(async (tem) => {
    const at = now();
    const rows = await tem.find(EmailLog, { status: 'pending', nextAttemptAt: { $lte: at } }, { orderBy: { nextAttemptAt: 'asc' }, limit, lockMode: LockMode.PESSIMISTIC_PARTIAL_WRITE });
    for (const r of rows) r.nextAttemptAt = new Date(at.getTime() + leaseMs);
    return rows.map((r) => ({ id: r.id, to: r.to, subject: r.subject, body: r.body, attempts: r.attempts }));
  });
}

/** What one attempt came to: sent (or kept as the log), to be tried again at `retryAt`, or failed for good. */
export type SendOutcome = { status: 'sent' | 'logged' } | { status: 'retry'; error: string; retryAt: Date } | { status: 'failed'; error: string };

export async function recordSendOutcome(em: EntityManager, id: string, outcome: SendOutcome): Promise<void> {
  const at = now();
  const row = await em.findOneOrFail(EmailLog, { id });
  row.attempts += 1;
  if (outcome.status === 'retry') Object.assign(row, { nextAttemptAt: outcome.retryAt, error: outcome.error });
  else if (outcome.status === 'failed') Object.assign(row, { status: 'failed', nextAttemptAt: null, error: outcome.error });
  else Object.assign(row, { status: outcome.status, sentAt: outcome.status === 'sent' ? at : null, nextAttemptAt: null, error: null });
  await em.flush();
}

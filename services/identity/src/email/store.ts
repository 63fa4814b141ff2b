import type { EntityManager } from '@mikro-orm/postgresql';
import { newId, now } from '@bop/shared';
import { EmailLog } from './entities';

/** Sends an email; in this mode that means writing it to the email log, in the caller's transaction. */
export function sendEmail(em: EntityManager, mail: { to: string; subject: string; body: string }): void {
  em.create(EmailLog, { id: newId('emailLog'), to: mail.to, subject: mail.subject, body: mail.body, createdAt: now() });
}

export async function latestEmails(em: EntityManager, q: { limit: number; to?: string }) {
  const rows = await em.find(EmailLog, q.to ? { to: q.to.toLowerCase() } : {}, { orderBy: { id: 'desc' }, limit: q.limit });
  return rows.map((m) => ({ id: m.id, to: m.to, subject: m.subject, body: m.body, createdAt: m.createdAt.toISOString() }));
}

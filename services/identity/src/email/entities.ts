import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * Outgoing email, and the queue the email worker sends from: `pending` until sent through SMTP
 * (`sent`), kept as the log when SMTP_URL is unset (`logged`), or given up (`failed`, with the reason).
 */
export const EmailLog = defineEntity({
  name: 'EmailLog',
  tableName: 'email_log',
  properties: {
    id: p.string().primary(),
    to: p.string().fieldName('to_address'),
    subject: p.string(),
    body: p.text(),
    createdAt: p.datetime(),
    status: p.enum(['pending', 'sent', 'logged', 'failed'] as const),
    attempts: p.integer(),
    nextAttemptAt: p.datetime().nullable(),
    sentAt: p.datetime().nullable(),
    error: p.text().nullable(),
  },
});
export type EmailLog = InferEntity<typeof EmailLog>;

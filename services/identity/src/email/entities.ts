import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** Outgoing email as written in the embedded mode (architecture: email → email log). */
export const EmailLog = defineEntity({
  name: 'EmailLog',
  schema: 'identity',
  tableName: 'email_log',
  properties: {
    id: p.string().primary(),
    to: p.string().fieldName('to_address'),
    subject: p.string(),
    body: p.text(),
    createdAt: p.datetime(),
  },
});
export type EmailLog = InferEntity<typeof EmailLog>;

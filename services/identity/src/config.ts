import { z } from 'zod';
import type { BaseConfig } from '@bop/shared';
import { PASSWORD_MIN_LENGTH } from './users/passwords';

/** Identity's settings on top of the kit's (read from the environment). */
export const configSchema = z.object({
  /** the owner created on the first start, when no user exists */
  BOOTSTRAP_ADMIN_EMAIL: z.email().default('admin@example.com'),
  /** that owner's password; unset → a strong one is generated and printed once */
  BOOTSTRAP_ADMIN_PASSWORD: z.string().min(PASSWORD_MIN_LENGTH).optional(),
  SESSION_IDLE_MINUTES: z.coerce.number().positive().default(30),
  SESSION_ABSOLUTE_HOURS: z.coerce.number().positive().default(12),
  SIGN_IN_MAX_ATTEMPTS: z.coerce.number().int().min(1).default(10),
  SIGN_IN_WINDOW_MINUTES: z.coerce.number().positive().default(15),
  INVITATION_VALID_DAYS: z.coerce.number().positive().default(7),
  MFA_ISSUER: z.string().min(1).max(100).default('BOP'),
  /** validity of the `mfaToken` of a 401 `mfa_required` */
  MFA_CHALLENGE_MINUTES: z.coerce.number().positive().default(5),
  /** outgoing email through this SMTP server (`smtp://user:pass@host:587`, `smtps://…:465`); unset: kept in the email log only */
  SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
  /** the sender of outgoing email */
  SMTP_FROM: z.string().min(3).default('BOP <no-reply@localhost>'),
  /** attempts per email before it is recorded as failed (SMTP 5xx answers fail at once) */
  EMAIL_MAX_ATTEMPTS: z.coerce.number().int().min(1).default(8),
  /** how often the email worker looks for emails to send */
  EMAIL_POLL_MS: z.coerce.number().int().min(10).default(1000),
});

export type IdentityConfig = BaseConfig & z.output<typeof configSchema>;

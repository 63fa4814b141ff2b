import { backoffDelay, defineWorker, type BackoffPolicy, type Logger } from '@bop/shared';
import type { IdentityConfig } from '../config';
import { createMailer, failureReason, isPermanentFailure, type Mailer } from './mailer';
import { claimDueEmails, recordSendOutcome, type SendOutcome } from './store';

/** Retries of one email: 5 s doubling to 30 min (eight attempts span about ten minutes). */
export const emailBackoff: BackoffPolicy = { baseMs: 5_000, capMs: 30 * 60_000, jitter: 0.2 };

/** A claim holds an email this long (a send times out well before). */
const LEASE_MS = 120_000;
const BATCH = 20;

/**
 * Sends the emails requests recorded, after their transactions committed: through SMTP when
 * SMTP_URL is set (retried with the kit's backoff, then `failed` with the reason), otherwise they stay
 * in the email log (`logged`). A round claims the due emails, sends each and records its outcome (a
 * unit each); a full round goes on at once.
 */
export const emailWorker = (svc: { config: IdentityConfig; log: Logger }) => {
  const mailer = createMailer(svc.config);
  return defineWorker({
    name: 'email',
    every: () => svc.config.EMAIL_POLL_MS,
    failureMessage: 'email: sending round failed; retrying',
    stopped: () => mailer.close(),
    round: async (r) => {
      const due = await r.write((w) => claimDueEmails(w, BATCH, LEASE_MS));
      for (const mail of due) {
        if (r.stopping) break;
        const outcome = await sendOne(mailer, mail, svc.config.EMAIL_MAX_ATTEMPTS);
        if (outcome.status === 'failed') svc.log.warn({ emailId: mail.id, error: outcome.error }, 'email: not sent');
        await r.write((w) => recordSendOutcome(w, mail.id, outcome));
      }
      return due.length === BATCH;
    },
  });
};

/** One attempt at an email that has had `attempts` before. */
export async function sendOne(mailer: Mailer, mail: { to: string; subject: string; body: string; attempts: number }, maxAttempts: number): Promise<SendOutcome> {
  try {
    await mailer.send(mail);
    return { status: mailer.kind === 'smtp' ? 'sent' : 'logged' };
  } catch (err) {
    const error = failureReason(err);
    const attempt = mail.attempts + 1;
    if (isPermanentFailure(err) || attempt >= maxAttempts) return { status: 'failed', error };
    return { status: 'retry', error, retryInMs: backoffDelay(attempt, emailBackoff) };
  }
}

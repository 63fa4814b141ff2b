import { backoffDelay, nowMs, RoundWorker, type BackoffPolicy, type Logger, type Orm } from '@bop/shared';
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
 * in the email log (`logged`).
 */
export class EmailWorker extends RoundWorker {
  readonly name = 'email';
  private readonly mailer: Mailer;

  constructor(private readonly opts: { orm: Orm; log: Logger; config: { SMTP_URL?: string; SMTP_FROM: string; EMAIL_MAX_ATTEMPTS: number; EMAIL_POLL_MS: number } }) {
    super(opts.log);
    this.mailer = createMailer(opts.config);
  }

  protected override failureMessage(): string {
    return 'email: sending round failed; retrying';
  }

  protected override stopped(): void {
    this.mailer.close();
  }

  /** One round: the due emails claimed, each sent and its outcome recorded; a full round goes on at once. */
  protected async round(): Promise<number> {
    const due = await claimDueEmails(this.opts.orm.em.fork(), BATCH, LEASE_MS);
    for (const mail of due) {
      if (this.stopping) break;
      const outcome = await sendOne(this.mailer, mail, this.opts.config.EMAIL_MAX_ATTEMPTS);
      if (outcome.status === 'failed') this.opts.log.warn({ emailId: mail.id, error: outcome.error }, 'email: not sent');
      await recordSendOutcome(this.opts.orm.em.fork(), mail.id, outcome);
    }
    return due.length < BATCH ? this.opts.config.EMAIL_POLL_MS : 0;
  }
}

/** One attempt at an email that has had `attempts` before. */
export async function sendOne(mailer: Mailer, mail: { to: string; subject: string; body: string; attempts: number }, maxAttempts: number): Promise<SendOutcome> {
  try {
    await mailer.send(mail);
    return { status: mailer.kind === 'smtp' ? 'sent' : 'logged' };
  } catch (err) {
    const error = failureReason(err);
    const attempt = mail.attempts + 1;
    if (isPermanentFailure(err) || attempt >= maxAttempts) return { status: 'failed', error };
    return { status: 'retry', error, retryAt: new Date(nowMs() + backoffDelay(attempt, emailBackoff)) };
  }
}

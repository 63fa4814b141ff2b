import { backoffDelay, isDatabaseUnavailable, nowMs, Waker, type BackoffPolicy, type Logger, type Orm, type WorkerDef } from '@bop/shared';
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
export class EmailWorker implements WorkerDef {
  readonly name = 'email';
  private stopped = true;
  private loop: Promise<void> | null = null;
  private readonly waker = new Waker();
  private readonly mailer: Mailer;

  constructor(private readonly opts: { orm: Orm; log: Logger; config: { SMTP_URL?: string; SMTP_FROM: string; EMAIL_MAX_ATTEMPTS: number; EMAIL_POLL_MS: number } }) {
    this.mailer = createMailer(opts.config);
  }

  start(): void {
    this.stopped = false;
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.waker.wake();
    await this.loop;
    this.mailer.close();
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (!this.stopped) {
      try {
        const sent = await this.round();
        failures = 0;
        if (sent < BATCH) await this.waker.sleep(this.opts.config.EMAIL_POLL_MS);
      } catch (err) {
        failures += 1;
        this.opts.log.warn({ err: (err as Error).message, failures }, 'email: sending round failed; retrying');
        await this.waker.sleep(backoffDelay(failures, undefined, isDatabaseUnavailable(err)));
      }
    }
  }

  /** One round: the due emails claimed, each sent and its outcome recorded. */
  private async round(): Promise<number> {
    const due = await claimDueEmails(this.opts.orm.em.fork(), BATCH, LEASE_MS);
    for (const mail of due) {
      if (this.stopped) break;
      const outcome = await sendOne(this.mailer, mail, this.opts.config.EMAIL_MAX_ATTEMPTS);
      if (outcome.status === 'failed') this.opts.log.warn({ emailId: mail.id, error: outcome.error }, 'email: not sent');
      await recordSendOutcome(this.opts.orm.em.fork(), mail.id, outcome);
    }
    return due.length;
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

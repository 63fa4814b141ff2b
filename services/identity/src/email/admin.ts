import type { ServiceRuntime } from '@bop/shared';
import { createMailer, failureReason } from './mailer';
import { latestEmails, recordOwnSend, recordSendOutcome } from './store';

/** Identity's runtime (the ops CLI's `withServiceRuntime`): its units of work. */
type Units = Pick<ServiceRuntime, 'read' | 'write'>;

/** The ops CLI's email commands (`ops email test|log`). */
export const emailAdmin = {
  /**
   * Sends a test message now (not through the worker, so the operator sees the SMTP answer) and
   * records it in the email log with its outcome; a test message is not retried.
   */
  async sendTest(svc: Units, config: { SMTP_URL?: string; SMTP_FROM: string }, to: string): Promise<{ id: string; status: 'sent' | 'logged' | 'failed'; error: string | null; via: string }> {
    const mailer = createMailer(config);
    const via = config.SMTP_URL ? new URL(config.SMTP_URL).host : 'the email log (SMTP_URL is not set)';
    const row = await svc.write((w) => recordOwnSend(w, { to, subject: 'BOP test message', body: `This is a test message from the BOP operations command line, sent through ${via}.` }, 10 * 60_000));
    try {
      await mailer.send(row);
      const status = mailer.kind === 'smtp' ? 'sent' : 'logged';
      await svc.write((w) => recordSendOutcome(w, row.id, { status }));
      return { id: row.id, status, error: null, via };
    } catch (err) {
      const error = failureReason(err);
      await svc.write((w) => recordSendOutcome(w, row.id, { status: 'failed', error }));
      return { id: row.id, status: 'failed', error, via };
    } finally {
      mailer.close();
    }
  },

  log: (svc: Units, q: { limit: number; to?: string }) => svc.read((w) => latestEmails(w, q)),
};

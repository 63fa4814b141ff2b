import nodemailer from 'nodemailer';

export interface Mail {
  to: string;
  subject: string;
  body: string;
}

/** Where outgoing email goes: an SMTP server (SMTP_URL), or nowhere but the email log. */
export interface Mailer {
  readonly kind: 'smtp' | 'log';
  /** resolves when the server accepted the message; rejects with its reason */
  send(mail: Mail): Promise<void>;
  close(): void;
}

export function createMailer(config: { SMTP_URL?: string; SMTP_FROM: string }): Mailer {
  if (!config.SMTP_URL) return { kind: 'log', send: async () => undefined, close: () => undefined };
  const transport = nodemailer.createTransport(config.SMTP_URL, { from: config.SMTP_FROM });
  return {
    kind: 'smtp',
    async send(mail) {
      await transport.sendMail({ to: mail.to, subject: mail.subject, text: mail.body });
    },
    close: () => transport.close(),
  };
}

/** An SMTP answer in the 5xx range (unknown mailbox, refused sender): trying again will not help. */
export function isPermanentFailure(err: unknown): boolean {
  const code = (err as { responseCode?: number }).responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}

/** The reason as the operator should read it: the server's answer when there is one. */
export function failureReason(err: unknown): string {
  const e = err as { response?: string; code?: string; message?: string };
  return e.response ? `${e.response}${e.code ? ` (${e.code})` : ''}` : (e.message ?? String(err));
}

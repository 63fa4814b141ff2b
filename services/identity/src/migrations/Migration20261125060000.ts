import { Migration } from '@bop/shared';

/**
 * identity: the email log is also the outgoing queue. A request records its email (`pending`) in its
 * own transaction; the email worker sends it afterwards (SMTP) or keeps it as the log (`logged`,
 * SMTP_URL unset), with retries, and records `sent` or `failed` with the reason. Rows from before
 * were written to the log only.
 */
export class Migration20261125060000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "identity"."email_log"
        add column "status" varchar(10) not null default 'logged' check ("status" in ('pending', 'sent', 'logged', 'failed')),
        add column "attempts" integer not null default 0,
        add column "next_attempt_at" timestamptz null,
        add column "sent_at" timestamptz null,
        add column "error" text null`,
    );
    this.addSql(`alter table "identity"."email_log" alter column "status" set default 'pending'`);
    this.addSql(`create index "email_log_due_idx" on "identity"."email_log" ("next_attempt_at") where "status" = 'pending'`);
  }
}

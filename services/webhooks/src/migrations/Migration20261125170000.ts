import { Migration } from '@bop/shared';

/**
 * A delivery keeps the trace context of the consumer span that queued it (W3C `traceparent`, null when
 * not traced), so each attempt's span joins the trace of the write that caused the event.
 */
export class Migration20261125170000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "webhooks"."deliveries" add column if not exists "trace_parent" varchar(64) null`);
  }
}

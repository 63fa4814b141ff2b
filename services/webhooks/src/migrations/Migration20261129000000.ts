import { Migration } from '@bop/shared';

/**
 * The event log of `GET /events`: each public event the fan-out handled, once (keyed by its id), with
 * the body its webhook deliveries carry. `arrival` is insertion order; `visible_round` is set after the
 * row committed, by the sequencer's rounds (one at a time), so (visible_round, arrival) only grows in
 * the order rows become visible and a reader paging by it never skips one committed later.
 */
export class Migration20261129000000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create sequence if not exists "webhooks"."event_log_arrival_seq"`);
    this.addSql(`create table if not exists "webhooks"."event_log" (
      "event_id" text primary key,
      "type" text not null,
      "location_id" text null,
      "object_id" text null,
      "created_at" timestamptz not null,
      "body" text not null,
      "arrival" bigint not null default nextval('"webhooks"."event_log_arrival_seq"'),
      "visible_round" bigint null,
      "logged_at" timestamptz not null
    )`);
    this.addSql(`create table if not exists "webhooks"."event_log_state" ("key" varchar(40) primary key, "last_round" bigint not null)`);
    this.addSql(`insert into "webhooks"."event_log_state" ("key", "last_round") values ('sequencer', 0) on conflict do nothing`);
    this.addSql(`create unique index if not exists "event_log_visible_uq" on "webhooks"."event_log" ("visible_round", "arrival") where "visible_round" is not null`);
    this.addSql(`create index if not exists "event_log_unnumbered_idx" on "webhooks"."event_log" ("arrival") where "visible_round" is null`);
    this.addSql(`create index if not exists "event_log_created_idx" on "webhooks"."event_log" ("created_at")`);
    this.addSql(`create index if not exists "event_log_object_idx" on "webhooks"."event_log" ("object_id", "visible_round", "arrival") where "object_id" is not null`);
  }
}

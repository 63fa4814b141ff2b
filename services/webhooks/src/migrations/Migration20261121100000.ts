import { Migration } from '@bop/shared';

export class Migration20261121100000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "webhooks"."integrations" (
      "integration_id" varchar(40) primary key,
      "paused" boolean not null default false,
      "scopes" jsonb not null default '[]',
      "secret" varchar(200) null,
      "previous_secret" varchar(200) null,
      "previous_secret_until" timestamptz null,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null
    )`);
    this.addSql(`create table "webhooks"."endpoints" (
      "id" varchar(40) primary key,
      "url" varchar(2000) not null,
      "events" jsonb not null,
      "description" varchar(500) null,
      "status" varchar(20) not null default 'active' check ("status" in ('active','disabled')),
      "disabled_reason" varchar(20) null check ("disabled_reason" in ('failures','gone','manual')),
      "integration_id" varchar(40) null references "webhooks"."integrations" ("integration_id") on delete cascade,
      "secret" varchar(200) null,
      "previous_secret" varchar(200) null,
      "previous_secret_until" timestamptz null,
      "consecutive_failures" integer not null default 0,
      "version" integer not null default 1,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null,
      check (("integration_id" is null) = ("secret" is not null))
    )`);
    this.addSql(`create unique index "endpoints_integration_url_uq" on "webhooks"."endpoints" ("integration_id", "url") where "integration_id" is not null`);
    this.addSql(`create table "webhooks"."deliveries" (
      "seq" bigserial not null,
      "id" varchar(40) primary key,
      "endpoint_id" varchar(40) not null references "webhooks"."endpoints" ("id") on delete cascade,
      "event_id" varchar(40) not null,
      "event_type" varchar(100) not null,
      "record_key" varchar(120) not null,
      "body" text not null,
      "status" varchar(20) not null check ("status" in ('pending','succeeded','failed')),
      "attempts" integer not null default 0,
      "schedule_step" integer not null default 0,
      "next_attempt_at" timestamptz null,
      "last_status" integer null,
      "last_error" varchar(1000) null,
      "last_attempt_at" timestamptz null,
      "locked_until" timestamptz null,
      "lease" varchar(40) null,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null
    )`);
    // the worker's claim walks only queue heads that are due
    this.addSql(`create index "deliveries_due_idx" on "webhooks"."deliveries" ("next_attempt_at", "seq") where "status" = 'pending' and "next_attempt_at" is not null`);
    this.addSql(`create index "deliveries_record_queue_idx" on "webhooks"."deliveries" ("endpoint_id", "record_key", "seq") where "status" = 'pending'`);
    // spec: Delivery rules 4 — the pending deliveries of one (endpoint, record) form a queue in `seq`
    // order; only its head has a next_attempt_at, the others wait with null. Kept here for every writer:
    // a row entering the queue (insert, or a replay making it pending again, which also moves it to the
    // back) waits when another pending row of its record is ahead; a head leaving it (succeeded or
    // failed) hands over to the next. Writers that add to queues hold the queue lock shared, the worker
    // holds it exclusively while it records results, so a hand-over never misses a row being added.
    this.addSql(`create function "webhooks"."deliveries_enqueue"() returns trigger language plpgsql as $$
      begin
        perform pg_advisory_xact_lock_shared(hashtext('webhooks:queue'));
        if tg_op = 'UPDATE' and old."status" <> 'pending' and new."seq" = old."seq" then
          new."seq" := nextval(pg_get_serial_sequence('"webhooks"."deliveries"', 'seq'));
        end if;
        if exists (
          select 1 from "webhooks"."deliveries" p
          where p."endpoint_id" = new."endpoint_id" and p."record_key" = new."record_key" and p."status" = 'pending'
            and p."seq" < new."seq" and p."id" <> new."id"
        ) then
          new."next_attempt_at" := null;
        elsif new."next_attempt_at" is null then
          new."next_attempt_at" := new."updated_at";
        end if;
        return new;
      end $$`);
    this.addSql(`create trigger "deliveries_enqueue_insert" before insert on "webhooks"."deliveries"
      for each row execute function "webhooks"."deliveries_enqueue"()`);
    this.addSql(`create trigger "deliveries_enqueue_update" before update on "webhooks"."deliveries"
      for each row when (new."status" = 'pending' and (old."status" <> 'pending' or (old."next_attempt_at" is null and new."next_attempt_at" is not null)))
      execute function "webhooks"."deliveries_enqueue"()`);
    this.addSql(`create function "webhooks"."deliveries_hand_over"() returns trigger language plpgsql as $$
      begin
        update "webhooks"."deliveries" set "next_attempt_at" = new."updated_at", "updated_at" = new."updated_at"
        where "id" = (
          select n."id" from "webhooks"."deliveries" n
          where n."endpoint_id" = new."endpoint_id" and n."record_key" = new."record_key" and n."status" = 'pending'
          order by n."seq" limit 1
        ) and "next_attempt_at" is null;
        return null;
      end $$`);
    this.addSql(`create trigger "deliveries_hand_over" after update on "webhooks"."deliveries"
      for each row when (old."status" = 'pending' and new."status" <> 'pending')
      execute function "webhooks"."deliveries_hand_over"()`);
    // lists by endpoint; the failed count (the pending count reads deliveries_record_queue_idx)
    this.addSql(`create index "deliveries_failed_idx" on "webhooks"."deliveries" ("endpoint_id") where "status" = 'failed'`);
    this.addSql(`create index "deliveries_endpoint_list_idx" on "webhooks"."deliveries" ("endpoint_id", "id")`);
    this.addSql(`create table "webhooks"."feature_states" (
      "key" varchar(100) primary key,
      "enabled" boolean not null,
      "effective" boolean not null,
      "updated_at" timestamptz not null
    )`);
  }
}

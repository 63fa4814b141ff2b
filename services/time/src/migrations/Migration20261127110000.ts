import { Migration } from '@bop/shared';

/**
 * time: time off — types (unique by name, case-insensitively), policies (accrual terms with their
 * earlier versions), requests (supplement: Time-off request states) and the ledger of adjustments,
 * hours taken and hours restored. Accruals are replayed on read, never stored.
 */
export class Migration20261127110000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "time"."time_off_types" (
      "id" varchar(40) primary key,
      "name" varchar(100) not null,
      "paid" boolean not null,
      "allow_negative_balance" boolean not null default false,
      "hours_per_day" numeric(8,4) not null check ("hours_per_day" > 0),
      "version" integer not null default 1,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null
    )`);
    this.addSql(`create unique index "time_off_types_name_uq" on "time"."time_off_types" (lower("name"))`);
    this.addSql(`create table "time"."time_off_policies" (
      "id" varchar(40) primary key,
      "type_id" varchar(40) not null references "time"."time_off_types" ("id"),
      "name" varchar(100) not null,
      "accrual" jsonb not null,
      "cap" numeric(10,4) null check ("cap" >= 0),
      "carry_over" numeric(10,4) null check ("carry_over" >= 0),
      "year_start" varchar(5) not null default '01-01',
      "eligibility" jsonb not null,
      "effective_from" date null,
      "history" jsonb not null default '[]',
      "version" integer not null default 1,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null
    )`);
    this.addSql(`create index "time_off_policies_type_idx" on "time"."time_off_policies" ("type_id")`);
    this.addSql(`create table "time"."time_off_requests" (
      "id" varchar(40) primary key,
      "employee_id" varchar(40) not null,
      "type_id" varchar(40) not null references "time"."time_off_types" ("id"),
      "location_id" varchar(40) not null,
      "start_date" date not null,
      "end_date" date not null check ("end_date" >= "start_date"),
      "partial_hours" numeric(8,4) null,
      "hours" numeric(10,4) not null check ("hours" > 0),
      "note" text null,
      "status" varchar(10) not null check ("status" in ('pending','approved','rejected','cancelled')),
      "requested_by" jsonb not null,
      "decided_at" timestamptz null,
      "decided_by" jsonb null,
      "rejection_reason" text null,
      "cancelled_at" timestamptz null,
      "cancelled_by" jsonb null,
      "version" integer not null default 1,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null
    )`);
    this.addSql(`create index "time_off_requests_employee_idx" on "time"."time_off_requests" ("employee_id", "type_id", "status")`);
    this.addSql(`create index "time_off_requests_location_idx" on "time"."time_off_requests" ("location_id", "status")`);
    this.addSql(`create table "time"."time_off_entries" (
      "id" varchar(40) primary key,
      "employee_id" varchar(40) not null,
      "type_id" varchar(40) not null references "time"."time_off_types" ("id"),
      "kind" varchar(10) not null check ("kind" in ('adjustment','taken','restored')),
      "date" date not null,
      "hours" numeric(10,4) not null,
      "reason" text null,
      "request_id" varchar(40) null references "time"."time_off_requests" ("id"),
      "created_by" jsonb not null,
      "created_at" timestamptz not null,
      check (("kind" = 'adjustment') = ("reason" is not null and "request_id" is null))
    )`);
    this.addSql(`create index "time_off_entries_employee_idx" on "time"."time_off_entries" ("employee_id", "type_id", "date")`);
  }
}

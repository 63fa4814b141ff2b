import { Migration, employeeReplicaTablesSql } from '@bop/shared';

/**
 * time: the employee replica (people's employees and pay rates), pay periods, punches (the kit's
 * ingestion target, unique on source and externalId), punches held for review in locked periods,
 * timesheets and the marks of timesheets waiting to be recalculated.
 */
export class Migration20261127090000 extends Migration {
  override async up(): Promise<void> {
    for (const sql of employeeReplicaTablesSql('time')) this.addSql(sql);
    this.addSql(`create table "time"."pay_periods" (
      "id" varchar(40) primary key,
      "start_date" date not null,
      "end_date" date not null check ("end_date" >= "start_date"),
      "locked_at" timestamptz null,
      "locked_by" jsonb null,
      "unlocks" jsonb not null default '[]',
      "version" integer not null default 1,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null
    )`);
    this.addSql(`create unique index "pay_periods_start_uq" on "time"."pay_periods" ("start_date")`);
    this.addSql(`create index "pay_periods_end_idx" on "time"."pay_periods" ("end_date")`);
    this.addSql(`create table "time"."punches" (
      "id" varchar(40) primary key,
      "source" varchar(100) not null,
      "external_id" varchar(200) not null,
      "content_hash" varchar(64) not null,
      "version" integer not null,
      "employee_id" varchar(40) not null,
      "location_id" varchar(40) not null,
      "type" varchar(12) not null check ("type" in ('clock_in','clock_out','break_start','break_end')),
      "occurred_at" timestamptz not null,
      "device_id" varchar(100) null,
      "position" varchar(100) null,
      "exceptions" jsonb not null default '[]',
      "pay_period_id" varchar(40) null,
      "original" jsonb null,
      "corrections" jsonb not null default '[]',
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null,
      unique ("external_id", "source")
    )`);
    this.addSql(`create index "punches_employee_time_idx" on "time"."punches" ("employee_id", "occurred_at")`);
    this.addSql(`create index "punches_location_time_idx" on "time"."punches" ("location_id", "occurred_at")`);
    this.addSql(`create index "punches_updated_idx" on "time"."punches" ("updated_at")`);
    this.addSql(`create table "time"."held_punches" (
      "id" varchar(40) primary key,
      "source" varchar(100) not null,
      "external_id" varchar(200) not null,
      "content_hash" varchar(64) not null,
      "row" jsonb not null,
      "pay_period_id" varchar(40) not null,
      "reason" text not null,
      "version" integer not null default 1,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null,
      unique ("external_id", "source")
    )`);
    this.addSql(`create index "held_punches_period_idx" on "time"."held_punches" ("pay_period_id")`);
    this.addSql(`create table "time"."timesheets" (
      "id" varchar(40) primary key,
      "employee_id" varchar(40) not null,
      "pay_period_id" varchar(40) not null,
      "location_id" varchar(40) not null,
      "status" varchar(10) not null check ("status" in ('open','approved','rejected','locked')),
      "figures" jsonb null,
      "missing_punches" boolean not null default false,
      "calculated_at" timestamptz null,
      "approved_at" timestamptz null,
      "approved_by" jsonb null,
      "rejected_at" timestamptz null,
      "rejected_by" jsonb null,
      "rejection_reason" text null,
      "version" integer not null default 1,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null
    )`);
    this.addSql(`create unique index "timesheets_employee_period_uq" on "time"."timesheets" ("pay_period_id", "employee_id")`);
    this.addSql(`create index "timesheets_employee_idx" on "time"."timesheets" ("employee_id")`);
    // a mark's seq grows with every change that marks it: the recalculation drops only the marks it saw
    this.addSql(`create sequence "time"."timesheet_mark_seq"`);
    this.addSql(`create table "time"."timesheet_marks" (
      "timesheet_id" varchar(40) primary key,
      "seq" bigint not null default nextval('"time"."timesheet_mark_seq"'),
      "marked_at" timestamptz not null
    )`);
    this.addSql(`create index "timesheet_marks_seq_idx" on "time"."timesheet_marks" ("seq")`);
  }
}

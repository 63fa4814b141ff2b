import { employeeReplicaTablesSql, Migration, orgReplicaTablesSql } from '@bop/shared';

/** scheduling: the organization and employee replicas, approved time off, availability windows and shifts. */
export class Migration20261129100000 extends Migration {
  override async up(): Promise<void> {
    for (const sql of orgReplicaTablesSql('scheduling')) this.addSql(sql);
    for (const sql of employeeReplicaTablesSql('scheduling')) this.addSql(sql);
    this.addSql(`create table "scheduling"."approved_time_off" (
      "id" varchar(40) primary key,
      "employee_id" varchar(40) not null,
      "start_date" date not null,
      "end_date" date not null,
      "partial_hours" varchar(20) null,
      "status" varchar(20) not null check ("status" in ('approved','cancelled')),
      "version" integer not null
    )`);
    this.addSql(`create index "approved_time_off_employee_idx" on "scheduling"."approved_time_off" ("employee_id", "start_date") where "status" = 'approved'`);
    this.addSql(`create table "scheduling"."availability" (
      "id" varchar(40) primary key,
      "employee_id" varchar(40) not null,
      "kind" varchar(20) not null check ("kind" in ('available','unavailable','preferred')),
      "weekday" varchar(10) null,
      "date" date null,
      "start_time" varchar(5) not null,
      "end_time" varchar(5) not null,
      "effective_from" date null,
      "effective_until" date null,
      "note" varchar(500) null,
      "status" varchar(10) not null check ("status" in ('active','archived')),
      "version" integer not null,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null,
      check (("weekday" is null) <> ("date" is null)),
      check ("end_time" > "start_time")
    )`);
    this.addSql(`create index "availability_employee_idx" on "scheduling"."availability" ("employee_id") where "status" = 'active'`);
    this.addSql(`create table "scheduling"."shifts" (
      "id" varchar(40) primary key,
      "external_id" varchar(200) null,
      "location_id" varchar(40) not null,
      "position" varchar(100) not null,
      "employee_id" varchar(40) null,
      "start" timestamptz not null,
      "end" timestamptz not null,
      "break_minutes" integer not null check ("break_minutes" >= 0),
      "notes" varchar(1000) null,
      "status" varchar(10) not null check ("status" in ('draft','published','archived')),
      "published_at" timestamptz null,
      "version" integer not null,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null,
      check ("end" > "start")
    )`);
    this.addSql(`create unique index "shifts_external_id_uq" on "scheduling"."shifts" ("external_id") where "external_id" is not null`);
    this.addSql(`create index "shifts_location_start_idx" on "scheduling"."shifts" ("location_id", "start") where "status" <> 'archived'`);
    this.addSql(`create index "shifts_employee_start_idx" on "scheduling"."shifts" ("employee_id", "start") where "status" <> 'archived' and "employee_id" is not null`);
  }
}

import { Migration, orgReplicaTablesSql } from '@bop/shared';

/**
 * people: the organization replica (locations with their time zones, org units, departments), the
 * employees (effective-dated transfers and terminations kept on the record until they take effect),
 * their pay rates and the audit trail of every change to an employee record.
 */
export class Migration20261126120000 extends Migration {
  override async up(): Promise<void> {
    for (const sql of orgReplicaTablesSql('people')) this.addSql(sql);
    this.addSql(`create table "people"."departments" (
      "id" varchar(40) primary key,
      "location_id" varchar(40) null,
      "status" varchar(20) not null,
      "updated_at" timestamptz not null
    )`);
    this.addSql(`create table "people"."employees" (
      "id" varchar(40) primary key,
      "employee_number" varchar(40) null,
      "external_id" varchar(200) null,
      "legal_first_name" varchar(100) not null,
      "legal_last_name" varchar(100) not null,
      "preferred_name" varchar(100) null,
      "email" varchar(254) null,
      "phone" varchar(40) null,
      "address" jsonb null,
      "birth_date" date null,
      "home_location_id" varchar(40) not null,
      "location_ids" text[] not null default '{}',
      "department_id" varchar(40) null,
      "positions" text[] not null default '{}',
      "hire_date" date not null,
      "status" varchar(20) not null check ("status" in ('active','terminated','archived')),
      "termination_date" date null,
      "termination_reason" varchar(500) null,
      "scheduled_transfer" jsonb null,
      "employment_history" jsonb not null default '[]',
      "emergency_contacts" jsonb not null default '[]',
      "user_id" varchar(40) null,
      "version" integer not null default 1,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null,
      "archived_at" timestamptz null,
      "anonymised_at" timestamptz null
    )`);
    this.addSql(`create unique index "employees_external_id_uq" on "people"."employees" ("external_id") where "external_id" is not null`);
    this.addSql(`create unique index "employees_number_uq" on "people"."employees" ("employee_number") where "employee_number" is not null`);
    this.addSql(`create index "employees_home_idx" on "people"."employees" ("home_location_id", "id")`);
    this.addSql(`create index "employees_locations_idx" on "people"."employees" using gin ("location_ids")`);
    this.addSql(`create index "employees_updated_idx" on "people"."employees" ("updated_at")`);
    this.addSql(`create index "employees_user_idx" on "people"."employees" ("user_id") where "user_id" is not null`);
    // what the effective-changes worker looks at: a scheduled transfer or termination, an archive past retention
    this.addSql(`create index "employees_due_idx" on "people"."employees" ("id") where "scheduled_transfer" is not null or ("status" = 'active' and "termination_date" is not null)`);
    this.addSql(`create index "employees_archived_idx" on "people"."employees" ("archived_at") where "status" = 'archived' and "anonymised_at" is null`);
    this.addSql(`create table "people"."pay_rates" (
      "id" varchar(40) primary key,
      "employee_id" varchar(40) not null references "people"."employees" ("id"),
      "type" varchar(10) not null check ("type" in ('hourly','salary')),
      "amount" numeric(16,4) not null check ("amount" >= 0),
      "position" varchar(60) null,
      "effective_date" date not null,
      "created_at" timestamptz not null,
      "created_by" jsonb not null
    )`);
    this.addSql(`create index "pay_rates_employee_idx" on "people"."pay_rates" ("employee_id", "effective_date" desc, "id" desc)`);
    this.addSql(`create table "people"."activity" (
      "id" varchar(40) primary key,
      "employee_id" varchar(40) not null references "people"."employees" ("id"),
      "at" timestamptz not null,
      "actor" jsonb not null,
      "action" varchar(40) not null,
      "changes" jsonb not null
    )`);
    this.addSql(`create index "activity_employee_idx" on "people"."activity" ("employee_id", "id")`);
  }
}

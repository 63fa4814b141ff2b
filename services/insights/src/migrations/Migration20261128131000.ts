import { Migration } from '@bop/shared';

/**
 * insights: the read models of sales and labor. Sales: each transaction's latest contribution (by
 * version) and the sums per location and business day and per 15-minute interval. Labor: each
 * timesheet's latest version and its hours per day, location and position (regular and overtime by
 * multiplier), priced at read time by the pay rate in force.
 */
export class Migration20261128131000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "insights"."sales_contributions" (
      "transaction_id" varchar(64) primary key,
      "version" integer not null,
      "location_id" varchar(64) not null,
      "business_day" date not null,
      "interval_start" timestamptz not null,
      "net_sales" numeric(18,6) not null,
      "transactions" integer not null
    )`);
    this.addSql(`create table "insights"."sales_days" (
      "location_id" varchar(64) not null,
      "business_day" date not null,
      "net_sales" numeric(18,6) not null,
      "transactions" integer not null,
      primary key ("location_id", "business_day")
    )`);
    this.addSql(`create table "insights"."sales_intervals" (
      "location_id" varchar(64) not null,
      "business_day" date not null,
      "interval_start" timestamptz not null,
      "net_sales" numeric(18,6) not null,
      "transactions" integer not null,
      primary key ("location_id", "business_day", "interval_start")
    )`);
    this.addSql(`create table "insights"."labor_timesheets" (
      "timesheet_id" varchar(64) primary key,
      "version" integer not null,
      "employee_id" varchar(64) not null
    )`);
    this.addSql(`create table "insights"."labor_hours" (
      "id" varchar(200) primary key,
      "timesheet_id" varchar(64) not null,
      "employee_id" varchar(64) not null,
      "location_id" varchar(64) not null,
      "business_day" date not null,
      "position" varchar(100) null,
      "regular_hours" numeric(12,4) not null,
      "overtime" jsonb not null
    )`);
    this.addSql(`create index "labor_hours_timesheet_idx" on "insights"."labor_hours" ("timesheet_id")`);
    this.addSql(`create index "labor_hours_location_day_idx" on "insights"."labor_hours" ("location_id", "business_day")`);
  }
}

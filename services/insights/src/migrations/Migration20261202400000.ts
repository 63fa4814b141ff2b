import { Migration } from '@bop/shared';

/**
 * insights: what the reports read. Sales: each transaction's channel, source and net sales per item,
 * and their sums per location and business day by item and by channel and source. Waste: the reason.
 * Report exports: each requested run, its status and the attachment it was stored as. Report
 * schedules: a report run and e-mailed for each past day, week or month.
 */
export class Migration20261202400000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "insights"."sales_contributions" add column "channel" varchar(40) null, add column "source" varchar(100) null, add column "items" jsonb null`);
    this.addSql(`create table "insights"."sales_item_days" (
      "location_id" varchar(64) not null,
      "business_day" date not null,
      "item_key" varchar(320) not null,
      "item_id" varchar(64) null,
      "item_name" varchar(200) null,
      "quantity" numeric(28,12) not null,
      "net_sales" numeric(28,12) not null,
      primary key ("location_id", "business_day", "item_key")
    )`);
    this.addSql(`create table "insights"."sales_channel_days" (
      "location_id" varchar(64) not null,
      "business_day" date not null,
      "channel" varchar(40) not null,
      "source" varchar(100) not null,
      "net_sales" numeric(18,6) not null,
      "transactions" integer not null,
      primary key ("location_id", "business_day", "channel", "source")
    )`);
    this.addSql(`alter table "insights"."waste_records" add column "reason" varchar(40) null`);
    this.addSql(`create table "insights"."report_exports" (
      "id" varchar(64) primary key,
      "report_key" varchar(100) not null,
      "parameters" jsonb not null,
      "location_ids" jsonb not null,
      "format" varchar(10) not null,
      "status" varchar(20) not null,
      "rows" integer null,
      "attachment_id" varchar(64) null,
      "file_name" varchar(200) null,
      "error" text null,
      "requested_by_type" varchar(20) not null,
      "requested_by_id" varchar(64) not null,
      "created_at" timestamptz not null,
      "started_at" timestamptz null,
      "completed_at" timestamptz null,
      "schedule_id" varchar(64) null
    )`);
    this.addSql(`create table "insights"."report_schedules" (
      "id" varchar(64) primary key,
      "report_key" varchar(100) not null,
      "parameters" jsonb not null,
      "location_ids" jsonb not null,
      "format" varchar(10) not null,
      "every" varchar(10) not null,
      "recipients" jsonb not null,
      "status" varchar(20) not null,
      "next_from" date not null,
      "next_to" date not null,
      "next_run_at" timestamptz not null,
      "last_export_id" varchar(64) null,
      "created_by_type" varchar(20) not null,
      "created_by_id" varchar(64) not null,
      "created_at" timestamptz not null
    )`);
    this.addSql(`create index "report_schedules_due_idx" on "insights"."report_schedules" ("next_run_at") where "status" = 'active'`);
    this.addSql(`create index "report_exports_queued_idx" on "insights"."report_exports" ("created_at") where "status" in ('queued', 'running')`);
  }
}

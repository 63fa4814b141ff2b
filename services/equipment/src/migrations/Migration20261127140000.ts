import { Migration } from '@bop/shared';

/**
 * equipment: assets with their moves and meter readings (and each meter's latest), maintenance plans
 * and the occurrences they came due (one per plan and occurrence key: never announced twice), work
 * orders and the history of every change to them.
 */
export class Migration20261127140000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "equipment"."assets" (
      "id" varchar(40) primary key,
      "name" text not null,
      "category" text null,
      "make" text null,
      "model" text null,
      "serial_number" text null,
      "location_id" varchar(64) not null,
      "warranty_end_date" date null,
      "status" varchar(10) not null check ("status" in ('active','archived')),
      "work_order_on_sensor_alarm" boolean not null default false,
      "notes" text null,
      "version" integer not null default 1,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null,
      "archived_at" timestamptz null
    )`);
    this.addSql(`create index "assets_location_idx" on "equipment"."assets" ("location_id")`);
    // one asset per make, model and serial number (a serial number is unique only within its make and model)
    this.addSql(`create unique index "assets_serial_uq" on "equipment"."assets" (lower(coalesce("make", '')), lower(coalesce("model", '')), lower("serial_number")) where "serial_number" is not null`);

    this.addSql(`create table "equipment"."asset_moves" (
      "id" varchar(40) primary key,
      "asset_id" varchar(40) not null references "equipment"."assets" ("id"),
      "from_location_id" varchar(64) not null,
      "to_location_id" varchar(64) not null,
      "moved_at" timestamptz not null,
      "moved_by" jsonb not null
    )`);
    this.addSql(`create index "asset_moves_asset_idx" on "equipment"."asset_moves" ("asset_id")`);

    this.addSql(`create table "equipment"."meter_readings" (
      "id" varchar(40) primary key,
      "asset_id" varchar(40) not null references "equipment"."assets" ("id"),
      "meter" varchar(20) not null check ("meter" in ('running_hours','cycles')),
      "value" numeric(16,4) not null check ("value" >= 0),
      "total" numeric(20,4) not null check ("total" >= 0),
      "reset" boolean not null default false,
      "read_at" timestamptz not null,
      "recorded_at" timestamptz not null,
      "recorded_by" jsonb not null
    )`);
    this.addSql(`create unique index "meter_readings_at_uq" on "equipment"."meter_readings" ("asset_id", "meter", "read_at")`);

    this.addSql(`create table "equipment"."asset_meters" (
      "asset_id" varchar(40) not null references "equipment"."assets" ("id"),
      "meter" varchar(20) not null,
      "reading_id" varchar(40) not null,
      "value" numeric(16,4) not null,
      "total" numeric(20,4) not null,
      "read_at" timestamptz not null,
      primary key ("asset_id", "meter")
    )`);

    this.addSql(`create table "equipment"."maintenance_plans" (
      "id" varchar(40) primary key,
      "asset_id" varchar(40) not null references "equipment"."assets" ("id"),
      "location_id" varchar(64) not null,
      "name" text not null,
      "description" text null,
      "interval_days" integer null check ("interval_days" > 0),
      "meter" varchar(20) null check ("meter" in ('running_hours','cycles')),
      "interval_units" numeric(16,4) null check ("interval_units" > 0),
      "next_due_date" date null,
      "next_due_total" numeric(20,4) null,
      "cycle" integer not null default 1,
      "checklist_form_id" varchar(64) null,
      "creates_work_order" boolean not null default false,
      "active" boolean not null default true,
      "last_done_at" timestamptz null,
      "version" integer not null default 1,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null,
      check (("interval_days" is not null and "next_due_date" is not null and "meter" is null and "interval_units" is null and "next_due_total" is null)
          or ("interval_days" is null and "next_due_date" is null and "meter" is not null and "interval_units" is not null and "next_due_total" is not null))
    )`);
    this.addSql(`create index "maintenance_plans_asset_idx" on "equipment"."maintenance_plans" ("asset_id")`);
    this.addSql(`create index "maintenance_plans_location_idx" on "equipment"."maintenance_plans" ("location_id")`);
    // the daily check reads the active date plans by their due date
    this.addSql(`create index "maintenance_plans_date_due_idx" on "equipment"."maintenance_plans" ("next_due_date") where "active" and "interval_days" is not null`);

    this.addSql(`create table "equipment"."maintenance_occurrences" (
      "id" varchar(40) primary key,
      "plan_id" varchar(40) not null,
      "occurrence_key" text not null,
      "due" jsonb not null,
      "work_order_id" varchar(40) null,
      "created_at" timestamptz not null,
      "created_by" jsonb not null
    )`);
    this.addSql(`create unique index "maintenance_occurrences_uq" on "equipment"."maintenance_occurrences" ("plan_id", "occurrence_key")`);

    this.addSql(`create table "equipment"."work_orders" (
      "id" varchar(40) primary key,
      "title" text not null,
      "description" text null,
      "status" varchar(12) not null check ("status" in ('open','in_progress','closed','cancelled')),
      "priority" varchar(8) not null check ("priority" in ('low','medium','high','urgent')),
      "asset_id" varchar(40) null references "equipment"."assets" ("id"),
      "location_id" varchar(64) not null,
      "source" varchar(20) not null check ("source" in ('manual','maintenance_plan','sensor_alarm')),
      "maintenance_plan_id" varchar(40) null references "equipment"."maintenance_plans" ("id"),
      "sensor_alarm_id" varchar(64) null,
      "sensor_alarm" jsonb null,
      "assignee_employee_id" varchar(64) null,
      "vendor" text null,
      "due_date" date null,
      "notes" text null,
      "resolution" text null,
      "cancel_reason" text null,
      "cost" numeric(16,2) null,
      "parts" jsonb not null default '[]',
      "started_at" timestamptz null,
      "closed_at" timestamptz null,
      "created_by" jsonb not null,
      "version" integer not null default 1,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null
    )`);
    this.addSql(`create index "work_orders_location_status_idx" on "equipment"."work_orders" ("location_id", "status")`);
    this.addSql(`create index "work_orders_asset_idx" on "equipment"."work_orders" ("asset_id")`);
    this.addSql(`create index "work_orders_plan_idx" on "equipment"."work_orders" ("maintenance_plan_id")`);
    // one work order per sensor excursion (the consumer may see an alarm twice)
    this.addSql(`create unique index "work_orders_sensor_alarm_uq" on "equipment"."work_orders" ("sensor_alarm_id") where "sensor_alarm_id" is not null`);

    this.addSql(`create table "equipment"."work_order_history" (
      "id" varchar(40) primary key,
      "work_order_id" varchar(40) not null,
      "at" timestamptz not null,
      "actor" jsonb not null,
      "action" varchar(24) not null,
      "changes" jsonb not null,
      "note" text null
    )`);
    this.addSql(`create index "work_order_history_order_idx" on "equipment"."work_order_history" ("work_order_id", "id")`);
  }
}

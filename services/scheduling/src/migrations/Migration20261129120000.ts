import { Migration } from '@bop/shared';

/**
 * scheduling: demand drivers sent by feeds (the kit's batch upsert, unique on source and externalId),
 * net sales and transaction counts per 15-minute interval built from sales' transactions (each
 * transaction's last counted contribution, and their sums per interval), forecast adjustments, the
 * company's special days, and the staffing rules turning forecasts into staff needed.
 */
export class Migration20261129120000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "scheduling"."demand_drivers" (
      "id" varchar(40) primary key,
      "source" varchar(100) not null,
      "external_id" varchar(200) not null,
      "content_hash" varchar(64) not null,
      "version" integer not null,
      "location_id" varchar(40) not null,
      "driver" varchar(40) not null,
      "interval_start" timestamptz not null,
      "value" numeric(20,4) not null check ("value" >= 0),
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null,
      unique ("external_id", "source")
    )`);
    this.addSql(`create index "demand_drivers_series_idx" on "scheduling"."demand_drivers" ("location_id", "driver", "interval_start")`);
    this.addSql(`create table "scheduling"."sales_demand" (
      "transaction_id" varchar(40) primary key,
      "version" integer not null,
      "location_id" varchar(40) not null,
      "interval_start" timestamptz not null,
      "net_sales" numeric(20,4) not null,
      "transactions" integer not null
    )`);
    this.addSql(`create table "scheduling"."sales_intervals" (
      "location_id" varchar(40) not null,
      "interval_start" timestamptz not null,
      "net_sales" numeric(20,4) not null,
      "transactions" integer not null,
      primary key ("location_id", "interval_start")
    )`);
    this.addSql(`create table "scheduling"."forecast_adjustments" (
      "id" varchar(40) primary key,
      "location_id" varchar(40) not null,
      "driver" varchar(40) null,
      "date" date not null,
      "percent" numeric(8,2) not null,
      "reason" varchar(500) null,
      "version" integer not null,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null
    )`);
    this.addSql(`create unique index "forecast_adjustments_uq" on "scheduling"."forecast_adjustments" ("location_id", coalesce("driver", ''), "date")`);
    this.addSql(`create table "scheduling"."special_days" (
      "date" date primary key,
      "kind" varchar(10) not null check ("kind" in ('closed','lift','dip')),
      "name" varchar(100) null,
      "expected_percent" numeric(8,2) null,
      "version" integer not null,
      "updated_at" timestamptz not null
    )`);
    this.addSql(`create table "scheduling"."staffing_rules" (
      "id" varchar(40) primary key,
      "location_id" varchar(40) not null,
      "position" varchar(100) not null,
      "driver" varchar(40) null,
      "per_staff" numeric(16,4) null check ("per_staff" > 0),
      "min_staff" integer not null check ("min_staff" >= 0),
      "max_staff" integer null,
      "weekdays" text[] null,
      "from_time" varchar(5) not null,
      "to_time" varchar(5) not null,
      "status" varchar(10) not null check ("status" in ('active','archived')),
      "version" integer not null,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null,
      check (("driver" is null) = ("per_staff" is null)),
      check ("max_staff" is null or "max_staff" >= "min_staff"),
      check ("to_time" > "from_time")
    )`);
    this.addSql(`create index "staffing_rules_location_idx" on "scheduling"."staffing_rules" ("location_id") where "status" = 'active'`);
  }
}

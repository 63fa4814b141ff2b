import { Migration } from '@bop/shared';

/** insights: the read model of scheduling's forecasts (each day's last fit before it started) and their adjustments. */
export class Migration20261203200000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "insights"."forecast_days" (
      "location_id" varchar(64) not null,
      "driver" varchar(64) not null,
      "business_day" date not null,
      "fitted_at" timestamptz not null,
      "total" numeric(18,2) not null,
      "hours" jsonb not null,
      "start" timestamptz not null,
      primary key ("location_id", "driver", "business_day")
    )`);
    this.addSql(`create table "insights"."forecast_adjustments" (
      "location_id" varchar(64) not null,
      "driver" varchar(64) not null,
      "business_day" date not null,
      "percent" numeric(12,4) not null,
      "version" integer not null,
      primary key ("location_id", "driver", "business_day")
    )`);
  }
}

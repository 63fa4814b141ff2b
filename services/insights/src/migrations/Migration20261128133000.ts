import { Migration } from '@bop/shared';

/** insights: labor per location and 15-minute interval (hours on the clock less unpaid breaks), by timesheet. */
export class Migration20261128133000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "insights"."labor_intervals" (
      "id" varchar(200) primary key,
      "timesheet_id" varchar(64) not null,
      "location_id" varchar(64) not null,
      "business_day" date not null,
      "interval_start" timestamptz not null,
      "hours" numeric(12,6) not null
    )`);
    this.addSql(`create index "labor_intervals_timesheet_idx" on "insights"."labor_intervals" ("timesheet_id")`);
    this.addSql(`create index "labor_intervals_location_day_idx" on "insights"."labor_intervals" ("location_id", "business_day")`);
  }
}

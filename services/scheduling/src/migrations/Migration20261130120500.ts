import { Migration } from '@bop/shared';

/**
 * scheduling: forecasts fitted in the background and stored per location and driver, with the
 * generation counters that tell a stored fit from the data and edits it has not seen. Every location
 * and driver that already has history gets a row marked out of date, so the worker fits it.
 */
export class Migration20261130120500 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "scheduling"."forecast_fits" (
      "location_id" varchar(40) not null,
      "driver" varchar(40) not null,
      "generation" integer not null,
      "fitted_generation" integer not null,
      "edit_generation" integer not null,
      "stale_since" timestamptz null,
      "changed_at" timestamptz not null,
      "fitted_at" timestamptz null,
      "trained_through" date null,
      "result" jsonb null,
      primary key ("location_id", "driver")
    )`);
    this.addSql(`insert into "scheduling"."forecast_fits" ("location_id", "driver", "generation", "fitted_generation", "edit_generation", "stale_since", "changed_at")
      select "location_id", "driver", 1, 0, 0, now(), now() from (
        select distinct "location_id", "driver" from "scheduling"."demand_drivers"
        union
        select distinct "location_id", d."driver" from "scheduling"."sales_intervals" cross join (values ('net_sales'), ('transactions')) as d("driver")
      ) as series`);
  }
}

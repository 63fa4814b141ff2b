import { Migration } from '@bop/shared';

/** insights: waste records (their value, location and business day) from inventory's `waste.recorded`. */
export class Migration20261128134000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "insights"."waste_records" (
      "id" varchar(64) primary key,
      "location_id" varchar(64) not null,
      "business_day" date not null,
      "total_value" numeric(18,6) not null
    )`);
    this.addSql(`create index "waste_records_location_day_idx" on "insights"."waste_records" ("location_id", "business_day")`);
  }
}

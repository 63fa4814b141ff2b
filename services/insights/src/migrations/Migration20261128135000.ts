import { Migration } from '@bop/shared';

/** insights: each closed cash business day's over/short, as cash's `cash.business_day_closed` locked it. */
export class Migration20261128135000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "insights"."over_short_days" (
      "location_id" varchar(64) not null,
      "business_day" date not null,
      "over_short" numeric(18,6) not null,
      "closed_at" timestamptz not null,
      primary key ("location_id", "business_day")
    )`);
  }
}

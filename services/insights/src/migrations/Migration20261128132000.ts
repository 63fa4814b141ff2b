import { Migration } from '@bop/shared';

/** insights: scheduled labor — each shift's latest version from scheduling's events, published or not. */
export class Migration20261128132000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "insights"."scheduled_shifts" (
      "shift_id" varchar(64) primary key,
      "version" integer not null,
      "location_id" varchar(64) not null,
      "business_day" date not null,
      "employee_id" varchar(64) null,
      "position" varchar(100) null,
      "paid_hours" numeric(12,4) not null,
      "status" varchar(20) not null
    )`);
    this.addSql(`create index "scheduled_shifts_location_day_idx" on "insights"."scheduled_shifts" ("location_id", "business_day")`);
  }
}

import { Migration } from '@bop/shared';

/** insights: each location's feed of today's KPIs to the team displays (dirty since, last sent). */
export class Migration20261203500000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "insights"."display_feeds" (
      "location_id" varchar(64) primary key,
      "dirty" boolean not null,
      "marked_at" timestamptz not null,
      "sent_at" timestamptz null
    )`);
    this.addSql(`create index "display_feeds_dirty_idx" on "insights"."display_feeds" ("sent_at") where "dirty"`);
  }
}

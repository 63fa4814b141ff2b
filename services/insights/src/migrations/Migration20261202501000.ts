import { Migration } from '@bop/shared';

/** insights: each rebuild of the read models from the bus (`ops insights rebuild`): while one runs, alert rules wait. */
export class Migration20261202501000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "insights"."rebuilds" (
      "id" varchar(64) primary key,
      "started_at" timestamptz not null,
      "finished_at" timestamptz null,
      "events" integer not null default 0,
      "status" varchar(20) not null
    )`);
  }
}

import { Migration } from '@bop/shared';

/** insights: a scheduled shift's start and end instants (staffing per hour against the forecast); null for shifts announced before. */
export class Migration20261203201000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "insights"."scheduled_shifts" add column "starts_at" timestamptz null, add column "ends_at" timestamptz null`);
  }
}

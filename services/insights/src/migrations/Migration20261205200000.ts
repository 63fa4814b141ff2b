import { Migration, trackChangesSql } from '@bop/shared';

/**
 * insights: alert rules, report schedules and recommendations (the two given an updated_at, filled from created_at / resolved_at) track their changes (`change_xid`, its trigger and index; shared/src/changes.ts), so
 * their lists page commit-safe with `updatedSince`. Rows of before keep their data and take this
 * migration's transaction id as their change.
 */
export class Migration20261205200000 extends Migration {
  override async up(): Promise<void> {
    for (const sql of [
      ...trackChangesSql('insights', 'alert_rules'),
      // report schedules change (stopped; each run sets the next period) but had no updated_at: from created_at
      `alter table "insights"."report_schedules" add column if not exists "updated_at" timestamptz null`,
      `update "insights"."report_schedules" set "updated_at" = "created_at" where "updated_at" is null`,
      `alter table "insights"."report_schedules" alter column "updated_at" set not null`,
      ...trackChangesSql('insights', 'report_schedules'),
      // recommendations change (reasoning and figures brought up to date, resolved) but had no updated_at: the latest of created_at and resolved_at
      `alter table "insights"."recommendations" add column if not exists "updated_at" timestamptz null`,
      `update "insights"."recommendations" set "updated_at" = coalesce("resolved_at", "created_at") where "updated_at" is null`,
      `alter table "insights"."recommendations" alter column "updated_at" set not null`,
      ...trackChangesSql('insights', 'recommendations'),
    ])
      this.addSql(sql);
  }
}

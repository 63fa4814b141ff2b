import { Migration, trackChangesSql } from '@bop/shared';

/**
 * communication: announcements, their recipients (given an updated_at), display screens and display metrics track their changes (`change_xid`, its trigger and index; shared/src/changes.ts), so
 * their lists page commit-safe with `updatedSince`. Rows of before keep their data and take this
 * migration's transaction id as their change.
 */
export class Migration20261205200000 extends Migration {
  override async up(): Promise<void> {
    for (const sql of [
      ...trackChangesSql('communication', 'announcements'),
      ...trackChangesSql('communication', 'display_screens'),
      ...trackChangesSql('communication', 'display_metrics'),
      // an announcement's recipients change (acknowledged, reminded, hidden) but had no updated_at: their latest
      // change known, else the announcement's publication
      `alter table "communication"."announcement_recipients" add column if not exists "updated_at" timestamptz null`,
      `update "communication"."announcement_recipients" r set "updated_at" = coalesce(greatest(r."acknowledged_at", r."reminded_at"), a."published_at", a."created_at")
         from "communication"."announcements" a where a."id" = r."announcement_id" and r."updated_at" is null`,
      `update "communication"."announcement_recipients" set "updated_at" = now() where "updated_at" is null`,
      `alter table "communication"."announcement_recipients" alter column "updated_at" set not null`,
      ...trackChangesSql('communication', 'announcement_recipients'),
    ])
      this.addSql(sql);
  }
}

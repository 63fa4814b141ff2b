import { Migration, trackChangesSql } from '@bop/shared';

/**
 * equipment: assets, maintenance plans and work orders track their changes (`change_xid`, its trigger and index; shared/src/changes.ts), so
 * their lists page commit-safe with `updatedSince`. Rows of before keep their data and take this
 * migration's transaction id as their change.
 */
export class Migration20261205200000 extends Migration {
  override async up(): Promise<void> {
    for (const sql of [
      ...trackChangesSql('equipment', 'assets'),
      ...trackChangesSql('equipment', 'maintenance_plans'),
      ...trackChangesSql('equipment', 'work_orders'),
    ])
      this.addSql(sql);
  }
}

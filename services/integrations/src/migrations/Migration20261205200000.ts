import { Migration, trackChangesSql } from '@bop/shared';

/**
 * integrations: integrations track their changes (`change_xid`, its trigger and index; shared/src/changes.ts), so
 * their lists page commit-safe with `updatedSince`. Rows of before keep their data and take this
 * migration's transaction id as their change.
 */
export class Migration20261205200000 extends Migration {
  override async up(): Promise<void> {
    for (const sql of [
      ...trackChangesSql('integrations', 'integrations'),
    ])
      this.addSql(sql);
  }
}

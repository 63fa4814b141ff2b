import { Migration, trackChangesSql } from '@bop/shared';

/**
 * scheduling: shifts, availability, shift swaps, staffing rules and demand drivers track their changes (`change_xid`, its trigger and index; shared/src/changes.ts), so
 * their lists page commit-safe with `updatedSince`. Rows of before keep their data and take this
 * migration's transaction id as their change.
 */
export class Migration20261205200000 extends Migration {
  override async up(): Promise<void> {
    for (const sql of [
      ...trackChangesSql('scheduling', 'shifts'),
      ...trackChangesSql('scheduling', 'availability'),
      ...trackChangesSql('scheduling', 'shift_swaps'),
      ...trackChangesSql('scheduling', 'staffing_rules'),
      ...trackChangesSql('scheduling', 'demand_drivers'),
    ])
      this.addSql(sql);
  }
}

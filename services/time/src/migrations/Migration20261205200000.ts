import { Migration, trackChangesSql } from '@bop/shared';

/**
 * time: timesheets, pay periods, punch corrections, time-off types, policies and requests track their changes (`change_xid`, its trigger and index; shared/src/changes.ts), so
 * their lists page commit-safe with `updatedSince`. Rows of before keep their data and take this
 * migration's transaction id as their change.
 */
export class Migration20261205200000 extends Migration {
  override async up(): Promise<void> {
    for (const sql of [
      ...trackChangesSql('time', 'timesheets'),
      ...trackChangesSql('time', 'pay_periods'),
      ...trackChangesSql('time', 'punch_corrections'),
      ...trackChangesSql('time', 'time_off_types'),
      ...trackChangesSql('time', 'time_off_policies'),
      ...trackChangesSql('time', 'time_off_requests'),
    ])
      this.addSql(sql);
  }
}

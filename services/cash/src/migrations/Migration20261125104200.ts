import { Migration } from '@bop/shared';

/** cash: a bank credit looks for unmatched deposits by their time (deposits/match.ts); matched ones drop out of the index. */
export class Migration20261125104200 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create index "deposits_unmatched_time_idx" on "cash"."deposits" ("deposited_at") where "bank_transaction_id" is null`);
  }
}

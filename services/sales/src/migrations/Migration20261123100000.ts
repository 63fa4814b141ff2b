import { Migration } from '@bop/shared';

/**
 * sales: the transactions' unique key leads with external_id. Every batch looks up its thousand keys
 * (`source = ? and external_id = any(…)`); with the key led by source, a planner whose statistics
 * predate a new source's first load (autovacuum analyses about once a minute) scanned every row of
 * that source and compared each with the whole key list — a cost growing with the rows already
 * loaded. Led by external_id, the only plan is one index probe per key.
 */
export class Migration20261123100000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "sales"."transactions" add constraint "transactions_external_id_source_uq" unique ("external_id", "source")`);
    this.addSql(`alter table "sales"."transactions" drop constraint "transactions_source_external_id_uq"`);
  }
}

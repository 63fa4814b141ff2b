import { Migration } from '@bop/shared';

/** identity: company settings for scheduling: the least rest between two shifts of an employee (10 hours by default). */
export class Migration20261129090000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "identity"."company_settings" add column "min_rest_hours" integer not null default 10 check ("min_rest_hours" between 0 and 24)`);
  }
}

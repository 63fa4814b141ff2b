import { Migration } from '@bop/shared';

/** identity: the company's time zone (IANA, UTC by default): pay periods start and end in it. */
export class Migration20261126100000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "identity"."company_settings" add column "timezone" varchar(64) not null default 'UTC'`);
  }
}

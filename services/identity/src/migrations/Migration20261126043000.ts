import { Migration } from '@bop/shared';

/**
 * identity: company settings for people: the positions employees can work (labels, none by default)
 * and how many days an archived employee's personal fields are kept before people anonymises them
 * (2555, about 7 years, by default).
 */
export class Migration20261126043000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "identity"."company_settings"
        add column "positions" jsonb not null default '[]' check (jsonb_typeof("positions") = 'array'),
        add column "employee_retention_days" integer not null default 2555 check ("employee_retention_days" between 30 and 36500)`,
    );
  }
}

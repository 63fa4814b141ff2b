import { Migration } from '@bop/shared';

/** sales: the org-unit tree and each location's org unit, so org-unit reach resolves to locations */
export class Migration20261122160000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "sales"."org_units" (
      "id" varchar(40) primary key,
      "parent_id" varchar(40) null,
      "status" varchar(20) not null,
      "updated_at" timestamptz not null
    )`);
    this.addSql(`create index "org_units_parent_idx" on "sales"."org_units" ("parent_id")`);
    this.addSql(`alter table "sales"."locations" add column "org_unit_id" varchar(40) null`);
    this.addSql(`create index "locations_org_unit_idx" on "sales"."locations" ("org_unit_id")`);
  }
}

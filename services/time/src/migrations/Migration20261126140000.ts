import { Migration, orgReplicaTablesSql } from '@bop/shared';

/** time: the organization replica, and the break and overtime rules of the company and of locations (rules as data). */
export class Migration20261126140000 extends Migration {
  override async up(): Promise<void> {
    for (const sql of orgReplicaTablesSql('time')) this.addSql(sql);
    this.addSql(`create table "time"."rule_sets" (
      "id" varchar(60) primary key,
      "kind" varchar(10) not null check ("kind" in ('break','overtime')),
      "location_id" varchar(40) null,
      "rules" jsonb not null,
      "version" integer not null default 1,
      "updated_at" timestamptz not null,
      "updated_by" jsonb not null
    )`);
    this.addSql(`create unique index "rule_sets_scope_uq" on "time"."rule_sets" ("kind", coalesce("location_id", ''))`);
  }
}

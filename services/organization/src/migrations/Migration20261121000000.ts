import { Migration, outboxTableSql } from '@bop/shared';

export class Migration20261121000000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "organization"."org_units" (
      "id" varchar(40) primary key,
      "name" varchar(200) not null,
      "kind" varchar(60) null,
      "parent_id" varchar(40) null references "organization"."org_units" ("id"),
      "status" varchar(20) not null default 'active' check ("status" in ('active','archived')),
      "version" integer not null default 1,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null
    )`);
    this.addSql(`create index "org_units_parent_idx" on "organization"."org_units" ("parent_id")`);
    this.addSql(`create table "organization"."locations" (
      "id" varchar(40) primary key,
      "name" varchar(200) not null,
      "external_id" varchar(200) null,
      "timezone" varchar(64) not null,
      "business_day_cutoff" char(5) not null,
      "org_unit_id" varchar(40) null references "organization"."org_units" ("id"),
      "address" jsonb null,
      "status" varchar(20) not null default 'active' check ("status" in ('active','archived')),
      "version" integer not null default 1,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null,
      "archived_at" timestamptz null
    )`);
    this.addSql(`create unique index "locations_external_id_uq" on "organization"."locations" ("external_id") where "external_id" is not null`);
    this.addSql(`create index "locations_org_unit_idx" on "organization"."locations" ("org_unit_id")`);
    this.addSql(`create index "locations_updated_at_idx" on "organization"."locations" ("updated_at")`);
    this.addSql(`create table "organization"."departments" (
      "id" varchar(40) primary key,
      "name" varchar(200) not null,
      "code" varchar(40) null,
      "location_id" varchar(40) null references "organization"."locations" ("id"),
      "status" varchar(20) not null default 'active' check ("status" in ('active','archived')),
      "version" integer not null default 1,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null
    )`);
    this.addSql(`create index "departments_location_idx" on "organization"."departments" ("location_id")`);
    for (const sql of outboxTableSql('organization')) this.addSql(sql);
  }
}

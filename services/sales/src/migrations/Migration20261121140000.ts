import { Migration } from '@bop/shared';

export class Migration20261121140000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "sales"."locations" (
      "id" varchar(40) primary key,
      "external_id" varchar(200) null,
      "timezone" varchar(64) not null,
      "business_day_cutoff" char(5) not null,
      "status" varchar(20) not null,
      "updated_at" timestamptz not null
    )`);
    this.addSql(`create unique index "locations_external_id_uq" on "sales"."locations" ("external_id") where "external_id" is not null`);
    this.addSql(`create table "sales"."transactions" (
      "id" varchar(40) primary key,
      "source" varchar(100) not null,
      "external_id" varchar(200) not null,
      "location_id" varchar(40) not null,
      "occurred_at" timestamptz not null,
      "business_day" date not null,
      "type" varchar(10) not null check ("type" in ('sale','refund')),
      "status" varchar(10) not null check ("status" in ('completed','voided')),
      "channel" varchar(40) null,
      "register_id" varchar(100) null,
      "employee_external_id" varchar(200) null,
      "subtotal" numeric(18,6) not null,
      "tax" numeric(18,6) not null,
      "total" numeric(18,6) not null,
      "currency" char(3) not null,
      "refund_of" varchar(200) null,
      "lines" jsonb not null,
      "tenders" jsonb not null,
      "content_hash" char(64) not null,
      "version" integer not null default 1,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null,
      constraint "transactions_source_external_id_uq" unique ("source", "external_id")
    )`);
    this.addSql(`create index "transactions_location_day_idx" on "sales"."transactions" ("location_id", "business_day")`);
    this.addSql(`create index "transactions_updated_at_idx" on "sales"."transactions" ("updated_at")`);
  }
}

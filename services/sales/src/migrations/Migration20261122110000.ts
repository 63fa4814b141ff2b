import { Migration } from '@bop/shared';

/** sales: summaries (ingested and built), source modes (spec: ingestion rule 9), days waiting for a rebuild */
export class Migration20261122110000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "sales"."summaries" (
      "id" varchar(40) primary key,
      "source" varchar(100) not null,
      "external_id" varchar(200) not null,
      "origin" varchar(10) not null check ("origin" in ('ingested','built')),
      "location_id" varchar(40) not null,
      "business_day" date null,
      "period_start" timestamptz not null,
      "period_end" timestamptz not null,
      "currency" char(3) null,
      "gross_sales" numeric(18,6) not null,
      "discounts" numeric(18,6) not null,
      "net_sales" numeric(18,6) not null,
      "tax" numeric(18,6) not null,
      "transactions" integer not null check ("transactions" >= 0),
      "guests" integer null check ("guests" >= 0),
      "by_channel" jsonb not null default '[]',
      "content_hash" char(64) not null,
      "version" integer not null default 1,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null,
      constraint "summaries_source_external_id_uq" unique ("source", "external_id"),
      constraint "summaries_period_ck" check ("period_end" > "period_start"),
      constraint "summaries_built_day_ck" check (("origin" = 'built') = ("business_day" is not null))
    )`);
    this.addSql(`create unique index "summaries_built_day_uq" on "sales"."summaries" ("location_id", "source", "business_day", "currency") where "origin" = 'built'`);
    this.addSql(`create index "summaries_location_period_idx" on "sales"."summaries" ("location_id", "source", "period_start")`);
    this.addSql(`create index "summaries_period_idx" on "sales"."summaries" ("period_start")`);
    // spec: ingestion rule 9, each (location, source) sends either transactions or summaries, claimed by its first write
    this.addSql(`create table "sales"."source_modes" (
      "location_id" varchar(40) not null,
      "source" varchar(100) not null,
      "mode" varchar(12) not null check ("mode" in ('transactions','summaries')),
      "claimed_at" timestamptz not null,
      primary key ("location_id", "source")
    )`);
    // append-only markers (no conflicts on the batch's hot path); the worker drains and coalesces them
    this.addSql(`create table "sales"."summary_rebuilds" (
      "id" bigint generated always as identity primary key,
      "location_id" varchar(40) not null,
      "source" varchar(100) not null,
      "business_day" date not null,
      "requested_at" timestamptz not null
    )`);
  }
}

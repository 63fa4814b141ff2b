import { Migration } from '@bop/shared';

/** sales: closed business days replica (from cash) and the review queue of held records (spec: ingestion rule 7) */
export class Migration20261122120000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "sales"."closed_days" (
      "location_id" varchar(40) not null,
      "business_day" date not null,
      "status" varchar(10) not null check ("status" in ('closed','open')),
      "closed_at" timestamptz null,
      "reopened_at" timestamptz null,
      "updated_at" timestamptz not null,
      primary key ("location_id", "business_day")
    )`);
    this.addSql(`create table "sales"."review_items" (
      "id" varchar(40) primary key,
      "source" varchar(100) not null,
      "external_id" varchar(200) not null,
      "transaction_id" varchar(40) not null,
      "location_id" varchar(40) not null,
      "business_day" date not null,
      "previous_business_day" date null,
      "kind" varchar(10) not null check ("kind" in ('new','change')),
      "row" jsonb not null,
      "content_hash" char(64) not null,
      "status" varchar(12) not null check ("status" in ('pending','accepted','rejected')),
      "reason" text not null,
      "warnings" jsonb not null default '[]',
      "version" integer not null default 1,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null,
      "decided_at" timestamptz null,
      "decided_by" varchar(64) null,
      "decision_note" text null,
      constraint "review_items_decided_ck" check (("status" = 'pending') = ("decided_at" is null))
    )`);
    // at most one pending item per record of a source: a re-send replaces it (the upsert's conflict target)
    this.addSql(`create unique index "review_items_pending_uq" on "sales"."review_items" ("source", "external_id") where "status" = 'pending'`);
    // refunds of an original (over-refund warning): looked up per batch, never a scan
    this.addSql(`create index "transactions_refund_of_idx" on "sales"."transactions" ("source", "refund_of") where "refund_of" is not null`);
    this.addSql(`create index "review_items_status_location_idx" on "sales"."review_items" ("status", "location_id", "id")`);
  }
}

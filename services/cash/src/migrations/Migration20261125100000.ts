import { Migration, orgReplicaTablesSql } from '@bop/shared';

/**
 * cash: the organization replica, business days (with the figures locked at close), the tenders
 * sales' transactions bring (per transaction version), tender totals, counts, over/short thresholds,
 * deposits, bank transactions and settlements. Money is numeric(15,2).
 */
export class Migration20261125100000 extends Migration {
  override async up(): Promise<void> {
    for (const sql of orgReplicaTablesSql('cash')) this.addSql(sql);
    this.addSql(`create table "cash"."business_days" (
      "location_id" varchar(40) not null,
      "business_day" date not null,
      "status" varchar(10) not null default 'open' check ("status" in ('open','closed')),
      "figures" jsonb null,
      "closed_at" timestamptz null,
      "closed_by" jsonb null,
      "close_note" varchar(2000) null,
      "reopened_at" timestamptz null,
      "reopened_by" jsonb null,
      "reopen_reason" varchar(2000) null,
      "version" integer not null default 1,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null,
      primary key ("location_id", "business_day"),
      check (("status" = 'closed') = ("figures" is not null))
    )`);
    // each sales transaction's tenders (newest version only; a voided one: none), summed per drawer, tender type and platform when a day is read
    this.addSql(`create table "cash"."sales_transactions" (
      "id" varchar(40) primary key,
      "location_id" varchar(40) not null,
      "business_day" date not null,
      "drawer_id" varchar(100) null,
      "version" integer not null,
      "status" varchar(20) not null,
      "tenders" jsonb not null,
      "late_review" jsonb null,
      "updated_at" timestamptz not null
    )`);
    this.addSql(`create index "sales_transactions_day_idx" on "cash"."sales_transactions" ("location_id", "business_day")`);
    this.addSql(`create table "cash"."tender_totals" (
      "id" varchar(40) primary key,
      "source" varchar(100) not null,
      "external_id" varchar(200) not null,
      "content_hash" varchar(64) not null,
      "version" integer not null default 1,
      "location_id" varchar(40) not null,
      "business_day" date not null,
      "drawer_id" varchar(100) null,
      "shift_id" varchar(100) null,
      "tender_type" varchar(20) not null,
      "platform" varchar(100) null,
      "amount" numeric(15,2) not null,
      "transaction_count" integer null,
      "late_review" jsonb null,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null,
      unique ("external_id", "source")
    )`);
    this.addSql(`create index "tender_totals_day_idx" on "cash"."tender_totals" ("location_id", "business_day")`);
    this.addSql(`create table "cash"."counts" (
      "id" varchar(40) primary key,
      "location_id" varchar(40) not null,
      "business_day" date not null,
      "type" varchar(10) not null check ("type" in ('drawer','skim','safe')),
      "drawer_id" varchar(100) null,
      "counted_at" timestamptz not null,
      "amount" numeric(15,2) not null,
      "denominations" jsonb not null default '[]',
      "opening_float" numeric(15,2) null,
      "expected" numeric(15,2) null,
      "over_short" numeric(15,2) null,
      "threshold" jsonb null,
      "exceeded" boolean not null default false,
      "explanation" varchar(2000) null,
      "note" varchar(2000) null,
      "counted_by" jsonb not null,
      "created_at" timestamptz not null
    )`);
    this.addSql(`create index "counts_day_idx" on "cash"."counts" ("location_id", "business_day")`);
    this.addSql(`create index "counts_location_time_idx" on "cash"."counts" ("location_id", "counted_at")`);
    this.addSql(`create table "cash"."over_short_thresholds" (
      "id" integer primary key check ("id" = 1),
      "thresholds" jsonb not null default '[]',
      "version" integer not null default 0,
      "updated_at" timestamptz null
    )`);
    this.addSql(`insert into "cash"."over_short_thresholds" ("id") values (1)`);
    this.addSql(`create table "cash"."deposits" (
      "id" varchar(40) primary key,
      "location_id" varchar(40) not null,
      "business_days" jsonb not null,
      "amount" numeric(15,2) not null,
      "deposited_at" timestamptz not null,
      "reference" varchar(100) null,
      "bank_account" varchar(100) null,
      "note" varchar(2000) null,
      "match_status" varchar(20) not null default 'unmatched' check ("match_status" in ('unmatched','matched','mismatched')),
      "bank_transaction_id" varchar(40) null,
      "matched_by" varchar(20) null,
      "matched_at" timestamptz null,
      "recorded_by" jsonb not null,
      "version" integer not null default 1,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null
    )`);
    this.addSql(`create index "deposits_location_idx" on "cash"."deposits" ("location_id", "deposited_at")`);
    this.addSql(`create unique index "deposits_bank_transaction_uq" on "cash"."deposits" ("bank_transaction_id") where "bank_transaction_id" is not null`);
    this.addSql(`create table "cash"."bank_transactions" (
      "id" varchar(40) primary key,
      "source" varchar(100) not null,
      "external_id" varchar(200) not null,
      "content_hash" varchar(64) not null,
      "version" integer not null default 1,
      "account_id" varchar(100) null,
      "booked_on" date not null,
      "amount" numeric(15,2) not null,
      "reference" varchar(300) null,
      "description" varchar(1000) null,
      "location_id" varchar(40) null,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null,
      unique ("external_id", "source")
    )`);
    this.addSql(`create index "bank_transactions_booked_idx" on "cash"."bank_transactions" ("booked_on")`);
    this.addSql(`create table "cash"."settlements" (
      "id" varchar(40) primary key,
      "source" varchar(100) not null,
      "external_id" varchar(200) not null,
      "content_hash" varchar(64) not null,
      "version" integer not null default 1,
      "location_id" varchar(40) not null,
      "kind" varchar(20) not null check ("kind" in ('card','platform')),
      "processor" varchar(100) not null,
      "platform" varchar(100) null,
      "tender_types" jsonb not null,
      "gross" numeric(15,2) not null,
      "fees" numeric(15,2) not null,
      "net" numeric(15,2) not null,
      "paid_on" date not null,
      "business_days" jsonb not null,
      "reference" varchar(300) null,
      "expected_gross" numeric(15,2) not null default 0,
      "difference" numeric(15,2) not null default 0,
      "match_status" varchar(20) not null default 'mismatched' check ("match_status" in ('matched','mismatched')),
      "matched_at" timestamptz not null,
      "late_review" jsonb null,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null,
      unique ("external_id", "source")
    )`);
    this.addSql(`create index "settlements_location_idx" on "cash"."settlements" ("location_id", "paid_on")`);
    this.addSql(`create index "settlements_days_idx" on "cash"."settlements" using gin ("business_days")`);
  }
}

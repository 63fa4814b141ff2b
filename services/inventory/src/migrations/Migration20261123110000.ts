import { Migration, orgReplicaTablesSql } from '@bop/shared';

/**
 * inventory: the organization replica, items and their reference data, the stock ledger and the
 * levels derived from it, usage recipes and applied depletions, counts and transfers.
 * Quantities are numeric(20,6) in the item's base unit; costs numeric(20,6) per base unit.
 */
export class Migration20261123110000 extends Migration {
  override async up(): Promise<void> {
    for (const sql of orgReplicaTablesSql('inventory')) this.addSql(sql);
    this.addSql(`create table "inventory"."item_categories" (
      "id" varchar(40) primary key,
      "name" varchar(200) not null,
      "parent_id" varchar(40) null references "inventory"."item_categories" ("id"),
      "status" varchar(20) not null default 'active' check ("status" in ('active','archived')),
      "version" integer not null default 1,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null
    )`);
    this.addSql(`create table "inventory"."items" (
      "id" varchar(40) primary key,
      "external_id" varchar(200) null,
      "sku" varchar(100) null,
      "barcodes" text[] not null default '{}',
      "name" varchar(300) not null,
      "category_id" varchar(40) null references "inventory"."item_categories" ("id"),
      "base_unit" varchar(10) not null check ("base_unit" in ('each','g','ml')),
      "cost" numeric(20,6) null,
      "status" varchar(20) not null default 'active' check ("status" in ('active','archived')),
      "archived_at" timestamptz null,
      "version" integer not null default 1,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null
    )`);
    this.addSql(`create unique index "items_external_id_uq" on "inventory"."items" ("external_id") where "external_id" is not null`);
    this.addSql(`create index "items_updated_at_idx" on "inventory"."items" ("updated_at")`);
    this.addSql(`create table "inventory"."units_of_measure" (
      "id" varchar(40) primary key,
      "name" varchar(100) not null,
      "base_unit" varchar(10) not null check ("base_unit" in ('each','g','ml')),
      "factor" numeric(20,6) not null check ("factor" > 0),
      "item_id" varchar(40) null references "inventory"."items" ("id"),
      "version" integer not null default 1,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null
    )`);
    this.addSql(`create table "inventory"."storage_areas" (
      "id" varchar(40) primary key,
      "location_id" varchar(40) not null,
      "name" varchar(100) not null,
      "counting_order" integer not null default 0,
      "item_ids" jsonb not null default '[]',
      "status" varchar(20) not null default 'active' check ("status" in ('active','archived')),
      "version" integer not null default 1,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null
    )`);
    this.addSql(`create index "storage_areas_location_idx" on "inventory"."storage_areas" ("location_id", "counting_order")`);
    // derived from the ledger: written only by ledger/post.ts, in the same transaction as the movements
    this.addSql(`create table "inventory"."stock_levels" (
      "item_id" varchar(40) not null references "inventory"."items" ("id"),
      "location_id" varchar(40) not null,
      "on_hand" numeric(20,6) not null default 0,
      "reserved" numeric(20,6) not null default 0,
      "average_cost" numeric(20,6) null,
      "par_level" numeric(20,6) null,
      "reorder_point" numeric(20,6) null,
      "version" integer not null default 0,
      "updated_at" timestamptz not null,
      primary key ("item_id", "location_id")
    )`);
    this.addSql(`create index "stock_levels_location_idx" on "inventory"."stock_levels" ("location_id", "item_id")`);
    this.addSql(`create index "stock_levels_updated_at_idx" on "inventory"."stock_levels" ("updated_at")`);
    // the append-only ledger: never updated, never deleted
    this.addSql(`create table "inventory"."stock_movements" (
      "seq" bigserial not null unique,
      "id" varchar(40) primary key,
      "item_id" varchar(40) not null references "inventory"."items" ("id"),
      "location_id" varchar(40) not null,
      "type" varchar(20) not null check ("type" in ('receipt','sale','refund','void_reversal','waste','adjustment','count_variance','transfer_out','transfer_in','reservation','release','shipment')),
      "quantity" numeric(20,6) not null,
      "reserved_change" numeric(20,6) not null default 0,
      "on_hand_after" numeric(20,6) not null,
      "reserved_after" numeric(20,6) not null,
      "unit_cost" numeric(20,6) null,
      "value" numeric(20,6) null,
      "cause_type" varchar(30) not null,
      "cause_id" varchar(64) not null,
      "reason" varchar(40) null,
      "note" varchar(2000) null,
      "business_day" date null,
      "occurred_at" timestamptz not null,
      "created_at" timestamptz not null,
      "actor" jsonb not null
    )`);
    this.addSql(`create index "stock_movements_item_location_idx" on "inventory"."stock_movements" ("item_id", "location_id", "seq")`);
    this.addSql(`create index "stock_movements_location_idx" on "inventory"."stock_movements" ("location_id", "seq")`);
    this.addSql(`create index "stock_movements_cause_idx" on "inventory"."stock_movements" ("cause_type", "cause_id")`);
    this.addSql(`create table "inventory"."stock_documents" (
      "id" varchar(40) primary key,
      "kind" varchar(20) not null check ("kind" in ('adjustment','waste')),
      "location_id" varchar(40) not null,
      "reason" varchar(40) not null,
      "note" varchar(2000) null,
      "lines" jsonb not null,
      "occurred_at" timestamptz not null,
      "business_day" date not null,
      "created_at" timestamptz not null,
      "actor" jsonb not null
    )`);
    this.addSql(`create index "stock_documents_kind_location_idx" on "inventory"."stock_documents" ("kind", "location_id", "occurred_at")`);
    this.addSql(`create table "inventory"."usage_recipes" (
      "item_id" varchar(40) primary key references "inventory"."items" ("id"),
      "components" jsonb not null,
      "version" integer not null default 1,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null
    )`);
    // what the depletion of each sales transaction has written so far (per ingredient), to apply a newer version as a difference
    this.addSql(`create table "inventory"."sale_depletions" (
      "transaction_id" varchar(40) primary key,
      "location_id" varchar(40) not null,
      "version" integer not null,
      "applied" jsonb not null,
      "updated_at" timestamptz not null
    )`);
    this.addSql(`create table "inventory"."stock_counts" (
      "id" varchar(40) primary key,
      "location_id" varchar(40) not null,
      "status" varchar(20) not null check ("status" in ('open','posted','cancelled')),
      "counted_at" timestamptz not null,
      "lines" jsonb not null,
      "note" varchar(2000) null,
      "posted_at" timestamptz null,
      "cancelled_at" timestamptz null,
      "version" integer not null default 1,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null,
      "actor" jsonb not null
    )`);
    this.addSql(`create index "stock_counts_location_idx" on "inventory"."stock_counts" ("location_id", "counted_at")`);
    this.addSql(`create table "inventory"."transfers" (
      "id" varchar(40) primary key,
      "from_location_id" varchar(40) not null,
      "to_location_id" varchar(40) not null,
      "status" varchar(30) not null check ("status" in ('in_transit','received','received_with_discrepancy')),
      "lines" jsonb not null,
      "note" varchar(2000) null,
      "sent_at" timestamptz not null,
      "received_at" timestamptz null,
      "version" integer not null default 1,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null,
      "actor" jsonb not null
    )`);
    this.addSql(`create index "transfers_from_idx" on "inventory"."transfers" ("from_location_id", "sent_at")`);
    this.addSql(`create index "transfers_to_idx" on "inventory"."transfers" ("to_location_id", "sent_at")`);
  }
}

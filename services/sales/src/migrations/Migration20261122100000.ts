import { Migration } from '@bop/shared';

/** sales: items replica (from inventory's item events) and the unmapped-items queue, whose mapped entries are the item mappings */
export class Migration20261122100000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "sales"."items" (
      "id" varchar(64) primary key,
      "sku" varchar(100) null,
      "barcodes" text[] not null default '{}',
      "external_id" varchar(200) null,
      "name" varchar(300) not null,
      "status" varchar(20) not null check ("status" in ('active','archived')),
      "updated_at" timestamptz not null
    )`);
    this.addSql(`create index "items_external_id_idx" on "sales"."items" ("external_id") where "external_id" is not null`);
    this.addSql(`create index "items_sku_idx" on "sales"."items" ("sku") where "sku" is not null`);
    this.addSql(`create index "items_barcodes_idx" on "sales"."items" using gin ("barcodes")`);
    this.addSql(`create table "sales"."unmapped_items" (
      "id" varchar(40) primary key,
      "source" varchar(100) not null,
      "ref_field" varchar(20) not null check ("ref_field" in ('itemExternalId','itemSku','itemBarcode')),
      "ref_value" varchar(200) not null,
      "item_external_id" varchar(200) null,
      "item_sku" varchar(100) null,
      "item_barcode" varchar(100) null,
      "sample_names" text[] not null default '{}',
      "transaction_count" integer not null,
      "first_seen_at" timestamptz not null,
      "last_seen_at" timestamptz not null,
      "location_ids" text[] not null default '{}',
      "status" varchar(10) not null check ("status" in ('open','mapped')),
      "item_id" varchar(64) null,
      "mapped_at" timestamptz null,
      "mapped_by" jsonb null,
      "version" integer not null default 1,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null,
      constraint "unmapped_items_pos_item_uq" unique ("source", "ref_field", "ref_value"),
      constraint "unmapped_items_mapped_ck" check (("status" = 'mapped') = ("item_id" is not null))
    )`);
    this.addSql(`create index "unmapped_items_status_idx" on "sales"."unmapped_items" ("status", "id")`);
    this.addSql(`create index "unmapped_items_location_ids_idx" on "sales"."unmapped_items" using gin ("location_ids")`);
  }
}

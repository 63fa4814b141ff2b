import { Migration } from '@bop/shared';

/**
 * insights: stock flows per location, business day, item and flow (inventory's `inventory.movements.posted`),
 * stock levels (`stock.level_changed`), item names, purchase prices per receipt line
 * (`purchasing.receipt.recorded`), purchase orders still to arrive (`purchase_order.*`) and recommendations.
 */
export class Migration20261202600000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "insights"."stock_flows" (
      "id" varchar(300) primary key,
      "location_id" varchar(64) not null,
      "business_day" date not null,
      "item_id" varchar(64) not null,
      "flow" varchar(20) not null,
      "quantity" numeric(24,6) not null,
      "value" numeric(24,6) not null,
      "unvalued" int not null
    )`);
    this.addSql(`create index "stock_flows_location_day_idx" on "insights"."stock_flows" ("location_id", "business_day")`);
    this.addSql(`create table "insights"."stock_levels" (
      "id" varchar(200) primary key,
      "item_id" varchar(64) not null,
      "location_id" varchar(64) not null,
      "on_hand" numeric(24,6) not null,
      "average_cost" numeric(24,6) null,
      "value" numeric(24,6) null,
      "version" int not null,
      "updated_at" timestamptz not null
    )`);
    this.addSql(`create index "stock_levels_location_idx" on "insights"."stock_levels" ("location_id")`);
    this.addSql(`create table "insights"."items" (
      "id" varchar(64) primary key,
      "name" varchar(500) not null,
      "base_unit" varchar(10) not null,
      "updated_at" timestamptz not null
    )`);
    this.addSql(`create table "insights"."purchase_prices" (
      "id" varchar(100) primary key,
      "receipt_id" varchar(64) not null,
      "purchase_order_id" varchar(64) not null,
      "supplier_id" varchar(64) not null,
      "location_id" varchar(64) not null,
      "item_id" varchar(64) not null,
      "received_at" timestamptz not null,
      "business_day" date null,
      "quantity" numeric(24,6) not null,
      "unit_cost" numeric(24,6) not null,
      "value" numeric(24,6) not null
    )`);
    this.addSql(`create index "purchase_prices_location_day_idx" on "insights"."purchase_prices" ("location_id", "business_day")`);
    this.addSql(`create index "purchase_prices_supplier_item_idx" on "insights"."purchase_prices" ("supplier_id", "item_id", "received_at")`);
    this.addSql(`create table "insights"."purchase_orders" (
      "id" varchar(64) primary key,
      "supplier_id" varchar(64) not null,
      "location_id" varchar(64) not null,
      "status" varchar(30) not null,
      "expected_delivery_date" date null,
      "outstanding" jsonb not null,
      "version" int not null
    )`);
    this.addSql(`create index "purchase_orders_location_idx" on "insights"."purchase_orders" ("location_id", "status")`);
    this.addSql(`create table "insights"."recommendations" (
      "id" varchar(64) primary key,
      "key" varchar(400) not null,
      "kind" varchar(40) not null,
      "location_id" varchar(64) not null,
      "item_id" varchar(64) null,
      "supplier_id" varchar(64) null,
      "status" varchar(20) not null,
      "reasoning" text not null,
      "figures" jsonb not null,
      "created_at" timestamptz not null,
      "resolved_at" timestamptz null
    )`);
    this.addSql(`create unique index "recommendations_open_key_uq" on "insights"."recommendations" ("key") where "status" = 'open'`);
    this.addSql(`create index "recommendations_location_idx" on "insights"."recommendations" ("location_id", "id")`);
  }
}

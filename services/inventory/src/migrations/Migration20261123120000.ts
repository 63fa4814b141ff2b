import { Migration } from '@bop/shared';

/**
 * inventory, items area: its own constraints and indexes beyond the core schema (Migration20261123110000).
 * Uniqueness the handlers check is also guaranteed here, so a write that races past a check fails
 * on an index (and is answered with the same 409) instead of storing a duplicate.
 */
export class Migration20261123120000 extends Migration {
  override async up(): Promise<void> {
    // items: SKU unique among active items (exact, as POS lines match it); lookups by SKU, barcode, category
    this.addSql(`create unique index "items_active_sku_uq" on "inventory"."items" ("sku") where "status" = 'active' and "sku" is not null`);
    this.addSql(`create index "items_sku_idx" on "inventory"."items" ("sku") where "sku" is not null`);
    this.addSql(`create index "items_barcodes_idx" on "inventory"."items" using gin ("barcodes")`);
    this.addSql(`create index "items_category_idx" on "inventory"."items" ("category_id") where "category_id" is not null`);
    this.addSql(`alter table "inventory"."items" add constraint "items_cost_check" check ("cost" is null or "cost" >= 0)`);

    // each barcode on at most one active item: an index cannot reach into an array, so the active
    // items' barcodes are kept one per row by a trigger, whatever writes the item
    this.addSql(`create table "inventory"."item_barcodes" (
      "barcode" varchar(100) primary key,
      "item_id" varchar(40) not null references "inventory"."items" ("id") on delete cascade
    )`);
    this.addSql(`create index "item_barcodes_item_idx" on "inventory"."item_barcodes" ("item_id")`);
    this.addSql(`create function "inventory"."item_barcodes_sync"() returns trigger language plpgsql as $$
      begin
        delete from "inventory"."item_barcodes" where "item_id" = new."id";
        if new."status" = 'active' then
          insert into "inventory"."item_barcodes" ("barcode", "item_id")
          select distinct b, new."id" from unnest(new."barcodes") as b order by 1;
        end if;
        return null;
      end
    $$`);
    this.addSql(`create trigger "items_barcodes_sync" after insert or update of "barcodes", "status" on "inventory"."items"
      for each row execute function "inventory"."item_barcodes_sync"()`);

    // categories: name unique among active ones, case-insensitive
    this.addSql(`create unique index "item_categories_active_name_uq" on "inventory"."item_categories" (lower("name")) where "status" = 'active'`);
    this.addSql(`create index "item_categories_parent_idx" on "inventory"."item_categories" ("parent_id") where "parent_id" is not null`);

    // units of measure: a name is unique among company-wide units and within one item's units
    this.addSql(`create unique index "units_of_measure_company_name_uq" on "inventory"."units_of_measure" (lower("name")) where "item_id" is null`);
    this.addSql(`create unique index "units_of_measure_item_name_uq" on "inventory"."units_of_measure" ("item_id", lower("name")) where "item_id" is not null`);

    // storage areas: name unique among a location's active areas, case-insensitive
    this.addSql(`create unique index "storage_areas_active_name_uq" on "inventory"."storage_areas" ("location_id", lower("name")) where "status" = 'active'`);
    this.addSql(`alter table "inventory"."storage_areas" add constraint "storage_areas_counting_order_check" check ("counting_order" >= 0)`);
  }
}

import { Migration } from '@bop/shared';

/** inventory, counts area: its own constraints and indexes beyond the core schema (Migration20261123110000) */
export class Migration20261123150000 extends Migration {
  override async up(): Promise<void> {
    // per item: counted, expected, variance and its value, frozen when the count is posted or cancelled
    this.addSql(`alter table "inventory"."stock_counts" add column "results" jsonb null`);
    this.addSql(`alter table "inventory"."stock_counts" add column "cancel_reason" varchar(500) null`);
    this.addSql(`alter table "inventory"."stock_counts" add constraint "stock_counts_final_ck" check (
      ("status" = 'open' and "results" is null and "posted_at" is null and "cancelled_at" is null)
      or ("status" = 'posted' and "results" is not null and "posted_at" is not null and "cancelled_at" is null)
      or ("status" = 'cancelled' and "results" is not null and "cancelled_at" is not null and "posted_at" is null))`);
    this.addSql(`create index "stock_counts_status_idx" on "inventory"."stock_counts" ("status", "location_id")`);
    // expected on hand at a count's instant = on hand − the movements after it: found without summing an item's whole history
    this.addSql(`create index "stock_movements_item_location_occurred_idx" on "inventory"."stock_movements" ("item_id", "location_id", "occurred_at") include ("quantity")`);
  }
}

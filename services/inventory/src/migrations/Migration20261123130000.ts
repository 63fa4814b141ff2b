import { Migration } from '@bop/shared';

/** inventory, stock area: its own constraints and indexes beyond the core schema (Migration20261123110000) */
export class Migration20261123130000 extends Migration {
  override async up(): Promise<void> {
    // the reasons of each kind (contracts: AdjustmentReason, WasteReason); documents always have lines
    this.addSql(`alter table "inventory"."stock_documents" add constraint "stock_documents_reason_ck" check (
      ("kind" = 'adjustment' and "reason" in ('found','lost','damaged','correction','opening_balance','other'))
      or ("kind" = 'waste' and "reason" in ('spoiled','expired','damaged','overproduction','theft','other')))`);
    this.addSql(`alter table "inventory"."stock_documents" add constraint "stock_documents_lines_ck" check (jsonb_typeof("lines") = 'array' and jsonb_array_length("lines") > 0)`);
    // lists: in id order per kind (and location); filter itemId by containment of a line
    this.addSql(`create index "stock_documents_kind_id_idx" on "inventory"."stock_documents" ("kind", "id")`);
    this.addSql(`create index "stock_documents_kind_location_id_idx" on "inventory"."stock_documents" ("kind", "location_id", "id")`);
    this.addSql(`create index "stock_documents_lines_idx" on "inventory"."stock_documents" using gin ("lines" jsonb_path_ops)`);
    this.addSql(`alter table "inventory"."stock_levels" add constraint "stock_levels_par_level_ck" check ("par_level" is null or "par_level" >= 0)`);
    this.addSql(`alter table "inventory"."stock_levels" add constraint "stock_levels_reorder_point_ck" check ("reorder_point" is null or "reorder_point" >= 0)`);
    // GET /stock-levels pages by (updated_at, item_id, location_id): this index serves it and the
    // updatedSince filter, so the core's single-column one would only cost every level update
    this.addSql(`create index "stock_levels_poll_idx" on "inventory"."stock_levels" ("updated_at", "item_id", "location_id")`);
    this.addSql(`drop index "inventory"."stock_levels_updated_at_idx"`);
  }
}

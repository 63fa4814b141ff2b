import { Migration } from '@bop/shared';

/**
 * inventory, recipes area: its own constraints and indexes beyond the core schema (Migration20261123110000).
 * A removed recipe keeps its row with no components (its version goes on for If-Match).
 */
export class Migration20261123140000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "inventory"."usage_recipes" add constraint "usage_recipes_components_check" check (jsonb_typeof("components") = 'array')`);
    this.addSql(`alter table "inventory"."usage_recipes" add constraint "usage_recipes_version_check" check ("version" >= 1)`);
    // "which recipes use this item" (nesting depth and cycles on PUT): components @> '[{"itemId": …}]'
    this.addSql(`create index "usage_recipes_components_idx" on "inventory"."usage_recipes" using gin ("components" jsonb_path_ops)`);
    // version 0: created and locked by the depletion of its first delivery, nothing applied yet
    this.addSql(`alter table "inventory"."sale_depletions" add constraint "sale_depletions_version_check" check ("version" >= 0)`);
    this.addSql(`alter table "inventory"."sale_depletions" add constraint "sale_depletions_applied_check" check (jsonb_typeof("applied") = 'object')`);
  }
}

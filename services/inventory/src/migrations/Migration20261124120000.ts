import { Migration } from '@bop/shared';

/**
 * The value of stock on hand is kept with each level — the sum of its movements' values — instead of
 * derived as on hand × a six-decimal average cost: a receipt of 3 cases at 14.00 (18 000 ml) is worth
 * 42.00, not 18 000 × 0.002333 = 41.994. Existing levels start from on hand × average cost.
 */
export class Migration20261124120000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "inventory"."stock_levels" add column "stock_value" numeric(20,6) null`);
    this.addSql(`update "inventory"."stock_levels" set "stock_value" = round("on_hand" * "average_cost", 6) where "average_cost" is not null`);
  }
}

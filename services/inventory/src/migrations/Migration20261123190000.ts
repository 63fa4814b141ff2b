import { Migration } from '@bop/shared';

/**
 * inventory: the ledger's rows check their item once per posting, not once per row. The foreign key
 * from stock_movements to items ran a lookup per inserted movement (depleting a busy kitchen's sales
 * writes tens of thousands a second); `postMovements` only writes after locking each movement's
 * level, and stock_levels keeps its foreign key to items — so every movement's item exists.
 */
export class Migration20261123190000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "inventory"."stock_movements" drop constraint if exists "stock_movements_item_id_fkey"`);
  }
}

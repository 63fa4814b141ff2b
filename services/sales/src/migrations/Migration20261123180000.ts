import { Migration } from '@bop/shared';

/** sales: what inventory holds for an online order (`:reserve`) and its shipment (`:ship`: carrier, tracking, stock deducted). */
export class Migration20261123180000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "sales"."orders" add column "reservations" jsonb not null default '[]', add column "reserved_at" timestamptz null, add column "shipment" jsonb null`);
  }
}

import { Migration } from '@bop/shared';

/**
 * inventory: the stock held for online sales orders (sales' `:reserve`, `:ship`, `:cancel` call
 * inventory's internal commands; one row per order, its stock lines per item in base units).
 */
export class Migration20261123170000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "inventory"."order_reservations" (
      "order_id" varchar(40) primary key,
      "location_id" varchar(40) not null,
      "status" varchar(20) not null check ("status" in ('reserved','shipped','released')),
      "lines" jsonb not null,
      "version" integer not null default 1,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null
    )`);
  }
}

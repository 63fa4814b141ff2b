import { Migration } from '@bop/shared';

/** sales: online sales orders (spec: Online sales order), unique on (source, external_id) */
export class Migration20261122130000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "sales"."orders" (
      "id" varchar(40) primary key,
      "source" varchar(100) not null,
      "external_id" varchar(200) not null,
      "location_id" varchar(40) not null,
      "customer" jsonb null,
      "placed_at" timestamptz null,
      "lines" jsonb not null,
      "shipping" jsonb null,
      "payment_status" varchar(40) null,
      "status" varchar(10) not null check ("status" in ('open','reserved','shipped','cancelled')),
      "currency" char(3) not null,
      "subtotal" numeric(18,6) not null,
      "tax_total" numeric(18,6) not null,
      "shipping_total" numeric(18,6) not null,
      "total" numeric(18,6) not null,
      "cancelled_at" timestamptz null,
      "cancel_reason" varchar(500) null,
      "content_hash" char(64) not null,
      "core_hash" char(64) not null,
      "version" integer not null default 1,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null,
      constraint "orders_source_external_id_uq" unique ("source", "external_id"),
      constraint "orders_cancelled_at_ck" check (("status" = 'cancelled') = ("cancelled_at" is not null))
    )`);
    this.addSql(`create index "orders_location_status_idx" on "sales"."orders" ("location_id", "status")`);
    this.addSql(`create index "orders_external_id_idx" on "sales"."orders" ("external_id")`);
    this.addSql(`create index "orders_updated_at_idx" on "sales"."orders" ("updated_at")`);
  }
}

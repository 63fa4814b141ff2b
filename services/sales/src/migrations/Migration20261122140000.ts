import { Migration } from '@bop/shared';

/** sales: customers (externalId unique company-wide when set, email lower-cased) and the orders' link to them */
export class Migration20261122140000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "sales"."customers" (
      "id" varchar(40) primary key,
      "external_id" varchar(200) null,
      "name" varchar(200) not null,
      "email" varchar(254) null,
      "phone" varchar(30) null,
      "billing_address" jsonb null,
      "shipping_address" jsonb null,
      "tax_id" varchar(50) null,
      "notes" varchar(2000) null,
      "status" varchar(10) not null check ("status" in ('active','archived')),
      "archived_at" timestamptz null,
      "version" integer not null default 1,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null,
      constraint "customers_external_id_uq" unique ("external_id"),
      constraint "customers_email_lower_ck" check ("email" = lower("email")),
      constraint "customers_archived_at_ck" check (("status" = 'archived') = ("archived_at" is not null))
    )`);
    this.addSql(`create index "customers_email_idx" on "sales"."customers" ("email") where "email" is not null`);
    this.addSql(`create index "customers_updated_at_idx" on "sales"."customers" ("updated_at")`);
    this.addSql(`alter table "sales"."orders" add column "customer_id" varchar(40) null references "sales"."customers" ("id")`);
    this.addSql(`create index "orders_customer_id_idx" on "sales"."orders" ("customer_id") where "customer_id" is not null`);
    // a new customer links the stored orders that name its externalId and no customer yet
    this.addSql(`create index "orders_customer_external_id_idx" on "sales"."orders" (("customer"->>'externalId')) where "customer_id" is null`);
  }
}

import { Migration, orgReplicaTablesSql } from '@bop/shared';

/**
 * purchasing: the organization replica, suppliers and their catalogs, purchase orders (lines and
 * receipts kept with the order: they are read and changed with it, under its lock) and supplier
 * invoices with their match results. Packs numeric(16,3), prices numeric(16,4), amounts numeric(15,2).
 */
export class Migration20261124110000 extends Migration {
  override async up(): Promise<void> {
    for (const sql of orgReplicaTablesSql('purchasing')) this.addSql(sql);
    this.addSql(`create table "purchasing"."suppliers" (
      "id" varchar(40) primary key,
      "external_id" varchar(200) null,
      "name" varchar(300) not null,
      "account_number" varchar(100) null,
      "email" varchar(320) null,
      "phone" varchar(50) null,
      "location_ids" jsonb not null default '[]',
      "default_lead_time_days" integer null check ("default_lead_time_days" between 0 and 365),
      "note" varchar(2000) null,
      "status" varchar(20) not null default 'active' check ("status" in ('active','archived')),
      "archived_at" timestamptz null,
      "version" integer not null default 1,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null,
      "actor" jsonb not null
    )`);
    this.addSql(`create unique index "suppliers_external_id_uq" on "purchasing"."suppliers" ("external_id") where "external_id" is not null`);
    this.addSql(`create unique index "suppliers_active_name_uq" on "purchasing"."suppliers" (lower("name")) where "status" = 'active'`);
    this.addSql(`create index "suppliers_updated_at_idx" on "purchasing"."suppliers" ("updated_at")`);
    this.addSql(`create table "purchasing"."catalogs" (
      "supplier_id" varchar(40) primary key references "purchasing"."suppliers" ("id"),
      "lines" jsonb not null default '[]',
      "version" integer not null default 1,
      "updated_at" timestamptz not null
    )`);
    this.addSql(`create sequence "purchasing"."purchase_order_number_seq"`);
    this.addSql(`create table "purchasing"."purchase_orders" (
      "id" varchar(40) primary key,
      "number" varchar(40) not null unique,
      "supplier_id" varchar(40) not null references "purchasing"."suppliers" ("id"),
      "location_id" varchar(40) not null,
      "status" varchar(30) not null check ("status" in ('draft','approved','sent','partially_received','received','cancelled')),
      "expected_delivery_date" date null,
      "note" varchar(2000) null,
      "lines" jsonb not null,
      "total" numeric(15,2) not null,
      "receipts" jsonb not null default '[]',
      "created_by" jsonb not null,
      "approved_at" timestamptz null,
      "approved_by" jsonb null,
      "approval_note" varchar(2000) null,
      "sent_at" timestamptz null,
      "received_at" timestamptz null,
      "cancelled_at" timestamptz null,
      "cancel_reason" varchar(2000) null,
      "version" integer not null default 1,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null
    )`);
    this.addSql(`create index "purchase_orders_location_status_idx" on "purchasing"."purchase_orders" ("location_id", "status")`);
    this.addSql(`create index "purchase_orders_supplier_idx" on "purchasing"."purchase_orders" ("supplier_id")`);
    this.addSql(`create index "purchase_orders_updated_at_idx" on "purchasing"."purchase_orders" ("updated_at")`);
    this.addSql(`create table "purchasing"."supplier_invoices" (
      "id" varchar(40) primary key,
      "supplier_id" varchar(40) not null references "purchasing"."suppliers" ("id"),
      "invoice_number" varchar(100) not null,
      "invoice_date" date not null,
      "due_date" date null,
      "purchase_order_id" varchar(40) null references "purchasing"."purchase_orders" ("id"),
      "location_id" varchar(40) null,
      "status" varchar(20) not null check ("status" in ('matched','mismatched','approved','disputed')),
      "lines" jsonb not null,
      "subtotal" numeric(15,2) not null,
      "tax_total" numeric(15,2) not null,
      "total" numeric(15,2) not null,
      "differences" jsonb not null,
      "tolerances" jsonb not null,
      "note" varchar(2000) null,
      "approved_at" timestamptz null,
      "approved_by" jsonb null,
      "approval_note" varchar(2000) null,
      "accepted_differences" jsonb not null default '[]',
      "disputed_at" timestamptz null,
      "dispute_reason" varchar(2000) null,
      "version" integer not null default 1,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null,
      "actor" jsonb not null
    )`);
    this.addSql(`create unique index "supplier_invoices_number_uq" on "purchasing"."supplier_invoices" ("supplier_id", lower("invoice_number"))`);
    this.addSql(`create index "supplier_invoices_order_idx" on "purchasing"."supplier_invoices" ("purchase_order_id")`);
    this.addSql(`create index "supplier_invoices_updated_at_idx" on "purchasing"."supplier_invoices" ("updated_at")`);
  }
}

import { Migration } from '@bop/shared';

/** sales: customer invoices, their payments and the gapless invoice-number counter (supplement: /customer-invoices) */
export class Migration20261122170000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "sales"."invoices" (
      "id" varchar(40) primary key,
      "number" varchar(20) null,
      "status" varchar(20) not null check ("status" in ('draft','issued','partially_paid','paid','void')),
      "customer_id" varchar(40) not null references "sales"."customers" ("id"),
      "sales_order_id" varchar(40) null references "sales"."orders" ("id"),
      "sales_order_core_hash" char(64) null,
      "currency" char(3) not null,
      "lines" jsonb not null,
      "subtotal" numeric(18,6) not null,
      "tax_total" numeric(18,6) not null,
      "total" numeric(18,6) not null,
      "amount_paid" numeric(18,6) not null default 0,
      "due_date" date null,
      "notes" varchar(2000) null,
      "reference" varchar(200) null,
      "bill_to" jsonb null,
      "issued_at" timestamptz null,
      "sent_to" varchar(254) null,
      "sent_at" timestamptz null,
      "paid_at" timestamptz null,
      "voided_at" timestamptz null,
      "void_reason" varchar(500) null,
      "version" integer not null default 1,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null,
      constraint "invoices_number_uq" unique ("number"),
      constraint "invoices_number_ck" check (("number" is null) = ("issued_at" is null)),
      constraint "invoices_issued_ck" check (("status" = 'draft') = ("issued_at" is null) or "status" = 'void'),
      constraint "invoices_amount_paid_ck" check ("amount_paid" >= 0 and "amount_paid" <= "total"),
      constraint "invoices_paid_ck" check (("status" = 'paid') = ("paid_at" is not null)),
      constraint "invoices_void_ck" check (("status" = 'void') = ("voided_at" is not null))
    )`);
    // supplement: an order is invoiced once; a voided invoice frees it for a new one
    this.addSql(`create unique index "invoices_sales_order_uq" on "sales"."invoices" ("sales_order_id") where "sales_order_id" is not null and "status" <> 'void'`);
    this.addSql(`create index "invoices_customer_idx" on "sales"."invoices" ("customer_id")`);
    this.addSql(`create index "invoices_status_due_idx" on "sales"."invoices" ("status", "due_date")`);
    this.addSql(`create table "sales"."invoice_payments" (
      "id" varchar(40) primary key,
      "invoice_id" varchar(40) not null references "sales"."invoices" ("id"),
      "amount" numeric(18,6) not null check ("amount" > 0),
      "method" varchar(20) not null check ("method" in ('cash','card','bank_transfer','other')),
      "paid_at" timestamptz not null,
      "reference" varchar(200) null,
      "recorded_at" timestamptz not null
    )`);
    this.addSql(`create index "invoice_payments_invoice_idx" on "sales"."invoice_payments" ("invoice_id", "id")`);
    // one row per numbering series, locked by each :issue (update … returning) until its transaction ends: gapless
    this.addSql(`create table "sales"."invoice_numbers" (
      "series" varchar(20) primary key,
      "last_number" integer not null check ("last_number" >= 0)
    )`);
    this.addSql(`insert into "sales"."invoice_numbers" ("series", "last_number") values ('INV', 0)`);
  }
}

import { Migration } from '@bop/shared';

/**
 * sales: the review queue also holds ingested summaries of closed business days (spec: ingestion
 * rule 7): a record kind, the id of the record an item applies to (a transaction or a summary),
 * every affected business day, and one pending item per (source, record kind, externalId).
 */
export class Migration20261122150000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "sales"."review_items"
      add column "record_kind" varchar(12) not null default 'transaction' check ("record_kind" in ('transaction','summary')),
      add column "business_days" jsonb not null default '[]'`);
    this.addSql(`alter table "sales"."review_items" rename column "transaction_id" to "record_id"`);
    this.addSql(`update "sales"."review_items" set "business_days" = (
      select coalesce(jsonb_agg(distinct to_char(d, 'YYYY-MM-DD')), '[]'::jsonb) from unnest(array["business_day", "previous_business_day"]) as d where d is not null
    )`);
    // a source may send transactions at one location and summaries at another under the same externalId
    this.addSql(`drop index "sales"."review_items_pending_uq"`);
    this.addSql(`create unique index "review_items_pending_uq" on "sales"."review_items" ("source", "record_kind", "external_id") where "status" = 'pending'`);
  }
}

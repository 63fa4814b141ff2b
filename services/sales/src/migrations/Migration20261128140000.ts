import { Migration } from '@bop/shared';

/**
 * sales: `GET /sales/transactions?locationId=…` pages a location's transactions in id order; with only
 * (location_id, business_day) the plan either walks the primary key past other locations' rows or
 * sorts every transaction of the location, both growing with the history. (location_id, id) reads a page.
 */
export class Migration20261128140000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create index "transactions_location_id_idx" on "sales"."transactions" ("location_id", "id")`);
  }
}

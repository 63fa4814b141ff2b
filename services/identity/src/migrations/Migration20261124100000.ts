import { Migration } from '@bop/shared';

/** identity: supplier invoice matching tolerances in the company settings (null = not applied, so exact matching by default). */
export class Migration20261124100000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "identity"."company_settings"
        add column "invoice_match_quantity_absolute" numeric null check ("invoice_match_quantity_absolute" >= 0),
        add column "invoice_match_quantity_percent" numeric null check ("invoice_match_quantity_percent" between 0 and 100),
        add column "invoice_match_price_absolute" numeric null check ("invoice_match_price_absolute" >= 0),
        add column "invoice_match_price_percent" numeric null check ("invoice_match_price_percent" between 0 and 100)`,
    );
  }
}

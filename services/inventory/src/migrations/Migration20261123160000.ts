import { Migration } from '@bop/shared';

/** inventory, transfers area: its own constraints and indexes beyond the core schema (Migration20261123110000) */
export class Migration20261123160000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "inventory"."transfers" add column "receive_note" varchar(2000) null`);
    this.addSql(`alter table "inventory"."transfers" add constraint "transfers_locations_ck" check ("from_location_id" <> "to_location_id")`);
    this.addSql(`alter table "inventory"."transfers" add constraint "transfers_received_ck" check (("status" = 'in_transit') = ("received_at" is null))`);
  }
}

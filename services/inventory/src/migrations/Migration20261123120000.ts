import { Migration } from '@bop/shared';

/** inventory, items area: its own constraints and indexes beyond the core schema (Migration20261123110000) */
export class Migration20261123120000 extends Migration {
  override async up(): Promise<void> {
    // nothing yet
  }
}

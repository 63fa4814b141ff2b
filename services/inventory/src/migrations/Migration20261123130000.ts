import { Migration } from '@bop/shared';

/** inventory, stock area: its own constraints and indexes beyond the core schema (Migration20261123110000) */
export class Migration20261123130000 extends Migration {
  override async up(): Promise<void> {
    // nothing yet
  }
}

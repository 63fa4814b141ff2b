import { Migration } from '@bop/shared';

/** sales: summaries tables */
export class Migration20261122110000 extends Migration {
  override async up(): Promise<void> {
    this.addSql('select 1');
  }
}

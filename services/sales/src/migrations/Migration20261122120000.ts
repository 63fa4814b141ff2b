import { Migration } from '@bop/shared';

/** sales: review tables */
export class Migration20261122120000 extends Migration {
  override async up(): Promise<void> {
    this.addSql('select 1');
  }
}

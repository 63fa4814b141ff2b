import { Migration } from '@bop/shared';

/** sales: orders tables */
export class Migration20261122130000 extends Migration {
  override async up(): Promise<void> {
    this.addSql('select 1');
  }
}

import { Migration } from '@bop/shared';

/** sales: items tables */
export class Migration20261122100000 extends Migration {
  override async up(): Promise<void> {
    this.addSql('select 1');
  }
}

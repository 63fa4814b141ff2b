import { Migration, employeeReplicaTablesSql, orgReplicaTablesSql } from '@bop/shared';

/** insights: the organization replica (reach, org units) and the employee replica with pay rates (the rate in force prices labor). */
export class Migration20261128130000 extends Migration {
  override async up(): Promise<void> {
    for (const sql of orgReplicaTablesSql('insights')) this.addSql(sql);
    for (const sql of employeeReplicaTablesSql('insights')) this.addSql(sql);
  }
}

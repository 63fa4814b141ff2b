import { Migration, employeeReplicaTablesSql, orgReplicaTablesSql } from '@bop/shared';

/** operations: the organization and employee replicas (locations for reach and validation, employees as assignees). */
export class Migration20261127120000 extends Migration {
  override async up(): Promise<void> {
    for (const sql of orgReplicaTablesSql('operations')) this.addSql(sql);
    for (const sql of employeeReplicaTablesSql('operations')) this.addSql(sql);
  }
}

import { Migration, employeeReplicaTablesSql, orgReplicaTablesSql } from '@bop/shared';

/** equipment: the organization and employee replicas (locations for reach and validation, employees as assignees). */
export class Migration20261127130000 extends Migration {
  override async up(): Promise<void> {
    for (const sql of orgReplicaTablesSql('equipment')) this.addSql(sql);
    for (const sql of employeeReplicaTablesSql('equipment')) this.addSql(sql);
  }
}

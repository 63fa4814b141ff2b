import { Migration, employeeReplicaTablesSql, orgReplicaTablesSql } from '@bop/shared';

/** communication: the organization, employee and shift replicas (locations for reach and validation, employees and shifts for audiences). */
export class Migration20261128130000 extends Migration {
  override async up(): Promise<void> {
    for (const sql of orgReplicaTablesSql('communication')) this.addSql(sql);
    for (const sql of employeeReplicaTablesSql('communication')) this.addSql(sql);
    this.addSql(`create table "communication"."shifts" (
      "id" varchar(40) primary key,
      "location_id" varchar(40) not null,
      "employee_id" varchar(40) null,
      "position" text not null,
      "start_at" timestamptz not null,
      "end_at" timestamptz not null,
      "local_date" date not null,
      "status" varchar(10) not null,
      "version" integer not null,
      "updated_at" timestamptz not null
    )`);
    // an on-shift audience: the published shifts at a location starting on a day
    this.addSql(`create index "shifts_location_day_idx" on "communication"."shifts" ("location_id", "local_date") where "status" = 'published' and "employee_id" is not null`);
  }
}

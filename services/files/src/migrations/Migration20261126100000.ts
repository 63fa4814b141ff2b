import { Migration, orgReplicaTablesSql } from '@bop/shared';

/** files: the organization replica (reach by location and org unit) and the attachments' records (their bytes are in the storage). */
export class Migration20261126100000 extends Migration {
  override async up(): Promise<void> {
    for (const sql of orgReplicaTablesSql('files')) this.addSql(sql);
    this.addSql(`create table "files"."attachments" (
      "id" varchar(40) primary key,
      "file_name" varchar(255) not null,
      "content_type" varchar(255) not null,
      "size" bigint not null check ("size" >= 0),
      "sha256" char(64) not null,
      "storage_key" varchar(512) not null,
      "description" varchar(1000) null,
      "employee_id" varchar(40) null,
      "location_id" varchar(40) null,
      "uploaded_by_type" varchar(20) not null check ("uploaded_by_type" in ('user','integration')),
      "uploaded_by_id" varchar(64) not null,
      "status" varchar(10) not null default 'active' check ("status" in ('active','deleted')),
      "version" integer not null default 1,
      "created_at" timestamptz not null,
      "deleted_at" timestamptz null,
      "content_removed_at" timestamptz null
    )`);
    this.addSql(`create index "attachments_employee_idx" on "files"."attachments" ("employee_id", "id") where "status" = 'active'`);
    this.addSql(`create index "attachments_location_idx" on "files"."attachments" ("location_id", "id") where "status" = 'active'`);
    this.addSql(`create index "attachments_uploader_idx" on "files"."attachments" ("uploaded_by_id", "id") where "status" = 'active'`);
    // deleted records whose bytes are still to be removed from the storage (a failed removal is retried)
    this.addSql(`create index "attachments_removal_idx" on "files"."attachments" ("deleted_at") where "status" = 'deleted' and "content_removed_at" is null`);
  }
}

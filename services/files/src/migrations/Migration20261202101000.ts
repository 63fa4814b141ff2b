import { Migration } from '@bop/shared';

/**
 * files: audiences another service lets read attachments (communication: an announcement's audience, a
 * channel's members), their employees as of a version, and the attachments each may read.
 */
export class Migration20261202101000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "files"."attachment_audiences" (
      "id" varchar(40) primary key,
      "version" integer not null,
      "updated_at" timestamptz not null
    )`);
    this.addSql(`create table "files"."attachment_audience_members" (
      "audience_id" varchar(40) not null references "files"."attachment_audiences" ("id"),
      "employee_id" varchar(40) not null,
      primary key ("audience_id", "employee_id")
    )`);
    // may this employee read this attachment: the audiences they are in
    this.addSql(`create index "attachment_audience_members_employee_idx" on "files"."attachment_audience_members" ("employee_id")`);
    this.addSql(`create table "files"."attachment_audience_files" (
      "audience_id" varchar(40) not null references "files"."attachment_audiences" ("id"),
      "attachment_id" varchar(40) not null,
      primary key ("audience_id", "attachment_id")
    )`);
    this.addSql(`create index "attachment_audience_files_attachment_idx" on "files"."attachment_audience_files" ("attachment_id")`);
  }
}

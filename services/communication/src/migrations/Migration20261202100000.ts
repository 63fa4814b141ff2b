import { Migration } from '@bop/shared';

/** communication: channels (location team, department, group), their members and their messages. */
export class Migration20261202100000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "communication"."channels" (
      "id" varchar(40) primary key,
      "kind" varchar(20) not null check ("kind" in ('location_team','department','group')),
      "name" text not null,
      "location_id" varchar(40) null,
      "department_id" varchar(64) null,
      "member_count" integer not null default 0,
      "members_version" integer not null default 1,
      "has_attachments" boolean not null default false,
      "last_message_at" timestamptz null,
      "created_by" jsonb not null,
      "created_at" timestamptz not null,
      check ("kind" <> 'location_team' or "location_id" is not null),
      check (("kind" = 'department') = ("department_id" is not null))
    )`);
    // one location team channel per location, one department channel per department (and location)
    this.addSql(`create unique index "channels_location_team_uq" on "communication"."channels" ("location_id") where "kind" = 'location_team'`);
    this.addSql(`create unique index "channels_department_uq" on "communication"."channels" ("department_id", coalesce("location_id", '')) where "kind" = 'department'`);

    this.addSql(`create table "communication"."channel_members" (
      "id" varchar(40) primary key,
      "channel_id" varchar(40) not null references "communication"."channels" ("id"),
      "employee_id" varchar(40) not null,
      "joined_at" timestamptz not null
    )`);
    this.addSql(`create unique index "channel_members_uq" on "communication"."channel_members" ("channel_id", "employee_id")`);
    // a person's channels; an employee's event finds the channels they are in
    this.addSql(`create index "channel_members_employee_idx" on "communication"."channel_members" ("employee_id")`);

    this.addSql(`create table "communication"."messages" (
      "id" varchar(40) primary key,
      "channel_id" varchar(40) not null references "communication"."channels" ("id"),
      "text" text not null,
      "attachment_ids" text[] not null,
      "author" jsonb not null,
      "author_employee_id" varchar(40) null,
      "author_name" text null,
      "created_at" timestamptz not null
    )`);
    // a channel's messages, newest first
    this.addSql(`create index "messages_channel_idx" on "communication"."messages" ("channel_id", "id")`);
  }
}
